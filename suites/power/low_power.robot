*** Settings ***
Documentation    Low Power Performance, as the guide's "Deep sleep" and "MCU only" tables.
...              One test per number the guide publishes for the board.
...              Puts the board in each mode and reads every rail through the lab's power meter; skipped without one.

Library          DataDriver    file=${CRITERIA_DIR}/low_power.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    low_power
Test Template    Published Number Should Hold

Test Tags        power    low_power


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
