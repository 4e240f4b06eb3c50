"""Board control, modelled on labgrid's strategy: a small state machine off -> uboot -> shell whose transitions use
drivers chosen by lab data (variables/labs/<lab>.yaml):

- lab.py       the lab file: validated (errors name the file, key and line), per-board overrides, templates
- launcher.py  virtual labs: start the board process (`start:`), read its state file, stop it, no orphans
- power.py     power drivers: a command (PDU, relay, labgrid-client, sim-power), soft reboot, or the operator
- console.py   the serial console through pyserial (device path, socket://, rfc2217://): host-timestamped stream,
               escape sequences stripped, expect with timeouts, the whole transcript to a file
- shell.py     running commands on Linux: SSH (paramiko) or the serial console (end markers, kernel noise removed)
- strategy.py  the state machine: power-cycle, stop autoboot, U-Boot commands, boot (timed), log in, address, SSH
"""
