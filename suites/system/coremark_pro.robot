*** Settings ***
Documentation    System Benchmarks / CoreMarkPro, as the guide's "CoreMarkPro" section: one test per number the
...              guide publishes for the board. Runs CoreMark-PRO certify-all with one context for the one-core
...              table and two for the two-core table, and keeps its output.

Library          DataDriver    file=${CRITERIA_DIR}/coremark_pro.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    coremark_pro
Test Template    Published Number Should Hold

Test Tags        system    coremark_pro


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
