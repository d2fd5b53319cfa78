"""The performance check's grading on each backend, with no build: on the simulator it is shown
as not graded (skipped, no points either way), never as passed; on a GPU in a student's copy of
the kit (no solutions/) it is timed against CUB alone and shown as the instructor's to grade, never
as failed or passed, while the instructor's copy grades it as before; a mutant that is only slower
runs on a GPU only, where it must fail its performance check and nothing else."""

import shutil
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))  # scanlab_build, as grader/grade sets it
sys.path.insert(0, str(HERE))

import check_submissions  # noqa: E402
import run_mutants  # noqa: E402
from scanlab_grader import grading, manifest  # noqa: E402
from scanlab_grader.runner import SuiteRun, TestOutcome  # noqa: E402

REPO = HERE.parents[1]


def report(status: str, kind: str, points: float, max_points: float, reason: str) -> dict:
    """A grade JSON report of one lab with a passed correctness check and a performance check."""
    checks = [{"id": "correctness", "category": "correctness", "status": "pass", "kind": "", "reason": "",
               "points": 10, "max_points": 10},
              {"id": "performance", "category": "performance", "status": status, "kind": kind, "reason": reason,
               "points": points, "max_points": max_points}]
    return {"labs": [{"number": "06", "checks": checks, "max_score": sum(c["max_points"] for c in checks)}]}


NOT_GRADED = "not graded on the simulator: performance is measured on a GPU only (--backend cuda)"


class PerformanceOnBackendTest(unittest.TestCase):
    def test_the_grader_skips_it_on_the_simulator_with_no_points(self):
        lab = manifest.discover(REPO / "grader" / "labs")["06"]
        check = next(c for c in lab.checks if c.category == "performance")
        result = grading._backend_cannot_grade(check, "sim")
        self.assertEqual((result.status, result.kind, result.points, result.max_points),
                         ("skip", "gpu-only", 0.0, 0.0))
        self.assertIn("not graded on the simulator", result.reason)
        self.assertIsNone(grading._backend_cannot_grade(check, "cuda"))

    def test_not_graded_on_the_simulator_is_accepted(self):
        self.assertEqual(check_submissions.performance_on_backend(report("skip", "gpu-only", 0, 0, NOT_GRADED), "sim"),
                         [])

    def test_a_performance_check_passed_on_the_simulator_is_refused(self):
        self.assertTrue(check_submissions.performance_on_backend(report("pass", "", 10, 10, ""), "sim"))

    def test_a_skip_that_counts_in_the_maximum_is_refused(self):
        self.assertTrue(check_submissions.performance_on_backend(report("skip", "gpu-only", 0, 10, NOT_GRADED), "sim"))

    def test_a_skip_on_a_gpu_is_refused(self):
        self.assertTrue(check_submissions.performance_on_backend(report("skip", "gpu-only", 0, 0, NOT_GRADED), "cuda"))


PERFORMANCE_TEST = "Lab06Performance.LargeArrayAgainstReferenceAndCub"
AGAINST_CUB = "0.91x CUB (n = 2^27 int32: 1.234 ms; CUB InclusiveSum 1.123 ms)"


