"""Load and validate a results file of reports/bench (format: reports/results-format.md).

Everything the reports read is checked here, once, so that the figure and Markdown code can
trust the records it gets. A file that breaks the format raises ResultsError with the place
of the problem (`series[3] '02-kogge-stone/in_place': points[2]: 'n' ...`), never a traceback
from deep inside the plotting. Fields the format does not name are ignored, so that an older
reports/plot still reads a newer file.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORMAT = "scanlab-bench/1"
BACKENDS = ("cuda", "sim")
ROLES = ("lab", "baseline", "ceiling")
WHERE = ("gpu", "cpu")
ELEMENT_TYPES = ("int32", "float32")
SCOPES = ("whole-array", "sections")
SWEEPS = ("block_size",)
COUNTERS = ("bank_conflicts", "shared_requests", "shared_wavefronts", "shared_ideal_wavefronts", "global_requests",
            "global_sectors", "global_ideal_sectors", "warp_intervals", "divergent_warp_intervals")
# A lab names its report file, so it must be a plain folder name such as 06-hierarchical.
LAB_NAME = re.compile(r"\d\d-[a-z0-9][a-z0-9-]*")


class ResultsError(ValueError):
    """The results file cannot be read as the format describes; the message says where."""


@dataclass(frozen=True)
class Timing:
    median_ms: float
    min_ms: float
    max_ms: float
    noise: float      # relative spread of the samples (method.noise names the statistic)
    samples: int


@dataclass(frozen=True)
class Point:
    n: int
    bytes: int                       # read plus written
    correct: bool
    timing: Timing | None            # None on the sim backend
    gb_per_s: float | None           # None on the sim backend
    operator_applications: int | None
    counters: dict[str, float] | None


@dataclass(frozen=True)
class Series:
    id: str
    lab: str | None                  # None for a baseline
    label: str
    algorithm: str
    role: str
    where: str
    element_type: str
    operator: str
    scope: str
    block_size: int | None
    section_size: int | None
    sweep: str | None                # "block_size": one configuration of a block-size sweep
    correct: bool
    points: tuple[Point, ...]        # in increasing n

    @property
    def wrong(self) -> bool:
        """True when the series or any of its points did not match the CPU reference."""
        return not self.correct or any(not p.correct for p in self.points)


@dataclass(frozen=True)
class Failure:
    """What the run could not measure: a program that did not build or run, or one point."""
    program: str
    message: str
    series: str | None
    n: int | None


@dataclass(frozen=True)
class Results:
    source: str
    backend: str
    submission: str
    created: str
    machine: dict[str, Any]
    method: dict[str, Any]
    series: tuple[Series, ...]
    errors: tuple[Failure, ...] = ()

    @property
    def timed(self) -> bool:
        """Whether the file holds timings: a GPU run does, a simulator run does not."""
        return self.backend != "sim"


def load(path: str | Path) -> Results:
    """Read and validate the results file at `path`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ResultsError(f"{path}: cannot read it ({error.strerror or error})") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ResultsError(f"{path}: not JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    return parse(document, source=str(path))


def parse(document: Any, source: str = "results") -> Results:
    """Validate an already decoded results document."""
    top = _Object(document, source)
    fmt = top.get("format", str)
    if fmt != FORMAT:
        top.fail(f"'format' is '{fmt}', but this reports/plot reads '{FORMAT}'")
    backend = top.choice("backend", BACKENDS)
    series_list = top.get("series", list)
    if not series_list:
        top.fail("'series' is empty: the run measured nothing")
    series = tuple(_series(_Object(s, f"{source}: series[{i}]"), backend) for i, s in enumerate(series_list))
    seen: dict[str, int] = {}
    for i, s in enumerate(series):
        if s.id in seen:
            top.fail(f"series[{i}] repeats the id '{s.id}' of series[{seen[s.id]}]")
        seen[s.id] = i
    errors = top.get("errors", list, optional=True) if "errors" in top.value else None
    return Results(source=source, backend=backend, submission=top.get("submission", str),
                   created=top.get("created", str), machine=top.get("machine", dict),
                   method=top.get("method", dict), series=series,
                   errors=tuple(_failure(_Object(e, f"{source}: errors[{i}]")) for i, e in enumerate(errors or ())))


def _failure(obj: _Object) -> Failure:
    return Failure(program=obj.get("program", str), message=obj.get("message", str),
                   series=obj.get("series", str, optional=True) if "series" in obj.value else None,
                   n=obj.count("n", optional=True) if "n" in obj.value else None)


def _series(obj: _Object, backend: str) -> Series:
    identifier = obj.get("id", str)
    obj.where = f"{obj.where} '{identifier}'"
    lab = obj.get("lab", str, optional=True)
    if lab is not None and not LAB_NAME.fullmatch(lab):
        obj.fail(f"'lab' is '{lab}', not a lab folder name such as 06-hierarchical")
    role = obj.choice("role", ROLES)
    # A lab's own series names its lab; a baseline may come from a lab (lab 01's CPU scans).
    if role == "lab" and lab is None:
        obj.fail("'role' is 'lab' but 'lab' is null: a lab's series names its lab")
    sweep = obj.get("sweep", str, optional=True) if "sweep" in obj.value else None
    if sweep is not None and sweep not in SWEEPS:
        obj.fail(f"'sweep' is '{sweep}', not one of {', '.join(SWEEPS)} or null")
    points_list = obj.get("points", list)
    if not points_list:
        obj.fail("'points' is empty")
    points = sorted((_point(_Object(p, f"{obj.where}: points[{i}]"), backend) for i, p in enumerate(points_list)),
                    key=lambda p: p.n)
    for before, after in zip(points, points[1:]):
        if before.n == after.n:
            obj.fail(f"two points have n = {after.n}")
    return Series(id=identifier, lab=lab, label=obj.get("label", str), algorithm=obj.get("algorithm", str),
                  role=role, where=obj.choice("where", WHERE), element_type=obj.choice("element_type", ELEMENT_TYPES),
                  operator=obj.get("operator", str), scope=obj.choice("scope", SCOPES),
                  block_size=obj.count("block_size", optional=True),
                  section_size=obj.count("section_size", optional=True), sweep=sweep,
                  correct=obj.get("correct", bool), points=tuple(points))


def _point(obj: _Object, backend: str) -> Point:
    n = obj.count("n")
    obj.where = f"{obj.where} (n = {n})"
    timing = gb_per_s = None
    if backend == "sim":
        for name in ("time_ms", "gb_per_s"):
            if name in obj.value:
                obj.fail(f"has '{name}', but a sim results file has no timings (nothing ran on a GPU)")
    else:
        t = _Object(obj.get("time_ms", dict), f"{obj.where}: time_ms")
        timing = Timing(median_ms=t.number("median", positive=True), min_ms=t.number("min"),
                        max_ms=t.number("max", positive=True), noise=t.number("noise"), samples=t.count("samples"))
        if not timing.min_ms <= timing.median_ms <= timing.max_ms:
            t.fail(f"min {timing.min_ms}, median {timing.median_ms} and max {timing.max_ms} are out of order")
        gb_per_s = obj.number("gb_per_s", positive=True)
    counters = obj.get("counters", dict, optional=True)
    if counters is not None:
        c = _Object(counters, f"{obj.where}: counters")
        counters = {name: c.number(name) for name in COUNTERS if name in counters}
    applications = obj.get("operator_applications", int, optional=True)
    if applications is not None and applications < 0:
        obj.fail(f"'operator_applications' is {applications}, a negative count")
    return Point(n=n, bytes=obj.count("bytes"), correct=obj.get("correct", bool), timing=timing,
                 gb_per_s=gb_per_s, operator_applications=applications, counters=counters)


_TYPE_NAMES = {str: "a string", bool: "true or false", int: "an integer", list: "a list", dict: "an object"}


class _Object:
    """A JSON object being read, and where it is in the file, for the error messages."""

    def __init__(self, value: Any, where: str):
        if not isinstance(value, dict):
            raise ResultsError(f"{where}: expected an object, found {_describe(value)}")
        self.value, self.where = value, where

    def fail(self, message: str):
        raise ResultsError(f"{self.where}: {message}")

    def get(self, name: str, kind: type, optional: bool = False):
        if name not in self.value:
            self.fail(f"'{name}' is missing")
        value = self.value[name]
        if value is None and optional:
            return None
        # bool is an int in Python, and neither a count nor a flag should be the other.
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            null = " or null" if optional else ""
            self.fail(f"'{name}' must be {_TYPE_NAMES[kind]}{null}, found {_describe(value)}")
        return value

    def choice(self, name: str, allowed: tuple[str, ...]) -> str:
        value = self.get(name, str)
        if value not in allowed:
            self.fail(f"'{name}' is '{value}', not one of {', '.join(allowed)}")
        return value

    def count(self, name: str, optional: bool = False) -> int | None:
        value = self.get(name, int, optional)
        if value is not None and value <= 0:
            self.fail(f"'{name}' must be a positive integer, found {value}")
        return value

    def number(self, name: str, positive: bool = False) -> float:
        if name not in self.value:
            self.fail(f"'{name}' is missing")
        value = self.value[name]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            self.fail(f"'{name}' must be a number, found {_describe(value)}")
        if value < 0 or (positive and value == 0):
            self.fail(f"'{name}' must be {'positive' if positive else 'zero or more'}, found {value}")
        return float(value)


_JSON_NAMES = {dict: "an object", list: "a list", str: "the string", bool: "the boolean", int: "the integer",
               float: "the number"}


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    text = json.dumps(value)
    return f"{_JSON_NAMES.get(type(value), type(value).__name__)} {text if len(text) <= 40 else text[:37] + '...'}"
