"""Throughput against n: bytes read plus written per second of median time, in GB/s
(10^9 bytes), beside the device-to-device copy of the same bytes (the most the memory can
give) and CUB's scans (the state of the art: InclusiveSum, and the generic InclusiveScan with the
kit's functor)."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..results import Series
from . import canvas

KIND = "throughput"


def draw(series: Sequence[Series], path: Path, title: str) -> canvas.Drawing | None:
    """None when no series was timed."""
    figure, (axes,) = canvas.new_figure(title)
    drawing = canvas.Drawing(KIND, path, title, figure)
    drawing.curves = canvas.plot_against_n(axes, canvas.Styler(), series, lambda s, p: p.gb_per_s)
    if not drawing.curves:
        return None
    canvas.n_axis(axes, drawing.curves)
    canvas.value_axis(axes, "throughput (GB/s, bytes read + written)", drawing.curves)
    if axes.get_yscale() == "linear":
        axes.set_ylim(bottom=0)
    canvas.finish(figure, [axes], path)
    return drawing
