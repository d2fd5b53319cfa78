"""End-to-end checks of grader/grade on the repository's own labs.

  check_submissions.py solutions   `grade --submission solutions` of every lab
                                   that has a reference solution scores full marks
                                   with no finding of the simulator at all (no
                                   error, no warning, in any check, passed or not)
  check_submissions.py skeletons   `grade` of the skeletons in labs/ fails every
                                   lab, by failed assertions only: a skeleton must
                                   compile, run and not crash; the text a student
                                   reads is at most 40 lines a lab

Either way, a performance check (GPU only) on the simulator must be shown as not graded:
skipped, no points either way, left out of the lab's maximum; on a GPU it must be graded.

Exit status 77 (ctest: skipped) when no lab has a folder in the submission."""

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))  # scanlab_findings, scanlab_build

from scanlab_grader import manifest  # noqa: E402

SKIP = 77
MAX_LINES_OF_AN_UNTOUCHED_LAB = 40  # what `grade NN` prints by default for a skeleton nobody started


def lines_per_lab(text: str) -> dict[str, int]:
    """The text report's lines by the lab they are about (a lab's table starts at its 'Lab NN'
    line, its details at 'Details of the failed checks of lab NN:'); "" counts the rest (the
    header and the total), which a report of one lab prints too."""
    counts: dict[str, int] = {}
    current = None
    for line in text.splitlines():
        if m := (re.match(r"Lab (\d\d) ", line) or re.match(r"Details of the failed checks of lab (\d\d):", line)):
            current = m.group(1)
        about = current if current is not None and not line.startswith("Total:") else ""
        counts[about] = counts.get(about, 0) + 1
    return counts


def performance_on_backend(doc: dict, backend: str) -> list[str]:
    """A skipped check is never a passed one: on the simulator every performance check is
    skipped as not graded and counts in neither the score nor the maximum; on a GPU it is graded."""
    problems = []
    for lab in doc["labs"]:
        checks = [c for c in lab["checks"] if c["category"] == "performance"]
        for c in checks:
            where = f"lab {lab['number']} check {c['id']} on {backend}"
            if backend == "sim" and (c["status"], c["kind"], c["points"], c["max_points"]) != ("skip", "gpu-only", 0, 0):
                problems.append(f"{where}: {c['status']} {c['kind']} {c['points']}/{c['max_points']}, "
                                "expected skipped as not graded, 0/0")
            if backend == "sim" and "not graded on the simulator" not in c["reason"]:
                problems.append(f"{where}: the reason does not say it is not graded: {c['reason']!r}")
            if backend == "cuda" and c["status"] == "skip":
                problems.append(f"{where}: skipped on a GPU: {c['reason']}")
        graded = sum(c["max_points"] for c in lab["checks"])
        if graded != lab["max_score"]:
            problems.append(f"lab {lab['number']}: maximum {lab['max_score']} is not the sum of its graded checks {graded}")
    return problems


def findings_of_references(doc: dict, text: str) -> list[str]:
    """A reference solution is right: anything the simulator reports while it is graded is a false
    alarm, a warning included, and the students who build on it would read it too. Each finding
    of the JSON report is named with its check; the text report must not have a findings section
    either (what a student reads)."""
    problems = []
    for lab in doc["labs"]:
        for c in lab["checks"]:
            for f in c["findings"]:
                where = ", ".join(f"{p['file']}:{p['line']} ({p['role']})" for p in f["places"])
                problems.append(f"reference solution of lab {lab['number']}, check {c['id']}: the simulator reported "
                                f"[{f['kind']}] {f['headline']}" + (f" at {where}" if where else ""))
    for line in text.splitlines():
        if line.startswith("What the simulator found in lab"):
            problems.append(f"the text report of the references has findings: {line!r}")
    return problems


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("which", choices=("solutions", "skeletons"))
    p.add_argument("--build-root", required=True)
    p.add_argument("--jobs", default="2")
    p.add_argument("--backend", default="sim")
    p.add_argument("--labs", nargs="+", metavar="NN", help="only these labs (default: every lab)")
    args = p.parse_args()

    labs = manifest.discover(REPO / "grader" / "labs")
    sub_dir = REPO / ("solutions" if args.which == "solutions" else "labs")
    present = [l for l in labs.values() if (sub_dir / l.dir).is_dir()
               and (not args.labs or l.number in {n.zfill(2) for n in args.labs})]
    if not present:
        print(f"skipped: no lab of the manifest has a directory in {sub_dir}")
        return SKIP
    report = Path(tempfile.mkdtemp(prefix="scanlab-check-")) / "report.json"
    cmd = [str(HERE.parent / "grade"), "--backend", args.backend,
           "--submission", args.which if args.which == "solutions" else "labs",
           "--format", "json", "--output", str(report), "--color", "never",
           "--build-root", args.build_root, "--jobs", args.jobs]
    cmd += [l.number for l in present]
    print("$", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)  # stdout: the text report
    try:
        doc = json.loads(report.read_text())
    except (OSError, json.JSONDecodeError):
        print(proc.stdout)
        print(f"FAIL: grade wrote no JSON report (exit status {proc.returncode})")
        return 1

    problems = performance_on_backend(doc, args.backend)
    if args.which == "solutions":
        problems += findings_of_references(doc, proc.stdout)
    for lab in doc["labs"]:
        for c in lab["checks"]:
            mark = {"pass": "PASS", "fail": "FAIL", "skip": "SKIP"}[c["status"]]
            print(f"  {lab['number']} {c['id']:<38} {mark} {c['reason']}")
        failed = [c for c in lab["checks"] if c["status"] == "fail"]
        if args.which == "solutions":
            for c in failed:
                problems.append(f"reference solution of lab {lab['number']} fails {c['id']}: {c['reason']}")
                problems.extend("    " + d for d in c["details"][:20])
        else:
            if not failed:
                problems.append(f"the skeleton of lab {lab['number']} passes every check")
            counts = lines_per_lab(proc.stdout)
            shown = counts.get(lab["number"], 0) + counts.get("", 0)  # as `grade NN` alone would print it
            if not counts.get(lab["number"]) or shown > MAX_LINES_OF_AN_UNTOUCHED_LAB:
                problems.append(f"the untouched skeleton of lab {lab['number']} is told in {shown} lines of text, "
                                f"where 1 to {MAX_LINES_OF_AN_UNTOUCHED_LAB} are expected")
            for c in failed:
                if c["kind"] != "assertion":
                    problems.append(f"skeleton of lab {lab['number']}, check {c['id']}: {c['kind']}: {c['reason']}")
    if args.which == "solutions" and proc.returncode != 0 and not problems:
        problems.append(f"grade exited with status {proc.returncode} although every check passed")
    if args.which == "skeletons" and proc.returncode != 1:
        problems.append(f"grade exited with status {proc.returncode}, expected 1")
    if problems:
        print("\n".join(["", "FAIL:"] + problems))
        return 1
    print(f"\nOK: {args.which} of labs {', '.join(l.number for l in present)} graded as expected "
          f"({doc['score']}/{doc['max_score']} points)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
