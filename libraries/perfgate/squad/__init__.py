"""Publishing a finished run to a SQUAD server (Linaro's Software Quality Dashboard, where LAVA labs keep results).

`target.py` says where (server, group, project, token variable: from the command line, a lab file's `squad:`
section or the run's `-v SQUAD:` option), `payload.py` what (build, environment, tests, metrics, metadata and
attachments read from the run directory; an unfinished run is refused), `client.py` how (SQUAD's submit API over
HTTP), and `publish.py` ties them together. Nothing here imports the Robot libraries: perfgate.robot.squad is the
run's hook, perfgate.commands.publish the command (`python -m perfgate publish squad <run>`). See docs/squad.md.
"""
