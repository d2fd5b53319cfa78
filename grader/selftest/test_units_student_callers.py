"""Only the student's lines: "called from your code at" names the one line of the student's file
that led to an access in kit code or in an earlier lab's reference, or is left out; the grader's
own files are never a caller (grader/scanlab_grader/call_sites.py, the chains planted here as
addr2line would give them for a lab that includes an earlier lab's reference)."""

import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))

from scanlab_grader import call_sites  # noqa: E402
from scanlab_grader.call_sites import Frame  # noqa: E402
from scanlab_findings import records as findings  # noqa: E402

OP = "common/include/scanlab/affine_map.hpp"
LAB09 = "09-decoupled-lookback/decoupled_lookback_scan.cu"
LAB10 = "10-warp-specialized/warp_specialized_scan.cu"
TESTS = "grader/labs/10-warp-specialized/instantiations.cu"


class PlantedSites(call_sites.CallSites):
    """CallSites whose inlined call chains (innermost first) are given, not read from a program."""

    def __init__(self, chains: dict[tuple[str, int], list[tuple[Frame, ...]]]):
        super().__init__(Path("/nonexistent"), "10-warp-specialized", None)
        self.planted = chains

    def chains(self, file, line):
        return tuple(self.planted.get((file, line), ()))


def frame(function, file, line):
    return Frame(function, file, line)


# The operator at OP:47 is reached from lab 10's scan (line 384) directly, from lab 09's look-back
# (line 217), which lab 10 calls at line 349 and at line 372, and from the suite's own reference.
CHAINS = {
    (OP, 47): [
        (frame("ComposeAffine::operator()", OP, 47), frame("lab10::scan_part", LAB10, 384),
         frame("lab10::kernel", LAB10, 500)),
        (frame("ComposeAffine::operator()", OP, 47), frame("LookbackPrefix::operator()", LAB09, 217),
         frame("lab10::aggregate", LAB10, 349), frame("lab10::kernel", LAB10, 501)),
        (frame("ComposeAffine::operator()", OP, 47), frame("LookbackPrefix::operator()", LAB09, 217),
         frame("lab10::look_back", LAB10, 372), frame("lab10::kernel", LAB10, 502)),
        (frame("ComposeAffine::operator()", OP, 47), frame("run_probe", TESTS, 30)),
    ],
    # lab 09's status-word read, reached from lab 10's look-back warp only
    (LAB09, 147): [
        (frame("TileStatus::wait_for", LAB09, 147), frame("LookbackPrefix::operator()", LAB09, 210),
         frame("lab10::look_back", LAB10, 372), frame("lab10::kernel", LAB10, 502)),
    ],
    # a line of lab 09's look-back, the other side of a race: in LookbackPrefix::operator()
    (LAB09, 215): [(frame("LookbackPrefix::operator()", LAB09, 215), frame("lab10::look_back", LAB10, 372))],
    (LAB10, 384): [(frame("lab10::scan_part", LAB10, 384), frame("lab10::kernel", LAB10, 500))],
    (LAB10, 349): [(frame("lab10::aggregate", LAB10, 349), frame("lab10::kernel", LAB10, 501))],
    # the grader's probe kernel calls lab 10's code: its line is never the student's to fix
    (TESTS, 30): [(frame("run_probe", TESTS, 30),)],
}


class StudentCallersTest(unittest.TestCase):
    sites = PlantedSites(CHAINS)

    def test_several_callers_and_nothing_to_choose_name_no_line(self):
        # Before, all three lines of lab 10 were listed, two of them unrelated to the access.
        self.assertEqual(self.sites.callers(findings.Place("read", OP, 47), []), [])

    def test_the_other_access_in_the_students_file_singles_out_its_caller(self):
        other = findings.Place("write", LAB10, 384)
        self.assertEqual([p.where for p in self.sites.callers(findings.Place("read", OP, 47), [other])],
                         [f"{LAB10}:384"])

    def test_the_other_access_in_an_earlier_labs_reference_still_leaves_two_callers_out(self):
        # Lab 09's look-back is called from two lines of lab 10: the function of the other side
        # (in lab 09) is on both chains, so no line is named rather than a wrong one.
        other = findings.Place("write", LAB09, 215)
        self.assertEqual(self.sites.callers(findings.Place("read", OP, 47), [other]), [])

    def test_an_access_in_an_earlier_labs_reference_names_the_students_line(self):
        race = findings.Finding("race", True, "stale value", [findings.Place("volatile read", LAB09, 147),
                                                              findings.Place("volatile write", LAB09, 131)])
        [attributed] = call_sites.attribute([race], self.sites)
        self.assertEqual([p.where for p in attributed.called_from], [f"{LAB10}:372"])
        text = "\n".join(attributed.lines())
        # The student's line is the place; the earlier lab's line it reached comes after it.
        self.assertIn(f"volatile read:  {LAB10}:372\n", text)
        self.assertIn(f"through the code your file includes at {LAB09}:147", text)
        self.assertLess(text.index(f"{LAB10}:372"), text.index(f"{LAB09}:147"))

    def test_the_graders_files_are_never_a_caller_nor_get_one(self):
        grader_place = findings.Finding("race", True, "data race", [findings.Place("write", TESTS, 30)])
        [attributed] = call_sites.attribute([grader_place], self.sites)
        self.assertEqual(attributed.called_from, [])
        for file, line in CHAINS:
            for place in [findings.Place("read", file, line)]:
                self.assertFalse(any(p.file.startswith("grader/") for p in self.sites.callers(place, [])))

    def test_a_line_of_the_graders_test_code_is_said_to_be_no_place_to_fix(self):
        # Lab 02's block scan raced with the grader's kernel that reads across the section after it.
        race = findings.Finding("race", True, "data race", [findings.Place("read", "grader/labs/02-kogge-stone/instantiations.cu", 20),
                                                            findings.Place("write", "02-kogge-stone/kogge_stone.cu", 57)])
        lines = race.lines()
        [grader_line] = [l for l in lines if "instantiations.cu" in l]
        self.assertIn("not a line to change", grader_line)
        [students_line] = [l for l in lines if "kogge_stone.cu:57" in l]
        self.assertNotIn("not a line to change", students_line)

    def test_one_access_through_two_callers_of_the_students_file_is_one_finding_per_line(self):
        a = findings.Finding("race", True, "data race", [findings.Place("read", OP, 47),
                                                         findings.Place("write", LAB10, 384)])
        b = findings.Finding("race", True, "data race", [findings.Place("read", OP, 47),
                                                         findings.Place("write", LAB10, 349)])
        merged = call_sites.attribute([a, b], self.sites)
        self.assertEqual(sorted(p.where for f in merged for p in f.called_from), [f"{LAB10}:349", f"{LAB10}:384"])
        self.assertEqual(len(merged), 2)


if __name__ == "__main__":
    unittest.main()
