language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     Graphics / GFXBench, as the guide's "GFXBench Performance" table.
...               One test per number the guide publishes for the board.
...               Runs each GFXBench test and reads its Score and Fps; needs the board's GPU and a display.

Library           DataDriver    gfxbench.csv    reader_class=perfgate.robot.criteria_reader.CriteriaReader
...                   file_search_strategy=NONE    dialect=excel    encoding=utf-8
Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    gfxbench
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         graphics    gfxbench


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
