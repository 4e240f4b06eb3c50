language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     Graphics / Glmark2, as the guide's "Glmark2" table.
...               One test per number the guide publishes for the board.
...               Runs glmark2 (DRM, Wayland, Wayland 1920x1080) and reads its Score;
...               needs the board's GPU and a display.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    glmark2
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         graphics    glmark2


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
