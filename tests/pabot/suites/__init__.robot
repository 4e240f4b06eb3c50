*** Settings ***
Documentation    A stand-in for the gate's suites/ tree: its setup (the board bring-up) must run once per board.

Library          OperatingSystem

Suite Setup      Bring Up The Board


*** Variables ***
${BOARD}            ${EMPTY}
${SETUP_LOG}        ${EMPTY}
${SETUP_SECONDS}    0


*** Keywords ***
Bring Up The Board
    [Documentation]    Record which process brought which board up, then take a moment like a boot does.
    ${pid}=    Evaluate    os.getpid()    modules=os
    ${start}=    Evaluate    time.time()    modules=time
    Sleep    ${SETUP_SECONDS}
    ${end}=    Evaluate    time.time()    modules=time
    Append To File    ${SETUP_LOG}    ${BOARD} ${pid} ${start} ${end}\n
