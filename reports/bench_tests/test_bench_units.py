"""Unit tests of reports/bench's Python side: the records protocol, the results file it
assembles, the plan handed to the programs, the progress bar (terminal only)."""

import io
import json
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "common" / "python"))  # scanlab_build, as reports/bench sets it

from scanlab_reports import bench_cli  # noqa: E402
from scanlab_reports.bench_progress import Progress  # noqa: E402
from scanlab_reports.bench_results import RecordError, Results, method_of, parse_record  # noqa: E402


def series_record(sid="06-hierarchical/hierarchical_scan/int32"):
    return {"record": "series", "id": sid, "lab": "06-hierarchical", "label": "06", "algorithm": "hierarchical",
            "role": "lab", "where": "gpu", "element_type": "int32", "operator": "plus", "scope": "whole-array",
            "block_size": 1024, "section_size": 2048, "sweep": None}


def point_record(sid="06-hierarchical/hierarchical_scan/int32", n=1024, correct=True):
    return {"record": "point", "series": sid, "n": n, "bytes": 8 * n,
            "time_ms": {"median": 0.01, "min": 0.01, "max": 0.02, "noise": 0.01, "samples": 10},
            "gb_per_s": 0.8 * n / 1e3, "correct": correct, "operator_applications": None, "counters": None}


class AdapterTest(unittest.TestCase):
    def test_a_lab_without_a_bench_adapter_is_named(self):
        import tempfile
        with tempfile.TemporaryDirectory() as folder:
            labs = Path(folder)
            for name, files in (("01-first", ("lab.toml", "bench_adapter.cu")), ("02-second", ("lab.toml",)),
                                ("03-third", ("lab.toml",)), ("common", ("helpers.hpp",))):
                (labs / name).mkdir()
                for f in files:
                    (labs / name / f).write_text("")
            self.assertEqual(bench_cli.labs_without_adapter(labs, None), ["02-second", "03-third"])
            self.assertEqual(bench_cli.labs_without_adapter(labs, ["3"]), ["03-third"])
            self.assertEqual(bench_cli.labs_without_adapter(labs, ["01"]), [])

    def test_every_lab_of_the_kit_has_a_bench_adapter(self):
        self.assertEqual(bench_cli.labs_without_adapter(bench_cli.REPO / "grader" / "labs", None), [])


class RecordsTest(unittest.TestCase):
    def test_parse_rejects_what_is_not_a_record(self):
        self.assertEqual(parse_record('{"record": "plan", "points": 3}')["points"], 3)
        with self.assertRaises(RecordError):
            parse_record("Segmentation fault")
        with self.assertRaises(RecordError):
            parse_record('{"points": 3}')

    def test_points_join_their_series_and_a_wrong_point_marks_it(self):
        r = Results("cuda", "solutions", "2026-01-01T00:00:00Z")
        r.add("lab06_bench", series_record())
        r.add("lab06_bench", point_record(n=1024))
        r.add("lab06_bench", point_record(n=2048, correct=False))
        doc = r.document()
        self.assertEqual(doc["format"], "scanlab-bench/1")
        (series,) = doc["series"]
        self.assertEqual([p["n"] for p in series["points"]], [1024, 2048])
        self.assertNotIn("series", series["points"][0])
        self.assertNotIn("record", series["points"][0])
        self.assertFalse(series["correct"])
        self.assertEqual(doc["errors"], [])

    def test_all_correct_points_keep_the_series_correct(self):
        r = Results("cuda", "labs", "t")
        r.add("p", series_record())
        r.add("p", point_record())
        self.assertTrue(r.document()["series"][0]["correct"])

    def test_a_point_of_an_unknown_series_or_a_series_twice_is_an_error(self):
        r = Results("cuda", "labs", "t")
        with self.assertRaises(RecordError):
            r.add("p", point_record())
        r.add("p", series_record())
        with self.assertRaises(RecordError):
            r.add("p", series_record())

    def test_error_records_and_failed_programs_are_kept(self):
        r = Results("cuda", "labs", "t")
        r.add("p", series_record())
        r.add("p", {"record": "error", "series": series_record()["id"], "n": 1024, "message": "boom"})
        r.program_failed("lab07_bench", "does not build: x.cu:3: error: y")
        doc = r.document()
        self.assertFalse(doc["series"][0]["correct"])
        self.assertEqual([e["program"] for e in doc["errors"]], ["p", "lab07_bench"])
        self.assertEqual(doc["errors"][0]["message"], "boom")

    def test_device_record_fills_the_machine(self):
        r = Results("cuda", "labs", "t", machine={"cpu": "x"})
        r.add("p", {"record": "device", "gpu": "NVIDIA H100 80GB HBM3", "sm_clock_mhz": 1980})
        self.assertEqual(r.document()["machine"], {"cpu": "x", "gpu": "NVIDIA H100 80GB HBM3", "sm_clock_mhz": 1980})

    def test_the_document_is_json(self):
        r = Results("sim", "labs", "t", method=method_of("sim", (1, 1), 3, 0))
        r.add("p", series_record())
        self.assertEqual(json.loads(json.dumps(r.document()))["backend"], "sim")

    def test_method_on_sim_times_nothing(self):
        m = method_of("sim", (1, 1), 3, 0)
        self.assertIsNone(m["timer"])
        self.assertFalse(m["l2_flush"])
        g = method_of("cuda", (10, 50), 3, 400)
        self.assertEqual((g["timer"], g["samples"], g["min_samples"], g["l2_flush"]), ("cuda-event", 50, 10, True))


