"""The Markdown of the reports, block by block: the header with the machine and the method
recorded in the results file, the note that a simulator run has no timings, the figures, a table
of the measured numbers per series, the headline table of the summary and the time-unit model's
assumptions. report.py puts the blocks together into pages."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence

from . import comparisons, time_units
from .comparisons import Baselines
from .counter_ratios import RATIOS
from .results import Failure, Results, Series

if TYPE_CHECKING:  # the text needs no matplotlib
    from .figures.canvas import Drawing

MISSING = "—"

NO_TIMINGS = (
    "**No timings: no GPU was used.** This is a simulator run (backend `sim`): nothing was "
    "timed, so this report has no time, throughput or speedup. It shows what the simulator "
    "measures on any machine: operator applications, the memory and divergence counters, and the "
    "chapter's time-unit model. Run `reports/bench` on a machine with a GPU for the timings.")

WRONG_NOTE = (
    "**Wrong result.** This series did not match the CPU reference (at the sizes marked "
    "*wrong* below, or everywhere): its numbers are listed to help find the bug, and the figures "
    "draw it crossed out, labelled \"(wrong result)\", never as a valid result.")


def header(title: str, results: Results) -> list[str]:
    return [f"# {title}", "",
            f"From `{Path(results.source).name}`, made {results.created or MISSING} by `reports/bench` "
            f"on the `{results.backend}` backend, measuring the kernels of `{results.submission}/`.", ""]


def machine_and_method(results: Results) -> list[str]:
    # A field the run left null (the sampling method of a simulator run, which times nothing)
    # says nothing, and is left out.
    recorded = [(k, v) for k, v in (*results.machine.items(), *results.method.items()) if v is not None]
    lines = ["## Machine and method", "", "| what | recorded |", "| --- | --- |"]
    lines += [f"| {key.replace('_', ' ')} | {_cell(value)} |" for key, value in recorded]
    lines += ["", "How the numbers are taken, and why that way: `reports/METHOD.md` in scanlab.", ""]
    return lines


def figures(drawings: Sequence[Drawing], out_dir: Path) -> list[str]:
    return [line for d in drawings for line in (f"![{d.title}]({d.path.relative_to(out_dir).as_posix()})", "")]


def series_table(series: Series, baselines: Baselines, execution_units: int, cpu_threads: int | None) -> list[str]:
    """The numbers of one series, point by point. Its columns are those the run has: timings and
    their comparisons on a GPU run, operator applications where they were counted, the model's
    time units where it covers the algorithm, the counters (as the ratios of the figures) where
    the simulator counted them; the raw counts are in the results file."""
    rows = comparisons.rows(series, baselines)
    columns: list[tuple[str, list[str]]] = []
    columns.append(("n", [f"{r.n}" + ("" if r.correct else " (*wrong*)") for r in rows]))
    if any(r.time_ms is not None for r in rows):
        columns += [
            ("median time (ms)", [_significant(r.time_ms) for r in rows]),
            ("noise", [_percent(r.noise) for r in rows]),
            ("GB/s", [_fixed(r.gb_per_s, 1) for r in rows]),
            ("of copy", [_percent(r.of_copy) for r in rows]),
            ("of CUB", [_percent(r.of_cub) for r in rows]),
            ("speedup over sequential", [_times(r.over_sequential) for r in rows]),
            ("over multithreaded CPU", [_times(r.over_cpu_parallel) for r in rows]),
        ]
    if any(p.operator_applications is not None for p in series.points):
        columns += [
            ("operator applications", [_integer(p.operator_applications) for p in series.points]),
            ("per (n - 1)", [_fixed(p.operator_applications / (p.n - 1), 3)
                             if p.operator_applications is not None and p.n > 1 else MISSING
                             for p in series.points]),
        ]
    costs = [time_units.cost(series, p.n, cpu_threads) for p in series.points]
    if any(costs):
        columns.append((f"model time units (P = {execution_units})",
                        [_significant(c.time_units(execution_units)) if c else MISSING for c in costs]))
    for ratio in RATIOS:
        values = [ratio.of(p.counters) for p in series.points]
        if any(v is not None for v in values):
            columns.append((ratio.label, [_fixed(v, 3) for v in values]))
    lines = [f"### {series.label}, {series.element_type}" + (" — wrong result" if series.wrong else ""), "",
             _configuration(series), ""]
    if series.wrong:
        lines += [WRONG_NOTE, ""]
    lines += _table([title for title, _ in columns], list(zip(*(cells for _, cells in columns))))
    return lines + [""]


def headline_table(rows: Sequence[tuple[Series, comparisons.Row]]) -> list[str]:
    """One row per series at one size: the ratios a reader looks for first."""
    return _table(["series", "type", "n", "median time (ms)", "GB/s", "of copy", "of CUB", "speedup over sequential",
                   "over multithreaded CPU"],
                  [(s.label + (" (*wrong result*)" if s.wrong or not r.correct else ""), s.element_type, f"{r.n}",
                    _significant(r.time_ms), _fixed(r.gb_per_s, 1), _percent(r.of_copy), _percent(r.of_cub),
                    _times(r.over_sequential), _times(r.over_cpu_parallel)) for s, r in rows]) + [""]


def failures(errors: Sequence[Failure]) -> list[str]:
    """What the run could not measure, as reports/bench recorded it."""
    if not errors:
        return []
    lines = ["## Not measured", "", "The run recorded these failures; what they concern is missing above, "
             "or marked wrong.", ""]
    for e in errors:
        where = ", ".join(part for part in (f"series `{e.series}`" if e.series else "",
                                            f"n = {e.n}" if e.n else "") if part)
        lines.append(f"- `{e.program}`" + (f" ({where})" if where else "") + ": " + " ".join(e.message.split()))
    return lines + [""]


def model_section(algorithms: Iterable[str], execution_units: int) -> list[str]:
    lines = ["## The time-unit model", "", time_units.ASSUMPTIONS, "",
             f"The figures and tables use P = {execution_units} (`reports/plot --execution-units P` "
             f"changes it).", ""]
    for algorithm in sorted(set(algorithms)):
        described = time_units.describe(algorithm)
        lines.append(f"- `{algorithm}`: " + (described or (
            "no model: the chapter does not analyse it." if algorithm in time_units.UNANALYSED else
            "no model: `reports/scanlab_reports/time_units.py` has none for this algorithm, so the `model` "
            "figure leaves it out.")))
    return lines + [""]


def _configuration(series: Series) -> str:
    parts = [f"`{series.id}`", f"algorithm `{series.algorithm}`", f"{series.where.upper()} code",
             f"operator `{series.operator}`", series.scope]
    if series.block_size:
        parts.append(f"{series.block_size} threads per block")
    if series.section_size:
        parts.append(f"{series.section_size} elements per section")
    return ", ".join(parts) + "."


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    # Numbers align right; the first column names the row.
    return (["| " + " | ".join(header) + " |", "| --- |" + "|".join(" ---: " for _ in header[1:]) + "|"]
            + ["| " + " | ".join(row) + " |" for row in rows])


def _cell(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return MISSING if value is None else str(value).replace("|", "\\|")


def _significant(value: float | None, digits: int = 4) -> str:
    """`digits` significant digits, never in exponent notation: 0.9104, 12.35, 2433."""
    if value is None:
        return MISSING
    if value == 0:
        return "0"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    return f"{value:.{decimals}f}"


def _fixed(value: float | None, decimals: int) -> str:
    return MISSING if value is None else f"{value:.{decimals}f}"


def _percent(value: float | None) -> str:
    return MISSING if value is None else f"{100 * value:.1f}%"


def _times(value: float | None) -> str:
    return MISSING if value is None else _significant(value, 3) + "×"


def _integer(value: float | None) -> str:
    return MISSING if value is None else f"{int(value)}"
