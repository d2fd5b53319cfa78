"""The simulator's findings as the grader shows them: read from the runtime's records (never from
report text), written with the student's paths, each place once under its check, and carried by
every output format."""

import base64
import json
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))  # scanlab_build, as grader/grade sets it

from scanlab_grader import call_sites, formats, pictures, runner  # noqa: E402
from scanlab_findings import drawing, records as findings  # noqa: E402
from scanlab_grader.grading import CheckResult, LabResult, evaluate_check  # noqa: E402
from scanlab_grader.manifest import Check, Lab  # noqa: E402
from scanlab_grader.protocol import Ended, RecordStream  # noqa: E402
from scanlab_grader.runner import SuiteRun, TestOutcome  # noqa: E402

KIT = HERE.parents[1]
REPO = Path("/home/kit")
# Records as the runtime writes them (common/sim/runtime/findings/report.cpp, json_record), with
# the paths the build gives them (grader/cmake/LabTests.cmake maps the staging copy away).
STAGED = "02-kogge-stone/kogge_stone.cu"
RACE = {"number": 1, "kind": "race", "severity": "error", "error": True,
        "headline": "data race (read-after-write) on shared memory",
        "parties": [{"role": "write", "file": STAGED, "line": 56,
                     "function": "void block_scan_inplace<int, Plus<int> >(int*, unsigned int)",
                     "block": [0, 0, 0], "thread": [1, 0, 0]},
                    {"role": "read", "file": "common/include/scanlab/affine_map.hpp", "line": 47,
                     "block": [0, 0, 0], "thread": [40, 0, 0]}],
        "location": f"shared variable 'shared_bytes' (declared at {STAGED}:112), byte 8 of 256",
        "details": ["no barrier separates the two accesses (the last barrier of the block was at "
                    f"{STAGED}:50)"],
        "fix": "these two lines race between threads of different warps: put __syncthreads() between the two accesses, "
               "reached by every thread of the block",
        "reproduce": "SCANLAB_SIM_SEED=1", "seed": 1}
LAUNCH = {"number": 2, "kind": "invalid-launch", "severity": "error", "error": True,
          "headline": "invalid kernel launch: a grid of 0 blocks (0x1x1); CUDA launches no kernel for an empty grid",
          "parties": [{"role": "launch", "file": STAGED, "line": 168}], "location": "",
          "details": ["configuration: grid (0,1,1), block (32,1,1), 0 bytes of dynamic shared memory",
                      "the kernel did not run; cudaGetLastError() returns cudaErrorInvalidValue"],
          "fix": "", "reproduce": "SCANLAB_SIM_SEED=1", "seed": 1}

CHECK = Check("race-freedom-inplace", "In-place scan has no race", "race-freedom", "Lab02RaceFreedom.*", 10)
LAB = Lab("02", "Kogge-Stone scan", "02-kogge-stone", (CHECK,))


def suite_with(*outcomes):
    return SuiteRun(plan=[o.name for o in outcomes], outcomes={o.name: o for o in outcomes})


