*** Settings ***
Documentation    System Benchmarks / LMBench, as the guide's "LMBench" section: one test per number the guide
...              publishes for the board. Runs the programs of TI's LMBench list that measure the board's
...              numbers (servers for lat_tcp and lat_connect started before and stopped after) and keeps every
...              raw output.

Library          DataDriver    file=${CRITERIA_DIR}/lmbench.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    lmbench
Test Template    Published Number Should Hold

Test Tags        system    lmbench


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
