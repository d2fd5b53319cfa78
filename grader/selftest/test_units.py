"""Unit tests of grader/scanlab_grader: gtest filters, the manifest, the record
protocol and the report formats (validated against the platforms' documented
structure, see validators.py)."""

import ast
import base64
import json
import os
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))  # scanlab_build, as grader/grade sets it
sys.path.insert(0, str(HERE))

import validators  # noqa: E402
from scanlab_build import first_errors  # noqa: E402
from scanlab_grader import formats, gtest_filter, manifest, protocol, solution_source, sync  # noqa: E402
from scanlab_grader.grading import CheckResult, LabResult  # noqa: E402


class GtestFilterTest(unittest.TestCase):
    def test_wildcards_and_negatives(self):
        m = gtest_filter.matches
        self.assertTrue(m("Lab02Correctness*.InPlace*", "Lab02CorrectnessInt.InPlaceSizes"))
        self.assertFalse(m("Lab02Correctness*.InPlace*", "Lab02Correctness.DoubleBuffer"))
        self.assertTrue(m("A.?", "A.b"))
        self.assertFalse(m("A.?", "A.bc"))
        self.assertTrue(m("A.*:B.*", "B.x"))
        self.assertTrue(m("*-*.Slow*", "A.Fast"))
        self.assertFalse(m("*-*.Slow*", "A.SlowOne"))
        self.assertTrue(m("-A.*", "B.x"))  # empty positive part means '*'
        self.assertFalse(m("A.b", "A.bc"))  # anchored
        self.assertTrue(m("P/Suite.T/*", "P/Suite.T/3"))
        self.assertFalse(m("A.[b]", "A.b"))  # brackets are literal in gtest

    def test_exact(self):
        names = ["A.x", "P/B.y/0"]
        flt = gtest_filter.exact(names)
        self.assertEqual(gtest_filter.select(flt, names + ["A.xx", "C.z"]), names)


LAB02 = """
title = "Kogge-Stone scan"
summary = "two Kogge-Stone scans"
[[check]]
id = "correctness-inplace"
title = "In-place Kogge-Stone matches the reference"
needs = "the in-place scan matches"
category = "correctness"
tests = "Lab02Correctness*.InPlace*"
points = 10
[[check]]
id = "speed"
title = "Fast"
category = "performance"
tests = "Lab02Perf.*"
points = 0
[[mutant]]
name = "m"
file = "kogge_stone.cu"
at = "barrier"
replace = ""
rejected_by = ["correctness-inplace"]
feedback = "index 1: expected"
"""
LAB01 = """
title = "Sequential"
[[check]]
id = "c"
title = "c"
category = "correctness"
tests = "Lab01.*"
points = 2.5
"""


def write_labs(root: Path, labs: dict[str, str]) -> Path:
    """A grader/labs-like folder with one NN-name/lab.toml per entry."""
    for folder, text in labs.items():
        (root / folder).mkdir(parents=True, exist_ok=True)
        (root / folder / manifest.MANIFEST_NAME).write_text(text)
    return root


class ChildEnvironmentTest(unittest.TestCase):
    def test_the_shells_simulator_settings_that_change_what_is_graded_do_not_reach_the_tests(self):
        from unittest import mock
        from scanlab_grader import grading
        shell = {"SCANLAB_SIM_RACECHECK": "off", "SCANLAB_SIM_PAGE": "run.html", "SCANLAB_SIM_RACE_PICTURE": "shared:0:0,0,0:x",
                 "SCANLAB_SIM_STEP_PICTURE": "block:0,0,0", "GTEST_FILTER": "Lab02*", "SCANLAB_SIM_THREADS": "2",
                 "PATH": "/usr/bin"}
        with mock.patch.dict("os.environ", shell, clear=True):
            env = grading.child_environment()
        self.assertEqual(env, {"SCANLAB_SIM_THREADS": "2", "PATH": "/usr/bin"})


