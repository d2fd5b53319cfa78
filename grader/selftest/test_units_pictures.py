"""Pictures of a race (grader/scanlab_grader/pictures.py): the record's picture is read as data,
laid out as cells by barrier intervals with the racing pair and the missing barrier where the
record puts them, asked for again only for a failed check, written as one page, and shown as an
image beside the check in PrairieLearn's results."""

import base64
import json
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))

import validators  # noqa: E402
from scanlab_grader import formats, pictures  # noqa: E402
from scanlab_findings import drawing, records as findings  # noqa: E402
from scanlab_grader.formats import Report  # noqa: E402
from scanlab_grader.grading import CheckResult, LabResult  # noqa: E402
from scanlab_grader.manifest import Check, Lab  # noqa: E402

REPO = Path("/home/kit")
FILE = "02-kogge-stone/kogge_stone.cu"  # as the build writes it (grader/cmake/LabTests.cmake)
MEMORY = {"space": "shared", "variable": "extern __shared__ (dynamic)", "byte": 12, "block": [2, 0, 0]}


def access(cell, interval, thread, role, line):
    return {"cell": cell, "interval": interval, "thread": thread, "role": role, "file": FILE, "line": line}


def picture():
    """In-place Kogge-Stone, stride 1, without the barrier between the read (55) and the write (57):
    thread 3 reads cell 2 after thread 2 wrote it."""
    accesses = []
    for t in range(1, 8):
        accesses.append(access(t - 1, 5, t, "read", 55))
        accesses.append(access(t, 5, t, "write", 57))
    return {"kind": "race", "memory": MEMORY, "element_bytes": 4, "first_cell": 0, "cells": 8, "variable_cells": 8,
            "intervals": [{"number": 3}, {"number": 4, "barrier": {"file": FILE, "line": 50}}, {"number": 5}],
            "accesses": accesses, "racing": [access(3, 5, 4, "read", 55), access(3, 5, 3, "write", 57)],
            "truncated": False}


def record(with_picture: bool) -> dict:
    r = {"number": 1, "kind": "race", "severity": "error", "headline": "data race (read-after-write) on shared memory",
         "parties": [{"role": "read", "file": FILE, "line": 55, "block": [2, 0, 0], "thread": [4, 0, 0]},
                     {"role": "write", "file": FILE, "line": 57, "block": [2, 0, 0], "thread": [3, 0, 0]}],
         "memory": MEMORY}
    if with_picture:
        r["picture"] = picture()
    return r


CHECK = Check("race-freedom-inplace", "In-place scan has no race", "race-freedom", "Lab02RaceFreedom.*", 10)
LAB = Lab("02", "Kogge-Stone scan", "02-kogge-stone", (CHECK,))


class PictureRecordTest(unittest.TestCase):
    def test_the_record_memory_and_picture_are_read_as_data(self):
        f = findings.from_record(record(True))
        self.assertEqual(f.memory, MEMORY)
        self.assertEqual(f.picture["racing"][0]["file"], "02-kogge-stone/kogge_stone.cu")
        self.assertEqual(f.picture["accesses"][0]["file"], "02-kogge-stone/kogge_stone.cu")
        self.assertEqual(drawing.request_for(f), "shared:12:2,0,0:extern __shared__ (dynamic)")

    def test_a_malformed_picture_is_left_out(self):
        r = record(True)
        r["picture"]["racing"] = r["picture"]["racing"][:1]
        self.assertIsNone(findings.from_record(r).picture)
        self.assertIsNone(drawing.request_for(findings.from_record({"kind": "race"})))


