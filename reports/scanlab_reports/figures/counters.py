"""The simulator's memory and divergence counters against n, one panel per ratio of
counter_ratios.py: bank conflicts per shared-memory request, shared wavefronts per ideal
wavefront, global sectors per ideal sector, the share of warp intervals in which a warp
diverged; a dotted line marks the value of an ideal kernel."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..counter_ratios import RATIOS
from ..results import Series
from . import canvas

KIND = "counters"


def draw(series: Sequence[Series], path: Path, title: str) -> canvas.Drawing | None:
    """None when no series has counters."""
    if not any(p.counters for s in series for p in s.points):
        return None
    figure, panels = canvas.new_figure(title, panels=len(RATIOS), columns=2)
    drawing = canvas.Drawing(KIND, path, title, figure)
    styler = canvas.Styler()
    for axes, ratio in zip(panels, RATIOS):
        axes.set_title(ratio.title)
        curves = canvas.plot_against_n(axes, styler, series, lambda s, p: ratio.of(p.counters))
        drawing.curves += curves
        canvas.n_axis(axes, curves)
        axes.axhline(ratio.ideal, color="#7F7F7F", linewidth=1.0, linestyle=":", label="an ideal kernel")
        highest = max([y for c in curves for y in c.ys] + [ratio.ideal])
        axes.set_ylim(bottom=0, top=highest * 1.15 if highest > 0 else 1.0)
        axes.set_ylabel(ratio.label)
    canvas.finish(figure, panels, path)
    return drawing
