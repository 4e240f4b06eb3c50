language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     Graphics / GLBenchmark 2.5, as the guide's Performance, Vertex and Pixel Throughput tables.
...               One test per number the guide publishes for the board.
...               Runs each GLBenchmark test by its test number and reads Fps, triangles/sec and texels/sec.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    glbenchmark
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         graphics    glbenchmark


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
