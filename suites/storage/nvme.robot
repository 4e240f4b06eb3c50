*** Settings ***
Documentation    PCIe NVMe SSD, as the guides' "PCIe-NVMe-SSD" section: one test per number the guide publishes for
...              the board. fio writes then reads a 10G test file per buffer size on the mount point the lab names
...              (storage.nvme); a medium the lab does not name is skipped.

Library          DataDriver    file=${CRITERIA_DIR}/nvme.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    nvme
Test Template    Published Number Should Hold

Test Tags        storage    nvme


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
