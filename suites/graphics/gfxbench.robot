language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     Graphics / GFXBench, as the guide's "GFXBench Performance" table.
...               One test per number the guide publishes for the board.
...               Runs each GFXBench test and reads its Score and Fps; needs the board's GPU and a display.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    gfxbench
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         graphics    gfxbench


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
