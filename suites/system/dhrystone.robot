*** Settings ***
Documentation    System Benchmarks / Dhrystone, as the guide's "Dhrystone" section: one test per number the
...              guide publishes for the board. Runs TI's runDhrystone (dhrystone 40000000 <MHz>) and keeps its
...              output.

Library          DataDriver    file=${CRITERIA_DIR}/dhrystone.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    dhrystone
Test Template    Criterion Should Hold

Test Tags        system    dhrystone


*** Test Cases ***
Criterion ${id}    Default
