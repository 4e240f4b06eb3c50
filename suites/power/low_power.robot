language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     Low Power Performance, as the guide's "Deep sleep" and "MCU only" tables.
...               One test per number the guide publishes for the board.
...               Puts the board in each mode and reads every rail through the lab's power meter; skipped without one.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    low_power
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         power    low_power


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
