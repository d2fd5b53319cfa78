"""Pictures of what failed: a race drawn as the textbook draws a scan, array cells by barrier
intervals, on one self-contained HTML page per graded submission (`grade --pictures DIR`).

Nothing is recorded while a lab is graded: a correct lab costs what it cost before. Once a
lab's checks are known, each test that failed with a race in shared memory runs once more, alone,
with SCANLAB_SIM_RACE_PICTURE naming that race's block, variable and byte (the record's "memory");
the simulator's runs are deterministic for a seed, so the run meets the same race and records
the accesses around it (common/sim/runtime/checks/race_picture.hpp), which come back as the
finding's "picture". The page is drawn from a Jinja2 template (grader/templates/), inline SVG,
no script, no font and nothing fetched; marks differ by shape and label, not by colour alone.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import findings as findings_of

REQUEST_ENV = "SCANLAB_SIM_RACE_PICTURE"
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
MAX_PICTURES_PER_LAB = 4  # races drawn per lab; each costs one run of its test
MARKS_PER_SLOT = 3  # accesses drawn in one cell of one column; the rest are counted

# The picture's geometry, in SVG user units.
ROW = 18
COLUMN = 136
EMPTY_COLUMN = 48  # an interval with no access in the window
LEFT = 64
TOP = 84
LABELS = 500  # room on the right for the racing pair's labels


def request_for(finding: findings_of.Finding) -> str | None:
    """The value of SCANLAB_SIM_RACE_PICTURE that asks for this race's picture, from its record."""
    m = finding.memory
    if not m or m.get("space") != "shared" or not isinstance(m.get("block"), list) or len(m["block"]) != 3:
        return None
    try:
        x, y, z = (int(v) for v in m["block"])
        return f"shared:{int(m['byte'])}:{x},{y},{z}:{m['variable']}"
    except (KeyError, TypeError, ValueError):
        return None


def record(lab_result, run_again: Callable[[str, str, int], list[dict]], repo: Path | None) -> None:
    """Each race of a failed check that has no picture yet gets one: its test runs again with the
    request (run_again(test, request, number) -> that run's finding records)."""
    asked = 0
    for finding, checks in lab_result.findings():
        if asked >= MAX_PICTURES_PER_LAB:
            break
        if finding.kind != "race" or not finding.error or finding.picture or not finding.test:
            continue
        if not any(c.status == "fail" for c in checks):
            continue
        request = request_for(finding)
        if request is None:
            continue
        asked += 1
        picture = next((f.picture for f in findings_of.from_records(run_again(finding.test, request, asked), repo)
                        if f.kind == "race" and f.picture), None)
        if picture is None:
            continue
        # The picture is of this report of the race (its threads); the same lines reported by other
        # tests, with other threads, keep their words alone.
        for c in checks:
            for f in c.findings:
                if f.key == finding.key and f.places == finding.places:
                    f.picture = picture


@dataclass
class Mark:
    """One access drawn: a shape (circle: read, square: write, diamond: atomic) and a thread label."""
    x: float
    y: float
    role: str
    thread: int
    cell: int
    line: int
    file: str
    interval: int


@dataclass
class Drawing:
    """A race's picture laid out: what the template draws, every coordinate computed here."""
    width: float
    height: float
    grid_right: float = 0.0  # where the columns end and the racing pair's labels begin
    rows: list[dict] = field(default_factory=list)  # y, cell, racing
    columns: list[dict] = field(default_factory=list)  # x, width, interval, line, file, head
    intervals: list[dict] = field(default_factory=list)  # x, width, number, race
    barriers: list[dict] = field(default_factory=list)  # x, label: a barrier between two intervals
    marks: list[Mark] = field(default_factory=list)
    more: list[dict] = field(default_factory=list)  # x, y, count: accesses beyond MARKS_PER_SLOT
    racing: list[dict] = field(default_factory=list)  # the pair: mark, label, label_y, order
    missing: dict = field(default_factory=dict)  # x, y1, y2, interval, after_line, before_line
    variable: str = ""
    first_cell: int = 0
    last_cell: int = 0
    variable_cells: int = 0
    element_bytes: int = 0
    truncated: bool = False


def _line_key(access: dict) -> tuple:
    return (str(access.get("file", "")), int(access.get("line", 0)))


