"""Time limits that a busy machine stretches.

A test's time limit is there to stop a program that hangs, not one that the machine was too
busy to run: on a grading server beside other jobs, or a class graded several students at
once, a correct program can get half a core or less. So a limit counts the seconds the machine
had a core for each runnable task: a poll interval of dt while R tasks were runnable on C cores
counts dt * min(1, C / R). On a quiet machine that is the wall time; beside a CPU hog on one
core it is half of it. No limit stretches past MOST_STRETCH times its own length, and a limit
that was stretched says so.

R is the kernel's count of runnable tasks (/proc/loadavg's fourth field), less the grader's own
reading thread; C is the number of cores this process may run on."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Callable

MOST_STRETCH = 4.0


def runnable_tasks() -> int:
    """Tasks running or ready to run on the whole machine now, not counting the caller."""
    try:
        with open("/proc/loadavg") as f:
            running = int(f.read().split()[3].split("/")[0])
    except (OSError, IndexError, ValueError):
        return 1
    return max(1, running - 1)


def usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


@dataclass
class BusyClock:
    """Wall time and the share of it the machine could give a task, advanced by tick()."""
    cores: int = field(default_factory=usable_cores)
    runnable: Callable[[], int] = runnable_tasks
    now: Callable[[], float] = time.monotonic
    wall_s: float = 0.0
    usable_s: float = 0.0
    most_tasks: int = 0  # the most runnable tasks seen, for the message

    def __post_init__(self):
        self._last = self.now()

    def tick(self) -> None:
        t = self.now()
        dt, self._last = max(0.0, t - self._last), t
        tasks = self.runnable()
        self.most_tasks = max(self.most_tasks, tasks)
        self.wall_s += dt
        self.usable_s += dt * min(1.0, self.cores / tasks)


@dataclass
class StretchedLimit:
    """One limit of `limit_s` seconds on `clock`, from `restart()` on."""
    clock: BusyClock
    limit_s: float
    _wall0: float = 0.0
    _usable0: float = 0.0

    def __post_init__(self):
        self.restart()

    def restart(self) -> None:
        self._wall0, self._usable0 = self.clock.wall_s, self.clock.usable_s

    @property
    def wall_s(self) -> float:
        return self.clock.wall_s - self._wall0

    def expired(self) -> bool:
        usable = self.clock.usable_s - self._usable0
        return usable > self.limit_s or self.wall_s > MOST_STRETCH * self.limit_s

    def left_s(self) -> float:
        """What is left of the limit, in seconds of a quiet machine."""
        return self.limit_s - (self.clock.usable_s - self._usable0)

    def stretched(self) -> bool:
        """The machine's load has let more wall time pass than the limit's own length (beyond
        the few percent a poll interval may overshoot)."""
        usable = self.clock.usable_s - self._usable0
        return self.wall_s > self.limit_s and usable < 0.95 * self.wall_s

    def describe(self) -> str:
        """'60 s', or how far the machine's load stretched it."""
        if not self.stretched():
            return f"{self.limit_s:g} s"
        return (f"{self.wall_s:.0f} s (a limit of {self.limit_s:g} s, stretched because the machine was busy: "
                f"up to {self.clock.most_tasks} runnable tasks on {self.clock.cores} cores)")
