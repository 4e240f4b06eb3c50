"""IPSec (suite ipsec): UDP throughput, packets and CPU load through an ESP tunnel per cipher.

The tunnel is `ip xfrm` transport mode between the board and the tester, set up on both ends with the row's
cipher (and authentication: `udp_aes128_sha1` = AES-128 with HMAC-SHA1; rows naming only a cipher use the data's
default_auth), then iperf3 sends UDP with no rate limit through it and the tunnel is flushed again. The ciphers,
keys and commands are data (variables/workloads/network.yaml: ipsec). The j7 guide's "Packets/Sec" column holds
thousands of packets per second (see `packets_column_in_thousands`): it is compared with the measured kPPS.
"""

from __future__ import annotations

import re

from perfgate.errors import ParseError
from perfgate.model import Criterion
from perfgate.workloads import network as net
from perfgate.workloads.base import Context, Measurements, Run, Workload

SUITE = "ipsec"
ALG = re.compile(r"(3des|des3|aes\d{3})(?:_(sha\d+|md5))?")


def cipher_of(c: Criterion, conf: dict) -> tuple[str, str] | None:
    m = ALG.search(net.norm(c.row))
    if not m:
        return None
    alg = "3des" if m.group(1) == "des3" else m.group(1)
    return alg, m.group(2) or str(conf.get("default_auth", "sha1"))


def metric_of(c: Criterion) -> str | None:
    text = net.norm(f"{c.metric} {c.row}" if c.metric else c.row)
    if "cpu" in text or "load" in text:
        return net.CPU
    if "packets" in text or "pps" in text:
        return net.KPPS
    if "mbps" in text or "throughput" in text or net.norm(c.unit).startswith("mbit"):
        return net.THROUGHPUT
    return None


def classify(c: Criterion, conf: dict) -> tuple[tuple[str, str], str] | str:
    """((cipher, auth), parser metric) of a criterion, or why it fits none."""
    cipher, key = cipher_of(c, conf), metric_of(c)
    if cipher is None or key is None:
        return f"no cipher or metric in {c.row!r} / {c.metric!r}"
    if cipher[0] not in (conf.get("algorithms") or {}) or cipher[1] not in (conf.get("auth") or {}):
        return f"no tunnel settings for {cipher[0]}/{cipher[1]} ({net.data_path()}: ipsec.algorithms, auth)"
    return cipher, key


def rows(criteria: list[Criterion], conf: dict) -> tuple[dict[tuple[str, str], dict[str, list[str]]], dict[str, str]]:
    return net.grouped(criteria, lambda c: classify(c, conf))


def title(alg: str, auth: str) -> str:
    return f"ipsec-{alg}-{auth}"


class Ipsec(Workload):
    suite = SUITE

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        conf = net.settings(SUITE, profile, lab)
        return net.requirement(profile, lab, conf)

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        return []  # addresses are known only while measuring: see measure()

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        conf = net.settings(SUITE, ctx.profile, ctx.lab)
        out = Measurements()
        groups, bad = rows(criteria, conf)
        out.missing.update(bad)
        seconds = net.duration(ctx, conf)
        tester = net.Tester.of(ctx, conf)
        addr = {"board": net.board_address(ctx), "tester": net.tester_address(ctx, conf)}
        iperf3 = conf.get("iperf3") or {}
        ctx.note(f"ESP transport tunnel {addr['board']} <-> {addr['tester']}; iperf3 UDP, {seconds} s per cipher")

        def tunnel(tool: str, cipher: tuple[str, str]) -> bool:
            (alg, auth), keys = cipher, groups[cipher]
            a = (conf.get("algorithms") or {})[alg]
            h = (conf.get("auth") or {})[auth]
            v = {**addr, "enc": a["enc"], "key": a["key"], "auth_alg": h["alg"], "auth_key": h["key"]}
            tester.start("iperf3", iperf3, iperf3.get("port", ""))
            said = tester.run(net.fill(str(conf["xfrm"]), {**v, "self": addr["tester"], "peer": addr["board"]}),
                              timeout=30, label=f"xfrm-tester-{alg}")  # fmt: skip
            refused = re.search(r"^.*(RTNETLINK answers|Operation not permitted|not found|Error:).*$", said, re.M)
            if refused:
                raise net.Unmeasurable(f"the tester's end of the {alg} tunnel could not be set up: {refused.group(0)}")
            try:
                udp = net.fill(str(iperf3["udp"]), {**v, "port": iperf3.get("port", ""), "duration": seconds,
                                                   "datagram": conf.get("datagram", 1400)})  # fmt: skip
                udp += f" -T {title(alg, auth)}"
                setup = net.fill(str(conf["xfrm"]), {**v, "self": addr["board"], "peer": addr["tester"]})
                cmd = f"{setup} && {udp}; {conf.get('xfrm_flush', '')}"
                metrics, evidence = net.read(ctx, "iperf3", cmd, timeout=seconds * 3 + 60,
                                             label=f"iperf3-{title(alg, auth)}")  # fmt: skip
            finally:
                tester.run(str(conf.get("xfrm_flush", "")), timeout=30, label=f"xfrm-tester-flush-{alg}")
            if net.THROUGHPUT not in metrics:
                raise ParseError(f"iperf3 printed no throughput through the {alg} tunnel")
            net.assign(out, ctx, keys, metrics, "iperf3", evidence, f"`{udp}`")
            return True

        items = [([cid for g in keys.values() for cid in g], cipher) for cipher, keys in sorted(groups.items())]
        net.attempt_all(net.ToolChain(ctx, list(conf.get("tools") or ["iperf3"]), out), tester, items, tunnel)
        return out


WORKLOAD = Ipsec()
