"""Runs a lab's test program in child processes and turns the signed records
into one outcome per test.

Every child gets a fresh key, a wall-time limit per test, optional address-space
and output-size limits, and starts in the sandbox this grade process chose
(sandbox/): its lab's log folder, with a scratch folder inside, is all it may
write (in the namespace box; see sandbox/ for the others), a kill reaches
everything it started, and whatever it started is stopped when it ends. A crash,
hang or early exit fails the test that was running; the
tests that had not run yet are run again in a new child (at most
``max_restarts`` times), so one crash costs only the test it killed.
"""

from __future__ import annotations

import os
import re
import selectors
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from scanlab_findings import records as findings_of

from . import gtest_filter, sandbox
from .busy_clock import BusyClock, StretchedLimit
from .protocol import KEY_BYTES, KEY_FD_ENV, RESULT_FD_ENV, RecordStream

HARNESS_NO_KEY_EXIT = 70  # harness_main.cpp: kExitNoKey
FINDINGS_ENV = "SCANLAB_SIM_REPORT_JSON"  # where the simulator also writes each finding's record
FINDINGS_FILE = "simulator-findings.jsonl"  # in the run's scratch folder
OUTPUT_LIMIT_BYTES = sandbox.OUTPUT_LIMIT_BYTES


@dataclass
class Limits:
    # Both time limits stretch while the machine is too busy to run the program (busy_clock.py).
    test_timeout_s: float = 60.0  # one test's wall time
    total_timeout_s: float = 900.0  # all runs of one lab program together
    memory_bytes: int | None = 4 << 30  # resident memory (polled); None: no limit
    address_space_bytes: int | None = None  # RLIMIT_AS; None: no limit
    max_restarts: int = 16
    max_timeouts: int = 2  # after this many hung tests the rest of the lab is not run


@dataclass
class TestOutcome:
    name: str
    status: str  # pass | fail | skip | crash | timeout | exit | not-run | not-ours
    reason: str = ""  # one line, for the table
    details: list[str] = field(default_factory=list)  # the evidence in words (what a student reads)
    ms: int = 0
    measured: list[str] = field(default_factory=list)  # what the test measured, beside pass or fail
    findings: list[dict] = field(default_factory=list)  # the simulator's reports while it ran (protocol.Ended)
    assertions: list[str] = field(default_factory=list)  # GoogleTest's own text of the failures (--verbose)


@dataclass
class SuiteRun:
    plan: list[str] | None = None
    outcomes: dict[str, TestOutcome] = field(default_factory=dict)
    error: str | None = None  # the program failed as a whole (nothing attributable to a test)
    tampered: str | None = None
    not_ours: str | None = None  # a run stopped twice by something that is not the student's doing
    notes: list[str] = field(default_factory=list)
    stopped: list[str] = field(default_factory=list)  # what lab code left running, one line per run
    exit_codes: list[int] = field(default_factory=list)
    output_tail: str = ""
    runs: int = 0


# Signals a test program may die of that the grader did not send, with no error the simulator
# found behind them (warnings explain no crash): the test is run once more before anyone is
# charged. SIGKILL cannot come
# from a fault of the code: another process sent it (the kernel's out-of-memory killer, an
# operator), so a test killed by it twice is not graded (status NOT_OURS), never charged. A
# fault (SIGSEGV, SIGBUS, ...) that comes again is the program's own, and charged as a crash.
RETRIED_SIGNALS = {signal.SIGKILL, signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE, signal.SIGABRT,
                   signal.SIGTERM, signal.SIGHUP}
FROM_OUTSIDE = {signal.SIGKILL, signal.SIGTERM, signal.SIGHUP}
NOT_OURS = "not-ours"  # a TestOutcome's status: stopped by something that is not the student's doing


HOST_FAULT = "host fault"  # the role of the faulting line in a host fault's record (threads/fault_handler.cpp)


