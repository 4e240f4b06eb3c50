*** Settings ***
Documentation    System Benchmarks / NBench, as the guide's "NBench" section: one test per number the guide
...              publishes for the board. Runs nbench (BYTEmark) and keeps its output.

Library          DataDriver    file=${CRITERIA_DIR}/nbench.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    nbench
Test Template    Published Number Should Hold

Test Tags        system    nbench


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
