"""The time-unit model against the chapter's worked examples (1024 elements, 32 execution
units) and against counts worked out by hand."""

import unittest

import support  # noqa: F401  (the path)
from scanlab_reports import markdown, time_units
from scanlab_reports.results import Series


def series(algorithm: str, block_size=None, section_size=None) -> Series:
    return Series(id=algorithm, lab=None, label=algorithm, algorithm=algorithm, role="baseline", where="gpu",
                  element_type="int32", operator="plus", scope="sections", block_size=block_size,
                  section_size=section_size, sweep=None, correct=True, points=())


class ChapterExamplesTest(unittest.TestCase):
    def test_sequential_takes_n_units_whatever_p(self):
        cost = time_units.cost(series("sequential"), 1024)
        self.assertEqual((cost.time_units(32), cost.time_units(10 ** 6)), (1024, 1024))

    def test_kogge_stone_1024_elements_on_32_units_is_320(self):
        self.assertEqual(time_units.cost(series("kogge-stone", 1024, 1024), 1024).time_units(32), 320)

    def test_brent_kung_1024_elements_on_32_units_is_304(self):
        self.assertEqual(time_units.cost(series("brent-kung", 512, 1024), 1024).time_units(32), 304)
        # Without a section size, a section is two elements per thread.
        self.assertEqual(time_units.cost(series("brent-kung", 512), 1024).time_units(32), 304)

    def test_three_phase_1024_elements_64_threads_on_32_units_is_about_74(self):
        units = time_units.cost(series("three-phase", 64, 1024), 1024).time_units(32)
        self.assertAlmostEqual(units, (1023 + 64 * 6 + 1024 - 64) / 32)
        self.assertEqual(round(units), 74)


class ModelTest(unittest.TestCase):
    def test_with_more_units_than_work_the_steps_remain(self):
        # Kogge-Stone on a section of 1024: 10 dependent steps however wide the machine.
        self.assertEqual(time_units.cost(series("kogge-stone", 1024, 1024), 1024).time_units(10 ** 9), 10)

    def test_sections_add_their_work_not_their_steps(self):
        one = time_units.cost(series("brent-kung", 512, 1024), 1024)
        four = time_units.cost(series("brent-kung", 512, 1024), 4096)
        self.assertEqual((four.work, four.steps), (4 * one.work, one.steps))

    def test_hierarchical_levels(self):
        # 4096 elements in tiles of 16, 4 threads of 4 elements: levels of 4096, 256 and 16.
        # A tile scan: 15 + 4 x 2 + 16 - 4 = 35 applications, 2 x 3 + 2 = 8 steps; a tile
        # reduction: 16 - 4 + 4 x 2 = 20 applications, 3 + 2 = 5 steps. Going up, 256 and 16
        # tiles are reduced; coming down, 256, 16 and 1 tiles are scanned.
        cost = time_units.cost(series("hierarchical", 4, 16), 4096)
        self.assertEqual((cost.work, cost.steps), ((256 + 16 + 1) * 35 + (256 + 16) * 20, 3 * 8 + 2 * 5))

    def test_single_pass_chains_its_tiles(self):
        # 8 tiles of 16, 4 threads of 4 elements: each tile reduced (20 applications, 5 steps)
        # and scanned (35 applications, 8 steps), 8 hand-offs one after another.
        cost = time_units.cost(series("single-pass", 4, 16), 128)
        self.assertEqual((cost.work, cost.steps), (8 * (20 + 35) + 8, 5 + 8 + 8))

    def test_lab_08_counts_sixteen_block_operations_per_element(self):
        # 1024 elements in sections of 512: two sections, 16 bits each.
        ballot = time_units.cost(series("binary-prefix-ballot", 512, 512), 1024)
        self.assertEqual((ballot.work, ballot.steps), (2 * 16 * (3 * 512 + 160), 16 * 8))
        shuffle = time_units.cost(series("binary-prefix-shuffle", 512, 512), 1024)
        self.assertEqual((shuffle.work, shuffle.steps), (2 * 16 * (6 * 512 + 160), 16 * 11))
        count = time_units.cost(series("binary-count-intrinsic", 512, 512), 1024)
        self.assertEqual((count.work, count.steps), (2 * 16 * 512, 16))
        tree = time_units.cost(series("binary-count-reduction", 512, 512), 1024)
        self.assertEqual((tree.work, tree.steps), (2 * 16 * (512 + 512 * 9), 16 * 10))

    def test_cpu_parallel_needs_the_thread_count(self):
        self.assertIsNone(time_units.cost(series("cpu-parallel"), 1024))
        cost = time_units.cost(series("cpu-parallel"), 1024, cpu_threads=16)
        self.assertEqual((cost.work, cost.steps), (2 * 1024 + 16, 2 * 1024 / 16 + 16))

    def test_what_the_chapter_does_not_analyse_has_no_model(self):
        for algorithm in ("cub", "thrust", "copy", "some-new-scan"):
            self.assertIsNone(time_units.cost(series(algorithm, 256, 512), 1024), algorithm)
            self.assertIsNone(time_units.describe(algorithm))
        self.assertIsNone(time_units.cost(series("three-phase", 64), 1024))  # no section size

    def test_the_report_tells_a_library_scan_from_a_lab_without_a_model(self):
        lines = markdown.model_section(["cub-generic", "some-new-scan"], 32)
        self.assertIn("- `cub-generic`: no model: the chapter does not analyse it.", lines)
        self.assertIn("- `some-new-scan`: no model: `reports/scanlab_reports/time_units.py` has none for this "
                      "algorithm, so the `model` figure leaves it out.", lines)

    def test_every_model_is_described(self):
        for algorithm in time_units.MODELS:
            self.assertTrue(time_units.describe(algorithm), algorithm)


if __name__ == "__main__":
    unittest.main()
