language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     Multimedia (Decode), as the guide's GStreamer decode tables per codec and container.
...               One test per number the guide publishes for the board.
...               Plays the lab's streams with gst-launch-1.0 playbin to kmssink; fps = frames / execution time.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    decode
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         multimedia    decode


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
