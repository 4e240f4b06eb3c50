"""Lab kinds: one module per `kind:` of a lab file, each a `LabKind` registered with `@register` (base.py), whose
`start()` gives the gate an `Access` to the board.

- base.py         the LabKind and Access interfaces, the registry (`kind(name)`)
- console.py      the access of the kinds that reach the board through its console and power (ConsoleKind)
- hardware.py     a lab of one's own: serial port, power commands, SSH
- sim.py          the simulated board (python -m perfgate sim), started by the gate
- qemu.py         the QEMU arm64 board (python -m perfgate qemu serve), started by the gate
- labgrid.py      a place on a labgrid coordinator (perfgate.farm): its console, power and SSH address
- labgrid_env.py  the user's labgrid environment file: its target's console and power drivers, in-process
- lava.py         jobs on a LAVA server: LAVA boots the board, commands are served from the jobs' logs

Adding a kind is one module here (its class, `@register`), one example lab file in variables/labs/ and its tests
(docs/architecture.md, "How to add a lab kind").
"""
