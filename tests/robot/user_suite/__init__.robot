*** Settings ***
Documentation     A user's own suite tree on the gate's board: the gate's board keywords bring the board up,
...               then the user's suites use SSHLibrary on the connection `board` and the console keywords.

Resource          ${EXECDIR}/resources/board.resource

Suite Setup       Bring Up The Gate Board
Suite Teardown    Shut Down The Lab


*** Variables ***
${BOARD}    am62xx_sk
${LAB}      sim


*** Keywords ***
Bring Up The Gate Board
    [Documentation]    Find the lab, start it, bring the board to its shell.
    Find The Lab    ${BOARD}    ${LAB}
    Start The Lab
    Bring Up The Board
