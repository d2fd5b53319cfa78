"""The harness protocol end to end: grader/grade runs the fake lab program
(fake_lab.cpp, linked with the real harness) with each misbehaviour switched on
and must classify every check correctly. Usage: test_protocol.py --fake-lab PATH"""

import argparse
import base64
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
GRADE = HERE.parent / "grade"
FAKE_LAB = None

MANIFEST = """
title = "Fake lab"
timeout_s = 3
"""
CHECKS = [
    ("passes", "correctness", "FakeLab.Passes*:FakeLabLate.*"),
    ("fails", "correctness", "FakeLab.Fails"),
    ("skips", "operation-count", "FakeLab.Skips"),
    ("crashes", "race-freedom", "FakeLab.Crashes"),
    ("hangs", "forward-progress", "FakeLab.Hangs"),
    ("exits", "correctness", "FakeLab.Exits"),
    ("forges", "input-unmodified", "FakeLab.Forges"),
    ("hogs", "correctness", "FakeLab.Hogs"),
    ("speed", "performance", "FakeLab.Passes"),
]


def manifest_text(extra_checks=()):
    """grader/labs/99-fake/lab.toml of the fake lab."""
    text = MANIFEST
    for cid, category, tests in list(CHECKS) + list(extra_checks):
        text += (f'[[check]]\nid = "{cid}"\ntitle = "{cid}"\ncategory = "{category}"\n'
                 f'tests = "{tests}"\npoints = 2\n')
    return text


def write_labs_dir(root: Path, text: str) -> Path:
    (root / "99-fake").mkdir(parents=True)
    (root / "99-fake" / "lab.toml").write_text(text)
    return root


class ProtocolTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name)
        (root / "submission" / "99-fake").mkdir(parents=True)
        cls.submission = root / "submission"
        cls.labs_dir = write_labs_dir(root / "labs", manifest_text())

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def grade(self, behaviours, labs_dir=None, extra=(), fmt="json", env=None):
        # A GTEST_FILTER (or ctest's sharding) in the grader's environment must not
        # reach the test program.
        env = dict(env or os.environ, SCANLAB_FAKE_LAB=",".join(behaviours), GTEST_FILTER="NoSuch.Test",
                   GTEST_TOTAL_SHARDS="3", GTEST_SHARD_INDEX="1")
        cmd = [str(GRADE), "--labs-dir", str(labs_dir or self.labs_dir),
               "--test-binary", f"99={FAKE_LAB}", "--submission", str(self.submission),
               "--build-root", str(Path(self.tmp.name) / "build"), "--format", fmt, *extra, "99"]
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              timeout=300)
        if fmt != "json":
            return proc.returncode, proc.stdout
        try:
            doc = json.loads(proc.stdout)
        except json.JSONDecodeError:
            self.fail(f"grade printed no JSON (rc {proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
        checks = {c["id"]: c for c in doc["labs"][0]["checks"]}
        return proc.returncode, doc, checks

    def assertCheck(self, checks, cid, status, kind=None, reason_has=None):
        c = checks[cid]
        self.assertEqual(c["status"], status, f"{cid}: {c}")
        if kind is not None:
            self.assertEqual(c["kind"], kind, f"{cid}: {c}")
        if reason_has is not None:
            self.assertIn(reason_has, c["reason"], f"{cid}: {c}")

    def assertTimedOut(self, checks, cid, test):
        """A 3 s limit hit during `test`; on a busy machine (CI runs tests side by side) the
        limit may have stretched, and then says so (scanlab_grader/busy_clock.py)."""
        self.assertCheck(checks, cid, "fail", "timeout")
        self.assertRegex(checks[cid]["reason"], r"timed out after (3 s|\d+ s \(a limit of 3 s, stretched because "
                         rf"the machine was busy: [^)]*\)) during {test}$")

    def test_all_pass(self):
        rc, doc, checks = self.grade([])
        self.assertEqual(rc, 0, doc)
        for cid, _, _ in CHECKS[:-1]:
            self.assertCheck(checks, cid, "pass")
        self.assertCheck(checks, "speed", "skip", "gpu-only")
        self.assertEqual(doc["score"], doc["max_score"])
        self.assertEqual(doc["max_score"], 16)

    def test_each_misbehaviour_costs_only_its_check(self):
        rc, doc, checks = self.grade(["fail", "skip", "crash", "hang", "exit0"])
        self.assertEqual(rc, 1)
        self.assertCheck(checks, "passes", "pass")  # FakeLabLate.Passes ran after three restarts
        self.assertCheck(checks, "fails", "fail", "assertion", "the answer is off by one")
        self.assertCheck(checks, "skips", "fail", "skipped-test", "skipped on purpose")
        self.assertCheck(checks, "crashes", "fail", "crash", "crashed with SIGSEGV during FakeLab.Crashes")
        self.assertTimedOut(checks, "hangs", "FakeLab.Hangs")
        self.assertCheck(checks, "exits", "fail", "exit", "exited before finishing (exit() called from lab code?)")
        self.assertCheck(checks, "forges", "pass")
        self.assertCheck(checks, "hogs", "pass")
        self.assertEqual(doc["score"], 6)  # passes, forges, hogs

    def test_forged_records_zero_the_lab(self):
        for behaviour in ("forge", "forge-exit"):
            with self.subTest(behaviour):
                rc, doc, checks = self.grade([behaviour])
                self.assertEqual(rc, 1)
                self.assertEqual(doc["score"], 0)
                for cid, category, _ in CHECKS:
                    if category != "performance":
                        self.assertCheck(checks, cid, "fail", "tampered", "wrong signature")

    def test_hangs_are_bounded(self):
        # FakeLab.Hangs and FakeLab.Exits both hang when exit0 is off and a
        # second hang is configured: two timeouts stop the lab.
        rc, doc, checks = self.grade(["hang", "hang2"])
        self.assertEqual(rc, 1)
        self.assertTimedOut(checks, "hangs", "FakeLab.Hangs")
        self.assertTimedOut(checks, "exits", "FakeLab.Exits")
        self.assertCheck(checks, "forges", "fail", "not-run", "2 tests had already timed out")
        self.assertCheck(checks, "crashes", "pass")  # ran before the hangs

    def test_crash_before_main(self):
        rc, doc, checks = self.grade(["static-crash"])
        self.assertEqual(rc, 1)
        self.assertCheck(checks, "passes", "fail", "crash", "crashed with SIGSEGV before the first test")

    def test_memory_limit(self):
        rc, doc, checks = self.grade(["hog"], extra=["--memory-limit", "512"])
        self.assertEqual(rc, 1)
        self.assertCheck(checks, "hogs", "fail", "memory", "used more than 512 MiB of memory during FakeLab.Hogs")
        self.assertCheck(checks, "passes", "pass")
        # The address-space backstop turns the allocation into a failed test.
        rc, doc, checks = self.grade(["hog"], extra=["--address-space-limit", "2048"])
        self.assertCheck(checks, "hogs", "fail", "assertion", "bad_alloc")

    def test_manifest_filter_matching_nothing(self):
        bad = write_labs_dir(Path(self.tmp.name) / "bad-labs",
                             manifest_text([("typo", "correctness", "FakeLab.Pases")]))
        rc, doc, checks = self.grade([], labs_dir=bad)
        self.assertEqual(rc, 2)
        self.assertCheck(checks, "typo", "fail", "manifest", "matches no test")

    def test_cuda_backend_runs_sanitizers(self):
        sanitizer = str(HERE / "fake_compute_sanitizer")
        os.environ["SCANLAB_FAKE_SANITIZER_ERRORS"] = "synccheck"
        try:
            rc, doc, checks = self.grade([], extra=["--backend", "cuda", "--sanitizer-command", sanitizer])
        finally:
            del os.environ["SCANLAB_FAKE_SANITIZER_ERRORS"]
        self.assertEqual(rc, 1)
        # race-freedom: racecheck and synccheck; synccheck reports an error.
        self.assertCheck(checks, "crashes", "fail", "sanitizer",
                         "compute-sanitizer synccheck: Error: synccheck hazard")
        self.assertIn("by thread (3,0,0)", "\n".join(checks["crashes"]["details"]))
        self.assertCheck(checks, "passes", "pass")  # memcheck is clean
        self.assertCheck(checks, "speed", "pass")  # performance counts on a GPU

    def test_cuda_backend_without_a_usable_sanitizer(self):
        # One that cannot attach (a sandbox): the tests it runs fail, which is not the student's
        # doing; one that is not installed.
        sandboxed = dict(os.environ, SCANLAB_FAKE_SANITIZER_SANDBOXED="1")
        for sanitizer, env, why in ((str(HERE / "fake_compute_sanitizer"), sandboxed, "could not attach"),
                                    (str(HERE / "no-such-sanitizer"), os.environ, "is not installed here")):
            rc, doc, checks = self.grade([], extra=["--backend", "cuda", "--sanitizer-command", sanitizer], env=env)
            self.assertEqual(rc, 0, doc)
            self.assertCheck(checks, "crashes", "skip", "sanitizer-unavailable", why)
            self.assertIn("grader/grade --backend sim 99", checks["crashes"]["reason"])
            for cid in ("passes", "fails", "exits", "speed"):
                self.assertCheck(checks, cid, "pass")
            self.assertEqual(doc["score"], doc["max_score"])
            self.assertTrue(any("race-freedom checks were not graded" in n for n in doc["labs"][0]["notes"]), doc)

    def test_text_and_other_formats_exit_status(self):
        rc, text = self.grade(["crash"], fmt="text")
        self.assertEqual(rc, 1)
        self.assertRegex(text, r"crashes\s+0/2\s+FAIL\s+crashed with SIGSEGV during FakeLab.Crashes")
        for fmt in ("junit", "gradescope", "prairielearn", "classroom"):
            rc, out = self.grade([], fmt=fmt)
            self.assertEqual(rc, 0, f"{fmt}: {out}")


def leftover_processes() -> list[str]:
    """'pid ppid sid state' of every live process the fake lab left behind (named by it)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            name = Path(f"/proc/{entry}/comm").read_text().strip()
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if name == "scanlab-linger" and fields[0] not in ("Z", "X"):
            found.append(f"{entry} ppid {fields[1]} sid {fields[3]} state {fields[0]}")
    return found


class ContainmentTest(unittest.TestCase):
    """What lab code leaves running is stopped when its test program ends, and said so; the
    next lab of the run is graded as if nothing had happened."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name)
        cls.labs_dir = root / "labs"
        for lab, text in (("98-fake", manifest_text()),
                          ("99-quiet", 'title = "Quiet lab"\n[[check]]\nid = "passes"\ntitle = "passes"\n'
                                       'category = "correctness"\ntests = "FakeLab.Passes*"\npoints = 2\n')):
            (cls.labs_dir / lab).mkdir(parents=True)
            (cls.labs_dir / lab / "lab.toml").write_text(text)
            (root / "submission" / lab).mkdir(parents=True)
        cls.submission = root / "submission"
        # Lab 99 runs the same program with every misbehaviour switched off.
        cls.quiet = root / "quiet_lab"
        cls.quiet.write_text(f"#!/bin/sh\nSCANLAB_FAKE_LAB= exec '{FAKE_LAB}' \"$@\"\n")
        cls.quiet.chmod(0o755)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def grade_both(self, behaviour: str):
        env = dict(os.environ, SCANLAB_FAKE_LAB=behaviour)
        cmd = [str(GRADE), "--labs-dir", str(self.labs_dir), "--test-binary", f"98={FAKE_LAB}",
               "--test-binary", f"99={self.quiet}", "--submission", str(self.submission),
               "--build-root", str(Path(self.tmp.name) / "build"), "--format", "json", "98", "99"]
        started = time.monotonic()
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
        seconds = time.monotonic() - started
        left = leftover_processes()
        print(f"\n  {behaviour}: graded in {seconds:.1f} s; processes named scanlab-linger afterwards: "
              f"{left or 'none'}", file=sys.stderr)
        for line in left:  # leave nothing behind, whatever the outcome
            os.kill(int(line.split()[0]), signal.SIGKILL)
        doc = json.loads(proc.stdout)
        self.assertLess(seconds, 60)
        self.assertEqual(left, [], "lab code's processes outlived the grading")
        fake, quiet = doc["labs"]
        self.assertEqual(quiet["score"], quiet["max_score"], quiet)
        return fake

    def assert_noted(self, fake):
        notes = "\n".join(fake["notes"])
        self.assertRegex(notes, r"lab code started \d+ process(es)? that (was|were) still running after the tests; "
                                r"(it was|they were) stopped")

    def test_a_forked_sleeper_is_stopped(self):
        fake = self.grade_both("leave-sleeper")
        self.assert_noted(fake)
        self.assertEqual(fake["checks"][0]["status"], "pass")  # leaving a process is noted, not scored

    def test_a_daemon_in_its_own_session_is_stopped(self):
        fake = self.grade_both("leave-daemon")
        self.assert_noted(fake)
        self.assertEqual(fake["checks"][0]["status"], "pass")

    def test_every_format_carries_the_note(self):
        env = dict(os.environ, SCANLAB_FAKE_LAB="leave-sleeper")
        for fmt in ("text", "junit", "gradescope", "prairielearn", "classroom"):
            cmd = [str(GRADE), "--labs-dir", str(self.labs_dir), "--test-binary", f"98={FAKE_LAB}",
                   "--submission", str(self.submission), "--build-root", str(Path(self.tmp.name) / "build"),
                   "--format", fmt, "98"]
            out = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, text=True, timeout=300).stdout
            if fmt == "classroom":
                out = base64.b64decode(out).decode()
            with self.subTest(fmt):
                self.assertIn("still running after the tests", out)
        self.assertEqual(leftover_processes(), [])

    def test_holding_the_result_channel_fails_the_lab(self):
        fake = self.grade_both("hold-channel")
        self.assert_noted(fake)
        self.assertEqual(fake["score"], 0)
        self.assertIn("result channel", fake["checks"][0]["reason"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--fake-lab", required=True)
    args, rest = parser.parse_known_args()
    FAKE_LAB = str(Path(args.fake_lab).resolve())
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
