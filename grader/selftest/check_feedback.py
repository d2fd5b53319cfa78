"""Three everyday mistakes of lab 02 in one submission, and what the student is told of them.

The reference kogge_stone.cu with: the load of `in[i]` without its bounds check, the
double-buffered scan launched with `n / section_size` blocks (a grid of none for n below a
section), and the in-place scan without the barrier between a step's reads and its writes. The
lab is graded once, in Gradescope's format; the text table (printed beside it) and the
Gradescope JSON must each name, at `02-kogge-stone/kogge_stone.cu:LINE` of the student's own
file (never the build's staging copy):
- the out-of-bounds read at the line of the unchecked load, under correctness-inplace;
- the invalid launch at the double-buffered scan's launch line, under correctness-double-buffer;
- the race at the racing statement, under race-freedom-inplace.

Usage: check_feedback.py --build-root DIR [--jobs N]"""

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))  # scanlab_findings, scanlab_build
sys.path.insert(0, str(HERE))

from run_mutants import text_of_check  # noqa: E402
from scanlab_grader import manifest, solution_source  # noqa: E402

LAB = "02-kogge-stone"
FILE = "kogge_stone.cu"
# (tag of the reference's line, text found there, replacement): the mistakes, as students make them.
MISTAKES = (("guarded-load", "i < n ? in[i] : op.identity()", "in[i]"),
            ("double-buffer-launch", "section_count(n, section_size)", "n / section_size"),
            ("inplace-read-write-barrier", None, ""))


def mistaken_source() -> str:
    path = REPO / "solutions" / LAB / FILE
    text = path.read_text()
    for at, find, replace in MISTAKES:
        text = solution_source.parse(path, text).edited(at, find, replace)
    return text


def line_of(text: str, code: str) -> int:
    [number] = [i + 1 for i, line in enumerate(text.splitlines()) if code in line]
    return number


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--build-root", required=True)
    p.add_argument("--jobs", default="2")
    args = p.parse_args()
    build_root = Path(args.build_root).resolve()
    submission = build_root / "feedback-submission"
    shutil.rmtree(submission, ignore_errors=True)
    (submission / LAB).mkdir(parents=True)
    source = mistaken_source()
    (submission / LAB / FILE).write_text(source)
    where = f"{LAB}/{FILE}"
    expected = {  # check -> (kind of finding, line it must name)
        "correctness-inplace": ("out-of-bounds", line_of(source, "section[threadIdx.x] = in[i];")),
        "correctness-double-buffer": ("invalid-launch", line_of(source, "kogge_stone_double_buffer_kernel<<<n /")),
        "race-freedom-inplace": ("race", line_of(source, "section[tid] = partial;")),
    }
    results = build_root / "feedback-results.json"
    results.unlink(missing_ok=True)
    cmd = [str(HERE.parent / "grade"), "--submission", str(submission), "--build-root", str(build_root),
           "--jobs", args.jobs, "--format", "gradescope", "--output", str(results), "--color", "never", "02"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    print(proc.stdout)
    try:
        gradescope = {t["name"].split(" · ")[1].split(":")[0]: t for t in json.loads(results.read_text())["tests"]}
    except (OSError, json.JSONDecodeError, IndexError, KeyError) as e:
        print(f"FAIL: no Gradescope results ({e}); grade said:\n{proc.stderr[-3000:]}")
        return 1
    problems = []
    lab = manifest.discover(REPO / "grader" / "labs")["02"]
    for check in lab.checks:
        if check.id not in gradescope:
            problems.append(f"{check.id}: not in the Gradescope results")
    for check_id, (kind, line) in expected.items():
        place = f"{where}:{line}"
        test = gradescope.get(check_id, {})
        if test.get("status") != "failed":
            problems.append(f"{check_id}: expected to fail, Gradescope says {test.get('status')}")
        for name, text in (("text table", text_of_check(proc.stdout, "02", check_id)), ("Gradescope", test.get("output", ""))):
            if place not in text or f"[{kind}]" not in text:
                problems.append(f"{check_id}: the {name} does not name the {kind} at {place}")
        print(f"{check_id:<28} {kind} at {place}")
    for name, text in (("text table", proc.stdout), ("Gradescope", results.read_text())):
        if str(build_root / "submissions") in text or "submissions/feedback-submission" in text:
            problems.append(f"the {name} names a path of the build's staging copy")
    if problems:
        print("FAIL:\n" + "\n".join(problems))
        return 1
    print("the three mistakes are each named at the student's line, in the text table and in Gradescope's JSON")
    return 0


if __name__ == "__main__":
    sys.exit(main())
