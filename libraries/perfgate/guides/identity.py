"""Which guide a file is a version of: its device (or family) and whether it is the Linux or the RT-Linux guide.

A reviewer's decisions about a guide (variables/sections.yaml `table_boards`) are keyed by this identity, so that
they hold for every version of the guide, whatever the file is called. Identities are lower case, `<device>
<linux|rt>`: `am62x linux`, `am64x rt`, `j7 linux`; the 2018-2022 guides that cover many devices in one page are
`processor-sdk linux` and `processor-sdk rt`.

The identity is read from the file's name, in the two ways guides are named:
- as the project ships them (guides/): `linux-12.00.00-am62x.rst`, `rt-linux-11.02-am65x.rst`, `rt-linux-am64x.rst`;
- as TI's documentation repository stores them, the path flattened with `__` (benchmarks/extract_history.py):
  `..._devices__AM62X__linux__RT_Linux_Performance_Guide.rst`,
  `..._linux__Release_Specific__Performance_Guide__CoreSDK_RT_Kernel_Performance_Guide.rst`.
The AM62x Android pages are `am62x android`. Anything else is `unknown linux` or `unknown rt` (from an `rt-`
prefix or an `RT` title).
"""

from __future__ import annotations

import re
from pathlib import Path

SHIPPED = re.compile(r"^(rt-)?linux-(?:[\d.]+-)?([a-z0-9]+)\.rst$", re.IGNORECASE)
DEVICE_PATH = re.compile(
    r"(?:^|__)(?:devices|release_specific)__(?!Performance_Guide__)([A-Za-z0-9_]+?)__", re.IGNORECASE
)
FAMILIES = {"j7_family": "j7"}


def _is_rt(name: str, title: str | None) -> bool:
    last = name.split("__")[-1]
    return bool(re.search(r"(^|_)RT_|^rt-", last, re.IGNORECASE)) or bool(
        re.match(r"\s*RT[- ]", title or "", re.IGNORECASE)
    )


def identity(path: Path | str, title: str | None = None) -> str:
    name = Path(path).name
    m = SHIPPED.match(name)
    if m:
        return f"{m.group(2).lower()} {'rt' if m.group(1) else 'linux'}"
    kind = "android" if "__android__" in name.lower() else "rt" if _is_rt(name, title) else "linux"
    m = DEVICE_PATH.search(name)
    if m:
        device = m.group(1).lower()
        return f"{FAMILIES.get(device, device)} {kind}"
    if re.search(r"(^|__)(linux|release_specific)__", name, re.IGNORECASE) and "Performance_Guide" in name:
        return f"processor-sdk {kind}"
    return f"unknown {kind}"