@dataclass(frozen=True)
class HostFault:
    """Where host code faulted, from the simulator's record: the lab's own line on the call chain
    (the student's: a host pointer never set, a device pointer dereferenced) or, where the lab's
    code is nowhere on it, the kit's innermost line."""
    record: dict
    students: str  # "02-kogge-stone/kogge_stone.cu:170", or "" where the lab's code is not on the chain
    kits: str  # the innermost line of the chain, if not the student's ("" too where no line is known)

    @staticmethod
    def of(records: list[dict], lab_dir: str | None) -> HostFault | None:
        for record in records:
            parties = [p for p in record.get("parties", []) if isinstance(p, dict)]
            if not parties or parties[0].get("role") != HOST_FAULT or lab_dir is None:
                continue
            places = [f"{p.get('file', '')}:{p.get('line', 0)}" for p in parties]
            students = next((place for place in places if place.startswith(lab_dir + "/")), "")
            innermost = places[0] if parties[0].get("file") and not students else ""
            return HostFault(record, students, innermost)
        return None

    def as_students(self) -> dict:
        """The record as the student reads it: the faulting line and, where that is the kit's,
        the student's line that called it; the test's own frames around them are left out."""
        parties = [p for p in self.record.get("parties", []) if isinstance(p, dict)]
        def place(p: dict) -> str:
            return f"{p.get('file', '')}:{p.get('line', 0)}"
        kept = parties[:1] + [dict(p, role="called from") for p in parties[1:]
                              if place(p) == self.students and place(parties[0]) != self.students][:1]
        return {**self.record, "parties": kept}


def signal_name(num: int) -> str:
    try:
        return signal.Signals(num).name
    except ValueError:
        return f"signal {num}"


def _tail(path: Path, lines: int = 200, max_bytes: int = 65536) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - max_bytes))
            data = f.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
    return "\n".join(data.splitlines()[-lines:])


@dataclass
class _Single:
    stream: RecordStream
    rc: int | None = None
    timed_out: str | None = None  # reason when we killed it for time or memory
    memory: bool = False  # killed for memory
    started_at: float = 0.0
    leftovers: list[sandbox.Leftover] = field(default_factory=list)  # what it left running
    channel_held: bool = False  # a leftover had the result channel open
    stretched: str | None = None  # a test's limit the machine's load stretched, described


def _stop_leftovers(single: _Single, box: sandbox.Box, channel_inode: int) -> None:
    for leftover in box.leftovers():
        single.leftovers.append(leftover)
        single.channel_held |= channel_inode in leftover.holds


def run_once(cmd: list[str], *, env: dict[str, str], cwd: Path, log_path: Path, limits: Limits,
             lab_limit: StretchedLimit, scratch: Path) -> _Single:
    """One run of a test program in the sandbox. It may write its lab's log folder only
    (compute-sanitizer writes its report there); `scratch`, inside it, is its TMPDIR."""
    key = os.urandom(KEY_BYTES)
    key_r, key_w = os.pipe()
    res_r, res_w = os.pipe()
    try:
        os.write(key_w, key)  # 32 bytes always fit in the pipe buffer
    finally:
        os.close(key_w)
    child_env = dict(env)
    child_env[KEY_FD_ENV] = str(key_r)
    child_env[RESULT_FD_ENV] = str(res_w)
    single = _Single(RecordStream(key))
    with open(log_path, "ab") as log:
        try:
            # The memory limit is on the resident-set size, polled below: the simulator
            # reserves (but does not touch) many GiB of address space for device memory and
            # race detection, so RLIMIT_AS is only an opt-in extra.
            box = sandbox.current().spawn(cmd, cwd=cwd, env=child_env, stdout=log, writable=(log_path.parent,),
                                          scratch=scratch, pass_fds=(key_r, res_w),
                                          rlimits=sandbox.Rlimits(limits.address_space_bytes))
        finally:
            os.close(key_r)
            os.close(res_w)
    channel_inode = os.fstat(res_r).st_ino
    sel = selectors.DefaultSelector()
    sel.register(res_r, selectors.EVENT_READ)
    stream = single.stream
    test_limit = StretchedLimit(lab_limit.clock, limits.test_timeout_s)
    eof = False
    exited_at = None
    try:
        while not eof:
            now = time.monotonic()
            if exited_at is None and box.poll() is not None:
                exited_at = now
                # Whatever it started goes with it; that also closes every other copy of the
                # channel, so what the program wrote before it exited is read to the end.
                _stop_leftovers(single, box, channel_inode)
            if exited_at is not None and now - exited_at > 2.0:
                break  # something the program started keeps the channel open
            if exited_at is None:
                lab_limit.clock.tick()
                limit_hit = None
                if lab_limit.expired():
                    limit_hit = "the lab's total time limit ran out"
                elif test_limit.expired():
                    limit_hit = f"timed out after {test_limit.describe()}"
                elif limits.memory_bytes and box.resident_bytes() > limits.memory_bytes:
                    limit_hit = f"used more than {limits.memory_bytes >> 20} MiB of memory"
                    single.memory = True
                if limit_hit:
                    single.timed_out = limit_hit
                    box.kill_tree()
                    box.wait()
                    exited_at = time.monotonic()
                    _stop_leftovers(single, box, channel_inode)
            for _key, _mask in sel.select(timeout=0.1):
                data = os.read(res_r, 65536)
                if not data:
                    eof = True
                    break
                if stream.feed(data):
                    if test_limit.stretched():
                        single.stretched = test_limit.describe()
                    test_limit.restart()
        if exited_at is None:
            # The channel closed (the harness closes it after the last record); give
            # the program the rest of a test's time limit to exit.
            try:
                box.wait(timeout=max(0.1, min(limits.test_timeout_s, lab_limit.left_s())))
            except subprocess.TimeoutExpired:
                single.timed_out = f"did not exit within {limits.test_timeout_s:g} s"
    finally:
        sel.close()
        os.close(res_r)
        if box.poll() is None:
            box.kill_tree()
        single.rc = box.wait()
        _stop_leftovers(single, box, channel_inode)
    stream.finish()
    return single


