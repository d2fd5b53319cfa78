"""The page `grade --pictures` writes, as a browser shows it: headless Chromium renders the page
of a known-bad kernel's race (lab 02's in-place scan with its read/write barrier removed, lab
07's with the barrier after the hand-off removed), and the rendered document must draw the
racing pair at the cell, threads and lines the race's record names, and mark the missing
barrier between those lines. For a deadlock (lab 07 with tiles taken in blockIdx order) the
rendered document must draw each waiting block at its spin's line with an arrow to the block it
waits for, and ring the block that never started at the end of those arrows; for an access past
a buffer's end (lab 02 without the `i < n` guard), mark the end and draw each access at its cell
with its thread and line; for a hand-off without the writer's fence (lab 07), mark that fence
missing between the data store and the flag, and draw the flag's store and read at the lines the
finding names. For a wrong result (lab 04 with a wrong step of the distribution
tree) the rendered document must draw the block's array after each step beside the expected
one, and ring the first wrong output element that the check's evidence names, with its values,
at the first step where it differs, whose barrier is the distribution tree's. The page of a
simcc program's run (SCANLAB_SIM_PAGE, a planted in-place scan without its barrier) must draw its
race as a graded page does. The same pages
with their highlighting broken must fail the same readings, so the readings can fail. A
screenshot of each page is kept.

Usage: check_pictures.py --build-root DIR [--jobs N] [--screenshot-for-readme PATH]
                         [--step-screenshot-for-readme PATH] [--race07-screenshot-for-readme PATH]
                         [--deadlock-screenshot-for-readme PATH] [--bounds-screenshot-for-readme PATH]
                         [--handoff-screenshot-for-readme PATH] [--run-page-screenshot-for-readme PATH]
                         [LAB...|run]
Exit status 77 (ctest: skipped) where Chromium is not installed."""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))  # scanlab_findings, scanlab_build

from scanlab_grader import manifest, pictures, solution_source  # noqa: E402
from scanlab_findings import drawing, records  # noqa: E402

SKIP = 77
# (lab, known-bad kernel): the races drawn.
CASES = (("02", "missing-barrier-between-read-and-write"), ("07", "missing-barrier-after-handoff"))
# (lab, known-bad kernel, check, tag of the barrier that ends the wrong step): the wrong results drawn.
STEP_CASES = (("04", "wrong-distribution-offset", "correctness-inclusive", "distribute-barrier"),
              ("02", "partner-off-by-one", "correctness-inplace", "inplace-step-barrier"))
# (lab, known-bad kernel, picture, figure): a deadlock drawn as its blocks, an access past a
# buffer's end drawn as the buffer's end, a hand-off without the writer's fence on a time line.
KIND_CASES = (("07", "tiles-in-block-index-order", "wait", "wait-picture"),
              ("02", "unguarded-load", "bounds", "bounds-picture"),
              ("07", "missing-fence-before-flag", "handoff", "handoff-picture"))
BROWSERS = ("chromium", "chromium-browser")


