"""The simulator's memory and divergence counters against n, each as a ratio that does not
grow with n (the counters' definitions and the Nsight Compute metrics they mirror:
common/sim/README.md): bank conflicts per shared-memory request and shared wavefronts per
ideal wavefront (0 and 1: conflict-free), global sectors per ideal sector (1: fully
coalesced), and the share of warp intervals in which a warp diverged (0: no divergence)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

from ..results import Series
from . import canvas

KIND = "counters"


def _ratio(numerator: str, denominator: str) -> Callable[[dict], float | None]:
    def value(counters: dict) -> float | None:
        if numerator in counters and counters.get(denominator):
            return counters[numerator] / counters[denominator]
        return None
    return value


# (panel title, y-axis label, the value from a point's counters, the value of an ideal kernel)
PANELS: tuple[tuple[str, str, Callable[[dict], float | None], float], ...] = (
    ("shared-memory bank conflicts", "bank conflicts / shared requests", _ratio("bank_conflicts", "shared_requests"),
     0.0),
    ("shared-memory wavefronts", "wavefronts / ideal wavefronts", _ratio("shared_wavefronts", "shared_ideal_wavefronts"),
     1.0),
    ("global-memory coalescing", "sectors / ideal sectors", _ratio("global_sectors", "global_ideal_sectors"), 1.0),
    ("divergence", "divergent / all warp intervals", _ratio("divergent_warp_intervals", "warp_intervals"), 0.0),
)


def draw(series: Sequence[Series], path: Path, title: str) -> canvas.Drawing | None:
    """None when no series has counters."""
    if not any(p.counters for s in series for p in s.points):
        return None
    figure, panels = canvas.new_figure(title, panels=len(PANELS), columns=2)
    drawing = canvas.Drawing(KIND, path, title, figure)
    styler = canvas.Styler()
    for axes, (panel, label, value, ideal) in zip(panels, PANELS):
        axes.set_title(panel)
        curves = canvas.plot_against_n(axes, styler, series,
                                       lambda s, p: value(p.counters) if p.counters else None)
        drawing.curves += curves
        canvas.n_axis(axes, curves)
        axes.axhline(ideal, color="#7F7F7F", linewidth=1.0, linestyle=":", label="an ideal kernel")
        axes.set_ylim(bottom=0, top=max([y for c in curves for y in c.ys] + [ideal, 1.0]) * 1.1)
        axes.set_ylabel(label)
    canvas.finish(figure, panels, path)
    return drawing
