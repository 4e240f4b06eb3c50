language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     ALSA SoC Audio Driver / Audio Capture and Audio Playback, as the guide's tables.
...               One test per number the guide publishes for the board.
...               Measures throughput (bits/sec) and CPU load per sampling rate:
...               RW_INTERLEAVED, 2 channels, S16_LE, period size 64.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    alsa
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         audio    alsa


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
