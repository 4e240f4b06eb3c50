"""The shell's own builtins: true, false, echo, printf, cd, pwd, export, unset, env, wait, sh -c, exit."""

from __future__ import annotations

import contextlib

from perfgate.sim.programs.base import Exit, Out, Shell, program


@program("true", ":", "sync", "mount", "umount", "modprobe", "insmod", "kill", "killall", "pkill", "ulimit",
         "systemctl", "udevadm", "echo_off", "set", "trap", "renice")  # fmt: skip
async def _ok(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    return 0


@program("wait")
async def _wait(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    """The shell's background jobs, to their end."""
    jobs, s.jobs = s.jobs, []
    for task in jobs:
        with contextlib.suppress(BaseException):
            await task
    return 0


@program("false")
async def _false(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    return 1


@program("echo")
async def _echo(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    newline = True
    while args and args[0] in ("-n", "-e", "-ne", "-en"):
        newline = newline and "n" not in args[0]
        args = args[1:]
    await out.write(" ".join(args) + ("\n" if newline else ""))
    return 0


@program("printf")
async def _printf(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    if not args:
        return 1
    fmt = args[0].replace("\\n", "\n").replace("\\t", "\t")
    try:
        text = fmt % tuple(args[1:]) if "%" in fmt else fmt
    except (TypeError, ValueError):
        text = fmt
    await out.write(text)
    return 0


@program("cd")
async def _cd(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    target = args[0] if args else s.env["HOME"]
    s.cwd = target if target.startswith("/") else f"{s.cwd.rstrip('/')}/{target}"
    return 0


@program("pwd")
async def _pwd(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    await out.write(s.cwd + "\n")
    return 0


@program("export")
async def _export(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    for a in args:
        k, sep, v = a.partition("=")
        if sep:
            s.env[k] = v
    return 0


@program("unset")
async def _unset(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    for a in args:
        s.env.pop(a, None)
    return 0


@program("env", "printenv")
async def _env(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    await out.write("".join(f"{k}={v}\n" for k, v in sorted(s.env.items())))
    return 0


@program("sh", "bash", "ash")
async def _sh(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    if len(args) >= 2 and args[0] == "-c":
        return await s.run_child(args[1], out)
    return 0


@program("exit", "logout")
async def _exit(s: Shell, args: list[str], out: Out, stdin: str | None) -> int:
    raise Exit(int(args[0]) & 0xFF if args and args[0].lstrip("-").isdigit() else s.status)
