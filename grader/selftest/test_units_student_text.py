"""What a student reads by default: the evidence of a failed check in words (GoogleTest's own
text only with --verbose), reasons cut between words, and an untouched skeleton answered in a few
lines that point at its first TODO."""

import re
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))  # scanlab_build, as grader/grade sets it

from scanlab_grader import formats, grading, manifest, runner, unstarted  # noqa: E402
from scanlab_grader.grading import LabResult, evaluate_check  # noqa: E402
from scanlab_grader.manifest import Check, Lab  # noqa: E402
from scanlab_grader.protocol import RecordStream, encode  # noqa: E402
from scanlab_grader.runner import SuiteRun, TestOutcome  # noqa: E402

KIT = HERE.parents[1]
# A failure as the harness sends it: EXPECT_TRUE of an AssertionResult inside a SCOPED_TRACE.
GTEST_MESSAGE = ("Value of: run.output_matches(ScanKind::inclusive, kWholeArray, whole_scan_depth(size))\n"
                 "  Actual: false (\n"
                 "  index 999: expected 7, actual 4 (exact)\n"
                 "  index 1000: expected 9, actual 5 (exact)\n"
                 "  index 1001: expected 12, actual 6 (exact)\n"
                 "  index 1002: expected 13, actual 7 (exact)\n"
                 "  index 1003: expected 15, actual 8 (exact)\n"
                 "  12 of 1010 elements differ)\n"
                 "Expected: true\n"
                 "Google Test trace:\n"
                 "grader/labs/common/whole_scan_checks.hpp:72: n = 1010, tile_size = 256 (4 tiles)\n")
CHECK = Check("correctness", "The scan matches the reference", "correctness", "Lab07Correctness.*", 10,
              needs="the scan of the whole array matches the reference for every size")


def outcome_of(message: str) -> TestOutcome:
    """A failed test's outcome as the runner makes it from the harness's record."""
    key = b"k" * 32
    stream = RecordStream(key)
    for record in ({"seq": 0, "type": "plan", "tests": ["Lab07Correctness.Int32"]},
                   {"seq": 1, "type": "start", "test": "Lab07Correctness.Int32"},
                   {"seq": 2, "type": "end", "test": "Lab07Correctness.Int32", "result": "fail", "ms": 1,
                    "failures": [{"file": "grader/labs/common/whole_scan_checks.hpp", "line": 75,
                                  "message": message}]}):
        stream.feed(encode(key, record))
    ended = stream.ended["Lab07Correctness.Int32"]
    return TestOutcome(ended.name, "fail", f"{ended.name} failed: {runner._summary(ended.failures)}",
                       runner._evidence(ended.failures, None), ended.ms, findings=[],
                       assertions=runner._failure_lines(ended.failures, None))


