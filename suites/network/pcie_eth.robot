*** Settings ***
Documentation    PCIe-ETH, as the guide's "PCIe-ETH" section: one test per number the guide publishes for the board.
...              TCP bandwidth per TCP window size with iperf through the PCIe Ethernet card.

Library          DataDriver    file=${CRITERIA_DIR}/pcie_eth.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    pcie_eth
Test Template    Published Number Should Hold

Test Tags        network    pcie_eth


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
