"""The simulator's reports as the grader shows them: read back from the report text, written
with the student's paths, each place once under its check, and carried by every output format."""

import base64
import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))  # scanlab_build, as grader/grade sets it

from scanlab_grader import call_sites, findings, formats  # noqa: E402
from scanlab_grader.grading import CheckResult, LabResult, evaluate_check  # noqa: E402
from scanlab_grader.manifest import Check, Lab  # noqa: E402
from scanlab_grader.runner import SuiteRun, TestOutcome  # noqa: E402

REPO = Path("/home/kit")
STAGED = "/home/kit/build/grade/submissions/stu-68896021/02-kogge-stone/kogge_stone.cu"
RACE = (f"scanlab-sim: error: data race (read-after-write) on shared memory\n"
        f"  write: {STAGED}:56 (in void block_scan_inplace<int, Plus<int> >(int*, unsigned int))  "
        f"block (0,0,0) thread (1,0,0)\n"
        f"  read:  /home/kit/common/include/scanlab/affine_map.hpp:47  block (0,0,0) thread (2,0,0)\n"
        f"  location: shared variable 'shared_bytes' (declared at {STAGED}:112), byte 8 of 256\n"
        f"  reproduce with: SCANLAB_SIM_SEED=1\n")
LAUNCH = (f"scanlab-sim: error: invalid kernel launch: a grid of 0 blocks (0x1x1); CUDA launches no kernel for "
          f"an empty grid\n"
          f"  launch: {STAGED}:168\n"
          f"  configuration: grid (0,1,1), block (32,1,1), 0 bytes of dynamic shared memory\n"
          f"  the kernel did not run; cudaGetLastError() returns cudaErrorInvalidValue\n")

CHECK = Check("race-freedom-inplace", "In-place scan has no race", "race-freedom", "Lab02RaceFreedom.*", 10)
LAB = Lab("02", "Kogge-Stone scan", "02-kogge-stone", (CHECK,))


def suite_with(*outcomes):
    return SuiteRun(plan=[o.name for o in outcomes], outcomes={o.name: o for o in outcomes})


class FindingsTest(unittest.TestCase):
    def test_a_report_is_read_with_the_students_paths(self):
        [race] = findings.parse(RACE, "race", True, REPO)
        self.assertEqual(race.kind, "race")
        self.assertEqual([(p.role, p.where) for p in race.places],
                         [("write", "02-kogge-stone/kogge_stone.cu:56"),
                          ("read", "common/include/scanlab/affine_map.hpp:47")])
        self.assertEqual(race.places[0].thread, "block (0,0,0) thread (1,0,0)")
        self.assertIn("declared at 02-kogge-stone/kogge_stone.cu:112", race.details[0])
        self.assertNotIn("build/grade", "\n".join(race.lines()))

    def test_paths_in_messages(self):
        text = f"the lab code failed: {STAGED}:170: cudaGetLastError() failed"
        self.assertEqual(findings.student_paths_in(text, REPO),
                         "the lab code failed: 02-kogge-stone/kogge_stone.cu:170: cudaGetLastError() failed")
        # A build root inside the kit (the default build/grade) makes the compiler write the
        # staging copy's path relative to the kit.
        relative = "the lab code failed: build/grade/submissions/stu-68896021/02-kogge-stone/kogge_stone.cu:170: x"
        self.assertEqual(findings.student_paths_in(relative, REPO), "the lab code failed: 02-kogge-stone/kogge_stone.cu:170: x")
        self.assertEqual(findings.student_paths_in("solutions/06-hierarchical/hierarchical_scan.cu", REPO),
                         "solutions/06-hierarchical/hierarchical_scan.cu")
        # The grader's own test files and the kit's copies of a lab keep their place in the kit.
        self.assertEqual(findings.student_paths_in("/home/kit/grader/labs/02-kogge-stone/t_test.cpp:3", REPO),
                         "grader/labs/02-kogge-stone/t_test.cpp:3")

    def test_printed_output_with_several_reports(self):
        found = findings.parse("some output\n" + RACE + "more output\n" + LAUNCH, repo=REPO)
        self.assertEqual([f.kind for f in found], ["race", "invalid-launch"])
        self.assertEqual(found[1].places[0].where, "02-kogge-stone/kogge_stone.cu:168")

    def test_a_check_lists_each_place_once_and_says_how_often(self):
        records = [{"kind": "race", "error": True, "text": RACE}]
        suite = suite_with(TestOutcome("Lab02RaceFreedom.A", "fail", "failed", [], findings=records),
                           TestOutcome("Lab02RaceFreedom.B", "fail", "failed", [], findings=records * 2))
        result = evaluate_check(CHECK, suite, "lab02_tests", REPO)
        self.assertEqual(result.status, "fail")
        self.assertEqual(len(result.findings), 1)
        self.assertEqual(result.findings[0].count, 3)
        details = "\n".join(result.details)
        self.assertEqual(details.count("[race] data race"), 1)
        self.assertIn("(reported 3 times)", details)
        self.assertIn("write: 02-kogge-stone/kogge_stone.cu:56", details)

    def test_tests_stopped_by_the_same_failure_are_said_once(self):
        same = ["scan_run.hpp:40: the lab code failed: cudaGetLastError() failed: invalid argument"]
        suite = suite_with(*(TestOutcome(f"Lab02RaceFreedom.T{i}", "fail", "failed", list(same)) for i in range(4)))
        result = evaluate_check(CHECK, suite, "lab02_tests", REPO)
        self.assertEqual(sum(1 for d in result.details if "the lab code failed" in d), 1)
        self.assertIn("Lab02RaceFreedom.T0 and 3 more tests the same way:", result.details)

    def test_a_passing_check_keeps_its_findings(self):
        warning = RACE.replace("error:", "warning:")
        suite = suite_with(TestOutcome("Lab02RaceFreedom.A", "pass",
                                       findings=[{"kind": "barrier-after-exit", "error": False, "text": warning}]))
        result = evaluate_check(CHECK, suite, "lab02_tests", REPO)
        self.assertEqual((result.status, len(result.findings)), ("pass", 1))

    def test_a_crashed_test_gives_the_reports_it_printed_last(self):
        printed = ["what the program printed last:"] + ["  " + l for l in LAUNCH.splitlines()]
        suite = suite_with(TestOutcome("Lab02RaceFreedom.A", "crash", "crashed with SIGSEGV", printed))
        result = evaluate_check(CHECK, suite, "lab02_tests", REPO)
        self.assertEqual([f.kind for f in result.findings], ["invalid-launch"])

    def test_every_format_carries_the_finding_at_the_students_line(self):
        records = [{"kind": "race", "error": True, "text": RACE}]
        suite = suite_with(TestOutcome("Lab02RaceFreedom.A", "fail", "Lab02RaceFreedom.A failed: race", [],
                                       findings=records))
        result = evaluate_check(CHECK, suite, "lab02_tests", REPO)
        report = formats.Report("sim", "labs/", [LabResult(LAB, [result])], 1.0)
        where = "02-kogge-stone/kogge_stone.cu:56"
        text = formats.render(report, "text")
        self.assertIn(where, text)
        self.assertIn("[race]", text)
        doc = json.loads(formats.render(report, "json"))
        self.assertEqual(doc["labs"][0]["checks"][0]["findings"][0]["places"][0],
                         {"role": "write", "file": "02-kogge-stone/kogge_stone.cu", "line": 56})
        gradescope = json.loads(formats.render(report, "gradescope"))
        self.assertIn(where, gradescope["tests"][0]["output"])
        self.assertIn("[race]", gradescope["tests"][0]["output"])
        self.assertIn(where, formats.render(report, "junit"))
        self.assertIn(where, json.loads(formats.render(report, "prairielearn"))["tests"][0]["output"])
        from scanlab_grader.annotations import annotations
        [line] = annotations([LabResult(LAB, [result])], "labs")
        self.assertTrue(line.startswith("::error file=labs/02-kogge-stone/kogge_stone.cu,line=56,"), line)
        self.assertIn("[race] data race", line)
        classroom = json.loads(base64.b64decode(formats.render(report, "classroom")))
        self.assertEqual((classroom["tests"][0]["filename"], classroom["tests"][0]["line_no"]),
                         ("02-kogge-stone/kogge_stone.cu", 56))


