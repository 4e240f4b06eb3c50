"""A LAVA lab (`kind: lava`): LAVA owns the board; the gate renders one LAVA job with every command the selected
suites need, submits it, follows it, fetches its log and serves each suite's commands from it.

- `settings`: the lab file's `lava:` mapping (server, user, token source, device type, deploy and boot actions,
  timeouts, the job budget), validated with file:key:line errors;
- `job`: the job definition (YAML) with the commands as an inline test definition, each command's output
  delimited by markers that carry its exit status, byte count and SHA-256;
- `log`: the job log back into each command's output, byte for byte (checked against the markers);
- `client`: LAVA's XML-RPC API (xmlrpc.client: submit, state, queue position, log, results), its failures
  named after the lab key they come from;
- `session`: the run's jobs: the first with every planned command, follow-up jobs for commands asked again
  (the sequential verdict) or not foreseen, within the lab's `lava.max_jobs`;
- `plan`: the selected suites' commands from their workloads' `plan()`.

It imports nothing from perfgate.board or perfgate.robot: they call it.
"""

from __future__ import annotations

OWNS_BOARD = (
    "LAVA owns the board (lab kind: lava): its boot action boots it in every job, so the gate reaches no U-Boot "
    "prompt and cannot wait on the console"
)
