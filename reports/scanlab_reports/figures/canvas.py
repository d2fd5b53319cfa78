"""What every figure shares: matplotlib without a display, the look of a series (its
algorithm's colour; a line style per configuration; a wrong result crossed out), the n axis,
and saving. A figure is drawn on its own matplotlib Figure, not through pyplot's global state,
so drawing many figures leaks nothing and needs no display."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from debian_modules import import_debian_module

from .. import palette
from ..results import Point, Series

_matplotlib = import_debian_module("matplotlib", "python3-matplotlib")
_matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402  (after the backend is chosen)
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter, NullLocator  # noqa: E402

WRONG = " (wrong result)"
# Several configurations of one algorithm (a block-size sweep) share its colour and differ in
# line style and marker.
_STYLES = (("-", "o"), ("--", "s"), ("-.", "^"), (":", "D"), ((0, (5, 1)), "v"), ((0, (3, 1, 1, 1)), "P"))
# Below this ratio between the largest and the smallest value an axis stays linear.
_DECADE = 10.0
_DPI = 110


@dataclass(frozen=True)
class Curve:
    """One series as drawn: the values on the figure, and whether it was marked wrong."""
    series_id: str
    label: str        # as in the legend
    algorithm: str
    panel: str        # the title of the axes it is on
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    wrong: bool


@dataclass
class Drawing:
    kind: str
    path: Path
    title: str
    figure: Any                      # the matplotlib Figure, for the tests to look into
    curves: list[Curve] = field(default_factory=list)

    def curve(self, series_id: str, panel: str | None = None) -> Curve | None:
        return next((c for c in self.curves if c.series_id == series_id and (panel is None or c.panel == panel)), None)


def new_figure(title: str, panels: int = 1, columns: int | None = None) -> tuple[Any, list[Any]]:
    columns = columns or panels
    rows = -(-panels // columns)
    # Room on the right for the legend, which stands beside the panels.
    figure = Figure(figsize=(6.4 * columns + 3.2, 4.6 * rows), layout="constrained")
    axes = figure.subplots(rows, columns, squeeze=False).flatten().tolist()
    for unused in axes[panels:]:
        unused.remove()
    figure.suptitle(title)
    return figure, axes[:panels]


class Styler:
    """Gives each series of a figure its look: the colour of its algorithm, and a line style and
    marker of its own among the series of the same algorithm."""

    def __init__(self):
        self._seen: dict[str, list[str]] = {}

    def style(self, series: Series, variant: str, wrong: bool) -> dict[str, Any]:
        variants = self._seen.setdefault(series.algorithm, [])
        if variant not in variants:
            variants.append(variant)
        line, marker = _STYLES[variants.index(variant) % len(_STYLES)]
        colour = palette.colour(series.algorithm)
        if series.algorithm in palette.REFERENCE_LINES:
            line, marker = "--", None
        look = dict(color=colour, linestyle=line, marker=marker, markersize=4, linewidth=1.6)
        if wrong:
            # Crossed, hollow and faint: visibly not a valid result.
            look.update(linestyle=":", marker="X", markersize=7, markerfacecolor="none", markeredgecolor=colour,
                        alpha=0.7, linewidth=1.0)
        return look


def plot(axes: Any, styler: Styler, series: Series, xs: Sequence[float], ys: Sequence[float], *,
         curve_id: str | None = None, label: str | None = None, wrong: bool | None = None) -> Curve | None:
    """Draw one series on `axes`; nothing (and None) when it has no value to draw. A curve that
    is not one series' values against n (a block-size sweep at one n) names itself with
    `curve_id` and `label`, and says whether any of what it shows was `wrong`."""
    if not xs:
        return None
    curve_id = curve_id or series.id
    wrong = series.wrong if wrong is None else wrong
    label = (label or series.label) + (WRONG if wrong else "")
    axes.plot(xs, ys, label=label, **styler.style(series, curve_id, wrong))
    return Curve(series_id=curve_id, label=label, algorithm=series.algorithm, panel=axes.get_title(),
                 xs=tuple(xs), ys=tuple(ys), wrong=wrong)


def plot_against_n(axes: Any, styler: Styler, series: Sequence[Series],
                   value: Callable[[Series, Point], float | None]) -> list[Curve]:
    """Draw each series' `value` at each of its points against n, leaving out the points that
    have none; returns the curves drawn (none for a series without any value)."""
    curves = []
    for s in series:
        values = [(p.n, value(s, p)) for p in s.points]
        values = [(n, v) for n, v in values if v is not None]
        curve = plot(axes, styler, s, [n for n, _ in values], [v for _, v in values])
        if curve:
            curves.append(curve)
    return curves


def n_axis(axes: Any, curves: Sequence[Curve], label: str = "n (elements)", exponents: bool = True):
    """The element count (or another power of two, such as the block size) on a log2 scale
    where the values span a decade or more, labelled 2¹⁰ (or 1024 without `exponents`)."""
    axes.set_xlabel(label)
    xs = [x for c in curves for x in c.xs]
    if xs and max(xs) / min(xs) >= _DECADE:
        axes.set_xscale("log", base=2)
        axes.xaxis.set_major_locator(LogLocator(base=2, numticks=12))
        axes.xaxis.set_major_formatter(FuncFormatter(_power_label(2) if exponents else _whole))
        axes.xaxis.set_minor_locator(NullLocator())


def value_axis(axes: Any, label: str, curves: Sequence[Curve], log_if_spread: bool = True):
    """A log scale where the values span a decade or more, and none is zero (a count can be)."""
    axes.set_ylabel(label)
    ys = [y for c in curves for y in c.ys]
    if log_if_spread and ys and min(ys) > 0 and max(ys) / min(ys) >= _DECADE:
        axes.set_yscale("log")
        axes.yaxis.set_major_formatter(FuncFormatter(_power_label(10)))
        axes.yaxis.set_minor_formatter(NullFormatter())


def finish(figure: Any, axes_list: Sequence[Any], path: Path) -> Path:
    """Grids, one legend for the whole figure beside its top right panel (outside the data, so
    that it hides no curve), and the PNG."""
    entries: dict[str, Any] = {}
    for axes in axes_list:
        axes.grid(True, which="major", alpha=0.3)
        for handle, label in zip(*axes.get_legend_handles_labels()):
            entries.setdefault(label, handle)
    if entries:
        top_right = max(axes_list, key=lambda a: (round(a.get_position().y1, 3), a.get_position().x1))
        top_right.legend(entries.values(), entries.keys(), fontsize="small", loc="upper left",
                         bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=_DPI)
    return path


def _whole(x: float, _position) -> str:
    return f"{x:.0f}"


_SUPERSCRIPT = str.maketrans("-0123456789", "\u207b\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")


def _power_label(base: int):
    """Tick labels such as 2¹⁰ and 10⁻³, in plain text: matplotlib's math text would give the
    same look at many times the cost of drawing."""
    def label(x: float, _position) -> str:
        if x <= 0:
            return ""
        exponent = round(math.log(x, base))
        if abs(base ** exponent - x) > 1e-9 * x:
            return ""
        return f"{base}{str(exponent).translate(_SUPERSCRIPT)}"
    return label
