language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     Boot time, as the guides measure it: from `Starting kernel ...` on the console to the Linux
...               prompt, with host-side timestamps, averaged over BOOT_CYCLES boots (default 3; the guides used
...               20: set -v BOOT_CYCLES:20 to match them). Default rootfs: to the login prompt;
...               `init=/bin/sh`: to the shell prompt. One test per published number.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    boot_time
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold


*** Test Cases ***
Boot time ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
