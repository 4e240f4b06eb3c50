language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     PCIe NVMe SSD, as the guides' "PCIe-NVMe-SSD" section: one test per number the guide publishes for
...               the board. fio writes then reads a 10G test file per buffer size on the mount point the lab names
...               (storage.nvme); a medium the lab does not name is skipped.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    nvme
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         storage    nvme


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
