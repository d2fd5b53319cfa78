"""Ratios against the baselines of the same run, on numbers worked out by hand: the copy runs at
2000 GB/s, CUB's InclusiveSum at 1600 GB/s and its generic InclusiveScan at 1200 GB/s, lab 01's sequential scan takes 100 ms, std::inclusive_scan 200 ms
and the multithreaded scan 10 ms."""

import unittest

import documents
import support  # noqa: F401  (the path)
from scanlab_reports import palette, selection
from scanlab_reports.comparisons import Baselines, rows
from scanlab_reports.results import parse

# 2^28 int32 read and written is 2^31 bytes; at 1600 GB/s that takes 1.34217728 ms.
HIERARCHICAL_MS = 1.34217728


def hierarchical_rows(document):
    results = parse(document)
    return rows(next(s for s in results.series if s.id == documents.HIERARCHICAL), Baselines(results))


class ComparisonsTest(unittest.TestCase):
    def test_hierarchical_at_two_to_the_28(self):
        row = hierarchical_rows(documents.cuda_document())[-1]
        self.assertEqual(row.n, 1 << 28)
        self.assertAlmostEqual(row.time_ms, HIERARCHICAL_MS)
        self.assertAlmostEqual(row.of_copy, 0.8)
        self.assertAlmostEqual(row.of_cub, 1.0)
        self.assertAlmostEqual(row.over_sequential, 100 / HIERARCHICAL_MS)
        self.assertAlmostEqual(row.over_cpu_parallel, 10 / HIERARCHICAL_MS)

    def test_of_cub_is_of_inclusive_sum_not_of_the_generic_scan(self):
        results = parse(documents.cuda_document())
        generic = next(s for s in results.series if s.id == documents.CUB_GENERIC)
        self.assertAlmostEqual(rows(generic, Baselines(results))[-1].of_cub, 1200 / 1600)
        # Without InclusiveSum in the run there is no "of CUB": the generic scan never stands in.
        document = documents.changed(documents.cuda_document(), lambda d: d["series"].pop(8))
        self.assertIsNone(hierarchical_rows(document)[-1].of_cub)

    def test_a_wrong_baseline_point_is_not_compared_with(self):
        document = documents.changed(documents.cuda_document(),
                                     lambda d: d["series"][8]["points"][0].update(correct=False))  # CUB at 1024
        table = hierarchical_rows(document)
        self.assertIsNone(table[0].of_cub)
        self.assertAlmostEqual(table[1].of_cub, 1.0)

    def test_std_inclusive_scan_stands_in_for_a_wrong_sequential_scan(self):
        document = documents.changed(documents.cuda_document(), lambda d: d["series"][0].update(correct=False))
        self.assertAlmostEqual(hierarchical_rows(document)[-1].over_sequential, 200 / HIERARCHICAL_MS)

    def test_nothing_to_compare_on_a_simulator_run(self):
        results = parse(documents.sim_document())
        row = rows(results.series[1], Baselines(results))[0]
        self.assertEqual((row.time_ms, row.gb_per_s, row.of_copy, row.over_sequential), (None, None, None, None))


class SelectionTest(unittest.TestCase):
    def test_the_summary_takes_the_main_series_of_each_kernel(self):
        chosen = [s.id for s in selection.representatives(parse(documents.cuda_document()))]
        self.assertEqual(chosen, [documents.IN_PLACE, documents.DOUBLE_BUFFER, documents.HIERARCHICAL])

    def test_a_right_configuration_before_a_wrong_main_series(self):
        document = documents.changed(documents.cuda_document(), lambda d: d["series"][2].update(correct=False))
        chosen = [s.id for s in selection.representatives(parse(document))]
        self.assertEqual(chosen, [documents.IN_PLACE_256, documents.DOUBLE_BUFFER, documents.HIERARCHICAL])

    def test_references_wherever_they_come_from(self):
        references = [s.id for s in selection.references(parse(documents.cuda_document()))]
        self.assertEqual(references, [documents.SEQUENTIAL, documents.CPU_PARALLEL, documents.STD, documents.CUB,
                                      documents.COPY, documents.CUB_GENERIC])


class PaletteTest(unittest.TestCase):
    def test_every_known_algorithm_has_a_colour_of_its_own(self):
        self.assertEqual(len(set(palette.COLOURS.values())), len(palette.COLOURS))

    def test_an_unknown_algorithm_keeps_one_spare_colour(self):
        self.assertIn(palette.colour("radix-sort"), palette.SPARE)
        self.assertEqual(palette.colour("radix-sort"), palette.colour("radix-sort"))


if __name__ == "__main__":
    unittest.main()
