language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     OSPI/QSPI flash, as the guides' "OSPI/QSPI Flash Driver" sections: one test per number the guide
...               publishes for the board. fio on the UBIFS mount the lab names (storage.ospi) and raw reads of the
...               flash device it names (storage.ospi_raw).

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    ospi
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         storage    ospi


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