def _failure_lines(failures: list[dict], repo: Path | None) -> list[str]:
    lines = []
    for f in failures:
        where = str(f.get("file") or "")
        if repo is not None and where.startswith(str(repo) + os.sep):
            where = where[len(str(repo)) + 1 :]
        line = int(f.get("line") or 0)
        prefix = f"{where}:{line}: " if where and line else (f"{where}: " if where else "")
        message = str(f.get("message", "")).rstrip()
        if repo is not None:
            message = message.replace(str(repo) + os.sep, "")
        first, *rest = message.splitlines() or [""]
        lines.append(prefix + first)
        lines.extend("  " + r for r in rest)
    return lines


def _explained(message: str) -> tuple[list[str], list[str]]:
    """A failure message as (what it says, its scopes): the explanation of an AssertionResult
    (EXPECT_TRUE(check()) prints it between 'Actual: false (' and ')'), or the message itself,
    and the SCOPED_TRACE lines GoogleTest adds (the size and tile the test ran)."""
    message, _, trace = message.partition("Google Test trace:")
    explained = re.search(r"Actual: false \((.*)\)\s*Expected: true\s*$", message, re.DOTALL)
    if explained:
        message = explained.group(1)
    said = [l.strip() for l in message.strip().splitlines() if l.strip()]
    scopes = [t.split(": ", 1)[-1].strip() for t in trace.strip().splitlines() if t.strip()]
    return said, scopes


MAX_EVIDENCE_LINES = 5  # of one failure; --verbose shows GoogleTest's whole text


def _evidence(failures: list[dict], repo: Path | None) -> list[str]:
    """The first failure of a test in words: where it ran ("at n = 1000, tile_size = 256") and
    what its check found, without GoogleTest's own words; the rest is for --verbose."""
    if not failures:
        return []
    message = str(failures[0].get("message", ""))
    if repo is not None:
        message = message.replace(str(repo) + os.sep, "")
    said, scopes = _explained(message)
    if not said:
        return []
    head = f"at {scopes[0]}: " if scopes else ""
    lines = [head + said[0]] + ["  " + l for l in said[1:]]
    if len(lines) > MAX_EVIDENCE_LINES:
        # The first mismatches say where it went wrong, the last line how much (a count, a total).
        hidden = len(lines) - MAX_EVIDENCE_LINES + 1
        lines = lines[: MAX_EVIDENCE_LINES - 2] + [f"  ... {hidden} more line{'s' if hidden > 1 else ''}", lines[-1]]
    return lines


def _summary(failures: list[dict], repo: Path | None = None) -> str:
    """The first failure as one line: '[where it ran] what it found'. The assertion's own place
    (a line of the kit's test code) is no place a student can act on: --verbose shows it."""
    if not failures:
        return "failed"
    message = str(failures[0].get("message", ""))
    if repo is not None:
        message = message.replace(str(repo) + os.sep, "")
    said, scopes = _explained(message)
    text = " ".join(" ".join(said).split())
    return f"[{scopes[0]}] {text}" if scopes else text


def _findings_not_sent(findings_file: Path, stream: RecordStream) -> list[dict]:
    """The simulator's records of a run that died which no test's result carried: those of the
    test that was running. A record the program printed has its number in the process (those
    sent are known by it); one made but not printed yet (a signal's) has number 0."""
    sent = {r.get("number") for ended in stream.ended.values() for r in ended.findings}
    return [r for r in findings_of.records_in_file(findings_file)
            if not r.get("number") or r.get("number") not in sent]