class FindingsTest(unittest.TestCase):
    def test_a_record_is_read_with_the_students_paths(self):
        race = findings.from_record(RACE)
        self.assertEqual((race.kind, race.error, race.headline),
                         ("race", True, "data race (read-after-write) on shared memory"))
        self.assertEqual([(p.role, p.where) for p in race.places],
                         [("write", "02-kogge-stone/kogge_stone.cu:56"),
                          ("read", "common/include/scanlab/affine_map.hpp:47")])
        self.assertEqual(race.places[0].thread, "block (0,0,0) thread (1,0,0)")
        self.assertEqual(race.places[0].function, "void block_scan_inplace<int, Plus<int> >(int*, unsigned int)")
        self.assertIn("declared at 02-kogge-stone/kogge_stone.cu:112", race.location)
        self.assertTrue(race.fix.startswith("these two lines race between threads of different warps"))
        self.assertEqual(race.reproduce, "SCANLAB_SIM_SEED=1")
        text = "\n".join(race.lines())
        self.assertNotIn("build/grade", text)
        # Cause first: what and where, the evidence, and the fix last.
        self.assertLess(text.index("write: 02-kogge-stone"), text.index("location:"))
        self.assertLess(text.index("no barrier separates"), text.index("fix: these two lines race"))

    def test_a_finding_in_global_memory_names_its_buffer_as_data(self):
        # A stale hand-off between two blocks, as json_record writes it: the buffer and byte are
        # data, beside the location's words; a shared-memory race keeps its variable and block.
        buffer = f"a 44-byte buffer allocated at {STAGED}:197"
        stale = dict(RACE, headline="stale value handed on in global memory",
                     location=f"byte 8 of {buffer}",
                     memory={"space": "global", "buffer": buffer, "byte": 8})
        shared = dict(RACE, memory={"space": "shared", "variable": "shared_bytes", "byte": 8, "block": [2, 0, 0]})
        in_global, in_shared = findings.from_record(stale), findings.from_record(shared)
        self.assertEqual(in_global.memory_space, "global")
        self.assertEqual((in_global.memory["buffer"], in_global.memory["byte"]), (buffer, 8))
        self.assertEqual(in_shared.memory_space, "shared")
        self.assertEqual(findings.from_record(RACE).memory_space, "")
        # Only a race in shared memory has a picture to ask for.
        self.assertIsNone(drawing.request_for(in_global))
        self.assertEqual(drawing.request_for(in_shared), "shared:8:2,0,0:shared_bytes")

    def test_a_deadlocks_and_an_out_of_bounds_accesss_pictures_are_kept_from_the_record(self):
        # The simulator writes these on every such record; the finding keeps them tagged with the
        # kind of picture, and a record with neither (or a malformed one) gives no picture.
        block = {"linear": 0, "block": [0, 0, 0], "state": "waiting", "thread": 0, "waits_for": -1}
        deadlock = dict(RACE, kind="deadlock", wait_picture={"grid_blocks": 1, "resident": 1, "blocks": [block]})
        access = {"cell": 10, "block": [0, 0, 0], "thread": 10, "role": "read", "file": STAGED, "line": 5}
        bounds = dict(RACE, kind="out-of-bounds",
                      bounds_picture={"space": "global", "buffer_cells": 10, "accesses": [access]})
        wait = findings.from_record(deadlock).picture
        self.assertEqual((wait["kind"], wait["grid_blocks"], wait["blocks"]), ("wait", 1, [block]))
        edge = findings.from_record(bounds).picture
        self.assertEqual((edge["kind"], edge["buffer_cells"], edge["accesses"]), ("bounds", 10, [access]))
        self.assertIsNone(findings.from_record(dict(deadlock, wait_picture={"blocks": "?"})).picture)
        self.assertIsNone(findings.from_record(dict(bounds, bounds_picture=[access])).picture)
        self.assertIsNone(findings.from_record(RACE).picture)

    def test_a_handoffs_missing_side_is_kept_from_the_record(self):
        for side in ("release", "acquire", "both"):
            self.assertEqual(findings.from_record(dict(RACE, handoff={"missing": side})).handoff_missing, side)
        self.assertEqual(findings.from_record(dict(RACE, handoff={"missing": "writer"})).handoff_missing, "")
        self.assertEqual(findings.from_record(dict(RACE, handoff="release")).handoff_missing, "")
        self.assertEqual(findings.from_record(RACE).handoff_missing, "")

    def test_a_warning_is_a_warning(self):
        warning = dict(RACE, severity="warning", error=False)
        self.assertFalse(findings.from_record(warning).error)

    def test_the_finding_kinds_are_the_runtimes(self):
        # The runtime names its kinds in to_string (findings/report.cpp) for the enum of
        # diagnostics.hpp: the grader's list must be the same, so that a new kind is known to both.
        source = (KIT / "common/sim/runtime/findings/report.cpp").read_text()
        switch = source[source.index("const char* to_string(ReportKind kind)"):]
        switch = switch[: switch.index("\n}\n")]
        runtime = re.findall(r'case ReportKind::\w+: return "([\w-]+)";', switch)
        enum = (KIT / "common/sim/include/scanlab/sim/diagnostics.hpp").read_text()
        enum = enum[enum.index("enum class ReportKind"):]
        enum = enum[: enum.index("};")]
        self.assertEqual(len(runtime), len(re.findall(r"^\s+\w+,", enum, re.MULTILINE)),
                         "every ReportKind needs its name in to_string")
        self.assertEqual(sorted(runtime), sorted(findings.KINDS))
        self.assertIn("co-residency", findings.KINDS)

    def test_the_findings_of_a_test_that_died_are_read_from_the_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / runner.FINDINGS_FILE
            unprinted = dict(LAUNCH, number=0)  # what a signal handler wrote: made, not printed
            lines = [json.dumps(RACE), json.dumps(LAUNCH), json.dumps(unprinted), '{"number": 4, "kind": "ra']
            path.write_text("\n".join(lines))
            stream = RecordStream(b"k" * 32)
            stream.ended["Lab02RaceFreedom.A"] = Ended("Lab02RaceFreedom.A", "fail", 1, [], [], [RACE])
            left = runner._findings_not_sent(path, stream)
        self.assertEqual([(r["kind"], r["number"]) for r in left], [("invalid-launch", 2), ("invalid-launch", 0)])

    def test_a_check_lists_each_place_once_and_says_how_often(self):
        records = [RACE]
        suite = suite_with(TestOutcome("Lab02RaceFreedom.A", "fail", "failed", [], findings=records),
                           TestOutcome("Lab02RaceFreedom.B", "fail", "failed", [], findings=records * 2))
        result = evaluate_check(CHECK, suite, "lab02_tests", REPO)
        self.assertEqual(result.status, "fail")
        self.assertEqual(len(result.findings), 1)
        self.assertEqual(result.findings[0].count, 3)
        text = formats.render(formats.Report("sim", "labs/", [LabResult(LAB, [result])]), "text")
        self.assertEqual(text.count("[race] data race"), 1)
        self.assertIn("(reported 3 times)", text)
        self.assertIn("write: 02-kogge-stone/kogge_stone.cu:56", text)

    def test_a_lab_shows_each_finding_once_cause_first_with_the_checks_it_cost(self):
        other = Check("forward-progress", "Finishes in any block order", "forward-progress", "Lab02Progress.*", 5)
        lab = Lab("02", "Kogge-Stone scan", "02-kogge-stone", (CHECK, other))
        suite = suite_with(TestOutcome("Lab02RaceFreedom.A", "fail", "failed", ["at n = 8: index 3: expected 6"],
                                       findings=[RACE]),
                           TestOutcome("Lab02Progress.A", "fail", "failed", ["at n = 9: index 4: expected 10"],
                                       findings=[RACE]))
        results = [evaluate_check(c, suite, "lab02_tests", REPO) for c in (CHECK, other)]
        text = formats.render(formats.Report("sim", "labs/", [LabResult(lab, results)]), "text")
        self.assertEqual(text.count("[race] data race"), 1, text)
        self.assertIn("cost: race-freedom-inplace (10 points), forward-progress (5 points)", text)
        # The checks the finding cost are told there; their tests' own words are its consequences,
        # shown with --verbose, after the cause.
        self.assertIn("The findings above are why race-freedom-inplace, forward-progress failed", text)
        self.assertNotIn("index 3: expected 6", text)
        verbose = formats.render(formats.Report("sim", "labs/", [LabResult(lab, results)]), "text", verbose=True)
        self.assertLess(verbose.index("[race] data race"), verbose.index("index 3: expected 6"))
        self.assertLess(verbose.index("fix: these two lines race"), verbose.index("Details of the failed checks"))

    def test_a_check_that_failed_with_no_finding_keeps_its_details(self):
        other = Check("correctness", "Matches the reference", "correctness", "Lab02Correctness.*", 5)
        lab = Lab("02", "Kogge-Stone scan", "02-kogge-stone", (CHECK, other))
        suite = suite_with(TestOutcome("Lab02RaceFreedom.A", "fail", "failed", ["at n = 8: index 3: expected 6"],
                                       findings=[RACE]),
                           TestOutcome("Lab02Correctness.A", "fail", "failed", ["at n = 9: index 4: expected 10"]))
        results = [evaluate_check(c, suite, "lab02_tests", REPO) for c in (CHECK, other)]
        text = formats.render(formats.Report("sim", "labs/", [LabResult(lab, results)]), "text")
        self.assertIn("The findings above are why race-freedom-inplace failed", text)
        self.assertNotIn("index 3: expected 6", text)
        self.assertLess(text.index("Details of the failed checks"), text.index("index 4: expected 10"))

    def test_a_second_consequence_of_a_told_mistake_points_to_it(self):
        # The same fix twice (a race and an unwritten read after one wait), and a warning at an
        # error's line: each told once, the later ones as pointers to the first.
        unwritten = dict(RACE, kind="uninitialized-read", headline="read of 4 bytes of shared memory that nothing wrote")
        warning = dict(RACE, kind="barrier-after-exit", severity="warning", error=False, headline="threads had exited before a barrier",
                       fix="")
        suite = suite_with(TestOutcome("Lab02RaceFreedom.A", "fail", "failed", [],
                                       findings=[RACE, unwritten, warning]))
        result = evaluate_check(CHECK, suite, "lab02_tests", REPO)
        text = formats.render(formats.Report("sim", "labs/", [LabResult(LAB, [result])]), "text")
        self.assertEqual(text.count("fix: these two lines race"), 1, text)
        self.assertEqual(text.count("the same cause as the [race] above"), 2, text)
        self.assertIn("[uninitialized-read] read of 4 bytes", text)
        self.assertIn("[barrier-after-exit] threads had exited", text)

    def test_an_unwritten_read_of_a_told_errors_bytes_points_to_it(self):
        # A wait let through early: the race on the stage's bytes, then other roles' reads of the
        # same bytes at lines of their own, each with the generic advice for garbage. They point
        # to the race; an unwritten read of other bytes stays a finding of its own.
        def unwritten(line, location):
            return dict(RACE, kind="uninitialized-read", headline="read of 4 bytes of shared memory that nothing wrote",
                        parties=[{"role": "read", "file": STAGED, "line": line, "block": [0, 0, 0], "thread": [63, 0, 0]}],
                        location="", details=[f"location: {location}"], fix="write it (then __syncthreads()) before reading it")
        elsewhere = f"shared variable 'shared_bytes' (declared at {STAGED}:112), byte 64 of 256"
        suite = suite_with(TestOutcome("Lab02RaceFreedom.A", "fail", "failed", [],
                                       findings=[RACE, unwritten(70, RACE["location"]), unwritten(80, RACE["location"]),
                                                 unwritten(90, elsewhere)]))
        result = evaluate_check(CHECK, suite, "lab02_tests", REPO)
        text = formats.render(formats.Report("sim", "labs/", [LabResult(LAB, [result])]), "text")
        self.assertEqual(text.count("the same bytes as the [race] above, read before anything wrote them"), 2, text)
        self.assertEqual(text.count("write it (then __syncthreads()) before reading it"), 1, text)
        self.assertIn("byte 64 of 256", text)

    def test_a_race_across_a_barrier_some_threads_skip_is_told_to_move_that_barrier(self):
        # A __syncthreads() inside `if (warp == 0)` between a write and a read: the other warps
        # skip it and race, then wait at the next barrier. The race's fix is that barrier moved
        # out of its branch, not another barrier; a race elsewhere keeps its own fix.
        def race(write, read):
            return dict(RACE, parties=[dict(RACE["parties"][0], line=write),
                                       {"role": "read", "file": STAGED, "line": read, "block": [0, 0, 0],
                                        "thread": [49, 0, 0]}])
        divergence = dict(RACE, kind="barrier-divergence", headline="barrier divergence: the threads of block (0,0,0) "
                          "wait at different barriers, so none can pass",
                          parties=[{"role": "__syncthreads", "file": STAGED, "line": 184, "block": [0, 0, 0],
                                    "thread": [0, 0, 0]},
                                   {"role": "__syncthreads", "file": STAGED, "line": 187, "block": [0, 0, 0],
                                    "thread": [32, 0, 0]}],
                          location="", details=["keep barriers out of branches that depend on threadIdx"], fix="")
        suite = suite_with(TestOutcome("Lab02RaceFreedom.A", "fail", "failed", [],
                                       findings=[race(183, 186), divergence]))
        result = evaluate_check(CHECK, suite, "lab02_tests", REPO)
        text = formats.render(formats.Report("sim", "labs/", [LabResult(LAB, [result])]), "text")
        self.assertIn("the __syncthreads at 02-kogge-stone/kogge_stone.cu:184, between these two lines, is reached by "
                      "only some threads of the block", text)
        self.assertNotIn("fix: these two lines race", text)
        suite = suite_with(TestOutcome("Lab02RaceFreedom.A", "fail", "failed", [],
                                       findings=[race(190, 195), divergence]))
        result = evaluate_check(CHECK, suite, "lab02_tests", REPO)
        text = formats.render(formats.Report("sim", "labs/", [LabResult(LAB, [result])]), "text")
        self.assertIn("fix: these two lines race", text)
        self.assertNotIn("between these two lines", text)

    def test_a_plain_read_at_a_polls_line_is_the_polls_finding(self):
        # One test's thread polled long enough to be taken for a poll; another test's read the
        # word a few times and met the store: the same mistake at the same line, one finding.
        poll = dict(RACE, headline="data race on global memory: a loop polls a word through a plain load",
                    parties=[{"role": "polling read", "file": STAGED, "line": 147, "block": [0, 0, 0],
                              "thread": [31, 0, 0]}], fix="poll the word through a volatile pointer")
        read = dict(RACE, headline="data race (write-after-read) on global memory",
                    parties=[{"role": "read", "file": STAGED, "line": 147, "block": [0, 0, 0], "thread": [30, 0, 0]},
                             {"role": "volatile write", "file": STAGED, "line": 131, "block": [2, 0, 0],
                              "thread": [0, 0, 0]}], fix="nothing orders the two blocks")
        other = Check("forward-progress", "Finishes in any block order", "forward-progress", "Lab02Progress.*", 5)
        lab = Lab("02", "Kogge-Stone scan", "02-kogge-stone", (CHECK, other))
        suite = suite_with(TestOutcome("Lab02RaceFreedom.A", "fail", "failed", [], findings=[poll]),
                           TestOutcome("Lab02Progress.A", "fail", "failed", [], findings=[read]))
        results = [evaluate_check(c, suite, "lab02_tests", REPO) for c in (CHECK, other)]
        [(finding, checks)] = LabResult(lab, results).findings()
        self.assertEqual([p.role for p in finding.places], ["polling read"])
        self.assertEqual(finding.count, 2)
        self.assertEqual([c.check.id for c in checks], ["race-freedom-inplace", "forward-progress"])
        # A read at another line stays a finding of its own.
        elsewhere = dict(read, parties=[dict(read["parties"][0], line=150), read["parties"][1]])
        suite = suite_with(TestOutcome("Lab02RaceFreedom.A", "fail", "failed", [], findings=[poll]),
                           TestOutcome("Lab02Progress.A", "fail", "failed", [], findings=[elsewhere]))
        results = [evaluate_check(c, suite, "lab02_tests", REPO) for c in (CHECK, other)]
        self.assertEqual(len(LabResult(lab, results).findings()), 2)

    def test_the_same_race_keeps_the_fix_that_orders_every_run(self):
        # One test ran a block of one warp (two lanes raced), another a block of several warps
        # (two warps raced at the same lines): only __syncthreads() fixes both.
        in_one_warp = dict(RACE, fix="put __syncwarp() between the two accesses", fix_scope="warp")
        across_warps = dict(RACE, fix="put __syncthreads() between the two accesses", fix_scope="block")
        for records in ([in_one_warp, across_warps], [across_warps, in_one_warp]):
            [merged] = findings.merge(findings.from_records(records, REPO))
            self.assertEqual((merged.fix_scope, merged.count), ("block", 2))
            self.assertIn("__syncthreads()", merged.fix)

    def test_tests_stopped_by_the_same_failure_are_said_once(self):
        same = ["scan_run.hpp:40: the lab code failed: cudaGetLastError() failed: invalid argument"]
        suite = suite_with(*(TestOutcome(f"Lab02RaceFreedom.T{i}", "fail", "failed", list(same)) for i in range(4)))
        result = evaluate_check(CHECK, suite, "lab02_tests", REPO)
        self.assertEqual(sum(1 for d in result.details if "the lab code failed" in d), 1)
        self.assertIn("Lab02RaceFreedom.T0 and 3 more tests the same way:", result.details)

    def test_a_passing_check_keeps_its_findings(self):
        warning = dict(RACE, kind="barrier-after-exit", severity="warning", error=False)
        suite = suite_with(TestOutcome("Lab02RaceFreedom.A", "pass", findings=[warning]))
        result = evaluate_check(CHECK, suite, "lab02_tests", REPO)
        self.assertEqual((result.status, len(result.findings)), ("pass", 1))

    def test_a_crashed_test_gives_the_findings_it_left(self):
        suite = suite_with(TestOutcome("Lab02RaceFreedom.A", "crash", "crashed with SIGSEGV", [], findings=[LAUNCH]))
        result = evaluate_check(CHECK, suite, "lab02_tests", REPO)
        self.assertEqual([f.kind for f in result.findings], ["invalid-launch"])

    def test_every_format_carries_the_finding_at_the_students_line(self):
        records = [RACE]
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
        # Compiled as the grader's build compiles lab code (grader/cmake/LabTests.cmake,
        # scanlab_write_student_paths): the debug information names files from the kit's top.
        subprocess.run(["g++", "-O1", "-gdwarf-4", f"-ffile-prefix-map={root}=", f"-ffile-prefix-map={root}/=",
                        str(root / "02-lab" / "student.cpp"), "-o", str(cls.binary)], check=True, cwd=root)
        cls.root = root
        cls.sites = call_sites.CallSites(cls.binary, "02-lab", root)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_no_folder_of_the_build_in_the_program(self):
        # What addr2line and readelf read names no folder of the machine that built it.
        self.assertNotIn(str(self.root).encode(), self.binary.read_bytes())

    def test_no_caller_without_more_to_go_on(self):
        # Two lines of the student's file call the kit's line: naming either would be a guess.
        kit = findings.Place("read", "common/op.hpp", 3)
        self.assertEqual(self.sites.callers(kit, []), [])

    def test_the_caller_in_the_function_of_the_other_access(self):
        kit = findings.Place("read", "common/op.hpp", 3)
        other = findings.Place("write", "02-lab/student.cpp", 6)
        self.assertEqual([p.where for p in self.sites.callers(kit, [other])], ["02-lab/student.cpp:7"])

    def test_a_finding_in_kit_code_names_the_students_line(self):
        race = findings.Finding("race", True, "data race", [findings.Place("read", "common/op.hpp", 3),
                                                             findings.Place("write", "02-lab/student.cpp", 6)])
        [attributed] = call_sites.attribute([race], self.sites)
        self.assertEqual([p.where for p in attributed.called_from], ["02-lab/student.cpp:7"])
        text = "\n".join(attributed.lines())
        self.assertIn("  read:  02-lab/student.cpp:7\n", text)
        self.assertIn("through the kit's code at common/op.hpp:3", text)
        self.assertNotIn("read:  common/op.hpp", text)
        self.assertIn("02-lab/student.cpp:7 (read, through common/op.hpp:3)", attributed.brief())

    def test_a_finding_reached_from_two_of_the_students_lines_names_both(self):
        race = findings.Finding("race", True, "data race", [findings.Place("read", "common/op.hpp", 3)],
                                called_from=[findings.Place("called from", "02-lab/student.cpp", 7),
                                             findings.Place("called from", "02-lab/student.cpp", 9)])
        text = "\n".join(race.lines())
        self.assertIn("  read: common/op.hpp:3\n", text)
        self.assertIn("called from your code at 02-lab/student.cpp:7, 02-lab/student.cpp:9", text)


if __name__ == "__main__":
    unittest.main()
