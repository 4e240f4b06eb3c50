"""openssl speed parser on real OpenSSL 3.0 captures (tests/fixtures/openssl/PROVENANCE.md) and the sim round trip."""

from __future__ import annotations

import random

import pytest

from captures import capture
from perfgate.errors import ParseError
from perfgate.sim.tools import openssl as sim_openssl
from perfgate.tools import openssl
from testpaths import FIXTURES

FIX = FIXTURES / "openssl"


def read(name: str) -> str:
    return (FIX / name).read_text(encoding="utf-8")


def test_upper_case_cipher_row_in_thousands_of_bytes() -> None:
    m = openssl.parse(read("speed-elapsed-aes-128-cbc.txt"), "openssl speed -elapsed -seconds 1 -evp aes-128-cbc")
    assert m["aes-128-cbc/16 (KBytes/s)"] == pytest.approx(547823.87)
    assert m["aes-128-cbc/16384 (KBytes/s)"] == pytest.approx(1029505.02)
    assert len([k for k in m if k.startswith("aes-128-cbc/") and k.endswith("(KBytes/s)")]) == 6
    assert "cpu load (%)" not in m


def test_mb_per_second_as_the_sdk12_crypto_comparison_names_it() -> None:
    """openssl counts 1000s of bytes; the SDK 12 guides' "Crypto Performance Comparison" prints MB/s (10^6 bytes)."""
    m = openssl.parse(read("speed-elapsed-aes-128-cbc.txt"), "openssl speed -elapsed -seconds 1 -evp aes-128-cbc")
    assert m["aes-128-cbc/16 (MB/s)"] == pytest.approx(547.82387)
    assert m["aes-128-cbc/16384 (MB/s)"] == pytest.approx(1029.50502)
    assert len([k for k in m if k.startswith("aes-128-cbc/") and k.endswith("(MB/s)")]) == 6
    des3 = openssl.parse(read("speed-elapsed-des3.txt"), "openssl speed -elapsed -seconds 1 -evp des3")
    assert des3["des3/1024 (MB/s)"] == des3["des-ede3-cbc/1024 (MB/s)"] == pytest.approx(25.92666)


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


# ---------------------------------------------------- what the parser refuses (labelled fixtures: tests/captures.py)
def labelled(name: str) -> str:
    return capture(FIX / name)


def test_no_elapsed_real_run_parses_but_warns() -> None:
    text = labelled("speed-no-elapsed-aes-128-cbc.txt")
    cmd = "openssl speed -seconds 1 -evp aes-128-cbc"
    m = openssl.parse(text, cmd)
    assert m["aes-128-cbc/16 (KBytes/s)"] == pytest.approx(1147136.19)
    (warning,) = openssl.warnings(text, cmd)
    assert f"`{cmd}` lacks -elapsed" in warning and "per CPU second" in warning
    (warning,) = openssl.warnings(text)  # no command: the progress lines without the -elapsed notice tell it
    assert "the run lacked -elapsed" in warning
    assert openssl.warnings(read("speed-elapsed-aes-128-cbc.txt")) == []
    assert openssl.warnings(read("speed-elapsed-aes-128-cbc.txt"), "openssl speed -elapsed -evp aes-128-cbc") == []


def test_machine_readable_output_says_nothing_so_the_command_decides() -> None:
    text = labelled("speed-elapsed-mr-sha256.txt")
    assert openssl.parse(text)["sha256/16 (KBytes/s)"] > 0
    assert "give --command" in openssl.warnings(text)[0]
    assert openssl.warnings(text, "openssl speed -elapsed -seconds 1 -mr -evp sha256") == []


def test_two_rows_of_one_table_without_elapsed() -> None:
    text = labelled("speed-no-elapsed-bytes16-md5-sha256.txt")
    m = openssl.parse(text)
    assert m == {
        "md5/16 (KBytes/s)": pytest.approx(105882.28),
        "sha256/16 (KBytes/s)": pytest.approx(149484.04),
        "md5/16 (MB/s)": pytest.approx(105.88228),
        "sha256/16 (MB/s)": pytest.approx(149.48404),
    }
    assert openssl.warnings(text)


def test_openssl3_engine_without_elapsed_infk_names_the_real_reason() -> None:
    text = labelled("openssl3-devcrypto-no-elapsed-infk.txt")
    for cmd in ("openssl speed -engine devcrypto -evp aes-128-cbc", None):
        with pytest.raises(ParseError) as e:
            openssl.parse(text, cmd)
        assert "'infk'" in str(e.value) and "lacks -elapsed" in str(e.value)
        assert "no algorithm row" not in str(e.value)
        assert e.value.line == len(text.splitlines())


