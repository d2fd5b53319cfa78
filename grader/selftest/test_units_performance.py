"""The performance check's grading on each backend, with no build: on the simulator it is shown
as not graded (skipped, no points either way), never as passed; a mutant that is only slower runs
on a GPU only, where it must fail its performance check and nothing else."""

import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import check_submissions  # noqa: E402
import run_mutants  # noqa: E402
from scanlab_grader import grading, manifest  # noqa: E402

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


class SlowedMutantTest(unittest.TestCase):
    def setUp(self):
        self.labs = manifest.discover(REPO / "grader" / "labs")

    def slowed(self, number: str):
        return next(m for m in self.labs[number].mutants if m.name == "slowed-by-a-sleep-per-tile")

    def test_the_whole_array_labs_have_a_slowed_reference_run_on_a_gpu_only(self):
        for number in ("06", "07", "09"):
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
