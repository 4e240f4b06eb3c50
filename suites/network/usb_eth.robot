*** Settings ***
Documentation    USB CDC/RNDIS, as the guide's "USB CDC/RNDIS Slave Driver" section: one test per number the guide
...              publishes for the board. TCP bandwidth per TCP window size with iperf over the USB gadget link.

Library          DataDriver    file=${CRITERIA_DIR}/usb_eth.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    usb_eth
Test Template    Published Number Should Hold

Test Tags        network    usb_eth


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
