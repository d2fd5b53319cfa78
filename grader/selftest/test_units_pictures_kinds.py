"""Pictures of a deadlock, an out-of-bounds access and a hand-off between blocks
(grader/scanlab_grader/pictures.py): the deadlock's and the access's pictures are the ones their
records carry, kept on the finding with nothing run again, the hand-off's drawn from the finding
itself; each is
laid out where the record puts its blocks, cells and sides, drawn on the page, and shown beside
the check in PrairieLearn's results."""

import base64
import json
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))  # scanlab_findings, scanlab_build

from scanlab_grader import formats, pictures  # noqa: E402
from scanlab_findings import drawing, records as findings  # noqa: E402
from scanlab_grader.formats import Report  # noqa: E402
from scanlab_grader.grading import CheckResult, LabResult  # noqa: E402
from scanlab_grader.manifest import Check, Lab  # noqa: E402

FILE7 = "07-single-pass/single_pass_scan.cu"
FILE2 = "02-kogge-stone/kogge_stone.cu"
PROGRESS = Check("forward-progress", "The scan finishes whatever order blocks start in", "forward-progress",
                 "Lab07Progress.*", 15)
RACES = Check("race-freedom", "Tiles hand over their prefixes without a race", "race-freedom", "Lab07Race.*", 10)
LAB7 = Lab("07", "Single-pass scan", "07-single-pass", (PROGRESS, RACES))
CORRECT = Check("correctness-inplace", "In-place scan is right", "correctness", "Lab02Correct.*", 10)
LAB2 = Lab("02", "Kogge-Stone scan", "02-kogge-stone", (CORRECT,))


def deadlock_record(with_picture: bool) -> dict:
    """Blocks 7 and 6 of 8 ran (reverse order, two at once), each spinning at line 115: 7 for 6,
    6 for 5, which never started."""
    r = {"number": 1, "kind": "deadlock", "severity": "error", "headline": "deadlock: none of the 2 running blocks ...",
         "parties": [{"role": "spinning", "file": FILE7, "line": 115, "block": [b, 0, 0], "thread": [0, 0, 0]}
                     for b in (6, 7)]}
    if with_picture:
        blocks = [{"linear": b, "block": [b, 0, 0], "state": "not started"} for b in range(6)]
        blocks += [{"linear": b, "block": [b, 0, 0], "state": "waiting", "thread": 0, "file": FILE7, "line": 115,
                    "word": "", "seen": 0, "waits_for": b - 1, "waits_for_from": "block order"} for b in (6, 7)]
        r["wait_picture"] = {"grid_blocks": 8, "resident": 2, "block_order": "reverse", "word_bytes": 0,
                             "finished_not_shown": 0, "not_started_not_shown": 0, "blocks": blocks}
    return r


def bounds_record(with_picture: bool) -> dict:
    """Threads 232 to 235 of block 3 read cells 1000 to 1003 of a 1000-int buffer at line 57."""
    r = {"number": 1, "kind": "out-of-bounds", "severity": "error", "headline": "out-of-bounds read of 4 bytes",
         "parties": [{"role": "read", "file": FILE2, "line": 57, "block": [3, 0, 0], "thread": [232, 0, 0]}]}
    if with_picture:
        r["bounds_picture"] = {"space": "global", "buffer": f"the 4000-byte buffer allocated at {FILE2}:90",
                               "element_bytes": 4, "buffer_cells": 1000, "truncated": False,
                               "accesses": [{"cell": 1000 + k, "block": [3, 0, 0], "thread": 232 + k, "role": "read",
                                             "file": FILE2, "line": 57} for k in range(4)]}
    return r


def handoff_record(missing: str | None, flags: bool = True) -> dict:
    """Block 3 writes the data at line 101 and stores the flag at line 104; block 4 reads the flag
    at line 115 and the data at line 118 (the record race_report.cpp writes)."""
    r = {"kind": "race", "severity": "error", "headline": "stale value handed on in global memory",
         "parties": [{"role": "write", "file": FILE7, "line": 101, "block": [3, 0, 0], "thread": [0, 0, 0]},
                     {"role": "read", "file": FILE7, "line": 118, "block": [4, 0, 0], "thread": [0, 0, 0]}],
         "fix": "put __threadfence() between the access and the flag store"}
    if flags:
        r["parties"] += [{"role": "flag store", "file": FILE7, "line": 104, "block": [3, 0, 0], "thread": [0, 0, 0]},
                         {"role": "flag read", "file": FILE7, "line": 115, "block": [4, 0, 0], "thread": [0, 0, 0]}]
    if missing is not None:
        r["handoff"] = {"missing": missing}
    return r


def handoff_finding(missing: str | None, flags: bool = True) -> findings.Finding:
    return findings.from_record(handoff_record(missing, flags))


def lab_with(lab: Lab, check: Check, f: findings.Finding, status: str = "fail") -> LabResult:
    f.test = "Suite.Test"
    return LabResult(lab, [CheckResult(check, status, "assertion" if status == "fail" else "", findings=[f])])


