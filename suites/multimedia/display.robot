language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     Display Driver, as the guide's "Display performance" tables (LCD, HDMI).
...               One test per number the guide publishes for the board.
...               Sets each mode with modetest's sync plus flip option (-v -s) and reads the refresh rate.

Library           DataDriver    display.csv    reader_class=perfgate.robot.criteria_reader.CriteriaReader
...                   file_search_strategy=NONE    dialect=excel    encoding=utf-8
Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    display
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         multimedia    display


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
