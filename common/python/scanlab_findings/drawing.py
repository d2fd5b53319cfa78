"""The simulator's findings drawn: a race as the textbook draws a scan (array cells by barrier
intervals), a deadlock as its blocks and what each waits for, an access past a buffer's end as the
buffer's edge, a hand-off between blocks as two lanes on a time line, and a block's shared array
step by step beside the expected one. Each function here turns a finding's record (records.py)
into the numbers of a drawing; templates/drawings.j2 draws them as inline SVG, with no script,
no font and nothing fetched, and marks that differ by shape and label, not by colour alone.

Used by the grader's page of a graded submission (grader/scanlab_grader/pictures.py) and by the
page of a program's run (run_page.py, SCANLAB_SIM_PAGE).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from . import records

TEMPLATES = Path(__file__).resolve().parent / "templates"

RACE_REQUEST_ENV = "SCANLAB_SIM_RACE_PICTURE"
MARKS_PER_SLOT = 3  # accesses drawn in one cell of one column; the rest are counted

# The picture's geometry, in SVG user units.
ROW = 18
COLUMN = 136
EMPTY_COLUMN = 48  # an interval with no access in the window
LEFT = 64
TOP = 84
LABELS = 500  # room on the right for the racing pair's labels


def request_for(finding: records.Finding) -> str | None:
    """The value of SCANLAB_SIM_RACE_PICTURE that asks for this race's picture, from its record."""
    m = finding.memory
    if not m or m.get("space") != "shared" or not isinstance(m.get("block"), list) or len(m["block"]) != 3:
        return None
    try:
        x, y, z = (int(v) for v in m["block"])
        return f"shared:{int(m['byte'])}:{x},{y},{z}:{m['variable']}"
    except (KeyError, TypeError, ValueError):
        return None


# --- A deadlock drawn as its blocks: each block's state, and an arrow to the block it waits for. ---

WAIT_ROW_BLOCKS = 7  # boxes per row
WAIT_BOX_W = 180
WAIT_BOX_H = 62
WAIT_GAP_X = 26
WAIT_GAP_Y = 84  # room for the arcs over a row and an arrow from the row below
WAIT_LEFT = 10
WAIT_TOP = 76


# --- A hand-off between blocks drawn on a time line: the writer's and the reader's steps. ---

# The side a hand-off's record names as missing its ordering (its "handoff"), as the picture's
# lanes name it.
HANDOFF_SIDE = {"release": "writer", "acquire": "reader", "both": "both"}
# The roles of the flag's two steps among a hand-off's parties (race_report.cpp); the other two
# parties are the data's store and read.
FLAG_STORE, FLAG_READ = "flag store", "flag read"
HANDOFF_STEP_W = 190
HANDOFF_STEP_GAP = 26


def _block_and_thread(place: records.Place) -> tuple[str, str] | None:
    m = re.fullmatch(r"block \(([0-9,]+)\) thread \(([0-9,]+)\)", place.thread)
    if not m:
        return None
    def short(v: str) -> str:
        parts = v.split(",")
        return parts[0] if parts[1:] == ["0", "0"] else "(" + v + ")"
    return short(m.group(1)), short(m.group(2))


