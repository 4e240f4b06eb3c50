*** Settings ***
Documentation    Display Driver, as the guide's "Display performance" tables (LCD, HDMI).
...              One test per number the guide publishes for the board.
...              Sets each mode with modetest's sync plus flip option (-v -s) and reads the refresh rate.

Library          DataDriver    file=${CRITERIA_DIR}/display.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    display
Test Template    Published Number Should Hold

Test Tags        multimedia    display


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
