language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     IPSec, as the guides' "IPSec" sections: one test per number the guide publishes for the board. UDP
...               throughput, packets and CPU load through an ESP tunnel (ip xfrm) per cipher, with iperf3.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    ipsec
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         network    ipsec


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
