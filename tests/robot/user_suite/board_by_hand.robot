*** Settings ***
Documentation    SSHLibrary keywords on the gate's connection, and the board console by the documented keywords.

Library          SSHLibrary
Resource         ${EXECDIR}/resources/board.resource


*** Test Cases ***
The Gate's SSH Session Is The SSHLibrary Connection Board
    [Documentation]    Switch to the gate's connection and run a command with SSHLibrary's own keyword.
    Switch Connection    board
    ${connection}    Get Connection
    Should Be Equal    ${connection.alias}    board
    ${out}    ${rc}    Execute Command    uname -a    return_rc=True
    Should Be Equal As Integers    ${rc}    0
    Should Contain    ${out}    Linux

A User Types On The Board Console
    [Documentation]    Type a command on the serial console and read its answer.
    Write To Board Console    echo console-check
    ${text}    Read Board Console Until    (?m)^console-check$    timeout=20    regexp=True
    Should Contain    ${text}    echo console-check
