language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     The board's own criteria, the numbers no TI guide publishes: variables/custom/<board>.yaml
...               (README, "Your own criteria"). One test per criterion; each runs the command its entry
...               gives and reads it with the tool's parser (or its regex) that the entry names.

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    custom
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         custom


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
