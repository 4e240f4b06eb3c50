language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     IPC / RP Message latency, as the AM64x RT guide's "RP Message latency Performance" table
...               (rpmsg_char_benchmark round trips to the R5F and M4F cores, TI's command per remote core and
...               message size): one test per number the guide publishes for the board. The board data maps the
...               guide's core names to rproc ids (workloads.rpmsg_latency.cores, perfgate/workloads/rpmsg_latency.py).

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    rpmsg_latency
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         ipc    rpmsg_latency


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
