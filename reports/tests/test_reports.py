"""The reports of a GPU run and of a simulator run, written as reports/plot writes them: the
figures exist and hold the expected series with the expected values, a wrong result is marked,
the tables show the numbers of the results file, a simulator run has no timing figure and says
why, and the colour of an algorithm is the same in every figure."""

import json
import tempfile
import unittest
from pathlib import Path

import documents
import support
from documents import DOUBLE_BUFFER, HIERARCHICAL, IN_PLACE, IN_PLACE_256
from scanlab_reports import palette, report
from scanlab_reports.figures.canvas import WRONG
from scanlab_reports.markdown import NO_TIMINGS
from scanlab_reports.results import parse

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
BRENT_KUNG = "04-brent-kung/brent_kung_scan/int32"


def write(document):
    folder = tempfile.TemporaryDirectory()
    reports = report.write_all(parse(document, source="results.json"), Path(folder.name))
    return folder, {r.path.stem: r for r in reports}


def drawing(written, page, kind, element_type="int32"):
    return next((d for d in written.drawings if d.path.name == f"{page}-{kind}-{element_type}.png"), None)


def line(figure, label, panel=0):
    return next(l for l in figure.axes[panel].get_lines() if l.get_label() == label)


class GpuRunTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder, cls.reports = write(documents.cuda_document())

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def test_one_page_per_lab_and_a_summary(self):
        self.assertEqual(sorted(self.reports), ["01-sequential", "02-kogge-stone", "06-hierarchical", "summary"])
        expected = {"01-sequential": ["model", "speedup", "throughput"],
                    "02-kogge-stone": ["blocksize", "model", "speedup", "throughput"],
                    "06-hierarchical": ["model", "speedup", "throughput"],
                    "summary": ["model", "speedup", "throughput"]}  # no counts, no counters on this run
        for name, written in self.reports.items():
            self.assertTrue(written.path.is_file())
            self.assertEqual(sorted(d.kind for d in written.drawings), expected[name], name)
            for d in written.drawings:
                self.assertEqual(d.path.read_bytes()[:8], PNG_SIGNATURE, d.path)
                self.assertIn(f"]({d.path.name})", written.path.read_text(), d.path.name)

    def test_speedup_over_the_sequential_scan(self):
        speedup = drawing(self.reports["06-hierarchical"], "06-hierarchical", "speedup")
        self.assertEqual(sorted(c.series_id for c in speedup.curves),
                         sorted([HIERARCHICAL, documents.CPU_PARALLEL, documents.STD, documents.CUB,
                                 documents.CUB_GENERIC]))
        hierarchical = speedup.curve(HIERARCHICAL)
        self.assertEqual(hierarchical.xs, documents.SIZES)
        self.assertAlmostEqual(hierarchical.ys[-1], 100 / 1.34217728)
        self.assertAlmostEqual(speedup.curve(documents.CPU_PARALLEL).ys[0], 10.0)
        axes = speedup.figure.axes[0]
        self.assertEqual((axes.get_xscale(), axes.get_yscale()), ("log", "log"))
        self.assertEqual(axes.get_xlabel(), "n (elements)")
        self.assertEqual(axes.get_ylabel(), "speedup over the sequential CPU scan (x)")

    def test_throughput_beside_the_copy_and_cub(self):
        throughput = drawing(self.reports["06-hierarchical"], "06-hierarchical", "throughput")
        self.assertEqual(sorted(c.series_id for c in throughput.curves), sorted([HIERARCHICAL, documents.COPY,
                                                                                documents.CUB, documents.CUB_GENERIC]))
        for identifier, expected in ((documents.COPY, 2000.0), (documents.CUB, 1600.0), (HIERARCHICAL, 1600.0),
                                     (documents.CUB_GENERIC, 1200.0)):
            for value in throughput.curve(identifier).ys:
                self.assertAlmostEqual(value, expected)
        self.assertEqual(throughput.figure.axes[0].get_ylabel(), "throughput (GB/s, bytes read + written)")
        self.assertEqual(line(throughput.figure, "device-to-device copy").get_linestyle(), "--")

    def test_a_wrong_result_is_drawn_crossed_out(self):
        for kind in ("speedup", "throughput", "model"):
            figure = drawing(self.reports["02-kogge-stone"], "02-kogge-stone", kind)
            wrong, right = figure.curve(DOUBLE_BUFFER), figure.curve(IN_PLACE)
            self.assertTrue(wrong.wrong and wrong.label.endswith(WRONG), kind)
            self.assertFalse(right.wrong or right.label.endswith(WRONG), kind)
            drawn = line(figure.figure, wrong.label)
            self.assertEqual((drawn.get_marker(), drawn.get_linestyle(), drawn.get_markerfacecolor()), ("X", ":", "none"))
            self.assertNotEqual(line(figure.figure, right.label).get_marker(), "X")
        summary = drawing(self.reports["summary"], "summary", "speedup")
        self.assertTrue(summary.curve(DOUBLE_BUFFER).wrong)

    def test_the_block_size_sweep(self):
        sweep = drawing(self.reports["02-kogge-stone"], "02-kogge-stone", "blocksize")
        self.assertEqual(sorted(c.label for c in sweep.curves), ["kogge-stone, n = 2^16", "kogge-stone, n = 2^28"])
        for c in sweep.curves:
            self.assertEqual(c.xs, (32, 256, 1024))  # the sweep's two block sizes and the main series'
            for value, expected in zip(c.ys, (100.0, 450.0, 500.0)):
                self.assertAlmostEqual(value, expected)
        self.assertEqual(sweep.figure.axes[0].get_xlabel(), "threads per block")
        # The sweep's configurations are in the lab's figures against n only through their table.
        self.assertIsNone(drawing(self.reports["02-kogge-stone"], "02-kogge-stone", "speedup").curve(IN_PLACE_256))
        tables = support.markdown_tables(self.reports["02-kogge-stone"].path.read_text())
        self.assertEqual([r["GB/s"] for r in tables["02 Kogge-Stone in place, 256 threads, int32"]], ["450.0", "450.0"])

    def test_one_colour_per_algorithm_in_every_figure(self):
        for written in self.reports.values():
            for d in written.drawings:
                for panel, axes in enumerate(d.figure.axes):
                    for c in d.curves:
                        if c.panel == axes.get_title():
                            self.assertEqual(line(d.figure, c.label, panel).get_color(),
                                             palette.colour(c.algorithm), (d.path.name, c.label))

    def test_the_model_beside_the_measured_time(self):
        model = drawing(self.reports["06-hierarchical"], "06-hierarchical", "model")
        titles = [a.get_title() for a in model.figure.axes]
        self.assertEqual(titles, ["model: max(W/P, D), P = 32", "measured: median time"])
        modelled = model.curve(HIERARCHICAL, titles[0])
        measured = model.curve(HIERARCHICAL, titles[1])
        # 1024 elements: one tile scan of 1024 by 512 threads (the tile is 4096), two elements a
        # thread: (1023 + 512 x 9 + 512) / 32.
        self.assertAlmostEqual(modelled.ys[0], (1023 + 512 * 9 + 512) / 32)
        self.assertAlmostEqual(measured.ys[-1], 1.34217728)
        self.assertEqual(model.figure.axes[1].get_ylabel(), "median time (ms)")
        self.assertIsNone(model.curve(documents.CUB))  # the chapter has no model of CUB

    def test_the_tables_show_the_numbers_of_the_file(self):
        table = support.markdown_tables(self.reports["06-hierarchical"].path.read_text())[
            "06 hierarchical (three kernels), int32"]
        self.assertEqual([row["n"] for row in table], [str(n) for n in documents.SIZES])
        last = table[-1]
        self.assertEqual({k: last[k] for k in ("median time (ms)", "noise", "GB/s", "of copy", "of CUB",
                                               "speedup over sequential", "over multithreaded CPU")},
                         {"median time (ms)": "1.342", "noise": "1.0%", "GB/s": "1600.0", "of copy": "80.0%",
                          "of CUB": "100.0%", "speedup over sequential": "74.5×", "over multithreaded CPU": "7.45×"})

    def test_the_headline_of_the_summary(self):
        headline = support.markdown_tables(self.reports["summary"].path.read_text())["Headline"]
        by_series = {row["series"]: row for row in headline}
        in_place = by_series["02 Kogge-Stone in place"]
        # 500 GB/s: a quarter of the copy, 5/16 of CUB; 2^31 bytes in 4.294967296 ms.
        self.assertEqual((in_place["n"], in_place["median time (ms)"], in_place["of copy"], in_place["of CUB"],
                          in_place["speedup over sequential"]), ("268435456", "4.295", "25.0%", "31.2%", "23.3×"))
        self.assertEqual(by_series["device-to-device copy"]["of copy"], "100.0%")
        self.assertIn("02 Kogge-Stone double-buffered (*wrong result*)", by_series)

    def test_a_wrong_series_is_said_to_be_wrong_in_the_text(self):
        text = self.reports["02-kogge-stone"].path.read_text()
        self.assertIn("### 02 Kogge-Stone double-buffered, int32 — wrong result", text)
        self.assertIn("**Wrong result.**", text)
        self.assertNotIn("### 02 Kogge-Stone in place, int32 — wrong result", text)
        table = support.markdown_tables(text)["02 Kogge-Stone double-buffered, int32 — wrong result"]
        self.assertEqual([r["n"] for r in table][:2], ["1024 (*wrong*)", "65536"])

    def test_what_was_not_measured_is_listed(self):
        summary = self.reports["summary"].path.read_text()
        self.assertIn("- `lab07_bench`: does not build: single_pass.cu:12: error", summary)
        self.assertIn(f"- `lab02_bench` (series `{DOUBLE_BUFFER}`, n = 1024): result differs at index 1000", summary)
        lab = self.reports["02-kogge-stone"].path.read_text()
        self.assertIn("`lab02_bench` (series", lab)
        self.assertNotIn("lab07_bench", lab)
        self.assertNotIn("## Not measured", self.reports["06-hierarchical"].path.read_text())

    def test_the_machine_and_method_are_recorded(self):
        rows = support.markdown_tables(self.reports["summary"].path.read_text())["Machine and method"]
        cells = {row["what"]: row["recorded"] for row in rows}
        self.assertEqual((cells["gpu"], cells["cpu threads"], cells["l2 flush"], cells["samples"]),
                         ("Test GPU", "16", "yes", "50"))


