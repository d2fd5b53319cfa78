"""reports/plot on real results files: the H100 sample committed in reports/sample/ and, where
the ctest fixture made one, a quick simulator run of reports/bench on the reference solutions
(SCANLAB_SIM_RESULTS names it). What is checked is what a reader relies on: the committed
report is what reports/plot makes of the committed JSON, every figure a page shows is there,
and the numbers of the summary's headline are those of the file."""

from __future__ import annotations

import json
import os
import tempfile
import unittest
from pathlib import Path

import support

SAMPLE = support.REPORTS / "sample"
SAMPLE_RESULTS = SAMPLE / "h100-results.json"
SAMPLE_REPORT = SAMPLE / "report"
HEADLINE_N = 2 ** 28


def _number(cell: str) -> float:
    return float(cell.rstrip("%×").replace(",", ""))


def _points_at(series: dict, n: int) -> dict | None:
    return next((p for p in series["points"] if p["n"] == n), None)


def _plot(results: Path, out: Path) -> None:
    done = support.run_plot(str(results), "-o", str(out))
    if done.returncode != 0:
        raise AssertionError(f"reports/plot {results} failed ({done.returncode}):\n{done.stderr}")


class PageChecks:
    out: Path

    def assert_every_figure_is_there(self):
        pages = sorted(self.out.glob("*.md"))
        self.assertTrue(pages)
        for page in pages:
            for line in page.read_text().splitlines():
                if line.startswith("![") and "](" in line:
                    figure = self.out / line.split("](", 1)[1].rstrip(")")
                    self.assertTrue(figure.is_file(), f"{page.name} shows {figure.name}, which is missing")
                    self.assertGreater(figure.stat().st_size, 1000, f"{figure.name} is empty")


class CommittedSample(unittest.TestCase, PageChecks):
    @classmethod
    def setUpClass(cls):
        cls.temp = tempfile.TemporaryDirectory()
        cls.out = Path(cls.temp.name) / "report"
        _plot(SAMPLE_RESULTS, cls.out)
        cls.results = json.loads(SAMPLE_RESULTS.read_text())

    @classmethod
    def tearDownClass(cls):
        cls.temp.cleanup()

    def test_the_committed_report_is_what_plot_makes_of_the_committed_results(self):
        made = sorted(p.name for p in self.out.glob("*.md"))
        self.assertEqual(made, sorted(p.name for p in SAMPLE_REPORT.glob("*.md")))
        for name in made:
            self.assertEqual((self.out / name).read_text(), (SAMPLE_REPORT / name).read_text(),
                             f"reports/sample/report/{name} is out of date: run reports/plot "
                             f"{SAMPLE_RESULTS.relative_to(support.REPO)} -o reports/sample/report")

    def test_every_figure_is_there(self):
        self.assert_every_figure_is_there()

    def test_a_page_per_lab_of_the_file(self):
        labs = {s["lab"] for s in self.results["series"] if s.get("lab") and s["role"] == "lab"}
        self.assertTrue(labs)
        for lab in labs:
            self.assertTrue((self.out / f"{lab}.md").is_file(), lab)

    def test_the_headline_holds_the_numbers_of_the_file(self):
        headline = support.markdown_tables((self.out / "summary.md").read_text())["Headline"]
        by_label = {(s["label"], s["element_type"]): s for s in self.results["series"]}
        copy = {s["element_type"]: _points_at(s, HEADLINE_N) for s in self.results["series"]
                if s["role"] == "ceiling"}
        # "Of CUB" is of InclusiveSum (algorithm cub), never of the generic InclusiveScan.
        cub = {s["element_type"]: _points_at(s, HEADLINE_N) for s in self.results["series"]
               if s["algorithm"] == "cub" and s["sweep"] is None}
        checked = 0
        for row in headline:
            series = by_label.get((row["series"].replace(" (*wrong result*)", ""), row["type"]))
            self.assertIsNotNone(series, f"the headline names {row['series']}, which the file does not have")
            if int(row["n"]) != HEADLINE_N:
                continue
            point = _points_at(series, HEADLINE_N)
            self.assertAlmostEqual(_number(row["GB/s"]), point["gb_per_s"], delta=0.051, msg=row["series"])
            of_copy = 100 * point["gb_per_s"] / copy[row["type"]]["gb_per_s"]
            self.assertAlmostEqual(_number(row["of copy"]), of_copy, delta=0.051, msg=row["series"])
            if cub.get(row["type"]):
                of_cub = 100 * point["gb_per_s"] / cub[row["type"]]["gb_per_s"]
                self.assertAlmostEqual(_number(row["of CUB"]), of_cub, delta=0.051, msg=row["series"])
            checked += 1
        self.assertGreaterEqual(checked, 10)


@unittest.skipUnless(os.environ.get("SCANLAB_SIM_RESULTS"), "no simulator run given (SCANLAB_SIM_RESULTS)")
class SimulatorRun(unittest.TestCase, PageChecks):
    @classmethod
    def setUpClass(cls):
        cls.results_path = Path(os.environ["SCANLAB_SIM_RESULTS"])
        cls.temp = tempfile.TemporaryDirectory()
        cls.out = Path(cls.temp.name) / "report"
        _plot(cls.results_path, cls.out)
        cls.results = json.loads(cls.results_path.read_text())

    @classmethod
    def tearDownClass(cls):
        cls.temp.cleanup()

    def test_every_figure_is_there(self):
        self.assert_every_figure_is_there()

    def test_no_timing_figures_and_the_reason_said(self):
        self.assertIn("No timings: no GPU was used", (self.out / "summary.md").read_text())
        for kind in ("speedup", "throughput", "blocksize"):
            self.assertEqual(sorted(self.out.glob(f"*-{kind}-*.png")), [], kind)

    def test_work_efficiency_and_counters_are_drawn(self):
        self.assertTrue(sorted(self.out.glob("04-brent-kung-work-int32.png")))
        self.assertTrue(sorted(self.out.glob("04-brent-kung-counters-int32.png")))
        self.assertTrue(sorted(self.out.glob("05-three-phase-counters-int32.png")))
