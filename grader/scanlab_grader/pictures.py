"""Pictures of what failed: a race drawn as the textbook draws a scan, array cells by barrier
intervals, on one self-contained HTML page per graded submission (`grade --pictures DIR`).

Nothing is recorded while a lab is graded: a correct lab costs what it cost before. Once a
lab's checks are known, each test that failed with a race in shared memory runs once more, alone,
with SCANLAB_SIM_RACE_PICTURE naming that race's block, variable and byte (the record's "memory");
the simulator's runs are deterministic for a seed, so the run meets the same race and records
the accesses around it (common/sim/runtime/checks/race_picture.hpp), which come back as the
finding's "picture". A deadlock and an out-of-bounds access carry their pictures in every record
(wait_picture, bounds_picture), which the lab's findings keep (scanlab_findings/records.py), so
they are drawn as they are and nothing runs again for them. A hand-off between blocks without its
fence is drawn from the finding's own places and fix. The drawings are common's
(common/python/scanlab_findings/drawing.py and its templates/drawings.j2, which also draw the page
of a simcc program's run); the page of a submission is grader/templates/pictures.html.j2. What
is lab-specific stays here: which test runs again, and the expected steps of a lab's scan.
"""

from __future__ import annotations

import base64
import html
import re
import struct
from pathlib import Path
from typing import Callable

from scanlab_findings import drawing, records as findings_of

STEP_REQUEST_ENV = "SCANLAB_SIM_STEP_PICTURE"
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"  # the page; its drawings are common's
STEP_BLOCK = "0,0,0"
MAX_PICTURES_PER_LAB = 4  # races drawn per lab; each costs one run of its test

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
        request = drawing.request_for(finding)
        if request is None:
            continue
        asked += 1
        picture = next((f.picture for f in findings_of.from_records(run_again(finding.test, drawing.RACE_REQUEST_ENV, request, asked), repo)
                        if f.kind == "race" and f.picture), None)
        if picture is None:
            continue
        # The picture is of this report of the race (its threads); the same lines reported by other
        # tests, with other threads, keep their words alone.
        for c in checks:
            for f in c.findings:
                if f.key == finding.key and f.places == finding.places:
                    f.picture = picture
    record_handoffs(lab_result)
    record_steps(lab_result, run_again, repo, asked)


def record_handoffs(lab_result) -> None:
    """A hand-off between blocks that a failed check reported gets its picture: drawn from the
    finding's own places and the side its record names as missing, so nothing runs again."""
    for finding, checks in lab_result.findings():
        if finding.picture or not finding.error or not any(c.status == "fail" for c in checks):
            continue
        picture = drawing.handoff_picture(finding, lab_result.lab.dir)
        if picture is None:
            continue
        for c in checks:
            for f in c.findings:
                if f.key == finding.key:
                    f.picture = picture



# --- A wrong result drawn as the slides draw a scan: the block's shared array after each step. ---

# The block whose steps are asked for. Which block wrote the first wrong output element is in the
# failed check's words only, and a wrong step of a block scan usually spoils every section alike:
# the first block is asked for, and its runs are compared with the algorithm as data.
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


def _inclusive_kogge_stone(x: list, op, identity=None) -> list[tuple[str, list]]:
    """Lab 02's in-place scan, one state per stride: each element combined with the one `stride`
    places before it (solutions/02-kogge-stone/kogge_stone.cu, block_scan_inplace). The lab's
    kernel crosses two barriers a stride (after the reads, after the writes); a kernel may cross
    more or fewer, so its steps are compared as states, a barrier that changed nothing dropped
    (CHANGES_ONLY)."""
    a = list(x)
    out = [("loaded", list(a))]
    stride = 1
    while stride < len(a):
        a = [op(a[i - stride], a[i]) if i >= stride else a[i] for i in range(len(a))]
        out.append((f"stride {stride}", list(a)))
        stride *= 2
    return out


# Per lab folder and test: the lab's algorithm, step by step, from the array its first barrier saw,
# and where each element lives in the shared array (None: at its own index).
STEP_ALGORITHMS = {("02-kogge-stone", "InPlace"): (_inclusive_kogge_stone, None),
                   ("04-brent-kung", "Inclusive"): (_inclusive_brent_kung, None),
                   ("04-brent-kung", "Exclusive"): (_exclusive_brent_kung, _brent_kung_padding)}
# The algorithms whose steps are compared as the states the array went through: a barrier after
# which the array is as it was before (the read half of an in-place step) is no step of its own.
CHANGES_ONLY = {_inclusive_kogge_stone}


def _changes(rows: list[list]) -> list[int]:
    """The indices of the rows that differ from the row before them, the first row included."""
    return [k for k in range(len(rows)) if k == 0 or rows[k] != rows[k - 1]]


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
    if algorithm in CHANGES_ONLY:
        kept = _changes(yours)
        yours, steps = [yours[k] for k in kept], [steps[k] for k in kept]
        expected = [expected[k] for k in _changes([e for _, e in expected])]
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
        return {"run": int(p.get("run", 0)), "memory": p.get("memory", {}), "drawing": drawing.step_layout(wrong, p)}
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
def page_name(submission: str) -> str:
    """The page's file name for a submission folder: its last part, safe as a file name."""
    name = Path(submission.rstrip("/")).name or "submission"
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name) + ".html"



def render_page(report) -> str:
    """The page of one graded submission: the lab table, each lab's findings, and the picture of a
    race, a deadlock, an access outside a buffer or a hand-off, where one was drawn."""
    labs = []
    drawn = 0
    for lab in report.labs:
        findings = []
        for f, checks in lab.findings():
            drawn += drawing.is_race(f)
            findings.append(drawing.finding_item(f, lab.lab.dir, drawn, [c.check.id for c in checks]))
        labs.append({"result": lab, "findings": findings, "steps": lab.step_pictures})
    return drawing.environment(TEMPLATES).get_template("pictures.html.j2").render(report=report, labs=labs, escape=html.escape)


def images(lab) -> dict[str, list[dict]]:
    """A lab's pictures as images a platform can show beside a check (PrairieLearn's results
    carry them): check id -> [{"label", "url"}], each an SVG data URL, the same drawing as the
    page's. Empty where nothing failed or nothing was drawn: without --pictures only a deadlock's
    and an out-of-bounds access's pictures are there, since their records always carry them."""
    if not lab.step_pictures and not any(f.picture for f, _ in lab.findings()):
        return {}
    try:
        drawings = drawing.environment().get_template("drawings.j2").module
    except drawing.PicturesUnavailable:
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
            if drawing.is_handoff(f):
                svg = str(drawings.handoff_svg(drawing.handoff_layout(f, lab.lab.dir)))
            elif drawing.is_wait(f):
                svg = str(drawings.wait_svg(drawing.wait_layout(f.picture, drawing.student_file(f, lab.lab.dir))))
            elif drawing.is_bounds(f):
                svg = str(drawings.bounds_svg(drawing.bounds_layout(f.picture, drawing.student_file(f, lab.lab.dir))))
            else:
                svg = str(drawings.race_svg(drawing.race_layout_of(f, lab.lab.dir)))
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
