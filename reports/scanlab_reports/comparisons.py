"""Each measured point against the baselines of the same run: throughput as a fraction of the
device-to-device copy (the physical ceiling) and of CUB (its InclusiveSum, what a user calls for a
sum; CUB's generic InclusiveScan is a series of its own, never the denominator), speedup over the sequential and the
multithreaded CPU scans. Ratios are only ever taken between points of one results file, so
they come from one machine in one run; a baseline is matched on algorithm, element type and
n, and only where its own result was correct.

The sequential scan is lab 01's; where that one is missing or wrong (a student's unfinished lab
01), std::inclusive_scan on one CPU thread stands in for it: the same loop, from the library."""

from __future__ import annotations

from dataclasses import dataclass

from .results import Point, Results, Series

SEQUENTIAL = "sequential"
STD_SEQUENTIAL = "std-inclusive-scan"
CPU_PARALLEL = "cpu-parallel"
CUB = "cub"                  # cub::DeviceScan::InclusiveSum: the call a user makes for a sum
CUB_GENERIC = "cub-generic"  # cub::DeviceScan::InclusiveScan with the kit's functor: a second series
COPY = "copy"


@dataclass(frozen=True)
class Row:
    """One point of a series with its comparisons; None where the run has nothing to compare."""
    n: int
    correct: bool     # this point matched the CPU reference (the series may still be wrong elsewhere)
    time_ms: float | None
    noise: float | None
    gb_per_s: float | None
    of_copy: float | None
    of_cub: float | None
    over_sequential: float | None
    over_cpu_parallel: float | None


class Baselines:
    """The baseline points of a run (series whose role is not `lab`), found by algorithm,
    element type and n."""

    def __init__(self, results: Results):
        self._points: dict[tuple[str, str, int], Point] = {}
        for s in results.series:
            if s.role != "lab" and s.correct and s.sweep is None:
                for p in s.points:
                    if p.correct:
                        self._points.setdefault((s.algorithm, s.element_type, p.n), p)

    def point(self, algorithm: str, element_type: str, n: int) -> Point | None:
        found = self._points.get((algorithm, element_type, n))
        if found is None and algorithm == SEQUENTIAL:
            found = self._points.get((STD_SEQUENTIAL, element_type, n))
        return found

    def speedup(self, over: str, series: Series, point: Point) -> float | None:
        """How many times faster `point` ran than the baseline `over` at the same n."""
        base = self.point(over, series.element_type, point.n)
        if base is None or base.timing is None or point.timing is None:
            return None
        return base.timing.median_ms / point.timing.median_ms

    def fraction(self, of: str, series: Series, point: Point) -> float | None:
        """The throughput of `point` as a fraction of the baseline `of` at the same n."""
        base = self.point(of, series.element_type, point.n)
        if base is None or base.gb_per_s is None or point.gb_per_s is None:
            return None
        return point.gb_per_s / base.gb_per_s


def rows(series: Series, baselines: Baselines) -> list[Row]:
    return [Row(n=p.n, correct=p.correct,
                time_ms=p.timing.median_ms if p.timing else None,
                noise=p.timing.noise if p.timing else None,
                gb_per_s=p.gb_per_s,
                of_copy=baselines.fraction(COPY, series, p),
                of_cub=baselines.fraction(CUB, series, p),
                over_sequential=baselines.speedup(SEQUENTIAL, series, p),
                over_cpu_parallel=baselines.speedup(CPU_PARALLEL, series, p))
            for p in series.points]