def _output_of(tail: str, test: str | None) -> list[str]:
    """What the program printed since gtest announced `test` (or the last lines)."""
    lines = tail.splitlines()
    if test:
        marker = f"[ RUN      ] {test}"
        for i in range(len(lines) - 1, -1, -1):
            if lines[i].strip() == marker:
                return lines[i + 1 :][-15:]
    return lines[-15:]


def run_suite(cmd_for: Callable[[str | None, int], list[str]], *, env: dict[str, str], cwd: Path,
              log_dir: Path, limits: Limits, only: list[str] | None = None, repo: Path | None = None,
              label: str = "run", lab_dir: str | None = None) -> SuiteRun:
    """cmd_for(filter, attempt) -> argv. `only`: run just these tests (by full name). `lab_dir`
    (NN-name) tells a fault of the lab's own host code from one in the kit's code."""
    suite = SuiteRun()
    log_dir.mkdir(parents=True, exist_ok=True)
    lab_limit = StretchedLimit(BusyClock(), limits.total_timeout_s)
    scratch = log_dir / f"{label}-scratch"
    selected = list(only) if only is not None else None
    attempt = 0
    hung = 0
    died: dict[str | None, str] = {}  # test (None: before the first) -> how it died the first time
    retried: dict[str | None, str] = {}  # the note for a test run again, said once its run came through
    while True:
        flt = gtest_filter.exact(selected) if selected is not None else None
        log_path = log_dir / f"{label}-{attempt}.log"
        log_path.unlink(missing_ok=True)
        shutil.rmtree(scratch, ignore_errors=True)  # each run starts with an empty one
        scratch.mkdir()
        # The simulator writes every finding there too, so that those of a test the program
        # died in, which never reached the result channel, are not lost.
        findings_file = scratch / FINDINGS_FILE
        run_env = {**env, FINDINGS_ENV: str(findings_file)}
        single = run_once(cmd_for(flt, attempt), env=run_env, cwd=cwd, log_path=log_path, limits=limits,
                          lab_limit=lab_limit, scratch=scratch)
        suite.runs += 1
        suite.exit_codes.append(single.rc)
        suite.output_tail = _tail(log_path)
        if single.leftovers:
            suite.stopped.append(sandbox.describe(single.leftovers))
        if single.stretched and not single.timed_out:
            suite.notes.append(f"the machine was busy: a test ran {single.stretched}")
        if single.channel_held:
            suite.error = ("lab code started a process that kept the grader's result channel open after the "
                           "test program ended; it was stopped, and the lab's results cannot be trusted")
            return suite
        stream = single.stream
        if suite.plan is None:
            suite.plan = stream.plan
        for name, ended in stream.ended.items():
            if ended.result == "pass":
                suite.outcomes[name] = TestOutcome(name, "pass", ms=ended.ms, measured=ended.measured,
                                                   findings=ended.findings)
            elif ended.result == "skip":
                why = _summary(ended.failures, repo) if ended.failures else "no reason given"
                suite.outcomes[name] = TestOutcome(name, "skip", f"{name} was skipped: {why}",
                                                   _evidence(ended.failures, repo), ended.ms, ended.measured,
                                                   ended.findings, _failure_lines(ended.failures, repo))
            else:
                suite.outcomes[name] = TestOutcome(name, "fail", f"{name} failed: {_summary(ended.failures, repo)}",
                                                   _evidence(ended.failures, repo), ended.ms, ended.measured,
                                                   ended.findings, _failure_lines(ended.failures, repo))
        for name in [n for n in retried if (n in stream.ended if n is not None else stream.plan is not None)]:
            suite.notes.append(retried.pop(name))
        if stream.tampered:
            suite.tampered = stream.tampered
            return suite

        rc = single.rc
        current = stream.current
        where = f" during {current}" if current else (
            f" after {stream.order[-1]}" if stream.order else " before the first test")
        if stream.complete_count is not None:
            if single.timed_out:
                suite.notes.append(f"the test program did not exit after all tests had finished ({single.timed_out})")
            elif rc is not None and rc < 0:
                suite.notes.append(f"the test program crashed with {signal_name(-rc)} after all tests had finished")
            if stream.complete_count != len(stream.ended):
                suite.error = (f"the harness reported {stream.complete_count} finished tests "
                               f"but sent results for {len(stream.ended)}")
            planned = stream.plan or []
            for name in planned:
                if name not in suite.outcomes:
                    suite.outcomes[name] = TestOutcome(name, "not-run", f"{name} did not run")
            return suite

        # The program ended abnormally.
        if single.timed_out:
            kind = "memory" if single.memory else "timeout"
            reason = f"{single.timed_out}{where}"
        elif rc == HARNESS_NO_KEY_EXIT and stream.plan is None:
            kind = "crash"
            reason = "the test harness could not read the grader's key (was it read by lab code?)"
        elif rc is not None and rc < 0:
            kind = "crash"
            sig = signal_name(-rc)
            reason = f"crashed with {sig}{where}"
            if sig == "SIGXFSZ":
                reason += f" (printed more than {OUTPUT_LIMIT_BYTES >> 20} MiB)"
        elif rc == 0:
            kind = "exit"
            reason = f"the test program exited before finishing (exit() called from lab code?){where}"
        else:
            kind = "exit"
            reason = f"the test program exited with status {rc} before finishing{where}"
        tail = _output_of(suite.output_tail, current)
        details = ["what the program printed last:"] + ["  " + l for l in tail] if tail else []
        left = _findings_not_sent(findings_file, stream) if current else []
        fault = HostFault.of(left, lab_dir) if kind == "crash" else None
        in_kit = ""
        if fault is not None and fault.students:
            reason += f" in your host code at {fault.students}"
            left = [fault.as_students() if r is fault.record else r for r in left]
        elif fault is not None:
            # Host code faulted with no line of the lab's on its call chain: the kit's code, which
            # is no finding of the student's; charged only as a signal the grader did not send is.
            left = [r for r in left if r is not fault.record]
            in_kit = f" in the kit's code at {fault.kits}" if fault.kits else " inside a library the kit called"
        # A warning (a volatile read that may see a stale value, say) explains no crash.
        errors_left = [r for r in left if r.get("severity", "error") != "warning"]
        if kind == "crash" and rc is not None and rc < 0 and errors_left and fault is None:
            # The simulator stopped the kernel at an error and the kit's test code ended on it:
            # the findings are the cause, the signal only how the program ended.
            reason = (f"stopped by the simulator's findings below{where} (the test program then ended with "
                      f"{signal_name(-rc)})")
        if (kind == "crash" and rc is not None and -rc in RETRIED_SIGNALS and not errors_left
                and (current is not None or suite.plan is None)):
            sig = signal_name(-rc)
            if current not in died:
                # Not sent by the grader and nothing found behind it: run the test once more
                # before anyone is charged for it.
                died[current] = sig
                retried[current] = (f"not your code: the test program died of {sig}{where}{in_kit}, a signal the "
                                    f"grader did not send, with nothing found in the lab's code; "
                                    f"{current or 'the program'} was run again and graded by that run")
                attempt += 1
                if attempt <= limits.max_restarts and not lab_limit.expired():
                    if current is None:
                        suite.plan = None
                    else:
                        selected = [t for t in (selected if selected is not None else suite.plan)
                                    if t not in suite.outcomes]
                    continue
            elif -rc in FROM_OUTSIDE and died[current] == sig:
                kind = NOT_OURS
                reason = (f"not your code: the test program was killed by {sig}{where} twice, by something "
                          f"other than the grader (the machine may have run out of memory)")
                suite.not_ours = reason
            elif in_kit and died[current] == sig:
                kind = NOT_OURS
                reason = (f"not your code: the test program died of {sig}{where} twice{in_kit}, with no line "
                          f"of the lab's code on the way there")
                suite.not_ours = reason
            else:
                reason += f" (and again when run once more, after {died[current]})"
        if current:
            suite.outcomes[current] = TestOutcome(current, kind, reason, details, findings=left)
        if suite.plan is None:
            suite.error = reason
            suite.notes.extend(details)
            return suite
        remaining = [t for t in (selected if selected is not None else suite.plan) if t not in suite.outcomes]
        if not remaining:
            return suite
        progress = current is not None or bool(stream.ended)
        attempt += 1
        if kind == "timeout" and current:
            hung += 1
        lab_limit.clock.tick()
        out_of_time = lab_limit.expired()
        too_many_hangs = hung >= limits.max_timeouts
        if not progress or attempt > limits.max_restarts or out_of_time or too_many_hangs:
            why = ("the lab's total time limit ran out" if out_of_time else
                   f"{hung} tests had already timed out" if too_many_hangs else
                   "too many restarts" if progress else reason)
            for name in remaining:
                suite.outcomes[name] = TestOutcome(name, kind if not progress else "not-run",
                                                   f"{name} did not run: {why}", details)
            return suite
        selected = remaining
