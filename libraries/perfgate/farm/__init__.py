"""A board farm on a labgrid coordinator: take a place (reserve, acquire), read its resources, drive its power,
give it back (release, cancel the reservation), and never leave a place locked by a dead gate.

- client.py   the coordinator through labgrid's own Python client (gRPC): places, reservations, resources
- power.py    power through labgrid's drivers, built from the acquired place's power resource
- guard.py    a small process beside the gate that gives the place back when the gate dies (killed, crashed)
- lease.py    take a place and give it back, tying the above together
The lab's `labgrid:` mapping (coordinator, place or tags, bounded wait) is lab data: perfgate.board.lab_labgrid.
"""
