language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     U-Boot UFS write and read throughput, measured at the U-Boot prompt with the board's
...               commands for this medium and computed as the guides do: KB/s = (size / 1024) / (ms / 1000).
...               One test per published number; a board or lab without this medium gets none or skips.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    uboot_ufs
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold


*** Test Cases ***
U-Boot UFS ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
