"""Speedup over the sequential CPU scan against n: how many times faster each scan ran than
one CPU thread's loop over the same n elements, in the same run."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..comparisons import SEQUENTIAL, Baselines
from ..results import Series
from . import canvas

KIND = "speedup"


def draw(series: Sequence[Series], baselines: Baselines, path: Path, title: str) -> canvas.Drawing | None:
    """None when nothing has a speedup to draw (no timings, or no sequential scan in the run)."""
    figure, (axes,) = canvas.new_figure(title)
    drawing = canvas.Drawing(KIND, path, title, figure)
    drawing.curves = canvas.plot_against_n(axes, canvas.Styler(), [s for s in series if s.algorithm != SEQUENTIAL],
                                           lambda s, p: baselines.speedup(SEQUENTIAL, s, p))
    if not drawing.curves:
        return None
    axes.axhline(1.0, color="#7F7F7F", linewidth=1.0, linestyle=":", label="sequential CPU scan (1x)")
    canvas.n_axis(axes, drawing.curves)
    canvas.value_axis(axes, "speedup over the sequential CPU scan (x)", drawing.curves)
    canvas.finish(figure, [axes], path)
    return drawing