class Elements(HTMLParser):
    """Every element of the rendered document with its classes and data- attributes, and the
    text inside each `racing` group."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[dict] = []
        self._open: list[dict] = []
        self._figure = ""  # the id of the figure the parser is in

    def handle_starttag(self, tag, attrs):
        if tag == "figure":
            self._figure = dict(attrs).get("id") or "figure"
        element = {"tag": tag, "classes": (dict(attrs).get("class") or "").split(), "text": "",
                   "figure": self._figure, **{k: v for k, v in attrs if k.startswith("data-")}}
        self.found.append(element)
        if tag not in ("circle", "rect", "line", "path", "stop", "br", "meta"):
            self._open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self._open and self._open[-1]["tag"] == tag:
            self._open.pop()

    def handle_endtag(self, tag):
        if tag == "figure":
            self._figure = ""
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i]["tag"] == tag:
                del self._open[i:]
                break

    def handle_data(self, data):
        for element in self._open:
            element["text"] += data

    def with_class(self, name: str, figure: str | None = None) -> list[dict]:
        return [e for e in self.found if name in e["classes"] and (figure is None or e["figure"] == figure)]


def drawing_problems(dom: str, race: dict) -> list[str]:
    """What the rendered page fails to draw of `race` (a finding of grade's JSON report, with the
    picture the simulator recorded: its racing pair's lines, threads and cell)."""
    page = Elements()
    page.feed(dom)
    problems = []
    pair = race["picture"]["racing"]
    if sorted(a["line"] for a in pair) != sorted(p["line"] for p in race["places"]):
        problems.append(f"the picture's racing pair is at lines {[a['line'] for a in pair]}, the finding's at "
                        f"{[p['line'] for p in race['places']]}")
    want = sorted((str(a["line"]), str(a["thread"])) for a in pair)
    # The race's figure: the one whose highlighted pair is at the record's lines and threads.
    figures = {e["figure"] for e in page.found if e["tag"] == "figure"}
    drawn_in = {f: sorted((e.get("data-line", ""), e.get("data-thread", "")) for e in page.with_class("racing", f))
                for f in figures}
    figure = next((f for f, drawn in drawn_in.items() if drawn == want), None)
    if figure is None:
        return [f"no picture highlights the racing pair at (line, thread) {want}; highlighted: "
                f"{sorted(drawn_in.values())}"]
    racing = page.with_class("racing", figure)
    cells = {e.get("data-cell") for e in racing}
    if cells != {str(pair[0]["cell"])}:
        problems.append(f"the racing pair is drawn at cells {sorted(cells)}, the record's is {pair[0]['cell']}")
    rows = page.with_class("racing-row", figure)
    if [r.get("data-cell") for r in rows] != list(cells)[:1]:
        problems.append(f"the racing cell's row is marked at {[r.get('data-cell') for r in rows]}, not {cells}")
    callers = {str(c["line"]) for c in race.get("called_from", [])}
    for e in racing:
        text = " ".join(e["text"].split())
        label = f"by thread {e.get('data-thread')} at line {e.get('data-line')}"
        # An access in kit code is labelled at the student's line that led to it, then the kit's.
        through = re.search(rf"by thread {e.get('data-thread')} at line (\d+), through line {e.get('data-line')} of ", text)
        if label not in text and not (through and through.group(1) in callers):
            problems.append(f"no label '{label}' (or one at the student's line through it) beside the racing access")
    missing = page.with_class("missing-barrier", figure)
    if len(missing) != 1:
        problems.append(f"{len(missing)} missing-barrier marks, expected 1")
    else:
        m = missing[0]
        lines = sorted([m.get("data-after-line", ""), m.get("data-before-line", "")])
        if lines != sorted(str(p["line"]) for p in race["places"]):
            problems.append(f"the missing barrier is marked between lines {lines}, the race is between "
                            f"{sorted(str(p['line']) for p in race['places'])}")
        if m.get("data-interval") != racing[0].get("data-interval"):
            problems.append("the missing barrier is not marked in the race's interval")
        if "missing barrier" not in m["text"]:
            problems.append("the missing barrier's mark says nothing")
    return problems


def step_problems(dom: str, check: dict, barrier_line: int) -> list[str]:
    """What the rendered page fails to draw of a wrong result: `check` (grade's JSON report of the
    failed correctness check, whose evidence names the first wrong output element, its expected
    and actual values) and the line of the barrier that ends the step that goes wrong."""
    page = Elements()
    page.feed(dom)
    figures = [e for e in page.found if e["tag"] == "figure" and "step-picture" in e["classes"]
               and e.get("data-check") == check["id"]]
    if len(figures) != 1:
        return [f"{len(figures)} step pictures of {check['id']}, expected 1"]
    figure = figures[0]["figure"]
    # The evidence of the test drawn: its first wrong element, as the check's details give it.
    details = "\n".join(check["details"])
    test = figures[0].get("data-test", "")
    evidence = re.search(r"index (\d+): expected (-?\d+), actual (-?\d+)", details[details.find(test + ":"):])
    if not test or test + ":" not in details or evidence is None:
        return [f"the check's evidence names no wrong element of {test!r}: {details[:400]}"]
    index, want, got = evidence.groups()
    marks = page.with_class("first-wrong", figure)
    if len(marks) != 1:
        return [f"{len(marks)} marks of the first wrong cell, expected 1"]
    mark = marks[0]
    problems = []
    if mark.get("data-cell") != index:
        problems.append(f"the first wrong cell is marked at {mark.get('data-cell')}, the check's evidence names {index}")
    label = " ".join(mark["text"].split())
    if f"cell {index}" not in label or f"expected {want}, yours {got}" not in label:
        problems.append(f"the mark's label '{label}' does not say cell {index}: expected {want}, yours {got}")
    steps = page.with_class("step", figure)
    marked = [e for e in steps if e.get("data-step") == mark.get("data-step")]
    if len(marked) != 1 or "first-wrong-step" not in marked[0]["classes"]:
        problems.append(f"the marked step {mark.get('data-step')} is not drawn as the first wrong step")
    elif marked[0].get("data-line") != str(barrier_line):
        problems.append(f"the first wrong step ends at the barrier of line {marked[0].get('data-line')}, the "
                        f"step that goes wrong ends at line {barrier_line}")
    # The cell is right in every step before the marked one, and drawn crossed in the marked one.
    values = [e for e in page.with_class("value", figure) if e.get("data-cell") == index]
    crossed = [i for i, e in enumerate(values) if "differs" in e["classes"]]
    if not crossed or str(crossed[0]) != mark.get("data-step"):
        problems.append(f"cell {index} is first drawn as differing in step {crossed[:1]}, the mark says "
                        f"{mark.get('data-step')}")
    if len(page.with_class("first-wrong-row", figure)) != 1:
        problems.append("the first wrong cell's row is not marked once")
    return problems


def wait_problems(dom: str, deadlock: dict) -> list[str]:
    """What the rendered page fails to draw of `deadlock` (a finding of grade's JSON report with
    the blocks' picture the simulator recorded): each waiting block at its spin's line, an arrow
    from it to the block it waits for, and the block that never started at the end of the
    arrows ringed and labelled."""
    page = Elements()
    page.feed(dom)
    record = deadlock["picture"]
    spin_lines = {str(p["line"]) for p in deadlock["places"]}
    # The deadlock's figure: the one whose waiting blocks spin at its lines (a lab may deadlock at
    # two spins, each its own finding and picture).
    figures = [e["figure"] for e in page.found if e["tag"] == "figure" and "wait-picture" in e["classes"]
               and {b.get("data-line") for b in page.with_class("waiting", e["figure"])} == spin_lines]
    if len(figures) != 1:
        return [f"{len(figures)} pictures of the deadlock's blocks waiting at lines {sorted(spin_lines)}, expected 1"]
    figure = figures[0]
    problems = []
    waiting = [b for b in record["blocks"] if b["state"] == "waiting"]
    if not waiting:
        return ["the record has no waiting block"]
    boxes = {e.get("data-block"): e for e in page.with_class("block", figure)}
    arrows = {(e.get("data-from"), e.get("data-to")) for e in page.with_class("wait-arrow", figure)}
    for b in waiting:
        box = boxes.get(str(b["linear"]))
        if box is None or box.get("data-state") != "waiting":
            problems.append(f"block {b['linear']} is not drawn as waiting")
        elif box.get("data-line") not in spin_lines or f"waiting at line {box.get('data-line')}" not in box["text"]:
            problems.append(f"block {b['linear']} is drawn waiting at line {box.get('data-line')}, the finding's "
                            f"spin is at {sorted(spin_lines)}")
        if b["waits_for"] >= 0 and (str(b["linear"]), str(b["waits_for"])) not in arrows:
            problems.append(f"no arrow from block {b['linear']} to block {b['waits_for']}, which it waits for")
    if not any(b["waits_for"] >= 0 for b in waiting):
        problems.append("the record names no block that a waiting block waits for")
    never = {str(b["linear"]) for b in record["blocks"] if b["state"] == "not started"} & {to for _, to in arrows}
    marked = {e.get("data-block") for e in page.with_class("blocker", figure)}
    if not never or marked != never:
        problems.append(f"the blocks waited for that never started are {sorted(never)}, marked: {sorted(marked)}")
    for block in marked:
        if "never started" not in " ".join(boxes[block]["text"].split()):
            problems.append(f"block {block}'s mark says nothing")
    return problems


def the_figure(dom: str, picture_class: str):
    """The rendered page's elements, and its one figure of class `picture_class` (None where the
    page has none or several)."""
    page = Elements()
    page.feed(dom)
    figures = [e["figure"] for e in page.found if e["tag"] == "figure" and picture_class in e["classes"]]
    return page, figures[0] if len(figures) == 1 else None


def bounds_problems(dom: str, finding: dict) -> list[str]:
    """What the rendered page fails to draw of an out-of-bounds `finding` (grade's JSON report,
    with the buffer and accesses the simulator recorded): the buffer's end marked and labelled,
    and each access drawn as an arrow at its cell with its thread and the finding's line."""
    record = finding["picture"]
    page, figure = the_figure(dom, "bounds-picture")
    if figure is None:
        return ["not one picture of the buffer's end"]
    problems = []
    edges = page.with_class("buffer-edge", figure)
    if len(edges) != 1 or "end of" not in edges[0]["text"] or str(record["buffer_cells"]) not in edges[0]["text"]:
        problems.append(f"the buffer's end is not marked once with its size ({record['buffer_cells']} cells)")
    elif edges[0].get("data-cell") != str(record["buffer_cells"] - 1):
        problems.append(f"the end is marked after cell {edges[0].get('data-cell')}, the buffer's last is "
                        f"{record['buffer_cells'] - 1}")
    lines = {str(p["line"]) for p in finding["places"]}
    drawn = {(e.get("data-cell"), e.get("data-thread")): e for e in page.with_class("bad-access", figure)}
    outside = {e.get("data-cell") for e in page.with_class("outside", figure)}
    first = record["accesses"][0]
    if str(first["cell"]) not in outside:
        problems.append(f"the cell past the end that thread {first['thread']} accessed ({first['cell']}) is not "
                        f"drawn as outside the buffer")
    for a in record["accesses"]:
        e = drawn.get((str(a["cell"]), str(a["thread"])))
        if e is None:
            problems.append(f"no arrow for thread {a['thread']}'s access of cell {a['cell']}")
        elif e.get("data-line") not in lines or f"thread {a['thread']} of block" not in e["text"]:
            problems.append(f"thread {a['thread']}'s arrow says line {e.get('data-line')}, the finding's is {lines}")
    return problems


def handoff_problems(dom: str, finding: dict, side: str, data_line: int, text: str) -> list[str]:
    """What the rendered page fails to draw of a hand-off between blocks (`finding`, a race in
    grade's JSON report): the writer's data store at the line the known-bad kernel left
    unfenced, the reader's data read at the finding's other line, and the fence of `side` (the
    one the known-bad kernel removed) marked missing, once. The blocks come from grade's text
    (`text`), which names each place's block."""
    page, figure = the_figure(dom, "handoff-picture")
    if figure is None:
        return ["not one picture of the hand-off"]
    problems = []
    missing = page.with_class("missing-fence", figure)
    if len(missing) != 1 or missing[0].get("data-side") != side:
        problems.append(f"the missing fence is marked on sides {[e.get('data-side') for e in missing]}, the known-bad "
                        f"kernel removed the {side}'s")
    elif "no __threadfence() here" not in missing[0]["text"]:
        problems.append("the missing fence's mark says nothing")
    def block_of(place: dict) -> str:  # "  write: FILE:101  block (1,0,0) thread (0,0,0)" -> "1"
        m = re.search(rf"{place['role']}:\s+{re.escape(place['file'])}:{place['line']}\s+block \((\d+),0,0\)", text)
        return m.group(1) if m else "?"
    data = [p for p in finding["places"] if p["role"] not in ("flag store", "flag read")]
    stored = [p for p in data if p["line"] == data_line]
    store = page.with_class("data-store", figure)
    if (not stored or len(store) != 1 or f"line {data_line}" not in store[0]["text"]
            or store[0].get("data-block") != block_of(stored[0])):
        problems.append(f"the writer's data store is not drawn at line {data_line} in block "
                        f"{block_of(stored[0]) if stored else '?'}")
    other = [p for p in data if p["line"] != data_line]
    load = page.with_class("data-read", figure)
    if (not other or len(load) != 1 or f"line {other[0]['line']}" not in load[0]["text"]
            or load[0].get("data-block") != block_of(other[0])):
        problems.append(f"the reader's data read is not drawn at the finding's other line and block "
                        f"{[(p['line'], block_of(p)) for p in other]}")
    if not page.with_class("flag-edge", figure):
        problems.append("no arrow from the writer's flag to the reader's")
    # The flag's store and read, which the finding names as places of their own: each drawn once,
    # at its line, in its block's lane.
    for role, mark in (("flag store", "flag-store"), ("flag read", "flag-read")):
        place = next((p for p in finding["places"] if p["role"] == role), None)
        drawn = page.with_class(mark, figure)
        if place is None:
            problems.append(f"the finding names no {role}")
        elif (len(drawn) != 1 or drawn[0].get("data-line") != str(place["line"])
              or f"line {place['line']}" not in drawn[0]["text"] or drawn[0].get("data-block") != block_of(place)):
            problems.append(f"the {role} is not drawn at line {place['line']} in block {block_of(place)}")
    return problems


def graded_page(scratch: Path, build_root: Path, jobs: str, labs, number: str, name: str, suffix: str,
                tag: str | None = None):
    """Lab `number` with its known-bad kernel `name` planted, graded with --pictures: (the page,
    grade's JSON report, the line of `tag` (default: the line the manifest names), grade's text,
    an error or None)."""
    lab = labs[number]
    m = next(m for m in lab.mutants if m.name == name)
    source = solution_source.parse(REPO / "solutions" / lab.dir / m.file)
    target = scratch / lab.dir / m.file
    target.write_text(source.edited(m.at, m.find, m.replace))
    named = source.line_after_edit(tag or m.names or m.at, m.at, m.find, m.replace)
    pages = build_root / f"pictures-{number}-{suffix}"
    shutil.rmtree(pages, ignore_errors=True)
    report = build_root / f"pictures-{number}-{suffix}.json"
    proc = subprocess.run([str(HERE.parent / "grade"), "--submission", str(scratch), "--build-root", str(build_root),
                           "--jobs", jobs, "--format", "json", "--output", str(report), "--color", "never",
                           "--pictures", str(pages), number], capture_output=True, text=True)
    target.write_text(source.text)
    page = pages / f"{scratch.name}.html"
    if not page.is_file() or str(page) not in proc.stdout:
        return page, None, named, "", (f"grade wrote no page at {page}, or did not print its path (exit status "
                                       f"{proc.returncode}):\n{proc.stdout[-800:]}{proc.stderr[-1500:]}")
    return page, json.loads(report.read_text()), named, proc.stdout, None


def kind_case(browser: str, scratch: Path, build_root: Path, jobs: str, labs, case: tuple,
              screenshot_for_readme: str | None) -> list[str]:
    """One known-bad kernel of KIND_CASES graded with --pictures: its finding's picture read from
    the rendered page, and pages with each of its marks removed rejected by the same reading."""
    number, name, kind, figure_class = case
    label = f"{number}/{name}"
    page, doc, named, text, error = graded_page(scratch, build_root, jobs, labs, number, name, kind)
    if error:
        return [f"{label}: {error}"]
    found = [f for c in doc["labs"][0]["checks"] for f in c["findings"]]
    if kind == "wait":
        finding = next((f for f in found if f["kind"] == "deadlock" and (f.get("picture") or {}).get("kind") == "wait"), None)
        read = lambda dom: wait_problems(dom, finding)  # noqa: E731
        marks = (("the arrows", 'class="wait-arrow"', 'class="unmarked"'),
                 ("the never-started block's mark", ' blocker"', '"'))
    elif kind == "bounds":
        finding = next((f for f in found if f["kind"] == "out-of-bounds" and (f.get("picture") or {}).get("kind") == "bounds"
                        and any(p["line"] == named for p in f["places"])), None)
        read = lambda dom: bounds_problems(dom, finding)  # noqa: E731
        marks = (("the buffer's end", 'class="buffer-edge"', 'class="unmarked"'),
                 ("the arrows", 'class="bad-access', 'class="unmarked'))
    else:
        finding = next((f for f in found if f["kind"] == "race" and (f.get("picture") or {}).get("kind") == "handoff"
                        and any(p["line"] == named for p in f["places"])), None)
        read = lambda dom: handoff_problems(dom, finding, "writer", named, text)  # noqa: E731
        marks = (("the missing fence's mark", ' missing-fence"', '"'),
                 ("the flag store's line", 'flag-store" data-block=', 'unmarked" data-block='),
                 ("the flag read's line", 'flag-read" data-block=', 'unmarked" data-block='))
    if finding is None:
        return [f"{label}: no {kind} picture of a finding at line {named} in grade's report"]
    screenshot = build_root / f"pictures-{number}-{kind}.png"
    problems = read(browse(browser, page, screenshot))
    failures = [f"{label}: {pr}" for pr in problems]
    if page.stat().st_size > 2 * 1024 * 1024:
        failures.append(f"{label}: the page is {page.stat().st_size} bytes, over 2 MB")
    for what, mark, unmarked in marks:
        broken = page.parent / "broken.html"
        text = page.read_text()
        if mark not in text:
            failures.append(f"{label}: the page has no {mark!r} to remove")
            continue
        broken.write_text(text.replace(mark, unmarked))
        if not read(browse(browser, broken)):
            failures.append(f"{label}: a page without {what} passed the reading")
    print(f"{label:<50} {'ok' if not problems else 'FAILED':<7} page {page} ({page.stat().st_size} bytes), "
          f"screenshot {screenshot}")
    if screenshot_for_readme and not problems:
        alone = page.parent / f"{kind}-alone.html"
        figure_id = re.search(rf'<figure class="{figure_class}" id="([^"]+)"', page.read_text()).group(1)
        width, height = figure_alone(page, figure_id, alone)
        browse(browser, alone, Path(screenshot_for_readme), f"{width + 40},{height + 70}")
    return failures


def algorithm_problems() -> list[str]:
    """The page's own arithmetic, before any page is read: lab 04's and lab 02's algorithms, step
    by step, end with the scans the reference computes and take the steps the lab's barriers
    take, and a run whose array goes wrong at one step is found there, while a right run draws
    nothing."""
    import itertools
    import random
    problems = []
    fmt, op, identity = pictures.STEP_CASES["Int32Plus"]
    inclusive, _ = pictures.STEP_ALGORITHMS[("04-brent-kung", "Inclusive")]
    exclusive, padding = pictures.STEP_ALGORITHMS[("04-brent-kung", "Exclusive")]
    rng = random.Random(4)
    for size in (2, 4, 64, 512, 2048):
        x = [rng.randint(-1000, 1000) for _ in range(size)]
        steps = inclusive(x, op, identity)
        if steps[-1][1] != list(itertools.accumulate(x)) or len(steps) != 2 * size.bit_length() - 2:
            problems.append(f"the inclusive Brent-Kung of {size} cells is not the scan, or not in 2 log2({size}) arrays")
        steps = exclusive(x, op, identity)
        if steps[-1][1] != [0] + list(itertools.accumulate(x))[:-1] or len(steps) != 2 * size.bit_length() - 1:
            problems.append(f"the exclusive Brent-Kung of {size} cells is not the scan, or not in 1 + 2 log2({size}) arrays")
        where = padding(max(i + (i >> 5) + (i >> 10) for i in range(size)) + 1)
        if where is None or len(where) != size:
            problems.append(f"the padded array of a section of {size} is not recognised")
    # A run as the simulator sends it: its arrays right, then one cell wrong from step 7 on.
    x = [rng.randint(-1000, 1000) for _ in range(64)]
    arrays = [a for _, a in inclusive(x, op, identity)]
    def run(arrays):
        return {"kind": "steps", "steps": [{"bytes": b"".join(struct.pack(fmt, v) for v in a).hex(), "barrier": {}}
                                           for a in arrays]}
    if pictures.wrong_steps(run(arrays), inclusive, None, (fmt, op, identity)) is not None:
        problems.append("a right run was found wrong")
    spoiled = [list(a) for a in arrays]
    for a in spoiled[7:]:
        a[40] += 1
    wrong = pictures.wrong_steps(run(spoiled), inclusive, None, (fmt, op, identity))
    if wrong is None or (wrong["step"], wrong["cell"]) != (7, 40):
        problems.append(f"a run wrong at cell 40 from step 7 on was found wrong at "
                        f"{None if wrong is None else (wrong['step'], wrong['cell'])}")
    # Lab 02's in-place Kogge-Stone: one state per stride, ending with the scan. A run as the lab's
    # kernel sends it crosses two barriers a stride, the first leaving the array as it was: right,
    # it is found right; with cell 5 wrong from stride 4 on, it is found wrong there.
    kogge_stone, _ = pictures.STEP_ALGORITHMS[("02-kogge-stone", "InPlace")]
    for size in (2, 32, 1024):
        x = [rng.randint(-1000, 1000) for _ in range(size)]
        states = kogge_stone(x, op, identity)
        if states[-1][1] != list(itertools.accumulate(x)) or len(states) != size.bit_length():
            problems.append(f"the in-place Kogge-Stone of {size} cells is not the scan, or not in 1 + log2({size}) arrays")
    x = [rng.randint(-1000, 1000) for _ in range(32)]
    states = [a for _, a in kogge_stone(x, op, identity)]
    twice = states[:1] + [a for k in range(1, len(states)) for a in (states[k - 1], states[k])]
    if pictures.wrong_steps(run(twice), kogge_stone, None, (fmt, op, identity)) is not None:
        problems.append("a right in-place Kogge-Stone run, two barriers a stride, was found wrong")
    spoiled = [list(a) for a in twice]
    for a in spoiled[6:]:  # from the write barrier of stride 4 (the state after it is step 3) on
        a[5] += 1
    wrong = pictures.wrong_steps(run(spoiled), kogge_stone, None, (fmt, op, identity))
    if wrong is None or (wrong["step"], wrong["cell"]) != (3, 5):
        problems.append(f"an in-place Kogge-Stone run wrong at cell 5 from stride 4 on was found wrong at "
                        f"{None if wrong is None else (wrong['step'], wrong['cell'])}")
    return problems


def figure_alone(page: Path, figure_id: str, out: Path) -> tuple[int, int]:
    """The page's figure `figure_id` alone, with the page's style (a README's picture); its size."""
    text = page.read_text()
    style = text[text.index("<style>"):text.index("</style>") + len("</style>")]
    figure = text[text.rindex("<figure", 0, text.index(f'id="{figure_id}"')):]
    figure = figure[:figure.index("</figure>") + len("</figure>")]
    out.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'>{style}</head>"
                   f"<body style='margin:0.5em; max-width: none'>{figure}</body></html>")
    width, height = (re.search(rf'{k}="([0-9.]+)"', figure).group(1) for k in ("width", "height"))
    return int(float(width)), int(float(height))


