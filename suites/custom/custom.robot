language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     The board's own criteria, the numbers no TI guide publishes: variables/custom/<board>.yaml
...               (README, "Your own criteria"). One test per criterion; each runs the command its entry
...               gives and reads it with the tool's parser (or its regex) that the entry names.

Library           DataDriver    custom.csv    reader_class=perfgate.robot.criteria_reader.CriteriaReader
...                   file_search_strategy=NONE    dialect=excel    encoding=utf-8
Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    custom
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         custom


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
