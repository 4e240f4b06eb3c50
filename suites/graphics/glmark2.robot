*** Settings ***
Documentation    Graphics / Glmark2, as the guide's "Glmark2" table.
...              One test per number the guide publishes for the board.
...              Runs glmark2 (DRM, Wayland, Wayland 1920x1080) and reads its Score;
...              needs the board's GPU and a display.

Library          DataDriver    file=${CRITERIA_DIR}/glmark2.csv    dialect=excel    encoding=utf-8
Resource         ../../resources/criteria.resource

Suite Setup      Measure Suite    glmark2
Test Template    Published Number Should Hold

Test Tags        graphics    glmark2


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
