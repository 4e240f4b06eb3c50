*** Settings ***
Documentation    Crypto / Crypto Performance Comparison, as the SDK 12 guides' "Crypto Accelerator Performance" and
...              "CPU Usage %" tables: one test per number the guide publishes for the board.
...              `time -v openssl speed -elapsed -evp <alg>` per algorithm on the accelerator (AF_ALG engine), the
...              ARM Cryptographic Extension and the plain ARM CPU (variables/workloads/crypto.yaml: crypto_accel).

Library          DataDriver    file=${CRITERIA_DIR}/crypto_accel.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    crypto_accel
Test Template    Published Number Should Hold

Test Tags        crypto    crypto_accel


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