def step_case(browser: str, scratch: Path, build_root: Path, jobs: str, labs, number: str, name: str, check_id: str,
              barrier_tag: str, screenshot_for_readme: str | None) -> list[str]:
    """Lab `number` with its known-bad kernel `name` graded with --pictures: the wrong result of
    `check_id` drawn step by step (step_problems), and a page with its mark removed rejected."""
    label = f"{number}/{name}"
    page, doc, barrier_line, _, error = graded_page(scratch, build_root, jobs, labs, number, name, "steps", barrier_tag)
    if error:
        return [f"{label}: {error}"]
    pages = page.parent
    check = next((c for c in doc["labs"][0]["checks"] if c["id"] == check_id), None)
    if check is None or check["status"] != "fail":
        return [f"{label}: {check_id} did not fail"]
    screenshot = build_root / f"pictures-{number}-steps.png"
    problems = step_problems(browse(browser, page, screenshot), check, barrier_line)
    failures = [f"{label}: {pr}" for pr in problems]
    if page.stat().st_size > 2 * 1024 * 1024:
        failures.append(f"{label}: the page is {page.stat().st_size} bytes, over 2 MB")
    # The reading must reject a page whose first wrong cell is not marked.
    broken = pages / "broken-mark.html"
    broken.write_text(page.read_text().replace('class="first-wrong"', 'class="unmarked"'))
    if not step_problems(browse(browser, broken), check, barrier_line):
        failures.append(f"{label}: a page with the first wrong cell not marked passed the reading")
    print(f"{label:<50} {'ok' if not problems else 'FAILED':<7} page {page}, screenshot {screenshot}")
    if screenshot_for_readme and not problems:
        alone = pages / "steps-alone.html"
        width, height = figure_alone(page, f"steps-{number}-1", alone)
        browse(browser, alone, Path(screenshot_for_readme), f"{width + 40},{height + 90}")
    return failures


