"""One program running in its box, as the runner sees it: its exit status, its resident
memory, a kill of everything it started, and what it left running (leftovers.py)."""

from __future__ import annotations

import os
import resource
import select
import signal
import subprocess
from dataclasses import dataclass
from typing import IO

from . import leftovers as leftovers_of
from .leftovers import Leftover

OUTPUT_LIMIT_BYTES = 64 << 20  # RLIMIT_FSIZE of a test program: what it may print into its log

_PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclass(frozen=True)
class Rlimits:
    address_space_bytes: int | None = None
    file_size_bytes: int = OUTPUT_LIMIT_BYTES

    def apply(self) -> None:
        """Runs in the child between fork and exec (inherited by everything it starts)."""
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_FSIZE, (self.file_size_bytes, self.file_size_bytes))
        if self.address_space_bytes:
            resource.setrlimit(resource.RLIMIT_AS, (self.address_space_bytes, self.address_space_bytes))
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)


def _statm_resident(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return 0


def _children(pid: int) -> list[int]:
    found = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                found += [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            continue
    return found


def _descendants(pid: int) -> list[int]:
    """Every live process below `pid` (/proc/PID/task/TID/children), parents first."""
    order, todo = [], _children(pid)
    while todo:
        child = todo.pop(0)
        order.append(child)
        todo += _children(child)
    return order


def tree_resident_bytes(pid: int) -> int:
    """The resident memory of a process and of every live process below it."""
    return _statm_resident(pid) + sum(_statm_resident(p) for p in _descendants(pid))


class Box:
    """One running program in its box: the interface the runner uses."""

    def __init__(self, proc: subprocess.Popen):
        self.proc = proc

    def poll(self) -> int | None:
        """The program's exit status once it has ended (negative: killed by that signal)."""
        return self.proc.poll()

    def wait(self, timeout: float | None = None) -> int:
        return self.proc.wait(timeout)

    def resident_bytes(self) -> int:
        return _statm_resident(self.proc.pid)

    def kill_tree(self) -> None:
        """Kills the program and everything it started that is still in its session."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def leftovers(self) -> list[Leftover]:
        """Stops what the ended program left running and says what it was."""
        return leftovers_of.stop_leftovers(self.proc.pid)


class NamespaceBox(Box):
    """Inside the namespace: bwrap's init (`init_pid`), its child the shell of
    `NAMESPACE_SHIM`, and the program, the shell's child. When the program ends the shell says so on `exited` and waits:
    what the program left running is still there for the grader to name (the kernel would kill
    it with the namespace), until `leftovers` kills the namespace."""

    def __init__(self, proc: subprocess.Popen, init_pid: int | None, exited: IO[bytes], status: IO[bytes]):
        super().__init__(proc)
        self.init_pid = init_pid
        self.exited = exited
        self.status = status
        self.final: int | None = None
        self.seen: list[Leftover] = []

    def _ended(self, status_line: bytes) -> None:
        self.exited.close()
        try:
            self.final = _shell_status(int(status_line))
        except ValueError:
            # The shell is gone without a word: the namespace was killed (a limit, or lab code
            # killed the shell), and whatever is still listed in it is dying, not left running.
            self.final = _shell_status(self.proc.wait())
            return
        tree = _descendants(self.init_pid) if self.init_pid is not None else []
        # tree[0] is the shell; everything else is what the program started.
        self.seen = [l for l in (leftovers_of.describe_process(p) for p in tree[1:]) if l is not None]

    def poll(self) -> int | None:
        if self.final is None and select.select([self.exited], [], [], 0)[0]:
            self._ended(self.exited.readline())
        return self.final

    def wait(self, timeout: float | None = None) -> int:
        if self.final is None:
            if not select.select([self.exited], [], [], timeout)[0]:
                raise subprocess.TimeoutExpired(self.proc.args, timeout)
            self._ended(self.exited.readline())
        return self.final

    def resident_bytes(self) -> int:
        if self.init_pid is None:
            return 0
        return sum(_statm_resident(p) for p in _descendants(self.init_pid))

    def kill_tree(self) -> None:
        if self.init_pid is None:  # bwrap did not get as far as the namespace
            super().kill_tree()
            return
        # The kernel kills the whole PID namespace with its first process; bwrap's own process
        # then reaps it and exits (killing that one too would leave the first process a zombie).
        try:
            os.kill(self.init_pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def leftovers(self) -> list[Leftover]:
        self.kill_tree()
        self.proc.wait()
        self.status.close()
        if self.final is None:
            self.final = _shell_status(self.proc.returncode)
            self.exited.close()
        found, self.seen = self.seen, []  # said once
        return found


# The namespace's program runs under this bash script: it writes the program's exit status on
# fd EXITED (which the program does not inherit) and then waits to be killed with the
# namespace. Its own messages ("Segmentation fault") go nowhere: the log is the program's.
NAMESPACE_SHIM = 'exec {err}>&2 2>/dev/null; "$@" 2>&$err {err}>&- EXITED>&-; echo $? >&EXITED; exec sleep infinity'


def _shell_status(rc: int) -> int:
    """The shell (and bwrap) pass a death by signal N on as 128 + N: give it back its sign."""
    if rc > 128 and rc - 128 < signal.NSIG:
        return -(rc - 128)
    return rc

