"""Board control on a real board: Debian's U-Boot and a Debian arm64 kernel in QEMU (the qemu lab). The same path as
a hardware lab: power through the lab's command, autoboot caught on the serial console (a TCP socket), a U-Boot
command, boot, login on the console, SSH. Needs the image (`python -m perfgate qemu build`)."""

from __future__ import annotations

import pytest

from perfgate import boards, paths
from perfgate.board.commands import Commands
from perfgate.board.console import Console
from perfgate.board.lab import expand, load
from perfgate.board.launcher import Launcher
from perfgate.board.strategy import Board

pytestmark = [
    pytest.mark.slow,
    pytest.mark.qemu,
    pytest.mark.skipif(not (paths.build() / "qemu" / "Image").exists(), reason="no QEMU image (perfgate qemu build)"),
]


def test_uboot_boot_login_and_ssh_on_the_qemu_board(tmp_path):
    lab = load("qemu", "qemu_arm64")
    launcher = Launcher(lab, {"board": "qemu_arm64", "lab": "qemu"}, log_dir=tmp_path)
    state = launcher.start()
    try:
        serial = expand(lab.data["serial"], launcher.context)
        console = Console(str(state.get("serial") or serial["port"]), 115200, tmp_path / "serial.log")
        console.open()
        try:
            b = Board("qemu_arm64", boards.profile("qemu_arm64"), lab, console, launcher.context,
                      log=lambda m: None)  # fmt: skip
            b.transition("uboot")
            commands = Commands(b)
            assert "U-Boot 2023.01" in commands.uboot_command("version")
            # a lost prompt is resynced with Ctrl-C: the real U-Boot answers it at its prompt, in the same session
            since = console.mark()
            b.uboot_driver.resync(since, 2.0)
            assert b.uboot_session == 1 and "Hit any key" not in console.text(since)
            # a setup runs once per U-Boot session
            assert commands.uboot_command("printenv pg_setup", setup=("setenv pg_setup yes",)).strip() == "pg_setup=yes"
            assert "setenv pg_setup yes" in b.uboot_ran
            b.transition("shell")  # boot from the prompt, log in, address, SSH
            out, status = commands.run("uname -m", 30)
            assert status == 0 and out.strip() == "aarch64"
            out, status = commands.run("echo on the console", 30, where="console")
            assert status == 0 and "on the console" in out
            b.ssh.close()  # SSH goes away: the next command reconnects without booting again
            out, status = commands.run("true", 30)
            assert status == 0 and b.state == "shell"
        finally:
            if b.ssh:
                b.ssh.close()
            console.close()
    finally:
        launcher.stop()
    transcript = (tmp_path / "serial.log").read_text(errors="replace")
    assert "Hit any key to stop autoboot" in transcript
    assert "=> <INTERRUPT>\n=> " in transcript.replace("\r", "")  # the real U-Boot's answer to Ctrl-C