KIT_HEADER = """#pragma once
inline int combine(const int& a, const int& b) {
    return a + b;  // line 3: the access the simulator reports
}
"""
STUDENT = """#include "../common/op.hpp"
int first(int* x) {
    return combine(x[0], x[1]);  // line 3
}
int second(int* x) {
    x[2] = x[0] * 3;             // line 6
    return combine(x[0], x[2]);  // line 7
}
int main(int, char**) { int x[3] = {1, 2, 3}; return first(x) + second(x); }
"""


@unittest.skipUnless(shutil.which("g++") and shutil.which("addr2line") and shutil.which("readelf"),
                     "needs g++ and binutils")
class CallSitesTest(unittest.TestCase):
    """The student's line behind an access in kit code, from a real program's debug information."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name)
        (root / "common").mkdir()
        (root / "common" / "op.hpp").write_text(KIT_HEADER)
        (root / "02-lab").mkdir()
        (root / "02-lab" / "student.cpp").write_text(STUDENT)
        cls.binary = root / "program"
        subprocess.run(["g++", "-O1", "-g", str(root / "02-lab" / "student.cpp"), "-o", str(cls.binary)], check=True)
        cls.sites = call_sites.CallSites(cls.binary, "02-lab", root)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_caller_without_more_to_go_on(self):
        kit = findings.Place("read", "common/op.hpp", 3)
        self.assertEqual([p.where for p in self.sites.callers(kit, [])], ["02-lab/student.cpp:3", "02-lab/student.cpp:7"])

    def test_the_caller_in_the_function_of_the_other_access(self):
        kit = findings.Place("read", "common/op.hpp", 3)
        other = findings.Place("write", "02-lab/student.cpp", 6)
        self.assertEqual([p.where for p in self.sites.callers(kit, [other])], ["02-lab/student.cpp:7"])

    def test_a_finding_in_kit_code_names_the_students_line(self):
        race = findings.Finding("race", True, "data race", [findings.Place("read", "common/op.hpp", 3),
                                                             findings.Place("write", "02-lab/student.cpp", 6)])
        [attributed] = call_sites.attribute([race], self.sites)
        self.assertEqual([p.where for p in attributed.called_from], ["02-lab/student.cpp:7"])
        self.assertIn("called from your code at 02-lab/student.cpp:7", "\n".join(attributed.lines()))


if __name__ == "__main__":
    unittest.main()
