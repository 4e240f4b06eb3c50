*** Settings ***
Documentation    NAND flash, as the guide's "NAND Driver" section: one test per number the guide publishes for the
...              board. fio writes then reads per buffer size on the UBIFS mount the lab names (storage.nand).

Library          DataDriver    file=${CRITERIA_DIR}/nand.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    nand
Test Template    Published Number Should Hold

Test Tags        storage    nand


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
