"""A one-line progress bar for reports/bench, drawn only on a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    WIDTH = 30

    def __init__(self, total: int, stream: TextIO | None = None, enabled: bool | None = None):
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.total = max(total, 0)
        self.done = 0
        self.started = time.monotonic()
        self._drawn = False

    def line(self, what: str) -> str:
        fraction = min(1.0, self.done / self.total) if self.total else 1.0
        filled = int(round(fraction * self.WIDTH))
        elapsed = time.monotonic() - self.started
        return (f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {self.done}/{self.total} points "
                f"{elapsed:5.0f} s  {what}")

    def advance(self, what: str, points: int = 1) -> None:
        self.done += points
        self.show(what)

    def show(self, what: str) -> None:
        if not self.enabled:
            return
        self.stream.write("\r\033[K" + self.line(what)[:160])
        self.stream.flush()
        self._drawn = True

    def note(self, message: str) -> None:
        """A message that stays (an error): printed on its own line, the bar redrawn below."""
        if self._drawn:
            self.stream.write("\r\033[K")
        self.stream.write(message + "\n")
        self.stream.flush()

    def finish(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
