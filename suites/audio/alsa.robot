*** Settings ***
Documentation    ALSA SoC Audio Driver / Audio Capture and Audio Playback, as the guide's tables.
...              One test per number the guide publishes for the board.
...              Measures throughput (bits/sec) and CPU load per sampling rate:
...              RW_INTERLEAVED, 2 channels, S16_LE, period size 64.

Library          DataDriver    file=${CRITERIA_DIR}/alsa.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    alsa
Test Template    Published Number Should Hold

Test Tags        audio    alsa


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