class LayoutTest(unittest.TestCase):
    def test_the_racing_pair_and_the_missing_barrier_are_where_the_record_puts_them(self):
        d = drawing.layout(findings.from_record(record(True)).picture)
        self.assertEqual([r["cell"] for r in d.rows], list(range(8)))
        self.assertEqual([r["cell"] for r in d.rows if r["racing"]], [3])
        self.assertEqual([(p["mark"].thread, p["mark"].line, p["mark"].cell) for p in d.racing],
                         [(4, 55, 3), (3, 57, 3)])
        race_columns = [c for c in d.columns if c["interval"] == 5]
        self.assertEqual([c["line"] for c in race_columns], [55, 57])
        # Between the read's column and the write's.
        self.assertEqual(d.missing["x"], race_columns[1]["x"])
        self.assertEqual((d.missing["after_line"], d.missing["before_line"]), (55, 57))
        self.assertEqual(d.barriers[0]["label"], "barrier at line 50")
        # Each access once: the pair is not drawn again among the other marks.
        self.assertNotIn((3, 4, 55), {(m.cell, m.thread, m.line) for m in d.marks})
        self.assertEqual(len(d.marks) + len(d.racing), 14)

    def test_a_line_of_kit_code_is_named_after_the_students_line_that_led_to_it(self):
        p = picture()
        kit = "common/include/scanlab/operators.hpp"
        for a in p["accesses"] + p["racing"]:
            if a["line"] == 55:
                a["file"], a["line"] = kit, 21
        d = drawing.layout(p, callers={(kit, 21): 55})
        self.assertEqual(d.racing[0]["label"], "read by thread 4 at line 55, through line 21 of operators.hpp")
        self.assertEqual(d.racing[1]["label"], "write by thread 3 at line 57")
        head = next(c["head"] for c in d.columns if c["interval"] == 5 and c["file"] == kit)
        self.assertEqual(head, ["line 55", "through operators.hpp:21"])
        # Where the finding does not know the student's line, the kit's line alone.
        unknown = drawing.layout(p)
        self.assertEqual(unknown.racing[0]["label"], "read by thread 4 at line 21 of operators.hpp")

    def test_the_earlier_line_comes_first_whatever_ran_first(self):
        p = picture()
        p["accesses"].reverse()  # the writes' line ran first in this interval
        d = drawing.layout(p)
        self.assertEqual([c["line"] for c in d.columns if c["interval"] == 5], [55, 57])

    def test_a_crowded_slot_is_counted(self):
        p = picture()
        p["accesses"] += [access(0, 5, t, "read", 55) for t in range(10, 16)]
        d = drawing.layout(p)
        self.assertTrue(d.more)
        drawn_at_cell0 = [m for m in d.marks if m.cell == 0 and m.line == 55]
        self.assertEqual(len(drawn_at_cell0), drawing.MARKS_PER_SLOT)
        self.assertEqual(d.more[0]["count"] + len(drawn_at_cell0), 7)


class WindowTest(unittest.TestCase):
    def test_a_long_array_is_drawn_as_the_window_the_record_gives(self):
        p = picture()
        p.update(first_cell=140, cells=32, variable_cells=300)
        for a in p["accesses"] + p["racing"]:
            a["cell"] += 140
        d = drawing.layout(p)
        self.assertEqual((d.rows[0]["cell"], d.rows[-1]["cell"], len(d.rows)), (140, 171, 32))
        self.assertEqual([r["cell"] for r in d.rows if r["racing"]], [143])
        self.assertTrue(all(d.rows[0]["y"] <= m.y <= d.rows[-1]["y"] + drawing.ROW for m in d.marks))


class BatchPageTest(unittest.TestCase):
    def test_a_batch_names_each_students_page_after_the_student(self):
        from types import SimpleNamespace
        from scanlab_grader.batch import Batch
        self.assertEqual(Batch.page_name(SimpleNamespace(grade_args=["--pictures", "/tmp/p"]), "alice"),
                         ["--page-name", "alice"])
        self.assertEqual(Batch.page_name(SimpleNamespace(grade_args=[]), "alice"), [])


