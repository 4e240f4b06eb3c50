language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     PCIe-ETH, as the guide's "PCIe-ETH" section: one test per number the guide publishes for the board.
...               TCP bandwidth per TCP window size with iperf through the PCIe Ethernet card.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    pcie_eth
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         network    pcie_eth


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
