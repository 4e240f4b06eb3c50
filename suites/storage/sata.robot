*** Settings ***
Documentation    SATA, as the guides' "SATA Driver" section: one test per number the guide publishes for the board.
...              fio writes then reads per buffer size on the mount point the lab names (storage.sata).

Library          DataDriver    file=${CRITERIA_DIR}/sata.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    sata
Test Template    Published Number Should Hold

Test Tags        storage    sata


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
