language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     USB mass storage, as the guides' "USB Host Controller" and "USB Device Controller" sections: one
...               test per number the guide publishes for the board. fio on the USB disk the lab names
...               (storage.usb_msc), and from the tester on the board's mass-storage gadget (storage.usb_gadget).

Resource          ../../resources/gate.resource

Suite Setup       Measure The Suite    usb_msc
Suite Teardown    Finish The Suite
Test Template     Published Number Should Hold

Test Tags         storage    usb_msc


*** Test Cases ***
Criterion ${id}    ${id}


*** Keywords ***
Published Number Should Hold
    [Documentation]    One published number, judged by the gate: the template of the suite's tests, one per
    ...    criterion (perfgate/robot/expand.py makes them).
    [Arguments]    ${id}
    Criterion Should Hold    ${id}
