"""The limits of a build step that compiles student code, and the watch that enforces them.

A compiler reading a submission's file is student code running: `#include "/dev/zero"`, a
template that instantiates itself without end or a constexpr loop each just under the
compiler's own operation limit can take all the memory or hours of a core. Every build step
of a lab's test program is watched while it runs (`watch`): each process of it (the build
tool, the simulator's rewriter, the compiler's driver and its compiler proper, the linker)
may use at most `memory_bytes` of resident memory and `cpu_seconds` of CPU, be alive for
`process_wall_s`, the step may have at most `processes` alive at once and print at most
`output_bytes`, and it may not sit for `waiting_s` with every process of it asleep and none
using any CPU (`#include "/dev/stdin"`, of /proc/self/fd/2 or of /dev/ptmx: a read of a pipe or
a terminal that nothing will ever write, which costs no CPU and no memory); every file it writes
is limited by RLIMIT_FSIZE (`file_bytes`). The first
limit crossed kills the whole step (the box and everything in it) and says which process,
compiling which file, crossed which limit (`LimitHit`), on a line of the step's output that
`limit_hit` reads back: grading.py words it as the student's compile error when the file is
the submission's, graded once, never retried.

The limits are here, in one place (SCANLAB_BUILD_MEMORY_MIB, SCANLAB_BUILD_CPU_S and
SCANLAB_BUILD_WAITING_S change three of them); grader/README.md ("Limits and isolation") states them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO

from .running import Box, _descendants

MARK = "scanlab-build-limit: "  # the line of a step's output that says which limit stopped it
_POLL_S = 0.1  # /dev/zero grows a compiler by about 200 MiB/s: 20 MiB over the limit at most
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")
_SOURCE_SUFFIXES = (".cu", ".cpp", ".cc", ".cxx", ".c", ".cuh", ".hpp", ".h")


@dataclass(frozen=True)
class BuildLimits:
    # The largest lab's compile (lab 10's instantiations on the simulator) peaks at 315 MiB
    # resident and 19 s of CPU (README, "The build is student code too: its limits").
    memory_bytes: int = 1 << 30  # resident memory of any one process
    cpu_seconds: float = 60.0  # CPU time of any one process
    process_wall_s: float = 300.0  # how long any one process may live (one that waits uses no CPU)
    # How long the whole step may wait with no process of it running or in the disk's queue and
    # its CPU time not growing: a compiler blocked reading a pipe or terminal it included. A
    # build that works is never in that state for long (each step computes, or waits for a
    # child that does); a machine that is merely busy keeps its processes runnable, not asleep.
    waiting_s: float = 20.0
    output_bytes: int = 16 << 20  # what the step prints (an error cascade of a template bomb)
    processes: int = 64  # processes of the step alive at once
    # RLIMIT_FSIZE of every file the step writes: the largest a lab's build writes is its test
    # program, about 40 MiB (lab 10 on the simulator; the kit's runtime archive, 37 MiB, is built
    # outside this step). `__device__ char big[3000000000] = {1};` would write 3 GB into the
    # build tree, and keep it there, for every such submission of a batch.
    file_bytes: int = 512 << 20


def _from_environment() -> BuildLimits:
    """The limits, with SCANLAB_BUILD_MEMORY_MIB, SCANLAB_BUILD_CPU_S and SCANLAB_BUILD_WAITING_S
    where they are set (a machine much slower than the kit's, a self-test that need not spend a
    minute per bomb)."""
    limits = BuildLimits()
    memory = os.environ.get("SCANLAB_BUILD_MEMORY_MIB", "").strip()
    cpu = os.environ.get("SCANLAB_BUILD_CPU_S", "").strip()
    waiting = os.environ.get("SCANLAB_BUILD_WAITING_S", "").strip()
    return BuildLimits(memory_bytes=int(memory) << 20 if memory else limits.memory_bytes,
                       cpu_seconds=float(cpu) if cpu else limits.cpu_seconds,
                       waiting_s=float(waiting) if waiting else limits.waiting_s)


LIMITS = _from_environment()


@dataclass(frozen=True)
class LimitHit:
    limit: str  # memory | cpu | wall | waiting | output | processes | file
    program: str  # the process that crossed it ("cc1plus"), "" for the step's output
    file: str  # the file it was compiling (its path as given), "" where none is named
    amount: str  # what the limit is, in words ("1 GiB", "60 s of CPU")

    def line(self) -> str:
        return MARK + json.dumps(asdict(self))


# gcc's driver, when RLIMIT_FSIZE stopped the compiler or the assembler writing its output.
_FILE_TOO_LARGE = re.compile(r"File size limit exceeded signal terminated program (?P<program>\S+)")


def limit_hit(output: str, limits: BuildLimits = LIMITS) -> LimitHit | None:
    """The limit that stopped a build step, from the line `watch` added to its output, or the
    driver's word that a program of it was stopped writing a file past `file_bytes`."""
    for line in reversed(output.splitlines()[-20:]):
        if line.startswith(MARK):
            try:
                return LimitHit(**json.loads(line[len(MARK):]))
            except (TypeError, ValueError):
                return None
    if (m := _FILE_TOO_LARGE.search(output)) is not None:
        return LimitHit("file", m.group("program"), "", _in_words(limits.file_bytes) + " in one file")
    return None


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def _stat_fields(pid: int) -> list[str]:
    data = _read(f"/proc/{pid}/stat").decode(errors="replace")
    return data[data.rindex(")") + 2:].split() if ")" in data else []


