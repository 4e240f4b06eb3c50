language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     Crypto / Crypto Performance Comparison, as the SDK 12 guides' "Crypto Accelerator Performance" and
...               "CPU Usage %" tables: one test per number the guide publishes for the board.
...               `time -v openssl speed -elapsed -evp <alg>` per algorithm on the accelerator (AF_ALG engine), the
...               ARM Cryptographic Extension and the plain ARM CPU (variables/workloads/crypto.yaml: crypto_accel).

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    crypto_accel
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         crypto    crypto_accel


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
