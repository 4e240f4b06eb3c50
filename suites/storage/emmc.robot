*** Settings ***
Documentation    eMMC, as the guides' "EMMC Driver" section: one test per number the guide publishes for the board.
...              fio (libaio, iodepth 4, direct, time based) writes then reads a test file per buffer size on the
...              mount point the lab names (storage.emmc); a medium the lab does not name is skipped.

Library          DataDriver    file=${CRITERIA_DIR}/emmc.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    emmc
Test Template    Published Number Should Hold

Test Tags        storage    emmc


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
