"""The simulated board: a process that behaves like a TI board on a serial console and an SSH port.

`python -m perfgate sim --board <b>` (perfgate.sim.command) starts it; `python -m perfgate sim-power` switches it.
Modules, one concern each:

- faults: the `--faults` spec (degrade, uboot-hang, kernel-panic, no-login, ssh-drop, garbage, missing-tool)
- values: published values -> values with a realistic spread, and degraded criteria
- data: what the sim knows about the board (profile with defaults, criteria, boot times, U-Boot storage rates)
- console: the pseudo-terminal (pacing, echo, garbage, power), line input
- uboot: the `=> ` prompt and its commands, storage timings from the published KB/s figures
- kernel: the timestamped kernel log, the panic, the login banner
- shell: the command dispatcher shared by the serial shell and SSH (builtins, compound commands)
- answers: which workload tool answers a command (perfgate.workloads.<suite>.WORKLOAD) and its rendered output
- sshd: the asyncssh server on 127.0.0.1
- board: the power state machine off -> U-Boot -> kernel -> login -> shell
- tools: what each workload tool prints (the renderers beside perfgate.tools' parsers)
- workloads: which tool answers a workload's command, around which published values
- command: the `python -m perfgate sim` command line
- process: state file, control socket, signals and parent death (no orphans)

Everything the sim prints says it is simulated where a transcript could otherwise be mistaken for hardware:
the U-Boot banner, `version`, the kernel's version line and command line.
"""
