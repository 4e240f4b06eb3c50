"""The serial console on the transports labs use: a socket:// console (a TCP server, like QEMU's chardev), an
rfc2217:// console through a real ser2net 4 in front of a pseudo-terminal, and the transcript and timestamps."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
import time
import tty

import pytest

from perfgate.board.console import Console, ConsoleLost, ConsoleTimeout


def tcp_board(script: list[tuple[float, bytes]], echo: bool = True) -> tuple[int, threading.Thread]:
    """A TCP server that sends `script` (delay, bytes) to the first client and echoes what it receives for 3 s
    (echo=False: hangs up as soon as the script is sent)."""
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]

    def serve() -> None:
        conn, _ = srv.accept()
        srv.close()
        conn.settimeout(0.05)
        for delay, data in script:
            time.sleep(delay)
            conn.sendall(data)
        end = time.monotonic() + (3 if echo else 0)
        while time.monotonic() < end:
            try:
                got = conn.recv(100)
            except TimeoutError:
                continue
            if not got:
                break
            conn.sendall(got.replace(b"\r", b"\r\n"))
        conn.close()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    return port, t


def test_socket_console_strips_escapes_split_across_chunks(tmp_path):
    script = [  # pyserial's socket:// drops what arrived before open() returned: the board starts 0.1 s later
        (0.1, b"U-Boot 2024.04\r\nHit any key to stop autoboot:  2 \x1b["),
        (0.05, b"6n\x1b[0m\r\n=> "),
        (0.3, b"Starting kernel ...\r\n"),
        (0.2, b"am62xx-evm login: "),
    ]
    port, _ = tcp_board(script)
    c = Console(f"socket://127.0.0.1:{port}", 115200, tmp_path / "serial.log")
    c.open()
    try:
        c.expect("Hit any key to stop autoboot", 3)
        m = c.expect("=> ", 3)
        assert "\x1b" not in c.text() and "[6n" not in c.text() and "\r" not in c.text()
        k = c.expect("Starting kernel", 3)
        login = c.expect("login:", 3)
        elapsed = c.time_at(login.start) - c.time_at(k.start)
        assert 0.15 < elapsed < 0.6  # host-side timestamps of the two lines: 0.2 s apart
        log = c.timestamped(0, c.mark(), c.time_at(0))
        assert log.splitlines()[0].startswith("[0:00:00.000000 0.000000] U-Boot 2024.04")
        assert m.start < k.start
        with pytest.raises(ConsoleTimeout, match=r"no 'Password:' .* within 0.2 s; last output: .*am62xx-evm login: '"):
            c.expect("Password:", 0.2, what="Password:")
    finally:
        c.close()
    assert "Starting kernel ...\nam62xx-evm login: " in (tmp_path / "serial.log").read_text()


def test_console_lost_when_the_board_hangs_up():
    # printed after the gate attached: pyserial's socket:// open() discards what arrives while it connects
    port, t = tcp_board([(0.3, b"hello\r\n")])
    c = Console(f"socket://127.0.0.1:{port}", 115200)
    c.open()
    try:
        c.expect("hello", 2)
        t.join(5)  # the server closes the connection
        with pytest.raises(ConsoleLost, match="closed"):
            c.expect("never", 5)
    finally:
        c.close()


def test_unopenable_console_says_which():
    with pytest.raises(ConsoleLost, match="cannot open the serial console /dev/ttyNOPE0"):
        Console("/dev/ttyNOPE0").open()


@pytest.mark.skipif(not shutil.which("ser2net"), reason="ser2net is not installed (Debian package ser2net)")
def test_rfc2217_console_through_ser2net(tmp_path):
    master, slave = os.openpty()
    tty.setraw(slave)
    pts = os.ttyname(slave)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    conf = tmp_path / "ser2net.yaml"
    conf.write_text(
        "%YAML 1.1\n---\n"
        "connection: &board\n"
        f"  accepter: telnet(rfc2217),tcp,127.0.0.1,{port}\n"
        f"  connector: serialdev,{pts},115200n81,local\n"
        "  options:\n    kickolduser: true\n"
    )
    p = subprocess.Popen(["ser2net", "-n", "-d", "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        c = Console(f"rfc2217://127.0.0.1:{port}?ign_set_control", 115200)
        c.open()
        try:
            time.sleep(0.3)
            os.write(master, b"U-Boot 2024.04\r\nHit any key to stop autoboot:  1 ")
            c.expect("Hit any key to stop autoboot", 5)
            c.write(" ")
            end = time.monotonic() + 3
            got = b""
            while b" " not in got and time.monotonic() < end:
                got += os.read(master, 10)
            assert got == b" "  # the key reached the board through ser2net
        finally:
            c.close()
    finally:
        p.terminate()
        p.wait(5)
        os.close(master)
        os.close(slave)


def test_what_a_board_printed_before_hanging_up_is_kept():
    """A board (or ser2net) that prints and closes at once: pyserial's socket:// read raises on the hang-up and drops
    the bytes it read in the same call, so the console must never ask it for more than is waiting."""
    # printed after the gate attached (pyserial's socket:// open() discards what arrives while it connects)
    port, t = tcp_board([(0.3, b"U-Boot SPL 2025.01\r\nlast words\r\n")], echo=False)
    c = Console(f"socket://127.0.0.1:{port}", 115200)
    c.open()
    try:
        t.join(5)
        time.sleep(0.3)
        assert "last words" in c.text(), c.text()
        with pytest.raises(ConsoleLost, match="closed"):
            c.expect("never", 2)
    finally:
        c.close()