def test_openssl1_engine_without_elapsed_huge_rates_are_never_silent() -> None:
    text = labelled("openssl1-devcrypto-no-elapsed.txt")
    cmd = "openssl speed -engine devcrypto -evp aes-128-cbc"
    assert openssl.parse(text, cmd)["aes-128-cbc/16384 (KBytes/s)"] == pytest.approx(17350656.0)
    assert "lacks -elapsed" in openssl.warnings(text, cmd)[0]
    assert "lacked -elapsed" in openssl.warnings(text)[0]


def test_a_row_printed_twice_is_an_error_naming_both_lines() -> None:
    text = labelled("speed-elapsed-md5-twice.txt")
    rows = [n for n, line in enumerate(text.splitlines(), 1) if line.startswith("md5 ")]
    assert len(rows) == 2
    with pytest.raises(ParseError) as e:
        openssl.parse(text, "openssl speed -elapsed -seconds 1 -bytes 16 -evp md5")
    assert f"md5 twice (lines {rows[0]} and {rows[1]})" in str(e.value)
    assert e.value.line == rows[1]


def test_a_stray_line_in_the_table_is_no_algorithm() -> None:
    text = labelled("speed-elapsed-iostat-in-table.txt")
    with pytest.raises(ParseError) as e:
        openssl.parse(text, "openssl speed -elapsed -seconds 1 -evp aes-128-cbc")
    assert "'mmcblk0 20.52' is not an algorithm" in str(e.value)
    assert e.value.line == len(text.splitlines())


def test_rows_only_inside_the_table_after_the_header() -> None:
    row = "AES-128-CBC     547823.87k  1018309.31k  1108511.49k  1149041.66k  1138647.04k  1029505.02k\n"
    header = "type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes\n"
    stray = "mmcblk0          412.33        98.07         0.00     123699      29421          0\n"
    assert openssl.parse(header + row + "\n" + stray) == openssl.parse(header + row)  # after the table: not a row
    with pytest.raises(ParseError) as e:
        openssl.parse(row + header)  # a row before its header
    assert "no algorithm row" in str(e.value)


@pytest.mark.parametrize("name", ["AES-128-CBC", "sha256", "des ede3", "hmac(md5)", "ChaCha20-Poly1305", "SHA512-224"])
def test_known_algorithm_names(name: str) -> None:
    assert openssl.known_algorithm(name)


@pytest.mark.parametrize("name", ["mmcblk0", "mmcblk0 20.52", "sda", "Device", "avg-cpu"])
def test_unknown_algorithm_names(name: str) -> None:
    assert not openssl.known_algorithm(name)


def test_a_rate_of_0_00_is_an_algorithm_not_run_never_a_zero_rate() -> None:
    """`openssl speed md4 md5` of OpenSSL 3 without the legacy provider (made here, corpus/md4-*) prints `md4 0.00`,
    the zero it started from, as OpenSSL 1.0.1 prints md2/mdc2/idea/rc5 it lacks: no metric for it; a table of
    nothing but 0.00 is refused; with stderr kept, speed's fetch error is refused at its line."""
    m = openssl.parse(capture(FIX / "corpus" / "md4-md5-bytes16-stdout.txt"))
    assert m == {"md5/16 (KBytes/s)": 118622.08, "md5/16 (MB/s)": pytest.approx(118.62208)}
    with pytest.raises(ParseError, match=r"only 0\.00 rates"):
        openssl.parse(capture(FIX / "corpus" / "md4-only-bytes16-stdout.txt"))
    with pytest.raises(ParseError, match=r"evp_fetch.c.*Algorithm \(MD4") as e:
        openssl.parse(capture(FIX / "corpus" / "md4-md5-bytes16-stderr-too.txt"))
    assert e.value.line == 3
    assert "md5/16 (KBytes/s)" not in openssl.parse("+H:16:64\n+F:4:md5:0.00:0.00\n+F:5:sha1:1000.00:2000.00\n")


def test_a_provider_that_does_not_load_is_refused_at_the_line_that_says_so() -> None:
    """OpenSSL 3 `-provider <name>` that cannot be loaded (a real run made here, corpus/provider-not-found.txt)
    exits with no table: refused at `speed: unable to load provider`, not at a later libcrypto error line."""
    text = capture(FIX / "corpus" / "provider-not-found.txt")
    with pytest.raises(ParseError, match="unable to load provider nosuchprovider") as e:
        openssl.parse(text, "openssl speed -elapsed -seconds 1 -provider nosuchprovider -evp aes-128-cbc")
    assert e.value.line == 1
