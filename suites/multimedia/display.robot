language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     Display Driver, as the guide's "Display performance" tables (LCD, HDMI).
...               One test per number the guide publishes for the board.
...               Sets each mode with modetest's sync plus flip option (-v -s) and reads the refresh rate.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    display
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         multimedia    display


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
