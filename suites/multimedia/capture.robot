language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     Sensor Capture, as the guide's "Sensor Capture" table.
...               One test per number the guide publishes for the board.
...               Streams MMAP buffers with v4l2-ctl per resolution and format and reads the reported fps;
...               needs a camera.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    capture
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         multimedia    capture


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
