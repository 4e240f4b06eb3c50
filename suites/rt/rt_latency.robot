language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     Real-time latency, as the guides' "Maximum Latency under different use cases", "OSADL Test" and
...               (SDK 11-12 RT guides) "Stress-ng and Cyclic Test" per CPU.
...               One test per number the guide publishes for the board.
...               Runs cyclictest on a shielded CPU under each use case's load, and the OSADL command;
...               keeps the histograms.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    rt_latency
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         rt    rt_latency


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
