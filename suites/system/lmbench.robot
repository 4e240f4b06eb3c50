language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     System Benchmarks / LMBench, as the guide's "LMBench" section: one test per number the guide
...               publishes for the board. Runs the programs of TI's LMBench list that measure the board's
...               numbers (servers for lat_tcp and lat_connect started before and stopped after) and keeps every
...               raw output.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    lmbench
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         system    lmbench


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