def handoff_layout(f: records.Finding, lab_dir: str) -> dict | None:
    """A race between two blocks in global memory that a fence would order, as a hand-off: the
    writer's lane (data store, fence, flag store) above the reader's (flag read, fence, data read),
    time to the right; the fence of the side the record names as missing (its "handoff") drawn
    dashed, crossed, ringed and labelled; the flag's arrow from writer to reader, and the data's,
    which may arrive stale. The data's two accesses are the finding's places; the flag's store
    and read are its "flag store" and "flag read" places, where the simulator saw the reader take
    a flag (a step without one is drawn with no line and says so). None for any other finding."""
    side = HANDOFF_SIDE.get(f.handoff_missing)
    data = [p for p in f.places if p.role not in (FLAG_STORE, FLAG_READ)]
    if f.kind != "race" or side is None or len(data) != 2:
        return None
    sides = [_block_and_thread(p) for p in data]
    if None in sides or sides[0][0] == sides[1][0]:
        return None
    write, read = data
    if write.role not in ("write", "atomic") and read.role in ("write", "atomic"):
        write, read = read, write
    writer, reader = _block_and_thread(write), _block_and_thread(read)
    flag_store = next((p for p in f.places if p.role == FLAG_STORE), None)
    flag_read = next((p for p in f.places if p.role == FLAG_READ), None)
    lab_file = student_file(f, lab_dir)
    def at(p: records.Place) -> str:
        return f"line {p.line}" if p.file == lab_file or not lab_file else f"{Path(p.file).name}:{p.line}"
    writer_missing = side in ("writer", "both")
    reader_missing = side in ("reader", "both")
    def step(x: float, y: float, kind: str, lines: list[str], missing: bool = False,
             place: records.Place | None = None) -> dict:
        block = writer[0] if y == lane_w else reader[0]
        return {"x": x, "y": y, "kind": kind, "lines": lines, "missing": missing, "known": place is not None or missing,
                "block": block, "line": place.line if place else 0}
    x0, lane_w, lane_r = 150, 44, 164
    # The reader's lane begins where the writer's flag store is: it sees the flag after that.
    xs = [x0 + i * (HANDOFF_STEP_W + HANDOFF_STEP_GAP) for i in range(5)]
    fence_w = (["✗ no __threadfence() here", "missing: the release"] if writer_missing
               else ["__threadfence()", "(the release: present)"])
    fence_r = (["✗ no __threadfence() here", "missing: the acquire"] if reader_missing
               else ["__threadfence()", "(the acquire: present)"])
    # A fence's step is known to be there or missing by the side the record names; it has no line.
    fence_w_step = step(xs[1], lane_w, "fence writer", fence_w, missing=writer_missing)
    fence_r_step = step(xs[3], lane_r, "fence reader", fence_r, missing=reader_missing)
    fence_w_step["known"] = fence_r_step["known"] = True
    steps = [step(xs[0], lane_w, "data-store", [f"{write.role} of the data", at(write)], place=write),
             fence_w_step,
             step(xs[2], lane_w, "flag-store", ["flag store", at(flag_store) if flag_store else "(line not recorded)"],
                  place=flag_store),
             step(xs[2], lane_r, "flag-read", ["flag read: set", at(flag_read) if flag_read else "(line not recorded)"],
                  place=flag_read),
             fence_r_step,
             step(xs[4], lane_r, "data-read", [f"{read.role} of the data", at(read)], place=read)]
    missing_label = {"writer": "the writer's fence is missing: the flag may be seen before the data",
                     "reader": "the reader's fence is missing: the data may be read before the flag",
                     "both": "neither side has a fence: nothing orders the data and the flag"}[side]
    return {"writer": {"block": writer[0], "thread": writer[1], "line": write.line},
            "reader": {"block": reader[0], "thread": reader[1], "line": read.line},
            "steps": steps, "step_w": HANDOFF_STEP_W, "step_h": 44, "lane_w": lane_w, "lane_r": lane_r,
            "side": side, "missing_label": missing_label, "width": xs[4] + HANDOFF_STEP_W + 20, "height": 300,
            "flag_edge": {"x1": xs[2] + HANDOFF_STEP_W / 2, "y1": lane_w + 44, "x2": xs[2] + HANDOFF_STEP_W / 2,
                          "y2": lane_r - 1},
            "data_edge": {"x1": xs[0] + HANDOFF_STEP_W / 2, "y1": lane_w + 44, "x2": xs[4] + HANDOFF_STEP_W / 2,
                          "y2": lane_r - 1}}


# --- An out-of-bounds access drawn as the buffer's end: its last cells, the cells past it, arrows. ---

BOUNDS_CELL = 46
BOUNDS_CELLS_DRAWN = 24  # a window of cells around the buffer's edge and the accesses
BOUNDS_LABEL_ROW = 15
BOUNDS_LEFT = 12


