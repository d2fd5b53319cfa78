"""Which series each report shows. Labs are found in the results file itself (the `lab` of its
series): there is no list of labs here.

A lab's main series (one per kernel, at every n) are drawn against n beside the references:
the baselines and the ceiling, wherever they come from (lab 01's CPU scans are baselines too).
The configurations of a block-size sweep, measured at a few n only, have a figure of their own.
The summary shows one series per lab and algorithm, so that the labs fit on one figure."""

from __future__ import annotations

from .results import ELEMENT_TYPES, Results, Series


def labs(results: Results) -> list[str]:
    """The labs measured in the file, in course order (their names start with the number)."""
    return sorted({s.lab for s in results.series if s.lab is not None})


def main_of_lab(results: Results, lab: str) -> tuple[Series, ...]:
    return tuple(s for s in results.series if s.lab == lab and s.sweep is None)


def sweep_of_lab(results: Results, lab: str) -> tuple[Series, ...]:
    return tuple(s for s in results.series if s.lab == lab and s.sweep is not None)


def references(results: Results) -> tuple[Series, ...]:
    """The CPU scans, the library scans and the copy: what every lab is compared with."""
    return tuple(s for s in results.series if s.role != "lab" and s.sweep is None)


def element_types(series: tuple[Series, ...]) -> list[str]:
    present = {s.element_type for s in series}
    return [t for t in ELEMENT_TYPES if t in present]


def of_type(series: tuple[Series, ...], element_type: str) -> tuple[Series, ...]:
    return tuple(s for s in series if s.element_type == element_type)


def representatives(results: Results) -> tuple[Series, ...]:
    """One of each lab's own series per algorithm, element type and operator, for the summary:
    a correct one before a wrong one; then the main series before a configuration of a sweep;
    then, on a timed run, the highest throughput at the largest n it measured, on a simulator
    run the largest section (the configuration closest to the chapter's analysis)."""
    groups: dict[tuple, list[Series]] = {}
    for s in results.series:
        if s.role == "lab":
            groups.setdefault((s.lab, s.algorithm, s.element_type, s.operator), []).append(s)

    def preference(s: Series):
        largest = s.points[-1]
        size = (largest.n, largest.gb_per_s or 0.0) if results.timed else (s.section_size or 0, s.block_size or 0)
        return (not s.wrong, s.sweep is None, *size)

    return tuple(max(group, key=preference) for _, group in sorted(groups.items()))