def _cmdline(pid: int) -> list[str]:
    return [a.decode(errors="replace") for a in _read(f"/proc/{pid}/cmdline").split(b"\0") if a]


def _compiled_file(pid: int) -> str:
    """The source file a process (or the nearest of its parents that names one) works on: the
    argument after -c, or the first argument with a source suffix."""
    for _ in range(4):
        args = _cmdline(pid)
        if "-c" in args[:-1]:
            return args[args.index("-c") + 1]
        for arg in args[1:]:
            if arg.endswith(_SOURCE_SUFFIXES) and not arg.startswith("-"):
                return arg
        fields = _stat_fields(pid)
        if len(fields) < 2 or int(fields[1]) <= 1:
            break
        pid = int(fields[1])
    return ""


def _program(pid: int) -> str:
    return _read(f"/proc/{pid}/comm").decode(errors="replace").strip()


def _in_words(n_bytes: int) -> str:
    return f"{n_bytes >> 30} GiB" if n_bytes % (1 << 30) == 0 else f"{n_bytes >> 20} MiB"


@dataclass
class _Peaks:
    """The largest resident memory and CPU time of any one process of a step, and whose."""
    resident: int = 0
    cpu: float = 0.0
    resident_of: str = ""
    cpu_of: str = ""

    def line(self) -> str:
        return (f"scanlab-build-peaks: {self.resident >> 20} MiB resident ({self.resident_of}), "
                f"{self.cpu:.1f} s of CPU ({self.cpu_of})")


@dataclass
class _Waiting:
    """Since when every process of a step has been asleep with the step's CPU time unchanged."""
    since: float | None = None
    seen: tuple = ()


def _over(pids: list[int], limits: BuildLimits, now: float, boot: float, peaks: _Peaks,
          waiting: _Waiting | None = None) -> LimitHit | None:
    if len(pids) > limits.processes:
        return LimitHit("processes", _program(pids[-1]), _compiled_file(pids[-1]), f"{limits.processes} processes")
    asleep, ticks = True, 0
    for pid in pids:
        fields = _stat_fields(pid)
        if len(fields) < 20 or fields[0] in ("Z", "X"):
            continue
        asleep = asleep and fields[0] in ("S", "I")
        ticks += int(fields[11]) + int(fields[12])
        statm = _read(f"/proc/{pid}/statm").split()
        resident = int(statm[1]) * _PAGE if len(statm) > 1 else 0
        cpu = (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
        age = now - (boot + int(fields[19]) / _CLOCK_TICKS)
        if resident > peaks.resident:
            peaks.resident, peaks.resident_of = resident, f"{_program(pid)} {Path(_compiled_file(pid)).name}"
        if cpu > peaks.cpu:
            peaks.cpu, peaks.cpu_of = cpu, f"{_program(pid)} {Path(_compiled_file(pid)).name}"
        hit = ("memory", _in_words(limits.memory_bytes)) if resident > limits.memory_bytes else \
            ("cpu", f"{limits.cpu_seconds:g} s of CPU") if cpu > limits.cpu_seconds else \
            ("wall", f"{limits.process_wall_s:g} s") if age > limits.process_wall_s else None
        if hit is not None:
            return LimitHit(hit[0], _program(pid), _compiled_file(pid), hit[1])
    if waiting is not None:
        seen = (tuple(pids), ticks)
        if not asleep or seen != waiting.seen or waiting.since is None:
            waiting.since, waiting.seen = (now if asleep else None), seen
        elif now - waiting.since > limits.waiting_s:
            # The deepest process is the one that reads (a compiler; its parents wait for it).
            return LimitHit("waiting", _program(pids[-1]), _compiled_file(pids[-1]),
                            f"{limits.waiting_s:g} s")
    return None


def _boot_time() -> float:
    for line in _read("/proc/stat").decode().splitlines():
        if line.startswith("btime "):
            return float(line.split()[1])
    return 0.0


def watch(box: Box, out: IO[bytes], timeout: float, limits: BuildLimits = LIMITS) -> tuple[int, str]:
    """Waits for a build step's box to end, enforcing `limits` and `timeout` (the whole step):
    (its exit status, 124 when it ran out of time, and a line to add to its output: the
    LimitHit, or the time-out, or "")."""
    deadline = time.monotonic() + timeout
    boot = _boot_time()
    peaks = _Peaks()
    waiting = _Waiting()
    # SCANLAB_BUILD_PEAKS=1: every step says its largest process (how the limits were measured).
    measured = os.environ.get("SCANLAB_BUILD_PEAKS") == "1"
    while True:
        try:
            rc = box.wait(_POLL_S)
            return rc, peaks.line() if measured else ""
        except subprocess.TimeoutExpired:
            pass
        root = getattr(box, "init_pid", None) or box.proc.pid
        if os.fstat(out.fileno()).st_size > limits.output_bytes:
            hit = LimitHit("output", "", "", _in_words(limits.output_bytes) + " of messages")
        else:
            hit = _over([root] + _descendants(root), limits, time.time(), boot, peaks, waiting)
        if hit is not None or time.monotonic() > deadline:
            box.kill_tree()
            return (125, hit.line()) if hit is not None else (124, f"[build step timed out after {timeout:g} s]")

