*** Settings ***
Documentation    System Benchmarks / MultiBench, as the guide's "MultiBench" section: one test per number the
...              guide publishes for the board. Runs EEMBC MultiBench (command from the board or lab data) and
...              keeps its output.

Library          DataDriver    file=${CRITERIA_DIR}/multibench.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    multibench
Test Template    Published Number Should Hold

Test Tags        system    multibench


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
