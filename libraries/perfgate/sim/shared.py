"""What the simulated board's shell sessions share (the serial console's shell and every SSH session): the board's
data and answers, its files, its kernel log, whether it sleeps, its background jobs."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from perfgate.sim.answers import Answers
from perfgate.sim.data import BoardData


@dataclass
class Board:
    """What sessions share: the board's data and answers, its files, its kernel log, and what it is doing."""

    data: BoardData
    answers: Answers
    speed: float
    files: dict[str, str] = field(default_factory=dict)  # written by redirections
    dmesg: list[str] = field(default_factory=list)
    booted_at: float = field(default_factory=time.monotonic)
    max_wait: float = 3.0  # a workload never takes longer than this many host seconds
    ready: asyncio.Event = field(default_factory=asyncio.Event)  # set when `answers` is built
    # suspend-to-RAM (`echo mem > /sys/power/state`, rtcwake): (state word, RTC alarm in board seconds or None);
    # the simulated board prints the kernel's messages on its console (perfgate.sim.board.SimBoard.suspend)
    suspend: Callable[[str, float | None], Awaitable[None]] | None = None
    asleep: str | None = None  # the kernel's sleep state (deep, shallow, s2idle) while suspended
    jobs: set[asyncio.Task] = field(default_factory=set)  # background jobs (`cmd &`) still running
    condition: object | None = None  # what its /sys files say (perfgate.sim.condition.Condition, made at first use)

    def __post_init__(self) -> None:
        if self.answers._index or self.answers.workloads:
            self.ready.set()

    async def enter_sleep(self, word: str, alarm: float | None) -> None:
        if self.suspend is not None:
            await self.suspend(word, alarm)
        elif alarm:
            await asyncio.sleep(min(alarm / self.speed, self.max_wait))
