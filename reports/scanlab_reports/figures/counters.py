"""The simulator's memory and divergence counters against n (their definitions and the Nsight
Compute metrics they mirror: common/sim/README.md): shared-memory bank conflicts, shared
wavefronts per ideal wavefront (1: conflict-free), global sectors per ideal sector (1: fully
coalesced) and divergent warp intervals."""

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


def _count(name: str) -> Callable[[dict], float | None]:
    return lambda counters: counters.get(name)


# (panel title, y-axis label, the value from a point's counters, whether it is a ratio to the
# ideal, which is then drawn as a line at 1)
PANELS: tuple[tuple[str, str, Callable[[dict], float | None], bool], ...] = (
    ("shared-memory bank conflicts", "bank conflicts (count)", _count("bank_conflicts"), False),
    ("shared-memory wavefronts per ideal", "wavefronts / ideal wavefronts",
     _ratio("shared_wavefronts", "shared_ideal_wavefronts"), True),
    ("global-memory coalescing", "sectors / ideal sectors", _ratio("global_sectors", "global_ideal_sectors"), True),
    ("divergence", "divergent warp intervals (count)", _count("divergent_warp_intervals"), False),
)


def draw(series: Sequence[Series], path: Path, title: str) -> canvas.Drawing | None:
    """None when no series has counters."""
    if not any(p.counters for s in series for p in s.points):
        return None
    figure, panels = canvas.new_figure(title, panels=len(PANELS), columns=2)
    drawing = canvas.Drawing(KIND, path, title, figure)
    styler = canvas.Styler()
    for axes, (panel, label, value, to_ideal) in zip(panels, PANELS):
        axes.set_title(panel)
        curves = []
        for s in series:
            values = [(p.n, value(p.counters)) for p in s.points if p.counters]
            values = [(n, v) for n, v in values if v is not None]
            curve = canvas.plot(axes, styler, s, [n for n, _ in values], [v for _, v in values])
            if curve:
                curves.append(curve)
        drawing.curves += curves
        canvas.n_axis(axes, curves)
        if to_ideal:
            axes.axhline(1.0, color="#7F7F7F", linewidth=1.0, linestyle=":", label="ideal (1)")
            axes.set_ylim(bottom=0, top=max([y for c in curves for y in c.ys] + [1.0]) * 1.1)
            axes.set_ylabel(label)
        else:
            canvas.value_axis(axes, label, curves)
    canvas.finish(figure, panels, path)
    return drawing