class ElementTypesTest(unittest.TestCase):
    def test_each_type_is_drawn_against_the_baselines_of_its_type(self):
        def add_float32(d):
            for index in (6, 8):  # lab 06 and CUB, at 1000 and 2000 GB/s in float32
                twin = json.loads(json.dumps(d["series"][index]))
                twin.update(id=twin["id"].replace("int32", "float32"), element_type="float32")
                for point in twin["points"]:
                    point["gb_per_s"] = 1000.0 if index == 6 else 2000.0
                d["series"].append(twin)
            d["series"] = [s for s in d["series"] if s["lab"] != "02-kogge-stone"]  # fewer figures to draw
        folder, reports = write(documents.changed(documents.cuda_document(), add_float32))
        with folder:
            lab = reports["06-hierarchical"]
            throughput = drawing(lab, "06-hierarchical", "throughput", "float32")
            self.assertEqual(sorted(c.series_id for c in throughput.curves),
                             ["06-hierarchical/hierarchical_scan/float32", "baselines/cub-inclusive-sum/float32"])
            # No float32 CPU scan in this run: no float32 speedup, and no int32 one stands in.
            self.assertIsNone(drawing(lab, "06-hierarchical", "speedup", "float32"))
            self.assertIsNotNone(drawing(lab, "06-hierarchical", "speedup", "int32"))
            table = support.markdown_tables(lab.path.read_text())["06 hierarchical (three kernels), float32"]
            self.assertEqual({(r["of CUB"], r["of copy"], r["speedup over sequential"]) for r in table},
                             {("50.0%", "—", "—")})


class SimulatorRunTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder, cls.reports = write(documents.sim_document())

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def test_no_timing_figure_and_the_reason_said(self):
        for name, written in self.reports.items():
            self.assertFalse({d.kind for d in written.drawings} & {"speedup", "throughput"}, name)
            text = written.path.read_text()
            self.assertIn(NO_TIMINGS, text)
            self.assertNotIn("median time", text)
        self.assertFalse(list(Path(self.folder.name).glob("*speedup*")) + list(Path(self.folder.name).glob("*throughput*")))

    def test_work_efficiency_from_the_counts(self):
        work = drawing(self.reports["02-kogge-stone"], "02-kogge-stone", "work")
        kogge_stone = work.curve(IN_PLACE)
        # Two sections of 1024 at n = 2048, each 1024 x 10 - 1023 applications.
        self.assertAlmostEqual(kogge_stone.ys[0], 2 * (1024 * 10 - 1023) / 2047)
        self.assertEqual(work.figure.axes[0].get_ylabel(), "operator applications / (n - 1)")
        summary = drawing(self.reports["summary"], "summary", "work")
        self.assertAlmostEqual(summary.curve(documents.SEQUENTIAL).ys[0], 1.0)
        self.assertAlmostEqual(summary.curve(BRENT_KUNG).ys[0], (2 * 2048 - 2 - 11) / 2047)

    def test_the_counters_of_brent_kung(self):
        self.assertIsNone(drawing(self.reports["02-kogge-stone"], "02-kogge-stone", "counters"))
        counters = drawing(self.reports["04-brent-kung"], "04-brent-kung", "counters")
        panels = {c.panel: c for c in counters.curves}
        self.assertEqual(panels["shared-memory bank conflicts"].ys, (3.0, 3.0, 3.0))
        self.assertEqual(panels["shared-memory wavefronts"].ys, (5.0, 5.0, 5.0))
        self.assertEqual(panels["global-memory coalescing"].ys, (2.0, 2.0, 2.0))
        self.assertEqual(panels["divergence"].ys, (0.25, 0.25, 0.25))
        self.assertEqual([a.get_ylabel() for a in counters.figure.axes],
                         ["bank conflicts / shared requests", "wavefronts / ideal wavefronts",
                          "sectors / ideal sectors", "divergent / all warp intervals"])

    def test_the_model_alone(self):
        model = drawing(self.reports["04-brent-kung"], "04-brent-kung", "model")
        self.assertEqual(len(model.figure.axes), 1)
        self.assertAlmostEqual(model.curve(BRENT_KUNG).ys[0], 1024 * 21 / 32)

    def test_what_the_run_left_null_is_left_out(self):
        rows = support.markdown_tables(self.reports["summary"].path.read_text())["Machine and method"]
        self.assertEqual([(r["what"], r["recorded"]) for r in rows],
                         [("cpu", "Test CPU"), ("cpu threads", "2"), ("compiler", "g++ 12.2.0"), ("l2 flush", "no")])

    def test_the_tables_show_counts_and_counters(self):
        table = support.markdown_tables(self.reports["04-brent-kung"].path.read_text())["04 Brent-Kung, int32"]
        self.assertEqual([(r["n"], r["operator applications"], r["per (n - 1)"]) for r in table],
                         [("2048", "4083", "1.995"), ("8192", "16332", "1.994"), ("65536", "130656", "1.994")])
        # The counters as the ratios of the figure: 3 conflicts per request, 5 wavefronts and
        # 2 sectors per ideal one, a quarter of the warp intervals divergent.
        self.assertEqual({(r["bank conflicts / shared requests"], r["wavefronts / ideal wavefronts"],
                           r["sectors / ideal sectors"], r["divergent / all warp intervals"]) for r in table},
                         {("3.000", "5.000", "2.000", "0.250")})


class CommandTest(unittest.TestCase):
    def test_plot_writes_the_reports_it_names(self):
        with tempfile.TemporaryDirectory() as folder:
            path = documents.write(documents.sim_document(), Path(folder))
            out = Path(folder) / "report"
            proc = support.run_plot(str(path), "-o", str(out))
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(proc.stdout.splitlines(), [f"{out}/01-sequential.md  (2 figures)",
                                                        f"{out}/02-kogge-stone.md  (2 figures)",
                                                        f"{out}/04-brent-kung.md  (3 figures)",
                                                        f"{out}/summary.md  (3 figures)"])
            self.assertEqual(len(list(out.glob("*.png"))), 10)


    def test_an_output_that_is_a_file_is_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            path = documents.write(documents.sim_document(), Path(folder))
            proc = support.run_plot(str(path), "-o", str(path))
            self.assertEqual((proc.returncode, proc.stderr.strip()),
                             (2, f"plot: {path} is there and is not a folder: name a folder for the reports"))
            self.assertEqual(json.loads(path.read_text()), documents.sim_document())  # left as it was


if __name__ == "__main__":
    unittest.main()
