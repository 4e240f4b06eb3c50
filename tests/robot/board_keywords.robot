*** Settings ***
Documentation     Self-test of the board keywords (resources/board.resource) against the simulated board:
...               the steps a lab engineer takes, each one a keyword, on a real pseudo-terminal and SSH server.

Resource          ../../resources/board.resource

Suite Setup       Start The Simulated Board
Suite Teardown    Shut Down The Lab


*** Variables ***
${BOARD}    am62xx_sk


*** Test Cases ***
U-Boot Answers At Its Prompt
    [Documentation]    Power-cycle, stop autoboot, run `version` at the `=> ` prompt.
    Catch U-Boot
    ${output}    Run At The U-Boot Prompt    version
    Should Contain    ${output}    perfgate simulated
    Board State Should Be    uboot

Board Boots To A Shell With SSH
    [Documentation]    Boot from U-Boot, log in on the console, learn the address, run over SSH.
    Boot To Shell
    ${address}    Learn Board Address
    Should Be Equal    ${address}    127.0.0.1
    ${output}    Run On The Board    hostname
    Should Contain    ${output}    am62xx-evm

A Command Runs On The Serial Console
    [Documentation]    The console shell, as for a board without network.
    ${output}    Run On Board    echo console-ok    where=console
    Should Contain    ${output}    console-ok

Reboot Comes Back To The Shell
    [Documentation]    Reboot (a power-cycle in this lab) and reach the shell again.
    Reboot The Board
    Board State Should Be    shell
    ${output}    Run On The Board    echo back
    Should Contain    ${output}    back


*** Keywords ***
Start The Simulated Board
    [Documentation]    The built-in lab (no LAB given), its board started and its console open.
    Find The Lab    ${BOARD}    ${EMPTY}
    Start The Lab