class CheckSelectionTest(unittest.TestCase):
    """grade --check ID: only the tests of the checks asked for run."""

    def labs(self):
        d = tempfile.TemporaryDirectory()
        self.addCleanup(d.cleanup)
        return manifest.discover(write_labs(Path(d.name), {"02-kogge-stone": LAB02}))

    def test_the_filter_joins_the_chosen_checks_tests(self):
        from scanlab_grader import grading
        lab = self.labs()["02"]
        first, second = lab.checks[0], lab.checks[1]
        self.assertIsNone(grading.selected_tests_filter(lab, (), "sim"))
        self.assertEqual(grading.selected_tests_filter(lab, (first.id,), "sim"), first.tests)
        # On the simulator the performance check runs nothing; on a GPU both checks' tests run.
        self.assertEqual(grading.selected_tests_filter(lab, (first.id, second.id), "sim"), first.tests)
        self.assertEqual(grading.selected_tests_filter(lab, (first.id, second.id), "cuda"),
                         f"{first.tests}:{second.tests}")

    def test_a_check_that_excludes_tests_runs_every_test(self):
        from scanlab_grader import grading
        import dataclasses
        lab = self.labs()["02"]
        lab = dataclasses.replace(lab, checks=[dataclasses.replace(lab.checks[0], tests="Lab02*-Lab02Slow.*")])
        self.assertIsNone(grading.selected_tests_filter(lab, (lab.checks[0].id,), "sim"))

    def test_an_unknown_check_is_a_usage_error_naming_the_checks(self):
        import subprocess
        proc = subprocess.run([str(HERE.parent / "grade"), "--check", "no-such-check", "02"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("no check no-such-check in lab 02", proc.stderr)
        self.assertIn("race-freedom-inplace", proc.stderr)


class PrebuiltFromEnvironmentTest(unittest.TestCase):
    def test_the_environment_names_the_tree_unless_a_define_does(self):
        import argparse
        from unittest import mock
        from scanlab_grader import cli
        with mock.patch.dict("os.environ", {"SCANLAB_PREBUILT_DIR": "/opt/kit/build"}):
            self.assertEqual(cli.prebuilt_from_environment(argparse.Namespace(cmake_define=[])),
                             ["SCANLAB_PREBUILT_DIR=/opt/kit/build"])
            self.assertEqual(cli.prebuilt_from_environment(
                argparse.Namespace(cmake_define=["SCANLAB_PREBUILT_DIR=/elsewhere"])), [])
        with mock.patch.dict("os.environ", {}, clear=True):
            self.assertEqual(cli.prebuilt_from_environment(argparse.Namespace(cmake_define=[])), [])


class ManifestTest(unittest.TestCase):
    def discover(self, labs):
        d = tempfile.TemporaryDirectory()
        self.addCleanup(d.cleanup)
        return manifest.discover(write_labs(Path(d.name), labs))

    def test_discover_and_resolve(self):
        labs = self.discover({"02-kogge-stone": LAB02, "01-sequential": LAB01, "notes": ""})
        self.assertEqual(list(labs), ["01", "02"])
        self.assertEqual(labs["02"].dir, "02-kogge-stone")
        self.assertEqual(labs["02"].target, "lab02_tests")
        self.assertEqual(labs["02"].checks[0].points, 10.0)
        self.assertEqual(labs["02"].checks[0].needs, "the in-place scan matches")
        self.assertEqual(labs["02"].mutants[0].at, "barrier")
        self.assertIsNone(labs["02"].mutants[0].find)
        self.assertEqual(labs["02"].mutants[0].feedback, "index 1: expected")
        self.assertIsNone(labs["02"].mutants[0].finding)
        r = manifest.resolve
        self.assertEqual([l.number for l in r(labs, ["02"])], ["02"])
        self.assertEqual([l.number for l in r(labs, ["2"])], ["02"])
        self.assertEqual([l.number for l in r(labs, ["02-kogge-stone"])], ["02"])
        self.assertEqual([l.number for l in r(labs, ["all"])], ["01", "02"])
        self.assertEqual([l.number for l in r(labs, ["02", "01", "02"])], ["01", "02"])
        for bad in (["05"], ["02-brent-kung"], ["x"]):
            with self.assertRaises(manifest.ManifestError):
                r(labs, bad)

    def test_rejects_mistakes(self):
        cases = {
            "duplicate id": {"02-k": LAB02.replace('id = "speed"', 'id = "correctness-inplace"')},
            "bad category": {"02-k": LAB02.replace('"performance"', '"speed"')},
            "missing points": {"01-s": LAB01.replace("points = 2.5", "")},
            "empty filter": {"01-s": LAB01.replace('tests = "Lab01.*"', 'tests = ""')},
            "negative points": {"01-s": LAB01.replace("points = 2.5", "points = -1")},
            "not toml": {"01-s": LAB01 + "\n[[["},
            "unknown key": {"01-s": LAB01 + "\npoint = 3\n"},
            "no checks": {"01-s": 'title = "x"\n'},
            "lab folder without manifest": {"01-s": LAB01, "03-x/": None},
            "two folders, one number": {"01-s": LAB01, "01-t": LAB01},
            "mutant names an unknown check": {"02-k": LAB02.replace('rejected_by = ["correctness-inplace"]',
                                                                      'rejected_by = ["no-such-check"]')},
            "mutant rejected by nothing": {"02-k": LAB02.replace('rejected_by = ["correctness-inplace"]',
                                                                   "rejected_by = []")},
            "mutant without a place": {"02-k": LAB02.replace('at = "barrier"\n', "")},
            "mutant that changes nothing": {"02-k": LAB02.replace('replace = ""', 'find = "a"\nreplace = "a"')},
            "duplicate mutant": {"02-k": LAB02 + LAB02[LAB02.index("[[mutant]]"):]},
            "mutant with an unknown finding": {"02-k": LAB02.replace('rejected_by = ["correctness-inplace"]',
                                                                       'rejected_by = ["correctness-inplace"]\n'
                                                                       'finding = "bug"')},
            "mutant naming a line without a finding": {"02-k": LAB02.replace(
                'rejected_by = ["correctness-inplace"]', 'rejected_by = ["correctness-inplace"]\nnames = "barrier"')},
            "mutant with an empty feedback": {"02-k": LAB02.replace('feedback = "index 1: expected"', 'feedback = " "')},
            "mutant that says nothing of what the student is told": {
                "02-k": LAB02.replace('feedback = "index 1: expected"\n', "")},
        }
        for what, labs in cases.items():
            with self.subTest(what), tempfile.TemporaryDirectory() as d:
                root = Path(d)
                for folder, text in labs.items():
                    (root / folder).mkdir(parents=True, exist_ok=True)
                    if text is not None:
                        (root / folder / manifest.MANIFEST_NAME).write_text(text)
                with self.assertRaises(manifest.ManifestError):
                    manifest.discover(root)

    def test_a_mutant_only_slower_needs_no_feedback(self):
        slower = LAB02.replace('rejected_by = ["correctness-inplace"]\nfeedback = "index 1: expected"\n',
                               'rejected_by = ["speed"]\n')
        self.assertNotEqual(slower, LAB02)
        self.assertEqual(self.discover({"02-kogge-stone": slower})["02"].mutants[0].rejected_by, ("speed",))

    def test_repository_labs(self):
        """The kit's own manifests load, and every mutant's place exists in its solution."""
        repo = HERE.parents[1]
        labs = manifest.discover(repo / "grader" / "labs")
        self.assertTrue(labs)
        for lab in labs.values():
            for m in lab.mutants:
                with self.subTest(lab=lab.number, mutant=m.name):
                    source = solution_source.parse(repo / "solutions" / lab.dir / m.file)
                    self.assertNotEqual(source.edited(m.at, m.find, m.replace), source.text)
                    if m.finding is not None:  # the line its feedback must name is there, after the edit
                        self.assertGreater(source.line_after_edit(m.names or m.at, m.at, m.find, m.replace), 0)


class HostMistakeFeedbackTest(unittest.TestCase):
    """run_mutants' check of a host-code mistake's `feedback`: the text must be in a rejecting
    check's failure message in the JSON, and under that check in the text report."""

    def problems(self, details: list[str], text: str) -> list[str]:
        import run_mutants
        from types import SimpleNamespace
        lab = SimpleNamespace(number="01", dir="01-sequential")
        mutant = SimpleNamespace(feedback="index 0: expected", rejected_by=("correctness-sequential",))
        checks = {"correctness-sequential": {"reason": "Lab01Correctness/0.Sequential failed", "details": details}}
        return run_mutants.message_problems(lab, mutant, checks, text)

    def test_said_in_both(self):
        said = "  index 0: expected 0, actual 7 (exact)"
        text = "\n[01 correctness-sequential] Lab01Correctness/0.Sequential failed\n" + said + "\n[01 other] x\n"
        self.assertEqual(self.problems([said], text), [])

    def test_missing_from_the_json(self):
        text = "\n[01 correctness-sequential] failed\n  index 0: expected 0, actual 7\n"
        self.assertIn("says", self.problems(["  index 3: expected 0, actual 7"], text)[0])

    def test_missing_under_the_check_in_the_text(self):
        said = "  index 0: expected 0, actual 7 (exact)"
        text = "\n[01 correctness-sequential] failed\n[01 other] x\n" + said + "\n"
        self.assertIn("text report", self.problems([said], text)[0])


class ProtocolTest(unittest.TestCase):
    key = bytes(range(32))

    def test_valid_stream(self):
        s = protocol.RecordStream(self.key)
        data = b"".join(protocol.encode(self.key, r) for r in [
            {"seq": 0, "type": "plan", "tests": ["A.x", "A.y"]},
            {"seq": 1, "type": "start", "test": "A.x"},
            {"seq": 2, "type": "end", "test": "A.x", "result": "pass", "ms": 1, "failures": []},
            {"seq": 3, "type": "start", "test": "A.y"},
        ])
        # Records may arrive split anywhere.
        for i in range(0, len(data), 7):
            s.feed(data[i : i + 7])
        self.assertEqual(s.plan, ["A.x", "A.y"])
        self.assertEqual(s.current, "A.y")
        self.assertEqual(s.ended["A.x"].result, "pass")
        self.assertIsNone(s.tampered)

    def test_wrong_signature(self):
        s = protocol.RecordStream(self.key)
        forged = protocol.encode(bytes(32), {"seq": 0, "type": "complete", "count": 5})
        s.feed(forged)
        self.assertIsNotNone(s.tampered)
        self.assertIsNone(s.complete_count)

    def test_replay_and_garbage(self):
        s = protocol.RecordStream(self.key)
        rec = protocol.encode(self.key, {"seq": 0, "type": "plan", "tests": []})
        s.feed(rec + rec)
        self.assertIn("sequence", s.tampered)
        s = protocol.RecordStream(self.key)
        s.feed(b"[  PASSED  ] 3 tests.\n")
        self.assertIn("malformed", s.tampered)
        s = protocol.RecordStream(self.key)
        s.feed(b"half a record")
        s.finish()
        self.assertIn("unterminated", s.tampered)


def sample_report() -> formats.Report:
    labs = _sample_labs()
    lab2, lab1 = labs["02"], labs["01"]
    r2 = LabResult(lab2, [
        CheckResult(lab2.checks[0], "fail", "crash", "crashed with SIGSEGV during Lab02Correctness.InPlace",
                    ["what the program printed last:", "  <&> \"quotes\" \x1b[31m"], ["Lab02Correctness.InPlace"]),
        CheckResult(lab2.checks[1], "skip", "gpu-only", "GPU only"),
    ])
    r1 = LabResult(lab1, [CheckResult(lab1.checks[0], "pass", tests=["Lab01.a"], seconds=0.25)])
    return formats.Report("sim", "labs/", [r1, r2], 3.5)


_SAMPLE_LABS = None


def _sample_labs() -> dict[str, manifest.Lab]:
    global _SAMPLE_LABS
    if _SAMPLE_LABS is None:
        d = tempfile.mkdtemp()
        _SAMPLE_LABS = manifest.discover(write_labs(Path(d), {"02-kogge-stone": LAB02, "01-sequential": LAB01}))
    return _SAMPLE_LABS


class FormatsTest(unittest.TestCase):
    def setUp(self):
        self.report = sample_report()

    def test_totals(self):
        self.assertEqual(self.report.points, 2.5)
        self.assertEqual(self.report.max_points, 12.5)  # the skipped check does not count
        self.assertFalse(self.report.passed)

    def test_text(self):
        text = formats.render(self.report, "text")
        self.assertIn("FAIL  crashed with SIGSEGV during Lab02Correctness.InPlace", text)
        self.assertIn("Total: 2.5/12.5 points", text)
        self.assertNotIn("\033[", formats.render(self.report, "text", color=False).replace("\x1b[31m", ""))

    def test_junit(self):
        text = formats.render(self.report, "junit")
        self.assertEqual(validators.junit(text), [])
        root = ET.fromstring(text)
        self.assertEqual(root.get("tests"), "3")
        self.assertEqual(root.get("errors"), "1")
        self.assertEqual(root.get("skipped"), "1")

    def test_gradescope(self):
        text = formats.render(self.report, "gradescope")
        self.assertEqual(validators.gradescope(text), [])
        doc = json.loads(text)
        self.assertEqual(doc["score"], 2.5)
        self.assertEqual([t["status"] for t in doc["tests"]], ["passed", "failed"])
        self.assertEqual({t["visibility"] for t in doc["tests"]}, {"visible"})

    def test_hidden_check_shows_after_publication(self):
        import dataclasses
        lab = _sample_labs()["01"]
        hidden = dataclasses.replace(lab.checks[0], hidden=True)
        report = formats.Report("sim", "x/", [LabResult(lab, [CheckResult(hidden, "pass")])], 1.0)
        text = formats.render(report, "gradescope")
        self.assertEqual(validators.gradescope(text), [])
        self.assertEqual(json.loads(text)["tests"][0]["visibility"], "after_published")

    def test_prairielearn_compile_error_is_not_gradable(self):
        lab = _sample_labs()["01"]
        failed = LabResult(lab, [CheckResult(lab.checks[0], "fail", "compile", "compile error: 01-sequential/s.cu:3: "
                                             "error: x")], error="compile error: 01-sequential/s.cu:3: error: x")
        text = formats.render(formats.Report("sim", "x/", [failed], 1.0), "prairielearn")
        self.assertEqual(validators.prairielearn(text), [])
        doc = json.loads(text)
        self.assertIs(doc["gradable"], False)
        self.assertIn("01-sequential/s.cu:3", doc["message"])
        self.assertIs(json.loads(formats.render(self.report, "prairielearn"))["gradable"], True)

    def test_prairielearn(self):
        text = formats.render(self.report, "prairielearn")
        self.assertEqual(validators.prairielearn(text), [])
        self.assertAlmostEqual(json.loads(text)["score"], 0.2)

    def test_classroom(self):
        text = formats.render(self.report, "classroom")
        self.assertEqual(validators.classroom(text), [])
        doc = json.loads(base64.b64decode(text))
        self.assertEqual(doc["status"], "error")
        self.assertEqual(doc["max_score"], 12.5)

    def test_json(self):
        doc = json.loads(formats.render(self.report, "json"))
        self.assertEqual(doc["labs"][1]["checks"][0]["kind"], "crash")

    def test_validators_catch_mistakes(self):
        self.assertNotEqual(validators.junit("<testsuite/>"), [])
        self.assertNotEqual(validators.junit('<testsuites tests="2"><testsuite name="a" tests="1" failures="0" '
                                             'errors="0"><testcase name="x" classname="c"/></testsuite>'
                                             '</testsuites>'), [])
        self.assertNotEqual(validators.gradescope('{"tests": [{"name": "a", "status": "ok"}]}'), [])
        self.assertNotEqual(validators.prairielearn('{"score": 1.5}'), [])
        self.assertNotEqual(validators.classroom(base64.b64encode(b'{"version": 2}').decode()), [])


class FailureSummaryTest(unittest.TestCase):
    def test_assertion_result_and_trace(self):
        from scanlab_grader.runner import _summary
        failure = {"file": "/repo/grader/labs/02/c_test.cpp", "line": 18, "message":
                   "Value of: run.output_matches(x)\n  Actual: false (\nindex 3: expected 6, actual 5 "
                   "(in /repo/common/x.hpp)\n)\nExpected: true\nGoogle Test trace:\n"
                   "/repo/grader/labs/02/c_test.cpp:15: in-place, n = 1025\n"}
        self.assertEqual(_summary([failure], Path("/repo")),
                         "[in-place, n = 1025] index 3: expected 6, actual 5 (in common/x.hpp)")
        self.assertEqual(_summary([{"message": "plain"}]), "plain")


class SourceScreenTest(unittest.TestCase):
    def test_flags_grader_internals(self):
        from scanlab_grader.grading import screen_sources
        with tempfile.TemporaryDirectory() as d:
            lab = Path(d) / "02-kogge-stone"
            lab.mkdir()
            (lab / "kogge_stone.cu").write_text("// scan\nextern \"C\" void __tsan_write4(void*) {}\n"
                                               "unsigned char* HMAC(...);\nint ok = 1;\n")
            (lab / "notes.txt").write_text("HMAC in prose is fine\n")
            notes = screen_sources(lab)
            self.assertEqual(len(notes), 2, notes)
            self.assertIn("'__tsan_write4' (02-kogge-stone/kogge_stone.cu:2)", notes[0])
            self.assertIn("'HMAC'", notes[1])
            (lab / "kogge_stone.cu").write_text("__global__ void k() { __syncthreads(); }\n")
            self.assertEqual(screen_sources(lab), [])


class CompilerErrorsTest(unittest.TestCase):
    def test_student_file_first(self):
        sub = Path("/tmp/sub")
        out = "\n".join([
            "[1/3] Building CXX object x.o",
            "/repo/common/include/scanlab/x.hpp:3:1: error: something in a header",
            "/tmp/sub/02-kogge-stone/kogge_stone.cu:42:7: error: 'tid' was not declared in this scope",
            "   42 |   out[tid] = x;",
            "      |       ^~~",
            "/tmp/sub/02-kogge-stone/kogge_stone.cu(57): error: expected a \";\"",
            "ninja: build stopped: subcommand failed.",
        ])
        errors = first_errors(out, sub, Path("/repo"))
        self.assertEqual(errors[0], "02-kogge-stone/kogge_stone.cu:42: error: 'tid' was not declared in this scope")
        self.assertEqual(errors[1], "   42 |   out[tid] = x;")
        self.assertIn('02-kogge-stone/kogge_stone.cu:57: error: expected a ";"', errors)
        self.assertEqual(errors[-1], "common/include/scanlab/x.hpp:3: error: something in a header")

    def test_header_error_named_at_the_students_line(self):
        sub = Path("/tmp/sub")
        out = "\n".join([
            "/repo/common/sim/include/scanlab/sim/cuda.hpp: In instantiation of 'unsigned __ballot(A...)':",
            "/tmp/sub/08-binary-scans/binary_scans.cu:82:27:   required from here",
            "/repo/common/sim/include/scanlab/sim/cuda.hpp:271:39: error: static assertion failed: "
            "__ballot(pred) was removed in CUDA 9: use __ballot_sync(mask, pred)",
        ])
        errors = first_errors(out, sub, Path("/repo"))
        self.assertEqual(errors[0], "08-binary-scans/binary_scans.cu:82: error: static assertion failed: "
                                    "__ballot(pred) was removed in CUDA 9: use __ballot_sync(mask, pred)")

    def test_linker_and_unknown(self):
        errors = first_errors("x.o: in function f:\nx.cu:(.text+0x1): undefined reference to `g'\n",
                                    Path("/s"), Path("/r"))
        self.assertIn("undefined reference", errors[0])
        self.assertEqual(first_errors("weird failure\n", Path("/s"), Path("/r")), ["weird failure"])


SOLUTION = """\
// BEGIN SOLUTION
// Reference solution.
// END SOLUTION
// BEGIN PROMPT
//| // Lab 99: the skeleton's header.
// END PROMPT
#include <cstddef>

template <class T>
__global__ void kernel(T* data, std::size_t n) {
    const std::size_t i = threadIdx.x;  //@ index
    // BEGIN SOLUTION
    if (i < n) data[i] += 1;  //@ guarded
    __syncthreads();  // every write precedes the reads  //@ barrier
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO: add one to every element.
    //|
    //|     int indented_code = 0;
    // END PROMPT
}
"""
SKELETON = """\
// Lab 99: the skeleton's header.
#include <cstddef>

template <class T>
__global__ void kernel(T* data, std::size_t n) {
    const std::size_t i = threadIdx.x;
    // TODO: add one to every element.

        int indented_code = 0;
}
"""


class SolutionSourceTest(unittest.TestCase):
    def parse(self, text):
        return solution_source.parse(Path("sol.cu"), text)

    def test_skeleton_and_tags(self):
        source = self.parse(SOLUTION)
        self.assertEqual(source.skeleton, SKELETON)
        self.assertEqual(sorted(source.tags), ["barrier", "guarded", "index"])
        self.assertEqual(source.tagged_line("barrier"), "    __syncthreads();  // every write precedes the reads")

    def test_edits_at_tags(self):
        source = self.parse(SOLUTION)
        deleted = source.edited("barrier", None, "")
        self.assertNotIn("__syncthreads", deleted)
        self.assertEqual(deleted.count("\n"), SOLUTION.count("\n") - 1)
        edited = source.edited("guarded", "i < n", "i <= n")
        self.assertIn("    if (i <= n) data[i] += 1;\n", edited)
        self.assertIn("    int extra = 0;\n    __syncthreads();\n",
                      source.edited("barrier", None, "    int extra = 0;\n    __syncthreads();"))
        for at, find in (("no-such-tag", None), ("guarded", "absent"), ("guarded", "i")):
            with self.subTest(at=at, find=find), self.assertRaises(solution_source.MarkerError):
                source.edited(at, find, "x")

    def test_malformed_markers_name_file_and_line(self):
        lines = SOLUTION.splitlines(keepends=True)
        cases = {
            "begin without end": ("".join(lines[:11]) + "// BEGIN SOLUTION\nint x;\n", ":12:"),
            "end without begin": ("int x;\n// END SOLUTION\n", ":2:"),
            "nested": ("// BEGIN SOLUTION\n// BEGIN PROMPT\n", ":2:"),
            "end of the other kind": ("// BEGIN SOLUTION\n// END PROMPT\n", ":2:"),
            "misspelt marker": ("// BEGIN SOLUTIONS\n", ":1:"),
            "prompt line without prefix": ("// BEGIN PROMPT\n// TODO\n// END PROMPT\n", ":2:"),
            "duplicate tag": ("int a;  //@ t\nint b;  //@ t\n", ":2:"),
            "bad tag name": ("int a;  //@ Bad_Tag\n", ":1:"),
            "tag inside a prompt": ("// BEGIN PROMPT\n//| int a;  //@ t\n// END PROMPT\n", ":2:"),
        }
        for what, (text, where) in cases.items():
            with self.subTest(what), self.assertRaises(solution_source.MarkerError) as caught:
                self.parse(text)
            self.assertIn("sol.cu" + where, str(caught.exception), what)


class SyncTest(unittest.TestCase):
    def test_points_table_lists_every_check_and_the_total(self):
        lab = _sample_labs()["02"]
        table = sync.points_table(lab).splitlines()
        self.assertEqual(table[2], "| `correctness-inplace` | the in-place scan matches | 10 |")
        self.assertEqual(table[3], "| `speed` | Fast | 0 |")
        self.assertEqual(table[-1], "| | total | 10 |")


class StagingTest(unittest.TestCase):
    """Only a lab's own files are taken from a submission (submission.py)."""

    def setUp(self):
        from scanlab_grader import submission
        self.submission = submission
        self.tmp = Path(tempfile.mkdtemp())
        self.kit = self.tmp / "kit"
        (self.kit / "labs" / "02-kogge-stone").mkdir(parents=True)
        (self.kit / "labs" / "02-kogge-stone" / "kogge_stone.cu").write_text("skeleton\n")
        (self.kit / "labs" / "02-kogge-stone" / "README.md").write_text("readme\n")
        self.labs = [_sample_labs()["02"]]

    def stage(self, sub: Path):
        dest = self.tmp / "staged"
        return dest, self.submission.stage(self.kit, self.submission.submission_root(sub), self.labs, dest)["02"]

    def test_lab_folders_extra_files_and_links(self):
        sub = self.tmp / "alice"
        (sub / "02-kogge-stone" / "gtest").mkdir(parents=True)
        (sub / "02-kogge-stone" / "kogge_stone.cu").write_text("mine\n")
        (sub / "02-kogge-stone" / "cuda_runtime.h").write_text("#error\n")
        (sub / "02-kogge-stone" / "gtest" / "gtest.h").write_text("#error\n")
        dest, staged = self.stage(sub)
        self.assertEqual(sorted(p.name for p in (dest / "02-kogge-stone").iterdir()), ["kogge_stone.cu"])
        self.assertEqual((dest / "02-kogge-stone" / "kogge_stone.cu").read_text(), "mine\n")
        self.assertIn("not taken: cuda_runtime.h, gtest", staged.notes[0])
        (sub / "02-kogge-stone" / "kogge_stone.cu").unlink()
        (sub / "02-kogge-stone" / "kogge_stone.cu").symlink_to(self.kit / "labs" / "02-kogge-stone" / "kogge_stone.cu")
        dest, staged = self.stage(sub)
        self.assertEqual(staged.missing, ["kogge_stone.cu"])
        self.assertFalse((dest / "02-kogge-stone" / "kogge_stone.cu").exists())
        self.assertIn("symbolic link", staged.notes[0])

    def test_whole_repository_and_flat_upload(self):
        repo = self.tmp / "repo"
        (repo / "labs" / "02-kogge-stone").mkdir(parents=True)
        (repo / "grader").mkdir()
        (repo / "labs" / "02-kogge-stone" / "kogge_stone.cu").write_text("repo\n")
        dest, staged = self.stage(repo)
        self.assertEqual((dest / "02-kogge-stone" / "kogge_stone.cu").read_text(), "repo\n")
        flat = self.tmp / "upload"
        flat.mkdir()
        (flat / "kogge_stone.cu").write_text("flat\n")
        dest, staged = self.stage(flat)
        self.assertEqual((dest / "02-kogge-stone" / "kogge_stone.cu").read_text(), "flat\n")
        self.assertEqual(staged.missing, [])


class AnnotationsTest(unittest.TestCase):
    def test_compile_error_and_race_on_the_students_line(self):
        from scanlab_grader.annotations import annotations
        lab = _sample_labs()["02"]
        result = LabResult(lab, [
            CheckResult(lab.checks[0], "fail", "compile", "compile error: 02-kogge-stone/kogge_stone.cu:42: error: "
                        "'tid' was not declared", []),
            CheckResult(lab.checks[1], "fail", "assertion", "race on shared memory",
                        ["  written at 02-kogge-stone/kogge_stone.cu:57 by (0, 3)",
                         "  read at common/include/scanlab/operators.hpp:12",
                         # The grader's own test file of the lab is no place of the student's.
                         "  at grader/labs/02-kogge-stone/kogge_stone_test.cpp:30"]),
        ])
        lines = annotations([result], "labs")
        self.assertEqual(len(lines), 2, lines)
        self.assertTrue(lines[0].startswith("::error file=labs/02-kogge-stone/kogge_stone.cu,line=42,"), lines[0])
        self.assertIn("line=57", lines[1])
        self.assertNotIn("operators.hpp", "".join(lines))
        self.assertNotIn("kogge_stone_test.cpp", "".join(lines))
        passed = LabResult(lab, [CheckResult(lab.checks[0], "pass")])
        self.assertEqual(annotations([passed], "labs"), [])


class ReleaseManifestTest(unittest.TestCase):
    def test_hidden_checks_and_mutants_left_out(self):
        from scanlab_grader import release
        text = (LAB02.replace('id = "speed"', 'id = "speed"\nhidden = true')
                + '\n[[mutant]]\nname = "another"\nfile = "k.cu"\nat = "t"\nreplace = ""\n'
                  'rejected_by = ["correctness-inplace"]\nfeedback = "index 0: expected"\n')
        with tempfile.TemporaryDirectory() as d:
            full = write_labs(Path(d) / "full", {"02-kogge-stone": text})
            kit = manifest.discover(full)["02"]
            self.assertTrue(any(c.hidden for c in kit.checks))
            self.assertEqual(len(kit.mutants), 2)
            student_text = release.student_manifest(text, "lab.toml")
            student = manifest.discover(write_labs(Path(d) / "student", {"02-kogge-stone": student_text}))["02"]
        self.assertEqual([c.id for c in student.checks], [c.id for c in kit.checks if not c.hidden])
        self.assertEqual(student.mutants, ())
        self.assertNotIn("speed", student_text)


class SymbolScreenTest(unittest.TestCase):
    def test_forbidden_symbol_patterns(self):
        from scanlab_grader import symbol_screen

        def kind(symbol):
            return next((k for k, _why, pat in symbol_screen.FORBIDDEN_SYMBOLS if pat.fullmatch(symbol)), None)
        self.assertEqual(kind("exit"), "process escape")
        self.assertEqual(kind("fork"), "process escape")
        self.assertEqual(kind("write"), "grader channel")
        self.assertEqual(kind("testing::Test::RecordProperty(std::string const&, int)"), "grader channel")
        self.assertEqual(kind("scanlab::sim::set_schedule(scanlab::sim::Schedule const&)"), "simulator control")
        # The count device-memory reads around the scan's calls (caller_storage_checks.hpp).
        self.assertEqual(kind("scanlab::sim::device_allocations()"), "simulator control")
        for fine in ("__cxa_atexit", "atomicAdd(unsigned long long*, unsigned long long)", "memcpy",
                     "scanlab::sim::detail::coordinates_or_die(char const*, char const*, unsigned int)",
                     "__syncthreads(char const*, unsigned int)", "exit_code", "writer"):
            self.assertIsNone(kind(fine), fine)

    def test_the_calls_nvcc_writes_are_not_the_labs(self):
        from scanlab_grader import symbol_screen
        nvcc_object = ["__cudaRegisterFatBinary", "__cudaUnregisterFatBinary", "atexit", "exit"]
        self.assertEqual(symbol_screen.forbidden_among(nvcc_object), [])
        self.assertEqual([f.what for f in symbol_screen.forbidden_among(nvcc_object + ["fork"])], ["fork"])
        # A host compiler's object (the simulator build): the lab's own calls.
        self.assertEqual([f.what for f in symbol_screen.forbidden_among(["atexit", "exit"])], ["atexit", "exit"])

    def test_reads_outside_the_lab(self):
        from scanlab_grader import symbol_screen
        repo, sub, build_dir = Path("/kit"), Path("/staged"), Path("/kit/build/x")
        earlier = repo / "solutions"

        def reads(*files):
            return [f.what for f in symbol_screen.foreign_reads([Path(f) for f in files], lab_dir="03-exclusive-scan",
                                                                submission=sub, earlier=earlier, repo=repo,
                                                                build_dir=build_dir)]
        self.assertEqual(reads("/staged/03-exclusive-scan/exclusive_scan.cu", "/kit/solutions/02-kogge-stone/k.cu",
                               "/kit/common/include/scanlab/operators.hpp", "/usr/include/stdio.h",
                               "/kit/build/x/scanlab_sim/ab/exclusive_scan.cu.cpp"), [])
        self.assertEqual(reads("/kit/solutions/03-exclusive-scan/exclusive_scan.cu"),
                         ["solutions/03-exclusive-scan/exclusive_scan.cu"])
        self.assertEqual(reads("/kit/grader/harness/harness_main.cpp", "/home/me/x.h"),
                         ["grader/harness/harness_main.cpp", "/home/me/x.h"])


if __name__ == "__main__":
    unittest.main()


class LayersTest(unittest.TestCase):
    """The kit's Python stands in three layers: common/python below, the grader and reports/ on
    it, side by side; nothing imports upward or sideways, or puts another package's folder on
    the path."""

    KIT = HERE.parents[1]

    def imports_of(self, folder: Path) -> dict[str, set[str]]:
        found = {}
        for path in sorted(folder.rglob("*.py")):
            tree = ast.parse(path.read_text())
            names = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for alias in node.names}
            names |= {node.module.split(".")[0] for node in ast.walk(tree)
                      if isinstance(node, ast.ImportFrom) and node.module and node.level == 0}
            found[str(path.relative_to(self.KIT))] = names
        return found

    def test_common_python_imports_neither_package(self):
        for path, names in self.imports_of(self.KIT / "common" / "python").items():
            self.assertFalse(names & {"scanlab_grader", "scanlab_reports"}, path)

    def test_reports_and_grader_do_not_import_each_other(self):
        for package, other in (("reports/scanlab_reports", "scanlab_grader"),
                               ("grader/scanlab_grader", "scanlab_reports")):
            for path, names in self.imports_of(self.KIT / package).items():
                self.assertNotIn(other, names, path)

    def test_reports_puts_no_folder_on_the_path(self):
        for path in sorted((self.KIT / "reports" / "scanlab_reports").rglob("*.py")):
            self.assertNotIn("sys.path", path.read_text(), path)
