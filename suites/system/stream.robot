*** Settings ***
Documentation    System Benchmarks / Stream, as the guide's "Stream" section: one test per number the guide
...              publishes for the board. Runs TI's stream_c and keeps its output.

Library          DataDriver    file=${CRITERIA_DIR}/stream.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    stream
Test Template    Published Number Should Hold

Test Tags        system    stream


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