def browse(browser: str, page: Path, screenshot: Path | None = None, window: str = "1000,1700") -> str:
    """The document Chromium renders from `page` (and its screenshot, where asked for)."""
    with tempfile.TemporaryDirectory(prefix="scanlab-chromium-") as profile:
        return _browse(browser, page, screenshot, window, profile)


def _browse(browser: str, page: Path, screenshot: Path | None, window: str, profile: str) -> str:
    flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
             "--user-data-dir=" + profile]
    url = page.resolve().as_uri()
    dom = subprocess.run(flags + ["--dump-dom", url], capture_output=True, text=True, timeout=120)
    if dom.returncode != 0 or "<html" not in dom.stdout:
        raise RuntimeError(f"{browser} --dump-dom failed ({dom.returncode}): {dom.stderr[-1500:]}")
    if screenshot is not None:
        shot = subprocess.run(flags + ["--hide-scrollbars", f"--window-size={window}", f"--screenshot={screenshot}",
                                       url], capture_output=True, text=True, timeout=120)
        if shot.returncode != 0 or not screenshot.is_file():
            raise RuntimeError(f"{browser} --screenshot failed ({shot.returncode}): {shot.stderr[-1500:]}")
    return dom.stdout


def fixed_twin_problems(submission: Path, build_root: Path, jobs: str) -> list[str]:
    """The reference of lab 02 (the known-bad kernels' fixed twin) graded with --pictures: full
    marks, no test run again, a page with no picture."""
    pages = build_root / "pictures-fixed"
    shutil.rmtree(pages, ignore_errors=True)
    proc = subprocess.run([str(HERE.parent / "grade"), "--submission", str(submission), "--build-root", str(build_root),
                           "--jobs", jobs, "--color", "never", "--pictures", str(pages), "02"],
                          capture_output=True, text=True)
    page = pages / f"{submission.name}.html"
    problems = []
    if proc.returncode != 0:
        problems.append(f"fixed twin: lab 02's reference failed with --pictures:\n{proc.stdout[-1500:]}")
    if not page.is_file() or "<figure" in page.read_text():
        problems.append(f"fixed twin: no page at {page}, or a picture on it")
    again = sorted(p.name for p in build_root.glob("*/grade-logs/02-kogge-stone/picture-*"))
    if again:
        problems.append(f"fixed twin: tests of a passing lab were run again for pictures: {again[:4]}")
    print(f"{'02/reference (fixed twin)':<50} {'ok' if not problems else 'FAILED':<7} page {page}")
    return problems


