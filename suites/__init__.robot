*** Settings ***
Documentation     perfgate: every number a TI performance guide publishes for BOARD is one test.
...
...               Resolves BOARD (any of the guide's names) and LAB (default: the built-in simulated board,
...               which the console and the report say), opens the run directory, and brings the board up
...               for every suite: power-cycle, U-Boot, boot, login on the console, address, SSH.

Resource          ../resources/criteria.resource
Resource          ../resources/board.resource

Suite Setup       Start The Gate
Suite Teardown    Stop The Gate


*** Variables ***
${BOARD}    ${EMPTY}
${LAB}      ${EMPTY}


*** Keywords ***
Start The Gate
    [Documentation]    Board and lab first (an unknown board stops the run at once), then the run directory,
    ...    then the lab's board and console, and the board brought to its shell.
    ${lab_data}    Find The Lab    ${BOARD}    ${LAB}
    Open Run    ${BOARD}    ${LAB_NAME}    ${VIRTUAL}
    Use Lab    ${lab_data}
    Start The Lab
    Bring Up The Board

Stop The Gate
    [Documentation]    Stop the board's lab (no process is left behind) and finish the run's reports.
    Run Keyword And Ignore Error    Shut Down The Lab
    Close Run
