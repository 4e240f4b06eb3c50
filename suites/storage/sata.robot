language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     SATA, as the guides' "SATA Driver" section: one test per number the guide publishes for the board.
...               fio writes then reads per buffer size on the mount point the lab names (storage.sata).

Library           DataDriver    sata.csv    reader_class=perfgate.robot.criteria_reader.CriteriaReader
...                   file_search_strategy=NONE    dialect=excel    encoding=utf-8
Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    sata
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         storage    sata


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate (DataDriver's template must be a keyword of
    ...    the suite file itself).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
