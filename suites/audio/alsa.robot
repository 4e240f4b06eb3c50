*** Settings ***
Documentation    ALSA SoC Audio Driver / Audio Capture and Audio Playback, as the guide's tables.
...              One test per number the guide publishes for the board.
...              Measures throughput (bits/sec) and CPU load per sampling rate: RW_INTERLEAVED, 2 channels, S16_LE, period 64.

Library          DataDriver    file=${CRITERIA_DIR}/alsa.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    alsa
Test Template    Criterion Should Hold

Test Tags        audio    alsa


*** Test Cases ***
Criterion ${id}    Default
