language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     Graphics / GLBenchmark 2.5, as the guide's Performance, Vertex and Pixel Throughput tables.
...               One test per number the guide publishes for the board.
...               Runs each GLBenchmark test by its test number and reads Fps, triangles/sec and texels/sec.

Library           DataDriver    glbenchmark.csv    reader_class=perfgate.robot.criteria_reader.CriteriaReader
...                   file_search_strategy=NONE    dialect=excel    encoding=utf-8
Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    glbenchmark
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         graphics    glbenchmark


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