def bounds_layout(picture: dict, lab_file: str = "") -> dict:
    """A row of cells around the edge of the buffer the accesses missed (its end, or its start
    for an access before it): the buffer's cells framed solid, the cells outside dashed and
    hatched, a thick line at the edge with the buffer's name; above, one label per access
    (thread, block, line, read or write) with an arrow down to its cell. An access beyond the
    window is drawn at the window's edge and says its cell."""
    cells = int(picture.get("buffer_cells", 0))
    accesses = sorted((dict(a) for a in picture.get("accesses", []) if isinstance(a, dict)),
                      key=lambda a: (int(a.get("cell", 0)), int(a.get("thread", 0))))
    if not accesses:
        return {}
    before = int(accesses[0]["cell"]) < 0
    edge = 0 if before else cells  # the first cell outside the buffer on the accesses' side is edge (or -1)
    if before:
        lo, hi = min(int(accesses[0]["cell"]), -1) - 2, min(cells - 1, 5)
    else:
        lo, hi = max(0, cells - 6), max(int(accesses[-1]["cell"]), cells) + 2
    # The edge stays in the window; an access beyond it is drawn at the window's far side.
    if before:
        lo = max(lo, hi - BOUNDS_CELLS_DRAWN + 1)
    else:
        hi = min(hi, lo + BOUNDS_CELLS_DRAWN - 1)
    rows = len(accesses)
    top = 28 + rows * BOUNDS_LABEL_ROW + 26  # the cells' row, below the access labels
    out_cells = []
    for c in range(lo, hi + 1):
        inside = 0 <= c < cells
        out_cells.append({"cell": c, "x": BOUNDS_LEFT + (c - lo) * BOUNDS_CELL, "inside": inside,
                          "label": f"[{c}]"})
    x_of = {c["cell"]: c["x"] for c in out_cells}
    edge_x = BOUNDS_LEFT + (edge - lo) * BOUNDS_CELL
    drawn = []
    for k, a in enumerate(accesses):
        cell = int(a.get("cell", 0))
        shown = min(max(cell, lo), hi)
        x = x_of[shown] + BOUNDS_CELL / 2
        file = str(a.get("file", ""))
        line = f"line {a.get('line', 0)}" if not lab_file or not file or file == lab_file else f"{Path(file).name}:{a.get('line', 0)}"
        block = a.get("block", [0, 0, 0])
        block_name = str(block[0]) if list(block[1:]) == [0, 0] else "(" + ",".join(str(v) for v in block) + ")"
        label = f"{a.get('role', '')} by thread {a.get('thread', 0)} of block {block_name} at {line}"
        if shown != cell:
            label += f" (cell {cell}, beyond this window)"
        elif cell >= cells or cell < 0:
            label += f" (cell {cell})"
        drawn.append({"x": x, "label_y": 28 + k * BOUNDS_LABEL_ROW, "cell": cell, "thread": a.get("thread", 0),
                      "block": block_name, "line": a.get("line", 0), "role": a.get("role", ""), "label": label,
                      "y2": top - 3})
    longest = max(len(d["label"]) for d in drawn)
    width = max(BOUNDS_LEFT + (hi - lo + 1) * BOUNDS_CELL, max(d["x"] for d in drawn) + 8 + longest * 6.7) + 20
    element = int(picture.get("element_bytes", 4))
    edge_label = (f"{'start' if before else 'end'} of {picture.get('buffer', 'the buffer')}: "
                  f"{cells} {'cell' if cells == 1 else 'cells'} of {element} bytes")
    return {"cells": out_cells, "accesses": drawn, "top": top, "cell_w": BOUNDS_CELL, "edge_x": edge_x,
            "edge_label": edge_label, "before": before, "width": round(max(width, 1060)), "height": top + 112,
            "first": lo, "last": hi, "truncated": bool(picture.get("truncated")), "space": picture.get("space", "")}


