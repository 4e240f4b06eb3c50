language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     Crypto / OpenSSL, as the guides' "OpenSSL Performance" section: one test per number the guide
...               publishes for the board. `time -v openssl speed -elapsed -evp <alg>` per algorithm: throughput per
...               block size, CPU load (GNU time), and the older guide's user and system seconds.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    openssl
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         crypto    openssl


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