class PlanTest(unittest.TestCase):
    def test_full_gpu_plan_spans_2_to_the_10_to_30(self):
        plan = bench_cli.plan_for("cuda", quick=False)
        self.assertEqual(plan.sizes, (10, 30, 1))
        args = plan.program_args()
        self.assertEqual(args[args.index("--sizes") + 1], "10:30:1")
        self.assertIn("--budget-ms", args)

    def test_simulator_plan_stays_small(self):
        for quick in (False, True):
            plan = bench_cli.plan_for("sim", quick)
            self.assertLessEqual(plan.sizes[1], 16)
            self.assertIn("--int32-only", plan.program_args())
        self.assertNotIn("--int32-only", bench_cli.plan_for("cuda", False).program_args())
        self.assertLess(bench_cli.plan_for("cuda", True).sizes[1], bench_cli.plan_for("cuda", False).sizes[1])

    def test_sizes_option(self):
        plan = bench_cli._with_sizes(bench_cli.plan_for("cuda", False), "20:28")
        self.assertEqual(plan.sizes, (20, 28, 1))
        for bad in ("28:20", "10:31", "a:b", "10:20:0"):
            with self.assertRaises(ValueError):
                bench_cli._with_sizes(plan, bad)

    def test_programs_baselines_first_then_labs_in_order_filtered(self):
        targets = {n: Path(n) for n in ("lab07_bench", "lab02_bench", "scanlab_bench_baselines", "lab02_tests")}
        self.assertEqual(bench_cli.select_programs(targets, None),
                         ["scanlab_bench_baselines", "lab02_bench", "lab07_bench"])
        self.assertEqual(bench_cli.select_programs(targets, ["7"]), ["scanlab_bench_baselines", "lab07_bench"])

    def test_newer_cub_right_after_the_baselines_where_built(self):
        targets = {n: Path(n) for n in ("lab10_bench", "scanlab_bench_cccl", "scanlab_bench_baselines")}
        self.assertEqual(bench_cli.select_programs(targets, ["10"]),
                         ["scanlab_bench_baselines", "scanlab_bench_cccl", "lab10_bench"])


class FakeTerminal(io.StringIO):
    def __init__(self, tty):
        super().__init__()
        self.tty = tty

    def isatty(self):
        return self.tty


class ProgressTest(unittest.TestCase):
    def test_nothing_on_a_non_terminal(self):
        out = FakeTerminal(tty=False)
        p = Progress(10, out)
        p.advance("lab06")
        p.finish()
        self.assertEqual(out.getvalue(), "")

    def test_bar_on_a_terminal(self):
        out = FakeTerminal(tty=True)
        p = Progress(4, out)
        p.advance("lab06 n=1024", 2)
        self.assertIn("2/4 points", out.getvalue())
        self.assertIn("#" * (Progress.WIDTH // 2), out.getvalue())
        p.finish()
        self.assertTrue(out.getvalue().endswith("\n"))

    def test_notes_reach_a_non_terminal_too(self):
        out = FakeTerminal(tty=False)
        Progress(1, out).note("bench: lab07_bench: exit status 1")
        self.assertEqual(out.getvalue(), "bench: lab07_bench: exit status 1\n")


if __name__ == "__main__":
    unittest.main()