class RecordTest(unittest.TestCase):
    def lab(self, status: str) -> LabResult:
        f = findings.from_record(record(False))
        f.test = "Lab02RaceFreedom.InPlace"
        return LabResult(LAB, [CheckResult(CHECK, status, "assertion" if status == "fail" else "", findings=[f])])

    def test_a_failed_check_runs_its_test_again_with_the_request(self):
        lab = self.lab("fail")
        asked = []
        def run_again(test, variable, request, number):
            asked.append((test, variable, request))
            return [record(True)]
        pictures.record(lab, run_again, REPO)
        self.assertEqual(asked, [("Lab02RaceFreedom.InPlace", "SCANLAB_SIM_RACE_PICTURE",
                                 "shared:12:2,0,0:extern __shared__ (dynamic)")])
        self.assertIsNotNone(lab.checks[0].findings[0].picture)

    def test_a_passing_check_runs_nothing(self):
        lab = self.lab("pass")
        pictures.record(lab, lambda *a: self.fail("ran again"), REPO)
        self.assertIsNone(lab.checks[0].findings[0].picture)


class PageTest(unittest.TestCase):
    def test_the_page_draws_the_pair_and_needs_nothing_from_outside(self):
        f = findings.from_record(record(True))
        lab = LabResult(LAB, [CheckResult(CHECK, "fail", "assertion", "race", findings=[f])])
        with tempfile.TemporaryDirectory() as d:
            page = pictures.write_page(Report("sim", "submissions/alice/", [lab]), Path(d))
            self.assertEqual(page.name, "alice.html")
            text = page.read_text()
        self.assertEqual(text.count('<g class="racing '), 2)
        self.assertIn('data-thread="4" data-line="55"', text)
        self.assertIn("missing barrier: between line 55 and line 57", text)
        self.assertIn("race-freedom-inplace", text)
        for outside in ("<script", "http://www.w3.org/1999", "https://", "@import", "<link"):
            self.assertNotIn(outside, text)

    def test_prairielearn_shows_the_picture_beside_the_check_it_failed(self):
        f = findings.from_record(record(True))
        failed = LabResult(LAB, [CheckResult(CHECK, "fail", "assertion", "race", findings=[f])])
        text = formats.render_prairielearn(Report("sim", "submissions/alice/", [failed]))
        self.assertEqual(validators.prairielearn(text), [])
        test = json.loads(text)["tests"][0]
        [image] = test["images"]
        self.assertTrue(image["url"].startswith("data:image/svg+xml;base64,"))
        svg = base64.b64decode(image["url"].split(",", 1)[1]).decode()
        self.assertTrue(svg.startswith("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        self.assertEqual(svg.count('<g class="racing '), 2)
        self.assertIn("missing barrier: between line 55 and line 57", svg)
        # Without a picture (no --pictures), no image.
        plain = LabResult(LAB, [CheckResult(CHECK, "fail", "assertion", "race",
                                            findings=[findings.from_record(record(False))])])
        self.assertNotIn("images", json.loads(formats.render_prairielearn(Report("sim", "s/", [plain])))["tests"][0])

    def test_gradescope_shows_the_picture_in_the_checks_html_output(self):
        f = findings.from_record(record(True))
        failed = LabResult(LAB, [CheckResult(CHECK, "fail", "assertion", "race", findings=[f])])
        text = formats.render_gradescope(Report("sim", "submissions/alice/", [failed]))
        self.assertEqual(validators.gradescope(text), [])
        test = json.loads(text)["tests"][0]
        self.assertEqual(test["output_format"], "html")
        self.assertTrue(test["output"].startswith("<pre>"))
        url = test["output"].split('<img src="', 1)[1].split('"', 1)[0]
        svg = base64.b64decode(url.split(",", 1)[1]).decode()
        self.assertEqual(svg.count('<g class="racing '), 2)
        plain = LabResult(LAB, [CheckResult(CHECK, "fail", "assertion", "race",
                                            findings=[findings.from_record(record(False))])])
        self.assertNotIn("output_format", json.loads(formats.render_gradescope(Report("sim", "s/", [plain])))["tests"][0])


if __name__ == "__main__":
    unittest.main()