def wait_layout(picture: dict, lab_file: str = "") -> dict:
    """The blocks in rows of WAIT_ROW_BLOCKS, in blockIdx order, each a box with its state; an
    arrow from each waiting block to the block it waits for; the blocks at the end of those
    arrows that never started ringed and labelled, and a cycle of waiting blocks labelled."""
    blocks = [dict(b) for b in picture.get("blocks", []) if isinstance(b, dict)]
    where: dict[int, dict] = {}
    for i, b in enumerate(blocks):
        row, col = divmod(i, WAIT_ROW_BLOCKS)
        b["x"] = WAIT_LEFT + col * (WAIT_BOX_W + WAIT_GAP_X)
        b["y"] = WAIT_TOP + row * (WAIT_BOX_H + WAIT_GAP_Y)
        b["lines"] = _wait_box_lines(b, lab_file)
        where[int(b.get("linear", -1))] = b
    waits = {int(b["linear"]): int(b.get("waits_for", -1)) for b in blocks if b.get("state") == "waiting"}
    # A cycle: following the arrows from a waiting block comes back to it.
    in_cycle: set[int] = set()
    for start in waits:
        seen, k = [], start
        while k in waits and k not in seen:
            seen.append(k)
            k = waits[k]
        if k in seen:
            in_cycle.update(seen[seen.index(k):])
    arrows = []
    for b in blocks:
        target = where.get(int(b.get("waits_for", -1))) if b.get("state") == "waiting" else None
        if target is None:
            continue
        x1, x2 = b["x"] + WAIT_BOX_W / 2, target["x"] + WAIT_BOX_W / 2
        arrow = {"from": b["linear"], "to": target["linear"], "by_order": b.get("waits_for_from") == "block order"}
        if b["y"] == target["y"]:
            # In one row: an arc over the boxes between, its words at its highest point.
            lift = 26 + abs(x1 - x2) / 12
            y = b["y"]
            arrow.update(shape="arc", x1=x1 - 8, y1=y, x2=x2 + 8, y2=y - 1, cx=(x1 + x2) / 2, cy=y - lift,
                         label_x=(x1 + x2) / 2 - 28, label_y=y - lift / 2 - 4)
        else:
            # To another row: up (or down) into the gap beside the target's row, along it, and
            # into the target, clear of the arcs, which rise from the boxes' tops.
            up = target["y"] < b["y"]
            y1 = b["y"] if up else b["y"] + WAIT_BOX_H
            y2 = target["y"] + WAIT_BOX_H + 1 if up else target["y"] - 1
            channel = target["y"] + WAIT_BOX_H + 12 if up else target["y"] - 12
            arrow.update(shape="elbow", x1=x1 - 16, y1=y1, x2=x2 + 16, y2=y2, channel=channel,
                         label_x=(x1 + x2) / 2 - 28, label_y=channel + (12 if up else -4))
        arrows.append(arrow)
    targets = {a["to"] for a in arrows}
    for b in blocks:
        linear = int(b["linear"])
        b["blocker"] = linear in targets and b.get("state") == "not started"
        b["cycle"] = linear in in_cycle
    rows = max(1, -(-len(blocks) // WAIT_ROW_BLOCKS))
    grid_bottom = WAIT_TOP + rows * (WAIT_BOX_H + WAIT_GAP_Y) - WAIT_GAP_Y
    not_shown = []
    if picture.get("finished_not_shown"):
        not_shown.append(f"{picture['finished_not_shown']} finished")
    if picture.get("not_started_not_shown"):
        not_shown.append(f"{picture['not_started_not_shown']} not started")
    first = blocks[0]["linear"] if blocks else 0
    last = blocks[-1]["linear"] if blocks else 0
    title = (f"blocks {first} to {last} of {picture.get('grid_blocks', 0)}; {picture.get('resident', 0)} ran at once, "
             f"started in {picture.get('block_order', '')} order")
    # A deadlock stops there; a launch that relied on co-residency went on, every block started.
    stopped = bool(picture.get("stopped", True))
    if not_shown:
        title += "; not drawn: " + ", ".join(not_shown)
    width = WAIT_LEFT + min(len(blocks), WAIT_ROW_BLOCKS) * (WAIT_BOX_W + WAIT_GAP_X) + 10
    blocker_label = "(!) never started" if stopped else "(!) not started yet"
    not_started_legend = ("✗ dashed box: never started (the running blocks held every place)" if stopped else
                          "✗ dashed box: not started yet (the simulator then started every block, as a GPU that "
                          "holds the whole grid would)")
    return {"stopped": stopped, "blocker_label": blocker_label, "not_started_legend": not_started_legend,
            "blocks": blocks, "arrows": arrows, "title": title, "width": max(width, 900),
            "height": grid_bottom + 80, "legend_y": grid_bottom + 48, "any_by_order": any(a["by_order"] for a in arrows),
            "any_cycle": bool(in_cycle), "grid_blocks": picture.get("grid_blocks", 0), "box_w": WAIT_BOX_W,
            "box_h": WAIT_BOX_H}


def _wait_box_lines(b: dict, lab_file: str) -> list[str]:
    """A block's box, in words: its index, its state, and for a waiting block where and for what."""
    index = b.get("block", [b.get("linear", 0), 0, 0])
    name = f"block {index[0]}" if index[1:] == [0, 0] else "block (" + ",".join(str(v) for v in index) + ")"
    state = str(b.get("state", ""))
    if state != "waiting":
        return [name, {"finished": "✓ finished", "not started": "✗ not started", "at a barrier": "at a barrier"}.get(state, state)]
    file = str(b.get("file", ""))
    line = f"line {b.get('line', 0)}" if not lab_file or file == lab_file or not file else f"{Path(file).name}:{b.get('line', 0)}"
    lines = [name, f"waiting at {line}", f"thread {b.get('thread', 0)} spins"]
    if int(b.get("waits_for", -1)) >= 0:
        lines[2] = f"thread {b.get('thread', 0)}, for block {b['waits_for']}"
    return lines



STEP_CELLS_DRAWN = 32  # a window of cells around the first wrong one
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
    """A line as the picture names it: 'line 56' in the student's file; a kit file's line after the
    student's line that led to it, where the finding knows it ('line 54', then 'through
    operators.hpp:21')."""
    if not line:
        return "(no access)"
    if not file or file == lab_file:
        return f"line {line}"
    called = callers.get((file, line))
    if called:
        return f"line {called}\nthrough {Path(file).name}:{line}"
    return f"{Path(file).name}\nline {line}"


def _racing_place(file: str, line: int, lab_file: str, callers: dict) -> str:
    """'line 56', or 'line 54, through line 21 of operators.hpp' for a line of kit code that the
    student's line 54 led to ('line 21 of operators.hpp' where the finding does not know it)."""
    if not file or file == lab_file:
        return f"line {line}"
    called = callers.get((file, line))
    kit_line = f"line {line} of {Path(file).name}"
    return f"line {called}, through {kit_line}" if called else kit_line


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


def environment(*page_templates: Path):
    """Jinja2's environment for drawings.j2 and the pages that import it (from page_templates)."""
    try:
        import jinja2  # Debian's python3-jinja2 (common/setup/debian-packages.txt)
    except ImportError:
        raise PicturesUnavailable("pictures need Jinja2 for this Python (Debian's python3-jinja2, which "
                                  "common/bin/prerequisites installs; or pip install jinja2)") from None
    folders = [str(p) for p in page_templates] + [str(TEMPLATES)]
    return jinja2.Environment(loader=jinja2.FileSystemLoader(folders),
                              autoescape=jinja2.select_autoescape(["html", "j2"]),
                              trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)


def callers_of(finding: records.Finding, lab_dir: str) -> dict:
    """(kit file, line) of the finding's places in kit code -> the student's line that called it."""
    lab_lines = [p.line for p in finding.called_from if p.file.startswith(lab_dir + "/")]
    if not lab_lines:
        return {}
    return {(p.file, p.line): lab_lines[0] for p in finding.places if p.file.startswith("common/")}


def is_wait(f: records.Finding) -> bool:
    return isinstance(f.picture, dict) and f.picture.get("kind") == "wait"


def is_bounds(f: records.Finding) -> bool:
    return isinstance(f.picture, dict) and f.picture.get("kind") == "bounds"


def is_handoff(f: records.Finding) -> bool:
    return isinstance(f.picture, dict) and f.picture.get("kind") == "handoff"


def is_race(f: records.Finding) -> bool:
    return bool(f.picture) and not is_wait(f) and not is_bounds(f) and not is_handoff(f)


def race_layout_of(f: records.Finding, lab_dir: str) -> Drawing:
    return layout(f.picture, callers_of(f, lab_dir))


def student_file(f: records.Finding, lab_dir: str) -> str:
    """The student's file the finding names first, so that its lines are drawn as 'line N'."""
    return next((p.file for p in f.places if p.file.startswith(lab_dir + "/")), "")


def handoff_picture(f: records.Finding, lab_dir: str) -> dict | None:
    """The picture a hand-off between blocks without its ordering is drawn from (its own places
    and the side its record names as missing), or None where the finding is no such hand-off."""
    drawn = handoff_layout(f, lab_dir)
    return {"kind": "handoff", "missing": drawn["side"]} if drawn is not None else None


def finding_item(f: records.Finding, lab_dir: str, number: int, checks: list[str]) -> dict:
    """What a page (templates/finding.j2) draws of one finding: its lines, the checks it cost, and
    the layout of its picture, whichever kind it is. `lab_dir`: the folder of the student's (or
    the program's) files, whose lines are drawn as "line N"; `number` names a race's figure."""
    mine = student_file(f, lab_dir) if lab_dir else ""
    return {"finding": f, "lines": f.lines(), "checks": checks, "number": number,
            "drawing": race_layout_of(f, lab_dir) if is_race(f) else None,
            "wait": wait_layout(f.picture, mine) if is_wait(f) else None,
            "bounds": bounds_layout(f.picture, mine) if is_bounds(f) else None,
            "handoff": handoff_layout(f, lab_dir) if is_handoff(f) else None}
