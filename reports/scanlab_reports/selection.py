"""Which series each report shows. Labs are found in the results file itself (the `lab` of its
series): there is no list of labs here. A lab's report shows all of its series (every block
size of a sweep) beside the baselines; the summary shows one configuration per lab and
algorithm, so that the labs can be compared on one figure."""

from __future__ import annotations

from .results import ELEMENT_TYPES, Results, Series


def labs(results: Results) -> list[str]:
    """The labs measured in the file, in course order (their names start with the number)."""
    return sorted({s.lab for s in results.series if s.lab is not None})


def of_lab(results: Results, lab: str) -> tuple[Series, ...]:
    return tuple(s for s in results.series if s.lab == lab)


def baselines(results: Results) -> tuple[Series, ...]:
    """The CPU scans, the library scans and the copy: what every lab is compared with."""
    return tuple(s for s in results.series if s.lab is None)


def element_types(series: tuple[Series, ...]) -> list[str]:
    present = {s.element_type for s in series}
    return [t for t in ELEMENT_TYPES if t in present]


def of_type(series: tuple[Series, ...], element_type: str) -> tuple[Series, ...]:
    return tuple(s for s in series if s.element_type == element_type)


def representatives(results: Results) -> tuple[Series, ...]:
    """One series per lab, algorithm, element type and operator for the summary: a correct one
    before a wrong one; then, on a timed run, the highest throughput at the largest size it
    measured (the best block size of a sweep); on a simulator run, the largest section (the
    configuration closest to the chapter's analysis)."""
    groups: dict[tuple, list[Series]] = {}
    for s in results.series:
        if s.lab is not None:
            groups.setdefault((s.lab, s.algorithm, s.element_type, s.operator), []).append(s)

    def preference(s: Series):
        largest = s.points[-1]
        size = (largest.n, largest.gb_per_s or 0.0) if results.timed else (s.section_size or 0, s.block_size or 0)
        return (not s.wrong, *size)

    return tuple(max(group, key=preference) for _, group in sorted(groups.items()))
