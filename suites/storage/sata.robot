language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     SATA, as the guides' "SATA Driver" section: one test per number the guide publishes for the board.
...               fio writes then reads per buffer size on the mount point the lab names (storage.sata).

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    sata
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         storage    sata


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
