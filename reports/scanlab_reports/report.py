"""The reports of a results file: one page per lab (NN-name.md, with its figures) and a summary
across labs (summary.md), written into one folder. What each figure shows is chosen here;
how it is drawn is the business of its module in figures/, and the text that of markdown.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from . import markdown, selection, time_units
from .comparisons import COPY, CUB, CUB_GENERIC, Baselines, rows
from .figures import blocksize, counters, model, speedup, throughput, work
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
        self.references = selection.references(self.results)
        threads = self.results.machine.get("cpu_threads")
        self.cpu_threads = threads if isinstance(threads, int) and threads > 0 else None

    def tables(self, series: Sequence[Series]) -> list[str]:
        return [line for s in series
                for line in markdown.series_table(s, self.baselines, self.execution_units, self.cpu_threads)]


def _lab_report(context: _Context, lab: str) -> Report:
    results = context.results
    main, sweep = selection.main_of_lab(results, lab), selection.sweep_of_lab(results, lab)
    report = Report(context.out_dir / f"{lab}.md")
    report.drawings = _figures(context, lab, lab, main)
    for element_type in selection.element_types(sweep):
        report.drawings += [d for d in [blocksize.draw(
            selection.of_type(main, element_type), selection.of_type(sweep, element_type),
            context.out_dir / f"{lab}-{blocksize.KIND}-{element_type}.png",
            f"{lab}: throughput against the block size, {element_type}")] if d]
    lines = markdown.header(f"Lab {lab}: performance report", results)
    lines += _timing_note(results)
    lines += markdown.machine_and_method(results)
    lines += ["## Figures", ""] + _figure_lines(context, report.drawings)
    lines += ["## Measured numbers", "", f"The baselines' own numbers are in [the summary]({SUMMARY}.md).", ""]
    lines += context.tables(main)
    if sweep:
        lines += ["## Block-size sweep", "", "The same kernels at other block sizes, measured at a few n.", ""]
        lines += context.tables(sweep)
    ids = {s.id for s in main + sweep}
    lines += markdown.failures([e for e in results.errors if e.series in ids])
    lines += markdown.model_section(_algorithms(main, context.references), context.execution_units)
    report.path.write_text("\n".join(lines), encoding="utf-8")
    return report


def _summary(context: _Context, lab_reports: Sequence[Report]) -> Report:
    results = context.results
    chosen = selection.representatives(results)
    report = Report(context.out_dir / f"{SUMMARY}.md")
    report.drawings = _figures(context, SUMMARY, "all labs", chosen)
    lines = markdown.header("scanlab performance summary", results)
    lines += _timing_note(results)
    lines += markdown.machine_and_method(results)
    lines += ["## Labs", ""] + [f"- [{r.path.stem}]({r.path.name})" for r in lab_reports] + [""]
    if results.timed:
        lines += ["## Headline", "",
                  f"Each lab's kernels and the baselines at n = {HEADLINE_N} (or the largest n a series "
                  f"measured, if smaller), as fractions of the copy's and CUB's throughput and as speedups "
                  f"over the CPU scans of the same run. \"Of CUB\" is of `cub::DeviceScan::InclusiveSum`, the "
                  f"call a user makes for a sum; CUB's generic `InclusiveScan` with the kit's functor, which "
                  f"runs a slower tuning, is a row of its own.", ""]
        headline = chosen + tuple(s for s in context.references if s not in chosen)
        lines += markdown.headline_table([(s, _headline_row(context, s)) for s in headline])
    lines += ["## Figures", "",
              "One series per lab and algorithm: a lab's main series (its largest block), or the configuration "
              "of its sweep that is right where the main one is wrong; each lab's report shows all of them.", ""]
    lines += _figure_lines(context, report.drawings)
    lines += ["## Baselines", ""] + context.tables(context.references)
    lines += markdown.failures(results.errors)
    lines += markdown.model_section(_algorithms(chosen, context.references), context.execution_units)
    report.path.write_text("\n".join(lines), encoding="utf-8")
    return report


def _figures(context: _Context, prefix: str, what: str, group: Sequence[Series]) -> list[Drawing]:
    """The figures of `group` against n beside the references, one set per element type."""
    drawings: list[Drawing | None] = []
    group = tuple(group)
    others = tuple(s for s in context.references if s not in group)
    for element_type in selection.element_types(group + others):
        mine, theirs = selection.of_type(group, element_type), selection.of_type(others, element_type)
        both = mine + theirs

        def path(kind: str) -> Path:
            return context.out_dir / f"{prefix}-{kind}-{element_type}.png"

        drawings += [
            speedup.draw(tuple(s for s in both if s.algorithm != COPY), context.baselines, path(speedup.KIND),
                         f"{what}: speedup over the sequential CPU scan, {element_type}"),
            throughput.draw(mine + tuple(s for s in theirs if s.algorithm in (COPY, CUB, CUB_GENERIC)),
                            path(throughput.KIND), f"{what}: throughput, {element_type}"),
            work.draw(both, path(work.KIND), f"{what}: work efficiency, {element_type}"),
            model.draw(tuple(s for s in both if s.algorithm in time_units.MODELS), context.execution_units,
                       context.cpu_threads, path(model.KIND),
                       f"{what}: the time-unit model and the measured time, {element_type}"
                       if context.results.timed else f"{what}: the time-unit model, {element_type}"),
            counters.draw(mine, path(counters.KIND), f"{what}: memory and divergence counters, {element_type}"),
        ]
    return [d for d in drawings if d is not None]


def _figure_lines(context: _Context, drawings: Sequence[Drawing]) -> list[str]:
    if not drawings:
        return ["Nothing in the results file can be drawn for these series.", ""]
    return markdown.figures(drawings, context.out_dir)


def _timing_note(results: Results) -> list[str]:
    return [markdown.NO_TIMINGS, ""] if not results.timed else []


def _headline_row(context: _Context, series: Series):
    table = rows(series, context.baselines)
    return next((r for r in table if r.n == HEADLINE_N), None) or max(
        (r for r in table if r.n < HEADLINE_N), key=lambda r: r.n, default=table[0])


def _algorithms(*groups: Sequence[Series]) -> list[str]:
    return [s.algorithm for group in groups for s in group if s.algorithm != COPY]
