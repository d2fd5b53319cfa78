"""The chapter's time-unit model (time_units.py) beside the measured times: on the left the
time units each algorithm needs on P execution units, on the right the median time it took.
The model leaves out memory traffic; the gap between the two panels is what it leaves out."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from .. import time_units
from ..results import Series
from . import canvas

KIND = "model"


def draw(series: Sequence[Series], execution_units: int, cpu_threads: int | None, path: Path,
         title: str) -> canvas.Drawing | None:
    """Two panels where the run was timed, the model's alone on a simulator run; None when the
    model covers none of the series."""
    modelled = [(s, [(p, time_units.cost(s, p.n, cpu_threads)) for p in s.points]) for s in series]
    modelled = [(s, [(p, c) for p, c in costs if c is not None]) for s, costs in modelled]
    modelled = [(s, costs) for s, costs in modelled if costs]
    if not modelled:
        return None
    timed = any(p.timing is not None for s, costs in modelled for p, _ in costs)
    figure, panels = canvas.new_figure(title, panels=2 if timed else 1)
    drawing = canvas.Drawing(KIND, path, title, figure)
    model_axes = panels[0]
    model_axes.set_title(f"model: max(W/P, D), P = {execution_units}")
    styler = canvas.Styler()
    model_curves = [canvas.plot(model_axes, styler, s, [p.n for p, _ in costs],
                                [c.time_units(execution_units) for _, c in costs]) for s, costs in modelled]
    drawing.curves += model_curves
    canvas.n_axis(model_axes, model_curves)
    canvas.value_axis(model_axes, "time units", model_curves)
    if timed:
        measured_axes = panels[1]
        measured_axes.set_title("measured: median time")
        measured_curves = []
        for s, costs in modelled:
            points = [p for p, _ in costs if p.timing is not None]
            curve = canvas.plot(measured_axes, styler, s, [p.n for p in points], [p.timing.median_ms for p in points])
            if curve:
                measured_curves.append(curve)
        drawing.curves += measured_curves
        canvas.n_axis(measured_axes, measured_curves)
        canvas.value_axis(measured_axes, "median time (ms)", measured_curves)
    canvas.finish(figure, panels, path)
    return drawing
