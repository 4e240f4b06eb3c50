*** Settings ***
Documentation    Criteria that hold on every board but the one called broken.


*** Test Cases ***
Copy Bandwidth Holds
    [Documentation]    Fails on the board called broken.
    Should Not Be Equal    ${BOARD}    broken

Latency Holds
    [Documentation]    Fails on the board called broken.
    Should Not Be Equal    ${BOARD}    broken

Better Than Published
    [Documentation]    A warn verdict: passes, with a warning in the log.
    Log    better than published beyond tolerance    WARN
