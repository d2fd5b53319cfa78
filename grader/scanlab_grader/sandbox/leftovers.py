"""Nothing a test program starts outlives it.

A test program runs in a session of its own, so a kill of its process group reaches what lab
code forked. A process that called setsid() has left that session; to find it anyway the
grader makes itself a child subreaper (prctl PR_SET_CHILD_SUBREAPER, Linux 3.4 and later, no
privileges needed): a descendant whose parent dies is re-parented to the grader instead of to
init, so after the test program has exited every process it started is either still in its
session or a child of the grader. stop_leftovers() kills both kinds, round after round, until
none is left, and says what it stopped.
"""

from __future__ import annotations

import ctypes
import os
import signal
import time
from dataclasses import dataclass

_PR_SET_CHILD_SUBREAPER = 36
_ROUNDS = 50  # each round stops one more generation of a process tree


def become_subreaper() -> bool:
    """Makes orphaned descendants of this process its children. False where the platform has
    no subreapers (then only the test program's session is searched)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


@dataclass(frozen=True)
class Leftover:
    pid: int
    command: str
    holds: frozenset[int]  # inode numbers of the pipes it has open


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent pid, session id) of a process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read().decode(errors="replace")
    except OSError:
        return None
    fields = data[data.rindex(")") + 2 :].split()  # the command name may hold spaces and ')'
    return fields[0], int(fields[1]), int(fields[3])


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            args = f.read().split(b"\0")
        with open(f"/proc/{pid}/comm", "rb") as f:
            name = f.read().decode(errors="replace").strip()
    except OSError:
        return "?"
    text = " ".join(a.decode(errors="replace") for a in args if a)
    return f"{name}: {text}" if text and not text.split()[0].endswith(name) else (text or name)


def _pipes(pid: int) -> frozenset[int]:
    inodes = set()
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith("pipe:["):
                inodes.add(int(target[6:-1]))
    except OSError:
        pass
    return frozenset(inodes)


def _candidates(session: int) -> list[int]:
    me = os.getpid()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        stat = _stat(int(entry))
        if stat is None or stat[0] in ("Z", "X"):
            continue
        _state, parent, sid = stat
        if sid == session or parent == me:
            found.append(int(entry))
    return found


def describe_process(pid: int) -> Leftover | None:
    """What a live process is and which pipes it holds; None when it is gone."""
    stat = _stat(pid)
    if stat is None or stat[0] in ("Z", "X"):
        return None
    return Leftover(pid, _command(pid), _pipes(pid))


def _reap_children() -> None:
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def stop_leftovers(session: int) -> list[Leftover]:
    """Kills every process still in `session` and every child of the grader (orphans of lab
    code re-parented here), until none is left. Called when no test program of the grader's is
    running, so that any child of the grader is lab code's."""
    stopped: dict[int, Leftover] = {}
    for _ in range(_ROUNDS):
        pids = _candidates(session)
        if not pids:
            break
        for pid in pids:
            if pid not in stopped:
                stopped[pid] = Leftover(pid, _command(pid), _pipes(pid))
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.02)
        _reap_children()
    return list(stopped.values())


def describe(leftovers: list[Leftover]) -> str:
    count = len(leftovers)
    started = f"{count} process{'es' if count != 1 else ''} that {'were' if count != 1 else 'was'}"
    shown = "; ".join(l.command[:80] for l in leftovers[:3]) + (" ..." if count > 3 else "")
    return f"lab code started {started} still running after the tests; {'they were' if count != 1 else 'it was'} stopped ({shown})"
