*** Settings ***
Documentation    Sensor Capture, as the guide's "Sensor Capture" table.
...              One test per number the guide publishes for the board.
...              Streams MMAP buffers with v4l2-ctl per resolution and format and reads the reported fps;
...              needs a camera.

Library          DataDriver    file=${CRITERIA_DIR}/capture.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    capture
Test Template    Published Number Should Hold

Test Tags        multimedia    capture


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
