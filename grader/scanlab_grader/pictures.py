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

import base64
import html
import re
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import findings as findings_of

RACE_REQUEST_ENV = "SCANLAB_SIM_RACE_PICTURE"
STEP_REQUEST_ENV = "SCANLAB_SIM_STEP_PICTURE"
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


def record(lab_result, run_again: Callable[[str, str, str, int], list[dict]], repo: Path | None) -> None:
    """Each race of a failed check that has no picture yet gets one: its test runs again with the
    request (run_again(test, variable, request, number) -> that run's finding records, the
    request set in the environment variable named)."""
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
        picture = next((f.picture for f in findings_of.from_records(run_again(finding.test, RACE_REQUEST_ENV, request, asked), repo)
                        if f.kind == "race" and f.picture), None)
        if picture is None:
            continue
        # The picture is of this report of the race (its threads); the same lines reported by other
        # tests, with other threads, keep their words alone.
        for c in checks:
            for f in c.findings:
                if f.key == finding.key and f.places == finding.places:
                    f.picture = picture
    record_steps(lab_result, run_again, repo, asked)


# --- A wrong result drawn as the slides draw a scan: the block's shared array after each step. ---

# The block whose steps are asked for. Which block wrote the first wrong output element is in the
# failed check's words only, and a wrong step of a block scan usually spoils every section alike:
# the first block is asked for, and its runs are compared with the algorithm as data.
STEP_BLOCK = "0,0,0"
STEP_CELLS_DRAWN = 32  # a window of cells around the first wrong one
STEP_RERUNS_PER_CHECK = 2  # each costs one run of its test
# The cases whose elements and operator the page can compute exactly: test names carry the case
# (ScanCaseNames in grader/labs/common/scan_cases.hpp).
# Each: the element's struct format, the operator, its identity.
STEP_CASES = {"Int32Plus": ("<i", lambda a, b: (a + b + 2**31) % 2**32 - 2**31, 0),
              "Int32Max": ("<i", max, -2**31)}


