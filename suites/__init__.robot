language: perfgate.robot.language    # the criteria become tests before Robot selects any (perfgate/robot/language.py)

*** Settings ***
Documentation     perfgate: every number a TI performance guide publishes for BOARD is one test.
...
...               Resolves BOARD (any of the guide's names) and LAB (default: the built-in simulated board,
...               which the console and the report say), opens the run directory, and brings the board up
...               for every suite: power-cycle, U-Boot, boot, login on the console, address, SSH.

Resource          ../resources/gate.resource

Suite Setup       Start The Gate
Suite Teardown    Stop The Gate
