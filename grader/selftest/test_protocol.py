"""The harness protocol end to end: grader/grade runs the fake lab program
(fake_lab.cpp, linked with the real harness) with each misbehaviour switched on
and must classify every check correctly. Usage: test_protocol.py --fake-lab PATH"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
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

    def grade(self, behaviours, labs_dir=None, extra=(), fmt="json"):
        # A GTEST_FILTER (or ctest's sharding) in the grader's environment must not
        # reach the test program.
        env = dict(os.environ, SCANLAB_FAKE_LAB=",".join(behaviours), GTEST_FILTER="NoSuch.Test",
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
        self.assertCheck(checks, "hangs", "fail", "timeout", "timed out after 3 s during FakeLab.Hangs")
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
        self.assertCheck(checks, "hangs", "fail", "timeout", "timed out after 3 s during FakeLab.Hangs")
        self.assertCheck(checks, "exits", "fail", "timeout", "timed out after 3 s during FakeLab.Exits")
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

    def test_text_and_other_formats_exit_status(self):
        rc, text = self.grade(["crash"], fmt="text")
        self.assertEqual(rc, 1)
        self.assertRegex(text, r"crashes\s+0/2\s+FAIL\s+crashed with SIGSEGV during FakeLab.Crashes")
        for fmt in ("junit", "gradescope", "prairielearn", "classroom"):
            rc, out = self.grade([], fmt=fmt)
            self.assertEqual(rc, 0, f"{fmt}: {out}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--fake-lab", required=True)
    args, rest = parser.parse_known_args()
    FAKE_LAB = str(Path(args.fake_lab).resolve())
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
