"""openssl speed parser on real OpenSSL 3.0 captures (tests/fixtures/openssl/PROVENANCE.md) and the sim round trip."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from perfgate.errors import ParseError
from perfgate.sim.tools import openssl as sim_openssl
from perfgate.tools import openssl

FIX = Path(__file__).parent / "fixtures" / "openssl"


def read(name: str) -> str:
    return (FIX / name).read_text(encoding="utf-8")


def test_upper_case_cipher_row_in_thousands_of_bytes() -> None:
    m = openssl.parse(read("speed-elapsed-aes-128-cbc.txt"), "openssl speed -elapsed -seconds 1 -evp aes-128-cbc")
    assert m["aes-128-cbc/16 (KBytes/s)"] == pytest.approx(547823.87)
    assert m["aes-128-cbc/16384 (KBytes/s)"] == pytest.approx(1029505.02)
    assert len([k for k in m if k.startswith("aes-128-cbc/")]) == 6
    assert "cpu load (%)" not in m


def test_requested_alias_gets_the_printed_row() -> None:
    m = openssl.parse(read("speed-elapsed-des3.txt"), "openssl speed -elapsed -seconds 1 -evp des3")
    assert m["des-ede3-cbc/1024 (KBytes/s)"] == pytest.approx(25926.66)
    assert m["des3/1024 (KBytes/s)"] == pytest.approx(25926.66)


def test_time_v_wrapper_gives_cpu_load_and_times() -> None:
    m = openssl.parse(read("time-v-speed-elapsed-sha256.txt"), "time -v openssl speed -elapsed -seconds 1 -evp sha256")
    assert m["cpu load (%)"] == 92.0
    assert m["user time (s)"] == 5.56
    assert m["system time (s)"] == 0.0
    assert m["sha256/8192 (KBytes/s)"] == pytest.approx(1489428.48)


def test_machine_readable_form_is_bytes_per_second() -> None:
    m = openssl.parse(read("speed-mr-md5.txt"), "openssl speed -elapsed -seconds 1 -mr -evp md5")
    assert m["md5/16 (KBytes/s)"] == pytest.approx(56956.56)


def test_value_without_k_is_bytes_per_second() -> None:
    text = (
        "type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes\n"
        "des ede3          9876.00     12000.00k    12000.00k    12000.00k    12000.00k    12000.00k\n"
    )
    m = openssl.parse(text)
    assert m["des ede3/16 (KBytes/s)"] == pytest.approx(9.876)
    assert m["des ede3/64 (KBytes/s)"] == pytest.approx(12000.0)


def test_unknown_algorithm_is_a_parse_error_with_line() -> None:
    with pytest.raises(ParseError) as e:
        openssl.parse(read("speed-unknown-alg.txt"), "openssl speed -elapsed -evp nosuchalg")
    assert e.value.line == 1
    assert "unknown cipher" in str(e.value)


def test_header_without_rows_and_empty_output_fail() -> None:
    with pytest.raises(ParseError):
        openssl.parse("type 16 bytes 64 bytes\n")
    with pytest.raises(ParseError):
        openssl.parse("")


@pytest.mark.parametrize("alg", ["aes-128-cbc", "des3", "sha512", "md5"])
def test_round_trip(alg: str) -> None:
    values = {openssl.key(alg, s): 1000.0 + s for s in sim_openssl.SIZES} | {"cpu load (%)": 34.0}
    values[openssl.key(alg, 16)] = 5.5  # small enough to print without k
    cmd = f"time -v openssl speed -elapsed -evp {alg}"
    text = sim_openssl.render(cmd, values, random.Random(1))
    m = openssl.parse(text, cmd)
    for s in sim_openssl.SIZES:
        assert m[openssl.key(alg, s)] == pytest.approx(values[openssl.key(alg, s)], rel=0.01)
    assert m["cpu load (%)"] == pytest.approx(34.0, abs=1.0)
    if alg == "des3":
        assert "DES-EDE3-CBC" in text
    if alg == "sha512":
        assert "\nsha512 " in text


def test_busybox_time_v_reads_like_gnu_time() -> None:
    m = openssl.parse(read("busybox-time-v-speed-elapsed-sha256.txt"), "time -v openssl speed -elapsed -evp sha256")
    assert m["cpu load (%)"] == 49.0
    assert m["user time (s)"] == 3.10
    assert m["sha256/16 (KBytes/s)"] == pytest.approx(38955.81)
