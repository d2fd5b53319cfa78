"""Work efficiency against n: operator applications per (n - 1), the applications of the
sequential loop. 1 is the least any scan can do; Kogge-Stone's grows with log2 of its section,
Brent-Kung's stays under 2, the hierarchical scan's under 4."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..results import Point, Series
from . import canvas

KIND = "work"


def draw(series: Sequence[Series], path: Path, title: str) -> canvas.Drawing | None:
    """None when no series has counted applications."""
    figure, (axes,) = canvas.new_figure(title)
    drawing = canvas.Drawing(KIND, path, title, figure)
    drawing.curves = canvas.plot_against_n(axes, canvas.Styler(), series, _per_sequential_application)
    if not drawing.curves:
        return None
    axes.axhline(1.0, color="#7F7F7F", linewidth=1.0, linestyle=":", label="sequential scan (n - 1)")
    axes.set_ylim(bottom=0)
    canvas.n_axis(axes, drawing.curves)
    canvas.value_axis(axes, "operator applications / (n - 1)", drawing.curves, log_if_spread=False)
    canvas.finish(figure, [axes], path)
    return drawing


def _per_sequential_application(_series: Series, point: Point) -> float | None:
    if point.operator_applications is None or point.n < 2:
        return None
    return point.operator_applications / (point.n - 1)