def _inclusive_brent_kung(x: list, op, identity=None, distribute: bool = True) -> list[tuple[str, list]]:
    """Lab 04's inclusive scan, step by step as its barriers end: the reduction tree, then the
    distribution tree (solutions/04-brent-kung/brent_kung.cu, block_scan_brent_kung); each step
    named and with the array after it, the first being the array as loaded."""
    n = len(x)
    a = list(x)
    out = [("loaded", list(a))]
    stride = 1
    while stride < n:
        for tid in range(n // 2):
            i = (tid + 1) * 2 * stride - 1
            if i < n:
                a[i] = op(a[i - stride], a[i])
        out.append((f"reduction, stride {stride}" if distribute else f"up-sweep, stride {stride}", list(a)))
        stride *= 2
    if not distribute:
        return out
    stride = n // 4
    while stride > 0:
        for tid in range(n // 2):
            i = (tid + 1) * 2 * stride - 1
            if i + stride < n:
                a[i + stride] = op(a[i], a[i + stride])
        out.append((f"distribution, stride {stride}", list(a)))
        stride //= 2
    return out


def _exclusive_brent_kung(x: list, op, identity) -> list[tuple[str, list]]:
    """Lab 04's exclusive scan, step by step: the up-sweep (the reduction tree), then the identity
    at the root and the down-sweep, whose first step shares the root's interval
    (block_exclusive_scan_brent_kung)."""
    n = len(x)
    out = _inclusive_brent_kung(x, op, identity, distribute=False)
    a = list(out[-1][1])
    stride = n // 2
    a[n - 1] = identity
    while stride > 0:
        for tid in range(n // 2):
            i = (tid + 1) * 2 * stride - 1
            if i < n:
                left, prefix = a[i - stride], a[i]
                a[i - stride], a[i] = prefix, op(prefix, left)
        out.append((f"down-sweep, stride {stride}" if stride < n // 2 else f"root, down-sweep, stride {stride}",
                    list(a)))
        stride //= 2
    return out


def _brent_kung_padding(cells: int) -> list[int] | None:
    """Where each element of the exclusive scan's section is in its padded array (padded_index of
    lab 04: one word after every 32 elements and one more after every 1024), for the section size
    whose padded array has `cells` cells; None where none has (the student's padding differs)."""
    def padded(i: int) -> int:
        return i + (i >> 5) + (i >> 10)
    size = 2
    while padded(size - 1) + 1 < cells:
        size *= 2
    return [padded(i) for i in range(size)] if padded(size - 1) + 1 == cells else None


# Per lab folder and test: the lab's algorithm, step by step, from the array its first barrier saw,
# and where each element lives in the shared array (None: at its own index).
STEP_ALGORITHMS = {("04-brent-kung", "Inclusive"): (_inclusive_brent_kung, None),
                   ("04-brent-kung", "Exclusive"): (_exclusive_brent_kung, _brent_kung_padding)}


def _algorithm_of(lab_dir: str, test: str):
    """The algorithm, its layout and the case (element format, operator, identity) of a test,
    where the page knows them; else Nones."""
    suite, _, name = test.rpartition(".")
    case = suite.rpartition("/")[2]
    algorithm, layout_of = STEP_ALGORITHMS.get((lab_dir, name), (None, None))
    return (algorithm, layout_of, STEP_CASES[case]) if algorithm and case in STEP_CASES else (None, None, None)


def _cells(hex_bytes: str, fmt: str) -> list:
    raw = bytes.fromhex(hex_bytes)
    size = struct.calcsize(fmt)
    return [struct.unpack_from(fmt, raw, k)[0] for k in range(0, len(raw) - size + 1, size)]


def wrong_steps(picture: dict, algorithm, layout_of, case) -> dict | None:
    """One run's steps beside the algorithm's, or None where the run's output part ended right.
    The cells past n hold the identity from the load on (the lab's convention), so the output
    part is up to the last loaded cell that is not the identity. The cell marked is the first
    wrong output element, at the first step where it differs from the algorithm's."""
    fmt, op, identity = case
    steps = picture.get("steps") or []
    if not steps:
        return None
    yours = [_cells(str(s.get("bytes", "")), fmt) for s in steps]
    if layout_of is not None:
        where = layout_of(len(yours[0]))
        if where is None:
            return None
        yours = [[row[i] for i in where] for row in yours]
    expected = algorithm(yours[0], op, identity)
    final_yours, final_expected = yours[-1], expected[-1][1]
    outputs = 1 + max((i for i, v in enumerate(yours[0]) if v != identity), default=0)
    cell = next((c for c in range(min(outputs, len(final_yours), len(final_expected)))
                 if final_yours[c] != final_expected[c]), None)
    if cell is None:
        return None
    # Both sides have as many steps as the shorter; where the cell agrees in all of those, what
    # went wrong is a step only the longer side has: the first of them is marked.
    shared = min(len(yours), len(expected))
    step = next((k for k in range(shared) if yours[k][cell] != expected[k][1][cell]), shared)
    return {"steps": steps, "yours": yours, "expected": expected, "step": step, "cell": cell, "outputs": outputs}


def _first_wrong_run(records: list[dict], algorithm, layout_of, case, repo: Path | None) -> dict | None:
    """The first run among a rerun's step pictures whose output part ended wrong, laid out."""
    for r in records:
        p = r.get("picture") if isinstance(r, dict) else None
        # A run cut short by the simulator's budget of copies lacks its last steps: not judged.
        if not isinstance(p, dict) or p.get("kind") != "steps" or p.get("truncated"):
            continue
        wrong = wrong_steps(p, algorithm, layout_of, case)
        if wrong is None:
            continue
        return {"run": int(p.get("run", 0)), "memory": p.get("memory", {}), "drawing": step_layout(wrong, p)}
    return None


def record_steps(lab_result, run_again: Callable[[str, str, str, int], list[dict]], repo: Path | None,
                 number: int = 0) -> None:
    """A correctness check that failed with a wrong result gets the picture of a wrong run's steps:
    one of its failed tests whose case the page can compute runs again with SCANLAB_SIM_STEP_PICTURE
    naming the first block, which records that block's shared array at each barrier of each run."""
    pictures = []
    for c in lab_result.checks:
        if c.status != "fail" or c.check.category != "correctness" or c.kind != "assertion":
            continue
        # The cases whose result the page can compute, a few at most: the first whose rerun
        # shows a wrong run is drawn (another case may be the one that failed).
        tests = [t for t in c.tests if _algorithm_of(lab_result.lab.dir, t)[0]][:STEP_RERUNS_PER_CHECK]
        for test in tests:
            algorithm, layout_of, case = _algorithm_of(lab_result.lab.dir, test)
            number += 1
            records = run_again(test, STEP_REQUEST_ENV, f"block:{STEP_BLOCK}", number)
            drawn = _first_wrong_run(records, algorithm, layout_of, case, repo)
            if drawn is not None:
                pictures.append({"check": c.check.id, "test": test, **drawn})
                break
    lab_result.step_pictures = pictures


# The step picture's geometry, in SVG user units (11px monospace: about 6.7 units a character).
STEP_ROW = 18
STEP_HEAD_LINE = 13
STEP_TOP = 96  # the first row; above it, each step's head: number, name, barrier, "yours expected"
STEP_LEFT = 70
STEP_GAP = 10
STEP_CHAR = 6.7


def step_layout(wrong: dict, picture: dict) -> dict:
    """Cells down, steps across; in each step the student's value and the expected one side by
    side, a cross on every cell that differs, the first wrong cell ringed and labelled. A step
    only one side has (the kernel crossed fewer or more barriers than the algorithm has steps)
    is drawn with that side's values and says that the other has none."""
    yours, expected, steps = wrong["yours"], wrong["expected"], wrong["steps"]
    first_step, first_cell, outputs = wrong["step"], wrong["cell"], wrong["outputs"]
    cells = len(yours[0])
    start = max(0, min(first_cell - STEP_CELLS_DRAWN // 2, cells - STEP_CELLS_DRAWN))
    end = min(cells, start + STEP_CELLS_DRAWN)
    lab_file = next((str(s["barrier"].get("file", "")) for s in steps if isinstance(s.get("barrier"), dict)), "")
    heads = []
    for k in range(max(len(yours), len(expected))):
        name = expected[k][0] if k < len(expected) else "not in the algorithm"
        barrier = steps[k].get("barrier", {}) if k < len(steps) else {}
        line = int(barrier.get("line", 0) or 0)
        file = str(barrier.get("file", ""))
        where = (f"line {line}" if file == lab_file else f"{Path(file).name}:{line}") if line else ""
        head = [f"step {k}" + (" ✗" if k == first_step else "")] + name.split(", ")
        head.append(f"barrier {where}" if where else "(you crossed no barrier)")
        heads.append((name, where, line, head))
    longest_value = max(len(str(v)) for row in yours + [e for _, e in expected] for v in row[start:end])
    longest_head = max(len(part) for *_, head in heads for part in head)
    value_width = round(max(44, (longest_value + 2) * STEP_CHAR + 8, (longest_head * STEP_CHAR + 10) / 2))
    columns = []
    x = STEP_LEFT
    for k, (name, where, line, head) in enumerate(heads):
        mine = yours[k] if k < len(yours) else None
        theirs = expected[k][1] if k < len(expected) else None
        column = {"x": x, "width": 2 * value_width, "value_width": value_width, "step": k, "name": name,
                  "barrier": where, "line": line, "first": k == first_step, "head": head,
                  "head_y": [16 + i * STEP_HEAD_LINE for i in range(len(head))], "values": []}
        for r, c in enumerate(range(start, end)):
            got = mine[c] if mine is not None and c < len(mine) else None
            want = theirs[c] if theirs is not None and c < len(theirs) else None
            # Cells past the input's end hold identities and are never stored: drawn grey and
            # never crossed, so that the crosses are the output's.
            past = c >= outputs
            column["values"].append({"y": STEP_TOP + r * STEP_ROW, "cell": c, "yours": "" if got is None else str(got),
                                     "expected": "" if want is None else str(want), "past": past,
                                     "differs": not past and got is not None and want is not None and got != want})
        columns.append(column)
        x += 2 * value_width + STEP_GAP
    grid_right = x - STEP_GAP
    first = columns[first_step]
    row = first_cell - start
    got = yours[first_step][first_cell] if first_step < len(yours) else None
    want = expected[first_step][1][first_cell] if first_step < len(expected) else None
    label = (f"first wrong: cell {first_cell}, after step {first_step} ({first['name']}"
             + (f"; barrier at {first['barrier']}" if first["barrier"] else "") + f"): expected {want}, yours {got}")
    mark_x = first["x"] + value_width / 2
    label_width = round(len(label) * STEP_CHAR + 30)
    label_x = max(6.0, min(mark_x - 30, grid_right - label_width))
    memory = picture.get("memory", {})
    label_y = STEP_TOP + (end - start) * STEP_ROW + 22
    return {"width": max(grid_right, label_x + label_width, 760) + 10, "height": label_y + 60,
            "grid_right": grid_right, "columns": columns, "start": start, "end": end - 1,
            "first": {"x": mark_x, "y": STEP_TOP + row * STEP_ROW + STEP_ROW / 2, "cell": first_cell,
                      "step": first_step, "label": label, "label_x": label_x},
            "cells": cells, "variable": str(memory.get("variable", "")),
            "block": ",".join(str(v) for v in memory.get("block", [])), "row_height": STEP_ROW,
            "rows": [{"y": STEP_TOP + r * STEP_ROW, "cell": c, "first": c == first_cell, "past": c >= outputs}
                     for r, c in enumerate(range(start, end))],
            "any_past": end > outputs, "label_y": label_y, "heads_bottom": STEP_TOP - 6}


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
        labs.append({"result": lab, "findings": findings, "steps": lab.step_pictures})
    return _jinja().get_template("pictures.html.j2").render(report=report, labs=labs, escape=html.escape)


def images(lab) -> dict[str, list[dict]]:
    """A lab's pictures as images a platform can show beside a check (PrairieLearn's results
    carry them): check id -> [{"label", "url"}], each an SVG data URL, the same drawing as the
    page's. Empty where nothing was drawn (no --pictures, or nothing failed)."""
    if not lab.step_pictures and not any(f.picture for f, _ in lab.findings()):
        return {}
    try:
        drawings = _jinja().get_template("drawings.j2").module
    except PicturesUnavailable:
        return {}  # the results go out without them; writing the page says why (cli.py)
    shown: dict[str, list[dict]] = {}

    def add(check: str, label: str, svg: str) -> None:
        url = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
        shown.setdefault(check, []).append({"label": label, "url": url})

    for sp in lab.step_pictures:
        add(sp["check"], f"{sp['test']}: the block's array after each step, beside the expected one",
            str(drawings.steps_svg(sp["drawing"])))
    for f, checks in lab.findings():
        if f.picture:
            svg = str(drawings.race_svg(layout(f.picture, callers_of(f, lab.lab.dir))))
            for c in checks:
                if c.status == "fail":
                    add(c.check.id, f"{f.kind}: {f.headline}", svg)
    return shown


def write_page(report, folder: Path, name: str | None = None) -> Path:
    """The page, as folder/NAME.html: `name` (a batch's student), else the submission folder's."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / page_name(name or report.submission)
    path.write_text(render_page(report))
    return path