def _line_name(file: str, line: int, lab_file: str, callers: dict) -> str:
    """A line as the picture names it: 'line 56' in the student's file; a kit file's line with the
    student's line that called it, where the finding knows it ('operators.hpp:21, called from
    line 54')."""
    if not line:
        return "(no access)"
    if not file or file == lab_file:
        return f"line {line}"
    called = callers.get((file, line))
    return f"{Path(file).name}\nline {line}" + (f", called from line {called}" if called else "")


def _racing_place(file: str, line: int, lab_file: str, callers: dict) -> str:
    """'line 56', or 'line 21 of operators.hpp, called from line 54' for a line of kit code."""
    if not file or file == lab_file:
        return f"line {line}"
    called = callers.get((file, line))
    return f"line {line} of {Path(file).name}" + (f", called from line {called}" if called else "")


def layout(picture: dict, callers: dict | None = None) -> Drawing:
    """Cells down, barrier intervals across; within an interval, one column per source line in
    the order the lines first ran, the earlier racing line before the later one. `callers`:
    (kit file, line) -> the student's line that called it (the finding's called_from)."""
    callers = callers or {}
    first = int(picture.get("first_cell", 0))
    cells = int(picture.get("cells", 0))
    earlier, later = picture["racing"]
    numbers = [int(v["number"]) for v in picture.get("intervals", [])] or [int(later["interval"])]
    race_interval = int(later["interval"])
    lines: dict[int, list[tuple]] = {n: [] for n in numbers}
    for a in picture.get("accesses", []) + [earlier, later]:
        n = int(a.get("interval", 0))
        if n in lines and _line_key(a) not in lines[n]:
            lines[n].append(_line_key(a))
    race_lines = lines[race_interval]
    e, l = _line_key(earlier), _line_key(later)
    if e != l and race_lines.index(e) > race_lines.index(l):
        race_lines.remove(e)
        race_lines.insert(race_lines.index(l), e)
    lab_file = next((str(a.get("file", "")) for a in (later, earlier) if not str(a.get("file", "")).startswith("common/")),
                    str(later.get("file", "")))
    d = Drawing(width=0, height=0, variable=str(picture.get("memory", {}).get("variable", "")), first_cell=first,
                last_cell=first + cells - 1, variable_cells=int(picture.get("variable_cells", 0)),
                element_bytes=int(picture.get("element_bytes", 0)), truncated=bool(picture.get("truncated")))
    column_of: dict[tuple, dict] = {}
    x = LEFT
    barrier_of = {int(v["number"]): v.get("barrier") for v in picture.get("intervals", [])}
    for i, n in enumerate(numbers):
        if i > 0:
            b = barrier_of.get(n)
            d.barriers.append({"x": x, "label": "barrier at " + _racing_place(str(b.get("file", "")), int(b.get("line", 0)),
                                                                      lab_file, callers) if b else "barrier"})
        start = x
        for key in lines[n] or [("", 0)]:
            width = COLUMN if key[1] else EMPTY_COLUMN
            column = {"x": x, "width": width, "interval": n, "file": key[0], "line": key[1],
                      "head": _line_name(key[0], key[1], lab_file, callers).split("\n") if key[1] else []}
            d.columns.append(column)
            column_of[(n, key)] = column
            x += width
        d.intervals.append({"x": start, "width": x - start, "number": n, "race": n == race_interval,
                            "title": (f"interval {n}" + (" (the race)" if n == race_interval else ""))
                            if lines[n] else f"{n}"})
    grid_right = x
    race_cell = int(later["cell"])
    for r in range(cells):
        d.rows.append({"y": TOP + r * ROW, "cell": first + r, "racing": first + r == race_cell})
    slots: dict[tuple, list[dict]] = {}
    pair = [(earlier, "earlier"), (later, "later")]
    pair_keys = {(int(a["cell"]), int(a["interval"]), int(a["thread"]), _line_key(a), a.get("role")) for a, _ in pair}
    for a in picture.get("accesses", []):
        key = (int(a["cell"]), int(a["interval"]), int(a["thread"]), _line_key(a), a.get("role"))
        if key in pair_keys:
            continue
        slots.setdefault((int(a["cell"]), int(a["interval"]), _line_key(a)), []).append(a)
    def place(cell: int, interval: int, line: tuple, index: int) -> tuple[float, float]:
        column = column_of[(interval, line)]
        return column["x"] + 16 + index * 34, TOP + (cell - first) * ROW + ROW / 2
    taken: dict[tuple, int] = {}
    for a, order in pair:
        slot = (int(a["cell"]), int(a["interval"]), _line_key(a))
        index = taken.get(slot, 0)
        taken[slot] = index + 1
        mx, my = place(*slot, index)
        mark = Mark(mx, my, str(a.get("role", "")), int(a["thread"]), int(a["cell"]), int(a.get("line", 0)),
                    str(a.get("file", "")), int(a["interval"]))
        d.racing.append({"mark": mark, "order": order, "number": 1 if order == "earlier" else 2,
                         "label": f"{a.get('role', '')} by thread {a['thread']} at "
                                  + _racing_place(str(a.get("file", "")), int(a.get("line", 0)), lab_file, callers),
                         "label_x": grid_right + 24, "label_y": my - 12 + (0 if order == "earlier" else 26)})
    for slot, accesses in slots.items():
        accesses.sort(key=lambda a: int(a["thread"]))
        index = taken.get(slot, 0)
        room = max(0, MARKS_PER_SLOT - index)
        for a in accesses[:room]:
            mx, my = place(*slot, index)
            d.marks.append(Mark(mx, my, str(a.get("role", "")), int(a["thread"]), int(a["cell"]),
                                int(a.get("line", 0)), str(a.get("file", "")), int(a["interval"])))
            index += 1
        if len(accesses) > room:
            mx, my = place(*slot, MARKS_PER_SLOT)
            d.more.append({"x": mx - 8, "y": my, "count": len(accesses) - room})
    ce, cl = column_of[(race_interval, e)], column_of[(race_interval, l)]
    missing_x = (ce["x"] + ce["width"] if ce is not cl else ce["x"] + ce["width"] - 6)
    d.missing = {"x": missing_x, "y1": TOP - 8, "y2": TOP + cells * ROW + 8, "interval": race_interval,
                 "after_line": e[1], "before_line": l[1], "file": e[0],
                 "label": (f"missing barrier: between line {e[1]} and line {l[1]}" if e != l
                           else f"missing barrier: between two runs of line {e[1]}")}
    d.grid_right = grid_right
    d.width = grid_right + LABELS
    d.height = TOP + cells * ROW + 78
    return d