def run_page_case(browser: str, build_root: Path, screenshot_for_readme: str | None) -> list[str]:
    """The page of a simcc program's run (SCANLAB_SIM_PAGE): the simulator's planted in-place
    Kogge-Stone scan without its barrier, built with simcc and run once with the page asked for.
    Its race must be drawn as a graded page draws one: the racing pair at the cell, threads and
    lines of the picture that a run of its own, asked for that race's picture, records."""
    label = "simcc run page/kogge_stone_inplace"
    source = REPO / "common" / "sim" / "tests" / "planted" / "kogge_stone_inplace.cu"
    folder = build_root / "pictures-run"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    program, page, first = folder / "kogge_stone_inplace", folder / "run.html", folder / "first.jsonl"
    built = subprocess.run([sys.executable, str(REPO / "common" / "bin" / "simcc"), "-O2", str(source), "-o", str(program)],
                           capture_output=True, text=True)
    if built.returncode != 0:
        return [f"{label}: simcc failed: {built.stderr[-1500:]}"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCANLAB_SIM_")}
    subprocess.run(["./" + program.name], env={**env, "SCANLAB_SIM_PAGE": page.name, "SCANLAB_SIM_REPORT_JSON": str(first)},
                   capture_output=True, timeout=600, cwd=folder)  # as a student types it
    races = [f for f in records.from_records(records.records_in_file(first)) if f.kind == "race"]
    if not page.is_file() or not races:
        return [f"{label}: no page ({page}) or no race in the run's records"]
    # The race's picture, asked for by a run of our own: the page's must be the same.
    again = folder / "again.jsonl"
    subprocess.run([str(program)], env={**env, drawing.RACE_REQUEST_ENV: drawing.request_for(races[0]) or "",
                                        "SCANLAB_SIM_REPORT_JSON": str(again)}, capture_output=True, timeout=600)
    pictured = next((f for f in records.from_records(records.records_in_file(again)) if f.kind == "race" and f.picture), None)
    if pictured is None:
        return [f"{label}: the run asked for the race's picture recorded none"]
    race = {"places": [{"line": pl.line} for pl in pictured.places], "picture": pictured.picture}
    screenshot = build_root / "pictures-run.png"
    problems = drawing_problems(browse(browser, page, screenshot), race)
    broken = folder / "broken-highlighting.html"
    broken.write_text(page.read_text().replace('class="racing ', 'class="access '))
    failures = [f"{label}: {pr}" for pr in problems]
    if not drawing_problems(browse(browser, broken), race):
        failures.append(f"{label}: a page with the racing pair not highlighted passed the reading")
    print(f"{label:<50} {'ok' if not problems else 'FAILED':<7} page {page}, screenshot {screenshot}")
    if screenshot_for_readme and not problems:
        browse(browser, page, Path(screenshot_for_readme), "1000,920")
    return failures


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build-root", required=True)
    p.add_argument("--jobs", default="2")
    p.add_argument("--screenshot-for-readme", default=None, metavar="PATH",
                   help="also copy lab 02's screenshot here (the grader README's picture)")
    p.add_argument("--step-screenshot-for-readme", default=None, metavar="PATH",
                   help="also keep lab 04's step picture alone here (the grader README's second picture)")
    p.add_argument("--race07-screenshot-for-readme", default=None, metavar="PATH",
                   help="also keep lab 07's race picture alone here (the grader README's)")
    p.add_argument("--deadlock-screenshot-for-readme", default=None, metavar="PATH",
                   help="also keep lab 07's deadlock picture alone here (the grader README's)")
    p.add_argument("--bounds-screenshot-for-readme", default=None, metavar="PATH",
                   help="also keep lab 02's out-of-bounds picture alone here (the grader README's)")
    p.add_argument("--handoff-screenshot-for-readme", default=None, metavar="PATH",
                   help="also keep lab 07's hand-off picture alone here (the grader README's)")
    p.add_argument("--run-page-screenshot-for-readme", default=None, metavar="PATH",
                   help="also keep the page of a simcc program's run here (the simulator README's)")
    p.add_argument("labs", nargs="*", metavar="LAB", help="only these labs' cases (default: all; 'run': the "
                                                         "page of a simcc program's run)")
    args = p.parse_args()
    if not args.labs or any(number in args.labs for number, *_ in STEP_CASES):
        arithmetic = algorithm_problems()
        for problem in arithmetic:
            print("FAIL the step pictures' arithmetic: " + problem)
        if arithmetic:
            return 1
    browser = next((shutil.which(b) for b in BROWSERS if shutil.which(b)), None)
    if browser is None:
        print("skipped: Chromium is not installed (common/bin/prerequisites check installs it)")
        return SKIP
    build_root = Path(args.build_root).resolve()
    scratch = build_root / "pictures-submission"
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(REPO / "solutions", scratch, symlinks=True)
    labs = manifest.discover(REPO / "grader" / "labs")
    failures = []
    for number, name in CASES:
        if args.labs and number not in args.labs:
            continue
        label = f"{number}/{name}"
        page, doc, named, _, error = graded_page(scratch, build_root, args.jobs, labs, number, name, "race")
        if error:
            failures.append(f"{label}: {error}")
            continue
        pages = page.parent
        races = [f for c in doc["labs"][0]["checks"] for f in c["findings"]
                 if f["kind"] == "race" and any(pl["line"] == named for pl in f["places"])
                 and (f.get("picture") or {}).get("kind") == "race"]
        if not races:
            failures.append(f"{label}: no race at line {named} with a picture in grade's report")
            continue
        screenshot = build_root / f"pictures-{number}-race.png"
        dom = browse(browser, page, screenshot)
        problems = drawing_problems(dom, races[0])
        failures += [f"{label}: {pr}" for pr in problems]
        # The reading must reject a page whose racing pair is not highlighted.
        broken = pages / "broken-highlighting.html"
        broken.write_text(page.read_text().replace('class="racing ', 'class="access '))
        if not drawing_problems(browse(browser, broken), races[0]):
            failures.append(f"{label}: a page with the racing pair not highlighted passed the reading")
        print(f"{label:<50} {'ok' if not problems else 'FAILED':<7} page {page}, screenshot {screenshot}")
        if number == "07" and args.race07_screenshot_for_readme and not problems:
            alone = pages / "picture-alone.html"
            width, height = figure_alone(page, "picture-1", alone)
            browse(browser, alone, Path(args.race07_screenshot_for_readme), f"{width + 60},{height + 50}")
        if number == "02" and args.screenshot_for_readme and not problems:
            # The README shows the picture alone: the page's first figure with the page's style.
            text = page.read_text()
            style = text[text.index("<style>"):text.index("</style>") + len("</style>")]
            figure = text[text.rindex("<figure", 0, text.index('id="picture-1"')):]
            figure = figure[:figure.index("</figure>") + len("</figure>")]
            alone = pages / "picture-alone.html"
            alone.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'>{style}</head>"
                             f"<body style='margin:0.5em'>{figure}</body></html>")
            width, height = (re.search(rf'{k}="([0-9.]+)"', figure).group(1) for k in ("width", "height"))
            browse(browser, alone, Path(args.screenshot_for_readme),
                   f"{int(float(width)) + 60},{int(float(height)) + 50}")
    for number, name, check_id, barrier_tag in STEP_CASES:
        if args.labs and number not in args.labs:
            continue
        failures += step_case(browser, scratch, build_root, args.jobs, labs, number, name, check_id, barrier_tag,
                              args.step_screenshot_for_readme if number == "04" else None)
    for case in KIND_CASES:
        if args.labs and case[0] not in args.labs:
            continue
        failures += kind_case(browser, scratch, build_root, args.jobs, labs, case,
                              {"wait": args.deadlock_screenshot_for_readme, "bounds": args.bounds_screenshot_for_readme,
                               "handoff": args.handoff_screenshot_for_readme}[case[2]])
    if not args.labs or "02" in args.labs:
        failures += fixed_twin_problems(scratch, build_root, args.jobs)
    if not args.labs or "run" in args.labs:
        failures += run_page_case(browser, build_root, args.run_page_screenshot_for_readme)
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