class PerformanceInAStudentCopyTest(unittest.TestCase):
    """What lab 06's performance test reports on a GPU, as the grader reads it, in each copy of
    the kit: the instructor's (this repository, with solutions/) and a student's (none)."""

    def setUp(self):
        self.lab = manifest.discover(REPO / "grader" / "labs")["06"]
        self.student_copy = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.student_copy)

    def graded(self, outcome: TestOutcome, repo: Path) -> grading.CheckResult:
        suite = SuiteRun(plan=[PERFORMANCE_TEST], outcomes={PERFORMANCE_TEST: outcome})
        results = [grading.evaluate_check(c, suite, self.lab.target) for c in self.lab.checks
                   if c.category == "performance"]
        lab = grading.for_this_copy_of_the_kit(grading.LabResult(self.lab, results), repo, "cuda")
        return lab.checks[0]

    def test_only_the_instructors_copy_has_the_reference(self):
        self.assertTrue(grading.kit_has_reference(REPO, self.lab))
        self.assertFalse(grading.kit_has_reference(self.student_copy, self.lab))
        self.assertFalse(grading.is_students_copy(REPO))
        self.assertTrue(grading.is_students_copy(self.student_copy))

    def test_a_lab_without_a_reference_in_the_instructors_copy_is_graded_as_its_test_says(self):
        # a lab being written (or a self-test's fake lab) has no solutions/NN yet: its
        # performance check is not the student-copy case
        instructors = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, instructors)
        (instructors / "solutions").mkdir()
        self.assertFalse(grading.kit_has_reference(instructors, self.lab))
        passed = TestOutcome(PERFORMANCE_TEST, "pass", measured=["1.00x the reference, 0.81x CUB"])
        self.assertEqual(self.graded(passed, instructors).status, "pass")

    def test_timed_against_cub_alone_it_is_the_instructors_to_grade(self):
        skipped = TestOutcome(PERFORMANCE_TEST, "skip", f"{PERFORMANCE_TEST} was skipped: not graded in this copy",
                              measured=[AGAINST_CUB])
        # Read as any other check would read a skipped test, it fails and costs its points:
        suite = SuiteRun(plan=[PERFORMANCE_TEST], outcomes={PERFORMANCE_TEST: skipped})
        check = next(c for c in self.lab.checks if c.category == "performance")
        self.assertEqual(grading.evaluate_check(check, suite, self.lab.target).status, "fail")
        # in a student's copy it is not graded, with what it measured and why:
        result = self.graded(skipped, self.student_copy)
        self.assertEqual((result.status, result.kind, result.points, result.max_points),
                         ("skip", "instructor-graded", 0.0, 0.0))
        self.assertEqual(result.measured, [AGAINST_CUB])
        self.assertIn("the instructor's grading", result.reason)
        self.assertIn("measured against CUB alone", result.reason)
        self.assertIn("10 points", result.reason)

    def test_a_run_that_went_wrong_says_so_and_is_still_not_graded(self):
        why = "the submission's inclusive sum of n = 134217728 int32 differs from cub::DeviceScan::InclusiveSum's"
        wrong = TestOutcome(PERFORMANCE_TEST, "fail", f"{PERFORMANCE_TEST} failed: {why}", [f"performance_check.hpp:150: {why}"])
        result = self.graded(wrong, self.student_copy)
        self.assertEqual((result.status, result.max_points), ("skip", 0.0))
        self.assertIn("its run failed before the timing", result.reason)
        self.assertTrue(any(why in line for line in result.details), result.details)

    def test_a_pass_in_a_students_copy_is_not_a_grade_either(self):
        passed = TestOutcome(PERFORMANCE_TEST, "pass", measured=[AGAINST_CUB])
        self.assertEqual(self.graded(passed, self.student_copy).status, "skip")

    def test_the_instructors_copy_grades_it_as_before(self):
        slow = TestOutcome(PERFORMANCE_TEST, "fail", f"{PERFORMANCE_TEST} failed: 0.18x its throughput",
                           measured=["0.18x the reference, 0.16x CUB"])
        fast = TestOutcome(PERFORMANCE_TEST, "pass", measured=["1.00x the reference, 0.81x CUB"])
        self.assertEqual((self.graded(slow, REPO).status, self.graded(slow, REPO).points), ("fail", 0.0))
        self.assertEqual((self.graded(fast, REPO).status, self.graded(fast, REPO).points), ("pass", 10.0))
        # and the simulator leaves it out in either copy.
        sim = grading.for_this_copy_of_the_kit(
            grading.LabResult(self.lab, [grading._gpu_only(self.lab.checks[-1])]), self.student_copy, "sim")
        self.assertEqual(sim.checks[0].kind, "gpu-only")


class SlowedMutantTest(unittest.TestCase):
    def setUp(self):
        self.labs = manifest.discover(REPO / "grader" / "labs")

    def slowed(self, number: str):
        return next(m for m in self.labs[number].mutants if m.name == "slowed-by-a-sleep-per-tile")

    def test_the_whole_array_labs_have_a_slowed_reference_run_on_a_gpu_only(self):
        for number in ("06", "07", "09", "10"):
            lab, mutant = self.labs[number], self.slowed(number)
            self.assertEqual(list(mutant.rejected_by), ["performance"])
            self.assertIn("GPU only", run_mutants.simulator_blind_reason(lab, mutant))
            self.assertIsNone(run_mutants.gpu_blind_reason(lab, mutant))
        race = next(m for m in self.labs["07"].mutants if m.name == "missing-fence-before-flag")
        self.assertIsNone(run_mutants.simulator_blind_reason(self.labs["07"], race))

    def test_a_slowed_mutant_may_fail_nothing_but_performance(self):
        lab, mutant = self.labs["06"], self.slowed("06")
        only_slower = {"correctness": {"status": "pass", "reason": ""},
                       "performance": {"status": "fail", "reason": "0.18x the reference"}}
        self.assertEqual(run_mutants.collateral_failures(lab, mutant, only_slower), [])
        also_wrong = dict(only_slower, correctness={"status": "fail", "reason": "wrong at index 3"})
        self.assertEqual(run_mutants.collateral_failures(lab, mutant, also_wrong), ["correctness"])
        # A mutant meant for another check may fail others too.
        other = next(m for m in lab.mutants if m.name == "starts-from-the-wrong-tile")
        self.assertEqual(run_mutants.collateral_failures(lab, other, also_wrong), [])


if __name__ == "__main__":
    unittest.main()