class StudentTextTest(unittest.TestCase):
    def test_the_evidence_is_in_words_and_googletests_text_is_verbose_only(self):
        o = outcome_of(GTEST_MESSAGE)
        self.assertEqual(o.details[0], "at n = 1010, tile_size = 256 (4 tiles): index 999: expected 7, actual 4 (exact)")
        self.assertEqual(o.details[-1], "  12 of 1010 elements differ")  # how much, after the first mismatches
        self.assertLessEqual(len(o.details), runner.MAX_EVIDENCE_LINES)
        suite = SuiteRun(plan=[o.name], outcomes={o.name: o})
        result = evaluate_check(CHECK, suite, "lab07_tests")
        lab = Lab("07", "Single-pass scan", "07-single-pass", (CHECK,))
        report = formats.Report("sim", "labs/", [LabResult(lab, [result])])
        default = formats.render(report, "text")
        self.assertIn("index 999: expected 7, actual 4", default)
        for googletest_words in ("Value of:", "Actual: false", "Expected: true", "Google Test trace:"):
            self.assertNotIn(googletest_words, default)
        verbose = formats.render(report, "text", verbose=True)
        self.assertIn("Value of: run.output_matches", verbose)
        self.assertIn("Google Test trace:", verbose)

    def test_a_measured_count_reads_in_words(self):
        # EXPECT_TRUE(measured_against(...)) as grader/labs/common/measured_against.hpp fails.
        said = "bank conflicts in 1 024 shared-memory requests: 4410, where exactly 0 are expected: pad the section"
        o = outcome_of("Value of: measured_against(\"bank conflicts\" + in, counted.bank_conflicts(), Needed::exactly, 0ull)\n"
                       f"  Actual: false ({said})\nExpected: true\n")
        self.assertEqual(o.details, [said])
        self.assertNotIn(".hpp:", o.reason)  # the kit's own line is --verbose only
        self.assertTrue(o.reason.endswith("failed: " + said), o.reason)

    def test_no_check_of_a_lab_states_its_failure_in_googletests_comparison_text(self):
        # EXPECT_EQ and its kin describe a failure by the test's expressions ("counter.count()
        # Which is: 126"), which is the kit's wording: the labs' checks say theirs in words
        # (measured_against, or an AssertionResult), so that the default report can show them.
        comparison = re.compile(r"\b(EXPECT|ASSERT)_(EQ|NE|LT|LE|GT|GE|FLOAT_EQ|DOUBLE_EQ|NEAR|STREQ|STRNE)\s*\(")
        sources = [p for p in (KIT / "grader" / "labs").rglob("*") if p.suffix in (".cpp", ".hpp", ".cu", ".cuh")]
        self.assertGreater(len(sources), 20)
        used = [f"{p.relative_to(KIT)}:{n}" for p in sources
                for n, line in enumerate(p.read_text().splitlines(), 1) if comparison.search(line)]
        self.assertEqual(used, [])

    def test_a_reason_is_cut_between_words(self):
        words = "the scan wrote the wrong value at index 999 because " * 8
        line = grading._one_line(words)
        self.assertLessEqual(len(line), grading.MAX_REASON)
        self.assertTrue(line.endswith("…"))
        self.assertIn(line[:-1].split()[-1], words.split(), line)  # the last word shown is whole
        # A count after the cut stays whole.
        o = outcome_of(GTEST_MESSAGE.replace("index 999", "index 999 " + words))
        other = TestOutcome("Lab07Correctness.Float", "fail", o.reason, o.details)
        result = evaluate_check(CHECK, SuiteRun(plan=[o.name, other.name], outcomes={o.name: o, other.name: other}),
                                "lab07_tests")
        self.assertTrue(result.reason.endswith("… (+1 more failing)"), result.reason)
        self.assertLessEqual(len(result.reason), grading.MAX_REASON)

    def test_an_untouched_skeleton_points_at_its_first_todo(self):
        lab = manifest.discover(KIT / "grader" / "labs")["09"]
        todo = unstarted.first_todo(KIT, KIT / "labs" / lab.dir, lab.dir)
        self.assertIsNotNone(todo)
        self.assertTrue(todo.text[0].startswith("TODO 1:"), todo.text)
        skeleton = (KIT / "labs" / lab.dir / Path(todo.file).name).read_text().splitlines()
        self.assertIn("TODO 1:", skeleton[todo.line - 1])
        # One changed line and it is started.
        with tempfile.TemporaryDirectory() as tmp:
            started = Path(tmp)
            for name in unstarted.skeletons(KIT, lab.dir):
                (started / name).write_text((KIT / "labs" / lab.dir / name).read_text())
            self.assertIsNotNone(unstarted.first_todo(KIT, started, lab.dir))
            first = sorted(started.iterdir())[0]
            first.write_text(first.read_text().replace("TODO 1:", "DONE 1:", 1))
            self.assertIsNone(unstarted.first_todo(KIT, started, lab.dir))

    def test_every_untouched_skeleton_is_answered_in_a_few_lines(self):
        labs = manifest.discover(KIT / "grader" / "labs")
        self.assertIn("09", labs)
        for number, lab in labs.items():
            with self.subTest(lab=number):
                todo = unstarted.first_todo(KIT, KIT / "labs" / lab.dir, lab.dir)
                self.assertIsNotNone(todo)
                o = outcome_of(GTEST_MESSAGE)
                results = [evaluate_check(dataclass_with_tests(c, o.name), SuiteRun(plan=[o.name], outcomes={o.name: o}),
                                          f"lab{number}_tests") for c in lab.checks]
                report = formats.Report("sim", "labs/", [LabResult(lab, results, not_started=todo,
                                                                   notes=["built with the reference of an earlier lab"])],
                                        sandbox="namespaces (bubblewrap)")
                text = formats.render(report, "text")
                self.assertLessEqual(len(text.splitlines()), 40, text)
                self.assertIn(f"Start at {todo.where}:", text)
                self.assertIn("TODO", text)
                self.assertNotIn("index 999", text)  # every check failed the same way, for want of a start
                for c in lab.checks:
                    self.assertIn(f"{c.id}: {c.needs}", text)
                self.assertIn("index 999", formats.render(report, "text", verbose=True))


def dataclass_with_tests(check: Check, test: str) -> Check:
    import dataclasses
    return dataclasses.replace(check, tests=test)


if __name__ == "__main__":
    unittest.main()
