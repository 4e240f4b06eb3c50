language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     Ethernet, as the guides' "Ethernet" / CPSW sections: one test per number the guide publishes for the
...               board. TCP bidirectional throughput and CPU load (netperf TCP_STREAM + TCP_MAERTS, with and without
...               interrupt pacing), UDP throughput at 0 % loss per frame size (RFC 2544 26.1 search over the offered
...               rate), UDP with possible loss; iperf3 where netperf is missing. The log names the tool of every
...               number.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    ethernet
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         network    ethernet


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
