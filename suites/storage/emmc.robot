language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     eMMC, as the guides' "EMMC Driver" section: one test per number the guide publishes for the board.
...               fio (libaio, iodepth 4, direct, time based) writes then reads a test file per buffer size on the
...               mount point the lab names (storage.emmc); a medium the lab does not name is skipped.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    emmc
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         storage    emmc


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
