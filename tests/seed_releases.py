"""The release of each board in the five guides the project started from (guides/*.rst).

Tests written against those guides' tables pin them: without a release, a board is judged against its newest
release (the current guides), whose tables are tested by their own tests.
"""

from __future__ import annotations

SEED = {
    "am43xx_gpevm": "11.02",
    "am574x_idk": "2017.05-RT",
    "am62xx_lp_sk": "10.00",
    "am62xx_sk": "10.00",
    "am62xxsip_sk": "10.00",
    "am64xx_evm": "unstated-RT",
    "j7200_evm": "09.01.00",
    "j721e_idk_gw": "09.01.00",
    "j721s2_evm": "09.01.00",
    "j784s4_evm": "09.01.00",
}


def seed(board: str) -> str | None:
    """The board's seed-guide release (None for a board no seed guide covers: its default release)."""
    return SEED.get(board)