def page_of(lab: LabResult) -> str:
    with tempfile.TemporaryDirectory() as d:
        return pictures.write_page(Report("sim", "submissions/alice/", [lab]), Path(d)).read_text()


class DeadlockPictureTest(unittest.TestCase):
    def test_the_records_blocks_are_the_findings_picture_and_nothing_runs_again(self):
        f = findings.from_record(deadlock_record(True))
        self.assertEqual(f.picture["kind"], "wait")
        self.assertEqual([b["linear"] for b in f.picture["blocks"]], list(range(8)))
        lab = lab_with(LAB7, PROGRESS, f)
        pictures.record(lab, lambda *a: self.fail("ran again"), None)
        self.assertEqual(lab.checks[0].findings[0].picture["kind"], "wait")
        self.assertEqual(page_of(lab).count('<g class="wait-arrow"'), 2)

    def test_a_record_without_blocks_gives_no_picture_and_runs_nothing(self):
        lab = lab_with(LAB7, PROGRESS, findings.from_record(deadlock_record(False)))
        pictures.record(lab, lambda *a: self.fail("ran again"), None)
        self.assertIsNone(lab.checks[0].findings[0].picture)
        empty = deadlock_record(True)
        empty["wait_picture"]["blocks"] = []
        self.assertIsNone(findings.from_record(empty).picture)

    def test_each_waiting_block_points_at_the_block_it_waits_for_and_the_one_never_started_is_marked(self):
        d = drawing.wait_layout({"kind": "wait", **deadlock_record(True)["wait_picture"]}, FILE7)
        self.assertEqual(sorted((a["from"], a["to"]) for a in d["arrows"]), [(6, 5), (7, 6)])
        self.assertEqual([b["linear"] for b in d["blocks"] if b["blocker"]], [5])
        self.assertIn("waiting at line 115", d["blocks"][7]["lines"])
        self.assertFalse(d["any_cycle"])

    def test_a_launch_that_relied_on_co_residency_is_drawn_as_blocks_not_started_yet(self):
        # The warning's record carries the blocks as the running ones all waited; the launch went
        # on, so no block "never started": the picture says they had not started yet.
        record = dict(deadlock_record(True), kind="co-residency", severity="warning")
        f = findings.from_record(record)
        self.assertFalse(f.picture["stopped"])
        self.assertTrue(findings.from_record(deadlock_record(True)).picture["stopped"])
        d = drawing.wait_layout(f.picture, FILE7)
        self.assertEqual([b["linear"] for b in d["blocks"] if b["blocker"]], [5])
        self.assertEqual(d["blocker_label"], "(!) not started yet")
        text = page_of(lab_with(LAB7, PROGRESS, f))
        self.assertIn("(!) not started yet", text)
        self.assertNotIn("never started", text)
        self.assertIn("the simulator then started them all", text)
        stopped = page_of(lab_with(LAB7, PROGRESS, findings.from_record(deadlock_record(True))))
        self.assertIn("(!) never started", stopped)
        self.assertNotIn("not started yet", stopped)

    def test_blocks_that_wait_for_each_other_are_a_cycle(self):
        picture = deadlock_record(True)["wait_picture"]
        picture["blocks"][6]["waits_for"] = 7
        d = drawing.wait_layout({"kind": "wait", **picture}, FILE7)
        self.assertEqual({b["linear"] for b in d["blocks"] if b["cycle"]}, {6, 7})
        self.assertEqual([b["linear"] for b in d["blocks"] if b["blocker"]], [])

    def test_the_page_and_prairielearn_draw_the_arrows(self):
        f = findings.from_record(deadlock_record(False))
        f.picture = {"kind": "wait", **deadlock_record(True)["wait_picture"]}
        lab = lab_with(LAB7, PROGRESS, f)
        text = page_of(lab)
        self.assertEqual(text.count('<g class="wait-arrow"'), 2)
        self.assertIn('data-from="7" data-to="6"', text)
        self.assertIn("blocker", text)
        self.assertNotIn("<script", text)
        [image] = json.loads(formats.render_prairielearn(Report("sim", "s/", [lab])))["tests"][0]["images"]
        svg = base64.b64decode(image["url"].split(",", 1)[1]).decode()
        self.assertEqual(svg.count('<g class="wait-arrow"'), 2)


