*** Settings ***
Documentation     A user suite on the board farm (resources/farm.resource): take a simulated board from a real
...               labgrid coordinator, power-cycle it through labgrid's power driver and watch it boot on the
...               console the exporter's ser2net serves (Robot's Telnet library: ser2net's accepter is
...               telnet with RFC 2217), then give it back. tests/farm/test_farm.py starts the farm
...               and passes COORDINATOR.

Library           Telnet    timeout=60s
Resource          ../../resources/farm.resource

Suite Teardown    Give The Boards Back


*** Variables ***
${COORDINATOR}    127.0.0.1:20408
${BOARD}          am62xx_sk


*** Test Cases ***
A Board Is Taken From The Farm By Its Tag
    [Documentation]    The place comes from the coordinator by tag; its console is the exporter's ser2net.
    ${place}    Take A Board From The Farm    ${BOARD}    rack=sim    coordinator=${COORDINATOR}    wait=60
    Should Be Equal    ${LABGRID_PLACE}    ${place}
    ${tags}    Get Place Tags
    Should Be Equal    ${tags}[board]    ${BOARD}
    ${console}    Get Place Console
    Should Start With    ${console}    rfc2217://127.0.0.1:

The Board Powers Off And On Through Labgrid
    [Documentation]    labgrid's NetworkPowerDriver switches the place's PDU outlet, and the board obeys:
    ...    off, then on, and U-Boot's autoboot countdown comes on the console.
    Power Off Place
    Place Power Should Be    off
    Open The Place Console
    Power On Place
    ${boot}    Read Until    Hit any key to stop autoboot
    Should Contain    ${boot}    U-Boot
    Should Contain    ${boot}    Hit any key to stop autoboot
    Place Power Should Be    on
    [Teardown]    Close All Connections

The Place Is Given Back
    [Documentation]    Release Place releases the place and cancels the reservation; nothing is held after it.
    Release Place
    Run Keyword And Expect Error    no labgrid place*    Get Place Console


*** Keywords ***
Open The Place Console
    [Documentation]    Open the place's console (the exporter's ser2net) with the Telnet library.
    ${host}    ${port}    Get Place Console Address
    Open Connection    ${host}    port=${port}

Place Power Should Be
    [Documentation]    The power resource reports ${expected} (on or off).
    [Arguments]    ${expected}
    ${state}    Get Place Power
    Should Be Equal    ${state}    ${expected}
