*** Settings ***
Documentation    Real-time latency, as the guides' "Maximum Latency under different use cases", "OSADL Test" and
...              (SDK 11-12 RT guides) "Stress-ng and Cyclic Test" per CPU.
...              One test per number the guide publishes for the board.
...              Runs cyclictest on a shielded CPU under each use case's load, and the OSADL command;
...              keeps the histograms.

Library          DataDriver    file=${CRITERIA_DIR}/rt_latency.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    rt_latency
Test Template    Published Number Should Hold

Test Tags        rt    rt_latency


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
