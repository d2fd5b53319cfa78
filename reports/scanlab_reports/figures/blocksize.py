"""Throughput against the block size, at each n of a lab's block-size sweep: which block size
suits each kernel, and how that changes with n. The lab's main series (its largest block)
adds its point at the same n, so each curve runs over every block size measured."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

from ..results import Series
from . import canvas

KIND = "blocksize"


def draw(main: Sequence[Series], sweep: Sequence[Series], path: Path, title: str) -> canvas.Drawing | None:
    """None when the sweep has no timings (a simulator run) or there is no sweep."""
    figure, (axes,) = canvas.new_figure(title)
    drawing = canvas.Drawing(KIND, path, title, figure)
    styler = canvas.Styler()
    groups: dict[tuple, list[Series]] = {}
    for s in sweep:
        groups.setdefault(_kernel(s), []).append(s)
    for key, members in groups.items():
        members += [s for s in main if _kernel(s) == key]
        first = members[0]
        for n in sorted({p.n for s in sweep if _kernel(s) == key for p in s.points}):
            at_n = sorted(((s.block_size, s, p) for s in members if s.block_size for p in s.points
                           if p.n == n and p.gb_per_s is not None), key=lambda found: found[0])
            curve = canvas.plot(axes, styler, first, [b for b, _, _ in at_n], [p.gb_per_s for _, _, p in at_n],
                                curve_id=f"{first.lab} {first.algorithm} {first.element_type} n={n}",
                                label=f"{first.algorithm}, n = 2^{round(math.log2(n))}" if n & (n - 1) == 0
                                else f"{first.algorithm}, n = {n}",
                                wrong=any(s.wrong for _, s, _ in at_n))
            if curve:
                drawing.curves.append(curve)
    if not drawing.curves:
        return None
    canvas.n_axis(axes, drawing.curves, label="threads per block", exponents=False)
    canvas.value_axis(axes, "throughput (GB/s, bytes read + written)", drawing.curves)
    if axes.get_yscale() == "linear":
        axes.set_ylim(bottom=0)
    canvas.finish(figure, [axes], path)
    return drawing


def _kernel(series: Series) -> tuple:
    """What the configurations of one kernel share."""
    return (series.lab, series.algorithm, series.element_type, series.operator)