class PicturesUnavailable(Exception):
    """The page cannot be drawn on this machine (no Jinja2)."""


def _jinja():
    try:
        import jinja2  # Debian's python3-jinja2 (common/setup/debian-packages.txt)
    except ImportError:
        raise PicturesUnavailable("--pictures needs Jinja2 for this Python (Debian's python3-jinja2, which "
                                  "common/bin/prerequisites installs; or pip install jinja2)") from None
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                              autoescape=jinja2.select_autoescape(["html", "j2"]),
                              trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)


def page_name(submission: str) -> str:
    """The page's file name for a submission folder: its last part, safe as a file name."""
    name = Path(submission.rstrip("/")).name or "submission"
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name) + ".html"


def callers_of(finding: findings_of.Finding, lab_dir: str) -> dict:
    """(kit file, line) of the finding's places in kit code -> the student's line that called it."""
    lab_lines = [p.line for p in finding.called_from if p.file.startswith(lab_dir + "/")]
    if not lab_lines:
        return {}
    return {(p.file, p.line): lab_lines[0] for p in finding.places if p.file.startswith("common/")}


def render_page(report) -> str:
    """The page of one graded submission: the lab table, each lab's findings, and a race's picture."""
    labs = []
    drawn = 0
    for lab in report.labs:
        findings = []
        for f, checks in lab.findings():
            drawn += bool(f.picture)
            findings.append({"finding": f, "lines": f.lines(), "checks": [c.check.id for c in checks],
                             "drawing": layout(f.picture, callers_of(f, lab.lab.dir)) if f.picture else None,
                             "number": drawn})
        labs.append({"result": lab, "findings": findings})
    return _jinja().get_template("pictures.html.j2").render(report=report, labs=labs, escape=html.escape)


def write_page(report, folder: Path, name: str | None = None) -> Path:
    """The page, as folder/NAME.html: `name` (a batch's student), else the submission folder's."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / page_name(name or report.submission)
    path.write_text(render_page(report))
    return path
