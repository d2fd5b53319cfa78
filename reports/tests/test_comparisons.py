"""Ratios against the baselines of the same run, on numbers worked out by hand: the copy runs at
2000 GB/s, CUB at 1600 GB/s, the sequential scan takes 100 ms and the multithreaded one 10 ms."""

import unittest

import documents
import support  # noqa: F401  (the path)
from scanlab_reports import palette
from scanlab_reports.comparisons import Baselines, rows
from scanlab_reports.results import parse


class ComparisonsTest(unittest.TestCase):
    def setUp(self):
        self.results = parse(documents.cuda_document())
        self.baselines = Baselines(self.results)

    def series(self, identifier):
        return next(s for s in self.results.series if s.id == identifier)

    def test_hierarchical_at_two_to_the_28(self):
        row = rows(self.series("06-hierarchical/hierarchical_scan"), self.baselines)[-1]
        self.assertEqual(row.n, 1 << 28)
        # 2^28 int32 read and written is 2^31 bytes; at 1600 GB/s that is 1.34217728 ms.
        self.assertAlmostEqual(row.time_ms, 1.34217728)
        self.assertAlmostEqual(row.of_copy, 0.8)
        self.assertAlmostEqual(row.of_cub, 1.0)
        self.assertAlmostEqual(row.over_sequential, 100 / 1.34217728)
        self.assertAlmostEqual(row.over_cpu_parallel, 10 / 1.34217728)

    def test_a_wrong_baseline_point_is_not_compared_with(self):
        document = documents.changed(documents.cuda_document(),
                                     lambda d: d["series"][5]["points"][0].update(correct=False))  # CUB at 1024
        results = parse(document)
        hierarchical = next(s for s in results.series if s.algorithm == "hierarchical")
        table = rows(hierarchical, Baselines(results))
        self.assertIsNone(table[0].of_cub)
        self.assertAlmostEqual(table[1].of_cub, 1.0)

    def test_nothing_to_compare_on_a_simulator_run(self):
        results = parse(documents.sim_document())
        row = rows(results.series[0], Baselines(results))[0]
        self.assertEqual((row.time_ms, row.gb_per_s, row.of_copy, row.over_sequential), (None, None, None, None))


class PaletteTest(unittest.TestCase):
    def test_every_known_algorithm_has_a_colour_of_its_own(self):
        self.assertEqual(len(set(palette.COLOURS.values())), len(palette.COLOURS))

    def test_an_unknown_algorithm_keeps_one_spare_colour(self):
        self.assertIn(palette.colour("radix-sort"), palette.SPARE)
        self.assertEqual(palette.colour("radix-sort"), palette.colour("radix-sort"))


if __name__ == "__main__":
    unittest.main()
