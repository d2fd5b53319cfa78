"""The reports of a results file: one page per lab (NN-name.md, with its figures) and a summary
across labs (summary.md), written into one folder. What each figure shows is chosen here;
how it is drawn is the business of its module in figures/, and the text that of markdown.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from . import markdown, selection, time_units
from .comparisons import COPY, CUB, SEQUENTIAL, Baselines, rows
from .figures import counters, model, speedup, throughput, work
from .figures.canvas import Drawing
from .results import Results, Series

SUMMARY = "summary"
# The size at which the summary quotes its headline ratios: 2^28 elements (1 GiB of int32
# read and 1 GiB written) is far beyond any cache and fits every GPU the course targets. A run
# that stopped short of it is quoted at its largest size.
HEADLINE_N = 2 ** 28


@dataclass
class Report:
    path: Path
    drawings: list[Drawing] = field(default_factory=list)


def write_all(results: Results, out_dir: Path, execution_units: int = time_units.DEFAULT_EXECUTION_UNITS) -> list[Report]:
    """Write every lab's report and the summary into `out_dir`; returns what was written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    context = _Context(results, out_dir, execution_units)
    reports = [_lab_report(context, lab) for lab in selection.labs(results)]
    reports.append(_summary(context, reports))
    return reports


@dataclass
class _Context:
    results: Results
    out_dir: Path
    execution_units: int

    def __post_init__(self):
        self.baselines = Baselines(self.results)
        threads = self.results.machine.get("cpu_threads")
        self.cpu_threads = threads if isinstance(threads, int) and threads > 0 else None


def _lab_report(context: _Context, lab: str) -> Report:
    results = context.results
    own = selection.of_lab(results, lab)
    report = Report(context.out_dir / f"{lab}.md")
    report.drawings = _figures(context, lab, lab, own)
    lines = markdown.header(f"Lab {lab}: performance report", results)
    lines += _timing_note(results)
    lines += markdown.machine_and_method(results)
    lines += _figure_section(context, report.drawings)
    lines += ["## Measured numbers", "",
              f"The baselines' own numbers are in [the summary]({SUMMARY}.md).", ""]
    for s in own:
        lines += markdown.series_table(s, context.baselines, context.execution_units, context.cpu_threads)
    lines += markdown.model_section(_algorithms(own, selection.baselines(results)), context.execution_units)
    report.path.write_text("\n".join(lines), encoding="utf-8")
    return report


def _summary(context: _Context, lab_reports: Sequence[Report]) -> Report:
    results = context.results
    chosen = selection.representatives(results)
    base = selection.baselines(results)
    report = Report(context.out_dir / f"{SUMMARY}.md")
    report.drawings = _figures(context, SUMMARY, "all labs", chosen)
    lines = markdown.header("scanlab performance summary", results)
    lines += _timing_note(results)
    lines += markdown.machine_and_method(results)
    lines += ["## Labs", ""] + [f"- [{r.path.stem}]({r.path.name})" for r in lab_reports] + [""]
    if results.timed:
        lines += ["## Headline", "",
                  f"Each lab's best configuration and the baselines at n = {HEADLINE_N} (or the largest n a "
                  f"series measured, if smaller), as fractions of the copy's and CUB's throughput and as "
                  f"speedups over the CPU scans of the same run.", ""]
        lines += markdown.headline_table([(s, _headline_row(context, s)) for s in chosen + base])
    lines += ["## Figures", "",
              "One configuration per lab and algorithm: on a timed run the one with the highest throughput "
              "at its largest n (the best block size of a sweep), on a simulator run the one with the "
              "largest section; each lab's report shows all of them.", ""]
    lines += _figure_section(context, report.drawings)[2:]
    lines += ["## Baselines", ""]
    for s in base:
        lines += markdown.series_table(s, context.baselines, context.execution_units, context.cpu_threads)
    lines += markdown.model_section(_algorithms(chosen, base), context.execution_units)
    report.path.write_text("\n".join(lines), encoding="utf-8")
    return report


def _figures(context: _Context, prefix: str, what: str, group: Sequence[Series]) -> list[Drawing]:
    """The figures of `group` beside the baselines, one set per element type."""
    drawings: list[Drawing | None] = []
    base = selection.baselines(context.results)
    for element_type in selection.element_types(tuple(group) + base):
        mine, theirs = selection.of_type(tuple(group), element_type), selection.of_type(base, element_type)

        def path(kind: str) -> Path:
            return context.out_dir / f"{prefix}-{kind}-{element_type}.png"

        drawings += [
            speedup.draw(mine + tuple(s for s in theirs if s.algorithm not in (SEQUENTIAL, COPY)),
                         context.baselines, path(speedup.KIND),
                         f"{what}: speedup over the sequential CPU scan, {element_type}"),
            throughput.draw(mine + tuple(s for s in theirs if s.algorithm in (COPY, CUB)), path(throughput.KIND),
                            f"{what}: throughput, {element_type}"),
            work.draw(mine + theirs, path(work.KIND), f"{what}: work efficiency, {element_type}"),
            model.draw(mine + tuple(s for s in theirs if s.algorithm in time_units.MODELS), context.execution_units,
                       context.cpu_threads, path(model.KIND),
                       f"{what}: the time-unit model and the measured time, {element_type}"
                       if context.results.timed else f"{what}: the time-unit model, {element_type}"),
            counters.draw(mine, path(counters.KIND), f"{what}: memory and divergence counters, {element_type}"),
        ]
    return [d for d in drawings if d is not None]


def _figure_section(context: _Context, drawings: Sequence[Drawing]) -> list[str]:
    lines = ["## Figures", ""]
    if not drawings:
        lines += ["Nothing in the results file can be drawn for these series.", ""]
    lines += markdown.figures(drawings, context.out_dir)
    return lines


def _timing_note(results: Results) -> list[str]:
    return [markdown.NO_TIMINGS, ""] if not results.timed else []


def _headline_row(context: _Context, series: Series):
    table = rows(series, context.baselines)
    return next((r for r in table if r.n == HEADLINE_N), None) or max(
        (r for r in table if r.n < HEADLINE_N), key=lambda r: r.n, default=table[0])


def _algorithms(*groups: Sequence[Series]) -> list[str]:
    return [s.algorithm for group in groups for s in group if s.algorithm != COPY]
