"""Failures that are not the student's: a compiler killed by a signal from outside, or a test
program killed by a signal the grader did not send, is said in words ("not your code: the
compiler was killed by signal 9"), retried once, and never charged: a lab stopped twice is not
graded (to be graded again), one that succeeds on the retry is graded as the retry came out,
with a note. A fault that comes again (SIGSEGV twice) stays the program's, charged as a crash. A
fault of host code is the student's when the simulator's record of it has a line of the lab's
code on the call chain (named in the reason), and otherwise the kit's: not your code."""

import json
import os
import shutil
import signal
import stat
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))  # scanlab_build, as grader/grade sets it

from scanlab_build import BuildResult  # noqa: E402
from scanlab_grader import formats, grading, runner  # noqa: E402
from scanlab_grader.grading import LabResult, evaluate_check  # noqa: E402
from scanlab_grader.manifest import Check, Lab  # noqa: E402
from scanlab_grader.protocol import KEY_FD_ENV, RESULT_FD_ENV  # noqa: E402

KIT = HERE.parents[1]
LAB = Lab("99", "Fake lab", "99-fake", (
    Check("first", "The first test passes", "correctness", "Fake.A", 10, needs="test A passes"),
    Check("second", "The second test passes", "correctness", "Fake.B", 10, needs="test B passes"),
))

# A test program that speaks the harness's protocol: tests Fake.A and Fake.B, which pass; while
# the file `deaths` beside it holds a number above 0, Fake.B kills the program with the signal
# that `signal` names (as the kernel's out-of-memory killer would) and counts one down.
FAKE_PROGRAM = textwrap.dedent(f"""\
    #!{sys.executable}
    import hashlib, hmac, json, os, signal, sys
    here = os.path.dirname(os.path.abspath(__file__))
    key = os.read(int(os.environ["{KEY_FD_ENV}"]), 32)
    out = int(os.environ["{RESULT_FD_ENV}"])
    wanted = next((a.split("=", 1)[1].split(":") for a in sys.argv[1:] if a.startswith("--gtest_filter=")), None)
    tests = [t for t in ("Fake.A", "Fake.B") if wanted is None or t in wanted]
    seq = 0
    def send(record):
        global seq
        record["seq"] = seq
        seq += 1
        payload = json.dumps(record, separators=(",", ":")).encode()
        os.write(out, hmac.new(key, payload, hashlib.sha256).hexdigest().encode() + b" " + payload + b"\\n")
    send({{"type": "plan", "tests": tests}})
    for test in tests:
        send({{"type": "start", "test": test}})
        deaths_file = os.path.join(here, "deaths")
        deaths = int(open(deaths_file).read()) if os.path.exists(deaths_file) else 0
        if test == "Fake.B" and deaths > 0:
            open(deaths_file, "w").write(str(deaths - 1))
            finding = os.path.join(here, "finding")
            if os.path.exists(finding):  # what the simulator found before the program died
                open(os.environ["SCANLAB_SIM_REPORT_JSON"], "a").write(open(finding).read().strip() + "\\n")
            os.kill(os.getpid(), getattr(signal, open(os.path.join(here, "signal")).read().strip()))
        send({{"type": "end", "test": test, "result": "pass", "ms": 1, "failures": []}})
    send({{"type": "complete", "count": len(tests)}})
    """)


def executable(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def fake_program(folder: Path, deaths: int, sig: str = "SIGKILL") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "deaths").write_text(str(deaths))
    (folder / "signal").write_text(sig)
    return executable(folder / "lab99_tests", FAKE_PROGRAM)


