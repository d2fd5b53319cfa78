"""Loading a results file: a well-formed one is read as written, a malformed one is refused
with a message that names the place and the problem."""

import tempfile
import unittest
from pathlib import Path

import documents
import support
from documents import DOUBLE_BUFFER, HIERARCHICAL, IN_PLACE, IN_PLACE_256
from scanlab_reports.results import ResultsError, load, parse

# Where the series are in documents.cuda_document().
IN_PLACE_AT, DOUBLE_BUFFER_AT, HIERARCHICAL_AT, STD_AT, CUB_AT = 2, 3, 6, 7, 8


class WellFormedTest(unittest.TestCase):
    def test_a_gpu_run_is_read_as_written(self):
        results = parse(documents.cuda_document())
        self.assertTrue(results.timed)
        self.assertEqual(len(results.series), 11)
        hierarchical = results.series[HIERARCHICAL_AT]
        self.assertEqual(hierarchical.id, HIERARCHICAL)
        self.assertEqual([p.n for p in hierarchical.points], list(documents.SIZES))
        self.assertAlmostEqual(hierarchical.points[-1].gb_per_s, 1600.0)
        self.assertEqual(hierarchical.points[-1].timing.samples, 50)
        self.assertEqual((hierarchical.block_size, hierarchical.section_size, hierarchical.sweep), (512, 4096, None))
        self.assertFalse(hierarchical.wrong)
        self.assertTrue(results.series[DOUBLE_BUFFER_AT].wrong)
        self.assertEqual(results.series[4].sweep, "block_size")
        self.assertEqual([(e.program, e.series, e.n) for e in results.errors],
                         [("lab07_bench", None, None), ("lab02_bench", DOUBLE_BUFFER, 1024)])

    def test_a_baseline_may_come_from_a_lab(self):
        sequential = parse(documents.cuda_document()).series[0]
        self.assertEqual((sequential.lab, sequential.role), ("01-sequential", "baseline"))

    def test_a_simulator_run_has_counts_and_no_timings(self):
        results = parse(documents.sim_document())
        self.assertFalse(results.timed)
        brent_kung = results.series[2]
        self.assertEqual(brent_kung.points[0].operator_applications, 4083)
        self.assertEqual(brent_kung.points[0].counters["bank_conflicts"], 3 * 2048)
        self.assertEqual(brent_kung.points[0].counters["warp_intervals"], 2048 // 8)
        self.assertTrue(all(p.timing is None and p.gb_per_s is None for s in results.series for p in s.points))

    def test_points_are_put_in_order_of_n(self):
        document = documents.changed(documents.sim_document(), lambda d: d["series"][1]["points"].reverse())
        self.assertEqual([p.n for p in parse(document).series[1].points], [2048, 8192, 65536])

    def test_a_point_that_was_wrong_makes_its_series_wrong(self):
        document = documents.changed(documents.cuda_document(),
                                     lambda d: d["series"][HIERARCHICAL_AT]["points"][1].update(correct=False))
        self.assertTrue(parse(document).series[HIERARCHICAL_AT].wrong)

    def test_fields_the_format_does_not_name_are_ignored(self):
        document = documents.changed(documents.cuda_document(),
                                     lambda d: d["series"][IN_PLACE_AT].update(future_field=[1]))
        self.assertEqual(parse(document).series[IN_PLACE_AT].id, IN_PLACE)


class MalformedTest(unittest.TestCase):
    def refused(self, change, document=None) -> str:
        document = documents.changed(document or documents.cuda_document(), change)
        with self.assertRaises(ResultsError) as raised:
            parse(document, source="r.json")
        return str(raised.exception)

    def test_another_format(self):
        message = self.refused(lambda d: d.update(format="scanlab-bench/2"))
        self.assertEqual(message, "r.json: 'format' is 'scanlab-bench/2', but this reports/plot reads 'scanlab-bench/1'")

    def test_a_missing_field_is_named_with_its_place(self):
        message = self.refused(lambda d: d["series"][HIERARCHICAL_AT]["points"][3].pop("bytes"))
        self.assertEqual(message, f"r.json: series[6] '{HIERARCHICAL}': points[3] (n = 268435456): 'bytes' is missing")

    def test_a_negative_size(self):
        message = self.refused(lambda d: d["series"][IN_PLACE_AT]["points"][0].update(n=-4))
        self.assertIn(f"series[2] '{IN_PLACE}': points[0]", message)
        self.assertIn("'n' must be a positive integer, found -4", message)

    def test_a_wrong_type(self):
        message = self.refused(lambda d: d["series"][IN_PLACE_AT].update(block_size="256"))
        self.assertIn("'block_size' must be an integer or null, found the string \"256\"", message)

    def test_a_flag_is_not_a_number(self):
        message = self.refused(lambda d: d["series"][IN_PLACE_AT].update(correct=1))
        self.assertIn("'correct' must be true or false, found the integer 1", message)

    def test_an_unknown_role(self):
        self.assertIn("'role' is 'reference', not one of lab, baseline, ceiling",
                      self.refused(lambda d: d["series"][CUB_AT].update(role="reference")))

    def test_an_unknown_sweep(self):
        self.assertIn("'sweep' is 'grid_size', not one of block_size or null",
                      self.refused(lambda d: d["series"][4].update(sweep="grid_size")))

    def test_a_lab_series_without_its_lab(self):
        self.assertIn("'role' is 'lab' but 'lab' is null",
                      self.refused(lambda d: d["series"][IN_PLACE_AT].update(lab=None)))

    def test_a_lab_that_is_not_a_folder_name(self):
        self.assertIn("'lab' is '../06', not a lab folder name",
                      self.refused(lambda d: d["series"][HIERARCHICAL_AT].update(lab="../06")))

    def test_timings_in_a_simulator_run(self):
        def add_timing(d):
            d["series"][2]["points"][0]["time_ms"] = {"median": 1, "min": 1, "max": 1, "noise": 0, "samples": 1}
        message = self.refused(add_timing, documents.sim_document())
        self.assertIn("series[2] '04-brent-kung/brent_kung_scan/int32': points[0] (n = 2048): has 'time_ms', "
                      "but a sim results file has no timings", message)

    def test_a_gpu_run_without_a_timing(self):
        self.assertIn("points[0] (n = 1024): 'time_ms' is missing",
                      self.refused(lambda d: d["series"][CUB_AT]["points"][0].pop("time_ms")))

    def test_statistics_out_of_order(self):
        self.assertIn("out of order",
                      self.refused(lambda d: d["series"][CUB_AT]["points"][0]["time_ms"].update(min=1e9)))

    def test_a_repeated_id(self):
        self.assertIn(f"series[4] repeats the id '{IN_PLACE}' of series[2]",
                      self.refused(lambda d: d["series"][4].update(id=IN_PLACE)))

    def test_a_repeated_size(self):
        self.assertIn("two points have n = 65536", self.refused(lambda d: d["series"][4]["points"][1].update(n=65536)))

    def test_no_series(self):
        self.assertEqual(self.refused(lambda d: d.update(series=[])), "r.json: 'series' is empty: the run measured nothing")

    def test_an_error_without_its_message(self):
        self.assertEqual(self.refused(lambda d: d["errors"][1].pop("message")), "r.json: errors[1]: 'message' is missing")

    def test_not_an_object(self):
        with self.assertRaisesRegex(ResultsError, r"^r.json: expected an object, found a list"):
            parse([1, 2], source="r.json")


class FileTest(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.folder = Path(folder.name)

    def test_not_json(self):
        path = self.folder / "r.json"
        path.write_text('{"format": ')
        with self.assertRaisesRegex(ResultsError, r"r.json: not JSON: Expecting value at line 1, column 12"):
            load(path)

    def test_the_command_says_what_is_wrong_and_writes_nothing(self):
        document = documents.changed(documents.cuda_document(),
                                     lambda d: d["series"][4].update(element_type="int8"))
        path = documents.write(document, self.folder)
        out = self.folder / "report"
        proc = support.run_plot(str(path), "-o", str(out))
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(proc.stderr.strip(), f"plot: {path}: series[4] '{IN_PLACE_256}': "
                                              f"'element_type' is 'int8', not one of int32, float32")
        self.assertFalse(out.exists())


if __name__ == "__main__":
    unittest.main()
