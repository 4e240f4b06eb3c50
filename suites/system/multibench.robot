language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     System Benchmarks / MultiBench, as the guide's "MultiBench" section: one test per number the
...               guide publishes for the board. Runs EEMBC MultiBench (command from the board or lab data) and
...               keeps its output.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    multibench
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         system    multibench


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
