"""Unit tests of grader/scanlab_grader: gtest filters, the manifest, the record
protocol and the report formats (validated against the platforms' documented
structure, see validators.py)."""

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
sys.path.insert(0, str(HERE))

import validators  # noqa: E402
import run_mutants  # noqa: E402
from scanlab_grader import build, formats, gtest_filter, manifest, protocol  # noqa: E402
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


MANIFEST = """
[labs."02"]
title = "Kogge-Stone scan"
dir = "02-kogge-stone"
[[labs."02".checks]]
id = "correctness-inplace"
title = "In-place Kogge-Stone matches the reference"
category = "correctness"
tests = "Lab02Correctness*.InPlace*"
points = 10
[[labs."02".checks]]
id = "speed"
title = "Fast"
category = "performance"
tests = "Lab02Perf.*"
points = 0
[labs."01"]
title = "Sequential"
dir = "01-sequential"
[[labs."01".checks]]
id = "c"
title = "c"
category = "correctness"
tests = "Lab01.*"
points = 2.5
"""


class ManifestTest(unittest.TestCase):
    def load(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
            f.write(text)
        self.addCleanup(os.unlink, f.name)
        return manifest.load(Path(f.name))

    def test_load_and_resolve(self):
        labs = self.load(MANIFEST)
        self.assertEqual(list(labs), ["01", "02"])
        self.assertEqual(labs["02"].target, "lab02_tests")
        self.assertEqual(labs["02"].checks[0].points, 10.0)
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
            "duplicate id": MANIFEST.replace('id = "speed"', 'id = "correctness-inplace"'),
            "bad category": MANIFEST.replace('"performance"', '"speed"'),
            "missing points": MANIFEST.replace("points = 2.5", ""),
            "bad dir": MANIFEST.replace('dir = "01-sequential"', 'dir = "sequential"'),
            "empty filter": MANIFEST.replace('tests = "Lab01.*"', 'tests = ""'),
            "negative points": MANIFEST.replace("points = 2.5", "points = -1"),
            "not toml": MANIFEST + "\n[[[",
        }
        for what, text in cases.items():
            with self.subTest(what), self.assertRaises(manifest.ManifestError):
                self.load(text)


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
    labs = manifest.load(_manifest_file())
    lab2, lab1 = labs["02"], labs["01"]
    r2 = LabResult(lab2, [
        CheckResult(lab2.checks[0], "fail", "crash", "crashed with SIGSEGV during Lab02Correctness.InPlace",
                    ["what the program printed last:", "  <&> \"quotes\" \x1b[31m"], ["Lab02Correctness.InPlace"]),
        CheckResult(lab2.checks[1], "skip", "gpu-only", "GPU only"),
    ])
    r1 = LabResult(lab1, [CheckResult(lab1.checks[0], "pass", tests=["Lab01.a"], seconds=0.25)])
    return formats.Report("sim", "labs/", [r1, r2], 3.5)


_MANIFEST_PATH = None


def _manifest_file() -> Path:
    global _MANIFEST_PATH
    if _MANIFEST_PATH is None:
        f = tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False)
        f.write(MANIFEST)
        f.close()
        _MANIFEST_PATH = Path(f.name)
    return _MANIFEST_PATH


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
                         "c_test.cpp:18: [in-place, n = 1025] index 3: expected 6, actual 5 (in common/x.hpp)")
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
        errors = build.first_errors(out, sub, Path("/repo"))
        self.assertEqual(errors[0], "02-kogge-stone/kogge_stone.cu:42: error: 'tid' was not declared in this scope")
        self.assertEqual(errors[1], "   42 |   out[tid] = x;")
        self.assertIn('02-kogge-stone/kogge_stone.cu:57: error: expected a ";"', errors)
        self.assertEqual(errors[-1], "common/include/scanlab/x.hpp:3: error: something in a header")

    def test_linker_and_unknown(self):
        errors = build.first_errors("x.o: in function f:\nx.cu:(.text+0x1): undefined reference to `g'\n",
                                    Path("/s"), Path("/r"))
        self.assertIn("undefined reference", errors[0])
        self.assertEqual(build.first_errors("weird failure\n", Path("/s"), Path("/r")), ["weird failure"])


class MutantFileTest(unittest.TestCase):
    def test_validation(self):
        lab = manifest.load(_manifest_file())["02"]
        good = ('[[mutant]]\nname = "m"\nfile = "kogge_stone.cu"\nfind = "a"\nreplace = "b"\n'
                'rejected_by = ["correctness-inplace"]\n')
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "02-kogge-stone.toml"
            path.write_text(good)
            self.assertEqual(len(run_mutants.load_mutants(path, lab)), 1)
            for bad in (good.replace('"correctness-inplace"', '"no-such-check"'),
                        good.replace('rejected_by = ["correctness-inplace"]', "rejected_by = []"),
                        good.replace('replace = "b"', 'replace = "a"'),
                        good.replace('name = "m"\n', ""),
                        good + good):
                path.write_text(bad)
                with self.assertRaises(run_mutants.MutantFileError):
                    run_mutants.load_mutants(path, lab)


if __name__ == "__main__":
    unittest.main()
