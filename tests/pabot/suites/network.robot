*** Settings ***
Documentation    A criterion the board called noeth cannot run: skipped with its reason.


*** Test Cases ***
Throughput Holds
    [Documentation]    Skipped on the board called noeth, fails on broken.
    Skip If    '${BOARD}' == 'noeth'    no Ethernet on this board
    Should Not Be Equal    ${BOARD}    broken
