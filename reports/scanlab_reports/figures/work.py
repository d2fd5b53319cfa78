"""Work efficiency against n: operator applications per (n - 1), the applications of the
sequential loop. 1 is the least any scan can do; Kogge-Stone's grows with log2 of its section,
Brent-Kung's stays under 2, the hierarchical scan's under 4."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..results import Series
from . import canvas

KIND = "work"


def draw(series: Sequence[Series], path: Path, title: str) -> canvas.Drawing | None:
    """None when no series has counted applications."""
    figure, (axes,) = canvas.new_figure(title)
    drawing = canvas.Drawing(KIND, path, title, figure)
    styler = canvas.Styler()
    for s in series:
        counted = [p for p in s.points if p.operator_applications is not None and p.n > 1]
        curve = canvas.plot(axes, styler, s, [p.n for p in counted],
                            [p.operator_applications / (p.n - 1) for p in counted])
        if curve:
            drawing.curves.append(curve)
    if not drawing.curves:
        return None
    axes.axhline(1.0, color="#7F7F7F", linewidth=1.0, linestyle=":", label="sequential scan (n - 1)")
    axes.set_ylim(bottom=0)
    canvas.n_axis(axes, drawing.curves)
    canvas.value_axis(axes, "operator applications / (n - 1)", drawing.curves, log_if_spread=False)
    canvas.finish(figure, [axes], path)
    return drawing
