language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     System Benchmarks / Dhrystone, as the guide's "Dhrystone" section: one test per number the
...               guide publishes for the board. Runs TI's runDhrystone (dhrystone 40000000 <MHz>) and keeps its
...               output.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    dhrystone
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         system    dhrystone


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
