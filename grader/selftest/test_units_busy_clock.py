"""Time limits on a busy machine (scanlab_grader/busy_clock.py): a limit counts the seconds the
machine had a core for each runnable task, stretches no further than MOST_STRETCH times, and
says when it was stretched."""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scanlab_grader.busy_clock import MOST_STRETCH, BusyClock, StretchedLimit  # noqa: E402


class FakeMachine:
    def __init__(self, cores: int, runnable: int):
        self.time, self.tasks = 0.0, runnable
        self.clock = BusyClock(cores=cores, runnable=lambda: self.tasks, now=lambda: self.time)

    def seconds_until_expired(self, limit: StretchedLimit, step: float = 0.5, most: float = 1000) -> float:
        start = self.time
        while self.time - start < most:
            self.time += step
            self.clock.tick()
            if limit.expired():
                return self.time - start
        return float("inf")


class BusyClockTest(unittest.TestCase):
    def test_a_quiet_machine_keeps_the_limit(self):
        machine = FakeMachine(cores=2, runnable=1)
        limit = StretchedLimit(machine.clock, 10)
        self.assertEqual(machine.seconds_until_expired(limit), 10.5)
        self.assertEqual(limit.describe(), "10 s")

    def test_twice_as_many_tasks_as_cores_doubles_it_and_says_so(self):
        machine = FakeMachine(cores=2, runnable=4)
        limit = StretchedLimit(machine.clock, 10)
        self.assertEqual(machine.seconds_until_expired(limit), 20.5)
        self.assertIn("stretched because the machine was busy: up to 4 runnable tasks on 2 cores",
                      limit.describe())

    def test_no_limit_stretches_past_its_most(self):
        machine = FakeMachine(cores=1, runnable=100)
        limit = StretchedLimit(machine.clock, 10)
        self.assertEqual(machine.seconds_until_expired(limit), MOST_STRETCH * 10 + 0.5)

    def test_restart_begins_a_new_window(self):
        machine = FakeMachine(cores=2, runnable=1)
        limit = StretchedLimit(machine.clock, 10)
        machine.time += 8
        machine.clock.tick()
        limit.restart()
        self.assertFalse(limit.expired())
        self.assertEqual(machine.seconds_until_expired(limit), 10.5)

    def test_left_counts_quiet_seconds(self):
        machine = FakeMachine(cores=1, runnable=2)
        limit = StretchedLimit(machine.clock, 10)
        machine.time += 8
        machine.clock.tick()
        self.assertEqual(limit.left_s(), 6)


if __name__ == "__main__":
    unittest.main()
