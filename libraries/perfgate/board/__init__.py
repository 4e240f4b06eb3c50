"""Board control, modelled on labgrid's strategy: a small state machine off -> uboot -> shell whose transitions use
drivers chosen by lab data (variables/labs/<lab>.yaml):

- lab.py       the lab file: validated (errors name the file, key and line), per-board overrides; a kind's own keys
               are its module's in perfgate.labkinds
- labfile.py   the Lab as drivers and lab kinds read it, and the templates (`expand`)
- lab_labgrid.py  a `kind: labgrid` lab's `labgrid:` mapping (lab data: the farm reads it, it imports no farm)
- timeouts.py  every bring-up wait: defaults, the names a lab may set, scaling for a fast (simulated) board
- launcher.py  virtual labs: start the board process (`start:`), read its state file, stop it, no orphans
- power.py     power drivers (PowerDriver: on/off/cycle): a command (PDU, relay, labgrid-client, sim-power), soft
               reboot, or the operator
- console.py   the console driver (ConsoleDriver): pyserial (device path, socket://, rfc2217://), host-timestamped
               clean stream (escape sequences and CR stripped), expect with timeouts, the raw transcript to a file
- traits.py    what the board prints and is typed, from the board data: prompts, autoboot strings, markers
- uboot.py     the U-Boot driver: catch autoboot, the U-Boot prompt, run a command there, boot, reset
- shell.py     the shell driver: kernel and login prompt, login, commands on the console with end markers, address
- ssh.py       the SSH driver: commands over SSH with timeouts
- network.py   the network driver: the board's address (lab or console), the tester's address, SSH opened to the board
- reset.py     the soft reset of a board without a power switch, and the probe of where a board is
- strategy.py  the state machine off -> uboot -> shell: asks the drivers, power-cycles and retries once; only moves
- commands.py  commands where they run (shell over SSH or console, U-Boot with its recovery): asks the strategy for
               the state first
- errors.py    BringUpError
- boottime.py  boot-time capture: N boots through the strategy, host-timestamped per console chunk (capture())
"""
