*** Settings ***
Documentation    IPC / RP Message latency, as the AM64x RT guide's "RP Message latency Performance" table
...              (rpmsg_char_benchmark round trips to the R5F and M4F cores): one test per number the guide
...              publishes for the board. perfgate has no workload for it yet (the tool's output is not in the
...              guide): every such test fails as not measured, with that reason.

Library          DataDriver    file=${CRITERIA_DIR}/rpmsg_latency.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    rpmsg_latency
Test Template    Published Number Should Hold

Test Tags        ipc    rpmsg_latency


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