class FakeTree:
    """A build tree whose one step runs a fake compiler through the build tool the grader uses
    (Ninja, or Make where there is no Ninja). The compiler kills itself with SIGKILL the first
    `kills` times it runs, as the out-of-memory killer would kill a compiler, and otherwise
    'compiles' the lab's test program: the fake program above."""

    def __init__(self, folder: Path, kills: int):
        self.dir = folder / "tree"
        self.dir.mkdir(parents=True)
        self.artifact = self.dir / "lab99_tests"
        self.runs = self.dir / "compiler-runs"
        program = fake_program(folder / "program", deaths=0)
        compiler = executable(self.dir / "fake-compiler", textwrap.dedent(f"""\
            #!/bin/sh
            n=$(cat {self.runs} 2>/dev/null || echo 0)
            echo $((n + 1)) > {self.runs}
            if [ "$n" -lt {kills} ]; then kill -9 $$; fi
            cp {program} "$1"
            """))
        self.tool = shutil.which("ninja") or shutil.which("make")
        if self.tool is None:
            raise unittest.SkipTest("neither ninja nor make is installed")
        if self.tool.endswith("ninja"):
            (self.dir / "build.ninja").write_text(f"rule cc\n  command = {compiler} $out\n"
                                                  f"build lab99_tests: cc\n")
        else:
            (self.dir / "Makefile").write_text(f"lab99_tests:\n\t{compiler} $@\n")

    def compiler_runs(self) -> int:
        return int(self.runs.read_text()) if self.runs.exists() else 0

    def targets(self) -> dict[str, Path]:
        return {"lab99_tests": self.artifact}

    def object_dir(self, target: str):
        return None

    def build(self, target: str) -> BuildResult:
        import subprocess
        proc = subprocess.run([self.tool, "-C", str(self.dir)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        ok = proc.returncode == 0 and self.artifact.exists()
        return BuildResult(ok, proc.stdout.decode(errors="replace"), self.artifact if ok else None)


def options(tmp: Path) -> grading.Options:
    submission = tmp / "submission"
    (submission / LAB.dir).mkdir(parents=True, exist_ok=True)
    (submission / LAB.dir / "fake.cu").write_text("// the student's file\n")
    # The cuda backend reads no debug information of the (fake) program; no sanitizer reruns.
    return grading.Options(repo=KIT, backend="cuda", submission=submission, build_root=tmp / "build",
                           jobs=1, limits=runner.Limits(test_timeout_s=30, total_timeout_s=120), sanitize=False)


def run_fake(tmp: Path, deaths: int, sig: str = "SIGKILL", finding: dict | None = None,
             lab_dir: str | None = LAB.dir) -> runner.SuiteRun:
    program = fake_program(tmp / "program", deaths, sig)
    if finding is not None:
        (program.parent / "finding").write_text(json.dumps(finding))
    return runner.run_suite(lambda flt, attempt: [str(program)] + ([f"--gtest_filter={flt}"] if flt else []),
                            env=grading.child_environment(), cwd=program.parent, log_dir=tmp / "logs",
                            limits=runner.Limits(test_timeout_s=30, total_timeout_s=120), lab_dir=lab_dir)


def lab_of(suite: runner.SuiteRun) -> LabResult:
    return LabResult(LAB, [evaluate_check(c, suite, LAB.target) for c in LAB.checks], notes=list(suite.notes))


class TestProgramKilledTest(unittest.TestCase):
    def test_a_program_killed_once_from_outside_is_run_again_and_graded_with_a_note(self):
        with tempfile.TemporaryDirectory() as tmp:
            suite = run_fake(Path(tmp), deaths=1)
            lab = lab_of(suite)
            self.assertEqual([c.status for c in lab.checks], ["pass", "pass"], [c.reason for c in lab.checks])
            self.assertIsNone(lab.not_graded)
            self.assertEqual(lab.points, 20)
            self.assertTrue(any("not your code: the test program died of SIGKILL during Fake.B" in n
                                and "run again" in n for n in suite.notes), suite.notes)
            self.assertIn("not your code", formats.render(formats.Report("cuda", "s/", [lab]), "text"))

    def test_a_program_killed_twice_from_outside_is_not_graded_and_not_charged(self):
        with tempfile.TemporaryDirectory() as tmp:
            suite = run_fake(Path(tmp), deaths=2)
            self.assertEqual(suite.outcomes["Fake.B"].status, runner.NOT_OURS)
            lab = lab_of(suite)
            first, second = lab.checks
            self.assertEqual(first.status, "pass")
            self.assertEqual((second.status, second.kind), ("skip", grading.NOT_GRADED))
            self.assertIn("not your code: the test program was killed by SIGKILL during Fake.B twice", second.reason)
            self.assertEqual((lab.points, lab.max_points), (10, 10))  # out of the total, never a 0 earned
            self.assertFalse(lab.passed)
            report = formats.Report("cuda", "s/", [lab])
            text = formats.render(report, "text")
            self.assertIn("NOT GRADED", text)
            self.assertIn("not your code", text)
            self.assertFalse(json.loads(formats.render(report, "prairielearn"))["gradable"])
            self.assertEqual(json.loads(formats.render(report, "json"))["not_graded"], ["99"])
            self.assertIn("NOT GRADED", json.loads(formats.render(report, "gradescope"))["output"])

    def test_a_fault_that_comes_again_is_the_programs_own(self):
        with tempfile.TemporaryDirectory() as tmp:
            suite = run_fake(Path(tmp), deaths=2, sig="SIGSEGV")
            lab = lab_of(suite)
            second = lab.checks[1]
            self.assertEqual((second.status, second.kind), ("fail", "crash"))
            self.assertIn("crashed with SIGSEGV during Fake.B", second.reason)
            self.assertIn("again when run once more", second.reason)
            self.assertIsNone(lab.not_graded)
            self.assertFalse(any("not your code" in n for n in suite.notes), suite.notes)


    @staticmethod
    def host_fault(*lines: str) -> dict:
        """The simulator's record of host code that faulted (threads/fault_handler.cpp): the
        program's lines on the call chain, innermost first."""
        parties = [{"role": runner.HOST_FAULT if i == 0 else "called from", "file": line.rsplit(":", 1)[0],
                    "line": int(line.rsplit(":", 1)[1])} for i, line in enumerate(lines)]
        return {"number": 0, "kind": "out-of-bounds", "severity": "error",
                "headline": "host code touched address 0x0, a null pointer, and the program died of SIGSEGV",
                "parties": parties}

    def test_a_fault_in_the_labs_host_code_names_the_students_line(self):
        # Kit code on the chain inside the student's (an operator the student's host loop
        # called) does not hide the student's line.
        students = f"{LAB.dir}/fake.cu:12"
        fault = self.host_fault("common/include/scanlab/plus.hpp:9", students, "grader/labs/common/scan_run.hpp:40")
        with tempfile.TemporaryDirectory() as tmp:
            suite = run_fake(Path(tmp), deaths=2, sig="SIGSEGV", finding=fault)
            lab = lab_of(suite)
            second = lab.checks[1]
            self.assertEqual((second.status, second.kind), ("fail", "crash"))
            self.assertIn(f"in your host code at {students}", second.reason)
            self.assertNotIn("not your code", second.reason)
            # Charged at once: the fault is the cause, nothing to run again.
            self.assertFalse(any("not your code" in n for n in suite.notes), suite.notes)
            self.assertEqual(suite.runs, 1, "not run again")
            # The student reads the faulting line and their own; the test's frames are left out.
            [finding] = second.findings
            self.assertEqual([p.where for p in finding.places], [fault["parties"][0]["file"] + ":9", students])

    def test_a_fault_in_the_kits_code_is_not_the_students(self):
        kits = "grader/labs/common/scan_run.hpp:88"
        fault = self.host_fault(kits, "grader/labs/99-fake/fake_test.cpp:20")
        with tempfile.TemporaryDirectory() as tmp:
            suite = run_fake(Path(tmp), deaths=2, sig="SIGSEGV", finding=fault)
            lab = lab_of(suite)
            second = lab.checks[1]
            self.assertEqual(lab.checks[0].status, "pass")
            self.assertEqual(second.status, "skip", second.reason)
            self.assertIn("not your code", second.reason)
            self.assertIn(f"in the kit's code at {kits}", second.reason)
            self.assertEqual(second.findings, [], "the kit's fault is no finding of the student's")
            self.assertIsNotNone(lab.not_graded)
        # A fault with no line of the program on its chain (inside a library the test called).
        library = dict(fault, parties=[{"role": runner.HOST_FAULT, "file": "", "line": 0}])
        with tempfile.TemporaryDirectory() as tmp:
            second = lab_of(run_fake(Path(tmp), deaths=2, sig="SIGSEGV", finding=library)).checks[1]
            self.assertEqual(second.status, "skip", second.reason)
            self.assertIn("not your code", second.reason)
            self.assertIn("inside a library", second.reason)
        with tempfile.TemporaryDirectory() as tmp:
            # Once: run again, graded by the run that came through, with a note that says where.
            suite = run_fake(Path(tmp), deaths=1, sig="SIGSEGV", finding=fault)
            self.assertEqual([c.status for c in lab_of(suite).checks], ["pass", "pass"])
            self.assertTrue(any("not your code" in n and kits in n for n in suite.notes), suite.notes)

    def test_a_warning_explains_no_crash(self):
        # A volatile read that may see a stale value is a warning: a fault after it is still
        # run again before anyone is charged; an error found before the fault is the cause.
        def record(severity):
            return {"number": 1, "kind": "race", "severity": severity, "headline": "volatile read of global memory "
                    "may see a stale value", "parties": [{"role": "volatile read", "file": "fake.cu", "line": 3}]}
        with tempfile.TemporaryDirectory() as tmp:
            suite = run_fake(Path(tmp), deaths=1, sig="SIGSEGV", finding=record("warning"))
            lab = lab_of(suite)
            self.assertEqual([c.status for c in lab.checks], ["pass", "pass"], [c.reason for c in lab.checks])
            self.assertTrue(any("not your code: the test program died of SIGSEGV during Fake.B" in n
                                for n in suite.notes), suite.notes)
        with tempfile.TemporaryDirectory() as tmp:
            suite = run_fake(Path(tmp), deaths=1, sig="SIGABRT", finding=record("error"))
            second = lab_of(suite).checks[1]
            self.assertEqual((second.status, second.kind), ("fail", "crash"))
            self.assertFalse(any("not your code" in n for n in suite.notes), suite.notes)
            # The reason names the findings as the cause, the signal only as how the program ended.
            self.assertTrue(second.reason.startswith("stopped by the simulator's findings below during Fake.B"),
                            second.reason)
            self.assertIn("ended with SIGABRT", second.reason)
            self.assertNotIn("crashed", second.reason)


class CompilerKilledTest(unittest.TestCase):
    def test_the_signals_build_tools_report_are_read(self):
        killed = grading.compiler_killed
        self.assertEqual(killed("c++: fatal error: Killed signal terminated program cc1plus\ncompilation terminated."),
                         "the compiler (cc1plus) was killed by signal 9 (SIGKILL)")
        self.assertEqual(killed("[1/2] x\nFAILED: a.o \n/usr/bin/c++ -c a.cpp\nKilled\n"
                                "ninja: build stopped: subcommand failed."),
                         "the compiler was killed by signal 9 (SIGKILL)")
        self.assertEqual(killed("make[2]: *** [CMakeFiles/x.dir/build.make:76: a.o] Killed"),
                         "the compiler was killed by signal 9 (SIGKILL)")
        self.assertIsNone(killed("a.cu:3:5: error: 'x' was not declared in this scope\n"
                                 "ninja: build stopped: subcommand failed."))

    def test_a_compiler_killed_twice_is_not_your_code_and_not_graded(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            tree = FakeTree(tmp, kills=2)
            lab = grading._grade_lab(LAB, options(tmp), tree, None)
            self.assertEqual(tree.compiler_runs(), 2)  # retried once
            self.assertIsNotNone(lab.not_graded)
            self.assertIn("not your code: the compiler was killed by signal 9 (SIGKILL)", lab.not_graded)
            self.assertTrue(all((c.status, c.kind) == ("skip", grading.NOT_GRADED) for c in lab.checks))
            self.assertEqual((lab.points, lab.max_points), (0, 0))  # never charged
            self.assertFalse(any(c.kind == "compile" for c in lab.checks))
            text = formats.render(formats.Report("cuda", "s/", [lab]), "text")
            self.assertIn("not your code: the compiler was killed by signal 9", text)
            self.assertNotIn("compile error", text)

    def test_a_compiler_killed_once_is_built_again_and_graded_normally_with_a_note(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            tree = FakeTree(tmp, kills=1)
            lab = grading._grade_lab(LAB, options(tmp), tree, None)
            self.assertEqual(tree.compiler_runs(), 2)
            self.assertIsNone(lab.not_graded)
            self.assertEqual([c.status for c in lab.checks], ["pass", "pass"], [c.reason for c in lab.checks])
            self.assertEqual(lab.points, 20)
            self.assertTrue(any("not your code: the compiler was killed by signal 9 (SIGKILL)" in n
                                and "built again" in n for n in lab.notes), lab.notes)


if __name__ == "__main__":
    unittest.main()