class BoundsPictureTest(unittest.TestCase):
    def test_the_records_buffer_and_accesses_are_the_findings_picture_and_nothing_runs_again(self):
        f = findings.from_record(bounds_record(True))
        self.assertEqual(f.picture["kind"], "bounds")
        self.assertEqual([a["cell"] for a in f.picture["accesses"]], [1000, 1001, 1002, 1003])
        lab = lab_with(LAB2, CORRECT, f)
        pictures.record(lab, lambda *a: self.fail("ran again"), None)
        self.assertEqual(lab.checks[0].findings[0].picture["kind"], "bounds")
        self.assertIn("end of the 4000-byte buffer", page_of(lab))

    def test_a_record_without_its_picture_gives_none_and_runs_nothing(self):
        lab = lab_with(LAB2, CORRECT, findings.from_record(bounds_record(False)))
        pictures.record(lab, lambda *a: self.fail("ran again"), None)
        self.assertIsNone(lab.checks[0].findings[0].picture)
        malformed = bounds_record(True)
        malformed["bounds_picture"]["accesses"] = "none"
        self.assertIsNone(findings.from_record(malformed).picture)

    def test_the_buffers_last_cells_the_end_and_each_access_are_drawn(self):
        d = drawing.bounds_layout({"kind": "bounds", **bounds_record(True)["bounds_picture"]}, FILE2)
        inside = [c["cell"] for c in d["cells"] if c["inside"]]
        self.assertEqual(inside[-1], 999)
        self.assertIn(1003, [c["cell"] for c in d["cells"]])
        end = next(c for c in d["cells"] if c["cell"] == 1000)
        self.assertEqual(d["edge_x"], end["x"])
        self.assertEqual([a["cell"] for a in d["accesses"]], [1000, 1001, 1002, 1003])
        self.assertIn("read by thread 232 of block 3 at line 57 (cell 1000)", d["accesses"][0]["label"])
        self.assertIn("end of the 4000-byte buffer", d["edge_label"])

    def test_an_access_far_past_the_end_is_drawn_at_the_windows_edge_with_its_cell(self):
        picture = {"kind": "bounds", **bounds_record(True)["bounds_picture"]}
        picture["accesses"] = [dict(picture["accesses"][0], cell=5000)]
        d = drawing.bounds_layout(picture, FILE2)
        self.assertLessEqual(len(d["cells"]), drawing.BOUNDS_CELLS_DRAWN)
        self.assertIn("cell 5000, beyond this window", d["accesses"][0]["label"])


class HandoffPictureTest(unittest.TestCase):
    def test_the_side_the_record_names_is_the_missing_fence(self):
        d = lambda missing: drawing.handoff_layout(handoff_finding(missing), "07-single-pass")  # noqa: E731
        self.assertEqual(d("release")["side"], "writer")
        self.assertEqual(d("acquire")["side"], "reader")
        self.assertEqual(d("both")["side"], "both")
        missing = lambda side: [s["kind"] for s in d(side)["steps"] if s["missing"]]  # noqa: E731
        self.assertEqual(missing("release"), ["fence writer"])
        self.assertEqual(missing("acquire"), ["fence reader"])
        # A race whose record names no side (a barrier's fix, a word read unordered) is no hand-off,
        # whatever its fix says.
        self.assertIsNone(d(None))
        self.assertIsNone(d("sideways"))

    def test_the_flag_steps_are_drawn_at_the_records_lines(self):
        d = drawing.handoff_layout(handoff_finding("release"), "07-single-pass")
        step = {s["kind"]: s for s in d["steps"]}
        self.assertEqual((step["flag-store"]["line"], step["flag-store"]["block"]), (104, "3"))
        self.assertEqual((step["flag-read"]["line"], step["flag-read"]["block"]), (115, "4"))
        self.assertIn("line 104", step["flag-store"]["lines"])
        self.assertIn("line 115", step["flag-read"]["lines"])
        self.assertTrue(step["flag-store"]["known"] and step["flag-read"]["known"])

    def test_a_record_without_the_flag_draws_its_steps_without_a_line(self):
        d = drawing.handoff_layout(handoff_finding("both", flags=False), "07-single-pass")
        step = {s["kind"]: s for s in d["steps"]}
        self.assertIn("(line not recorded)", step["flag-store"]["lines"])
        self.assertFalse(step["flag-read"]["known"])
        self.assertEqual(step["flag-read"]["line"], 0)

    def test_the_writer_is_the_block_that_wrote_whichever_place_comes_first(self):
        f = handoff_finding("release")
        f.places[:2] = reversed(f.places[:2])
        d = drawing.handoff_layout(f, "07-single-pass")
        self.assertEqual((d["writer"]["block"], d["writer"]["line"]), ("3", 101))
        self.assertEqual((d["reader"]["block"], d["reader"]["line"]), ("4", 118))

    def test_a_failed_check_draws_it_without_running_anything_and_a_passing_one_not(self):
        lab = lab_with(LAB7, RACES, handoff_finding("release"))
        pictures.record(lab, lambda *a: self.fail("ran again"), None)
        self.assertEqual(lab.checks[0].findings[0].picture, {"kind": "handoff", "missing": "writer"})
        text = page_of(lab)
        self.assertEqual(text.count("missing-fence"), 1)
        self.assertIn('data-side="writer"', text)
        for line in (101, 104, 115, 118):
            self.assertIn(f'data-line="{line}"', text)
        passing = lab_with(LAB7, RACES, handoff_finding("release"), "pass")
        pictures.record(passing, lambda *a: self.fail("ran again"), None)
        self.assertIsNone(passing.checks[0].findings[0].picture)


if __name__ == "__main__":
    unittest.main()
