language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     NAND flash, as the guide's "NAND Driver" section: one test per number the guide publishes for the
...               board. fio writes then reads per buffer size on the UBIFS mount the lab names (storage.nand).

Library           DataDriver    nand.csv    reader_class=perfgate.robot.criteria_reader.CriteriaReader
...                   file_search_strategy=NONE    dialect=excel    encoding=utf-8
Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    nand
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         storage    nand


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
