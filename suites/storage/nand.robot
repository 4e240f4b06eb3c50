language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     NAND flash, as the guide's "NAND Driver" section: one test per number the guide publishes for the
...               board. fio writes then reads per buffer size on the UBIFS mount the lab names (storage.nand).

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    nand
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         storage    nand


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
