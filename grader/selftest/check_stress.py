"""The same grade every time, on a loaded machine.

Two graders at once, each with a build root and results of its own, beside a CPU hog, grade one
class: COPIES copies of the reference solutions and COPIES of the skeletons of three labs, so
that each is graded 2 x COPIES times in all. Every reference must get full marks, every
skeleton the same score as every other, and the two gradebooks must be the same row for row
(the grade of a submission never depends on what else the machine is doing). Where the load
stretched a time limit, the reports say so (scanlab_grader/busy_clock.py); the count is printed.
Both import the kit's shared part from the tree SCANLAB_PREBUILT_DIR names (the ctest build
tree), as a prepared grading machine does: what is under load is the grading, not the kit's build.

Usage: check_stress.py --work-dir DIR [--copies N] [LAB ...]   (default: 5 copies; labs 01 02 03)"""

import argparse
import csv
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

import sample_submissions  # noqa: E402

HOG = "while True: pass"


def make_class(folder: Path, lab_dirs: list[str], copies: int) -> None:
    for i in range(1, copies + 1):
        sample_submissions.copy_solutions(folder / f"reference-{i}", lab_dirs)
        skeleton = folder / f"skeleton-{i}"
        skeleton.mkdir(parents=True)
        for lab in lab_dirs:
            shutil.copytree(REPO / "labs" / lab, skeleton / lab)


def gradebook(results: Path) -> list[dict[str, str]]:
    with open(results / "gradebook.csv", newline="") as f:
        return list(csv.DictReader(f))


def without_name(row: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in row.items() if k != "student"}


def stretched_limits(results: Path) -> int:
    count = 0
    for report in (results / "reports").glob("*.json"):
        count += json.dumps(json.loads(report.read_text())).count("the machine was busy")
    return count


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--work-dir", required=True)
    p.add_argument("--copies", type=int, default=5)
    p.add_argument("labs", nargs="*", default=["01", "02", "03"])
    args = p.parse_args()
    started = time.monotonic()
    work = Path(args.work_dir).resolve()
    if work.exists():
        shutil.rmtree(work)
    lab_dirs = [d.name for n in args.labs for d in sorted((REPO / "labs").glob(f"{n}-*"))]
    if len(lab_dirs) != len(args.labs):
        print(f"FAIL: not every lab of {args.labs} is in labs/")
        return 1

    class_dir = work / "class"
    make_class(class_dir, lab_dirs, args.copies)
    graders = ["grader-a", "grader-b"]
    print(f"{len(graders)} graders; a class of {2 * args.copies} "
          f"({args.copies} references, {args.copies} skeletons of labs {', '.join(args.labs)})", flush=True)

    hog = subprocess.Popen([sys.executable, "-c", HOG])
    try:
        running = []
        for name in graders:
            log = open(work / f"{name}.log", "w")
            cmd = [str(REPO / "grader" / "grade"), "--batch", str(class_dir), "--results",
                   str(work / f"{name}-grades"), "--build-root", str(work / f"{name}-build"), *args.labs]
            running.append((name, subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT), log))
        for name, process, log in running:
            process.wait()
            log.close()
            print(f"{name}: grade --batch exited {process.returncode}", flush=True)
    finally:
        hog.kill()
        hog.wait()

    problems = []
    books = {}
    for name in graders:
        results = work / f"{name}-grades"
        if not (results / "gradebook.csv").is_file():
            problems.append(f"{name} wrote no gradebook (see {work / (name + '.log')})")
            continue
        books[name] = {row["student"]: row for row in gradebook(results)}
        print(f"{name}: {stretched_limits(results)} time limits stretched by the load")
    for name, book in books.items():
        expected = {f"{kind}-{i}" for kind in ("reference", "skeleton") for i in range(1, args.copies + 1)}
        if set(book) != expected:
            problems.append(f"{name}: the gradebook has {sorted(book)}, not the class")
            continue
        for kind in ("reference", "skeleton"):
            rows = [without_name(book[f"{kind}-{i}"]) for i in range(1, args.copies + 1)]
            for i, row in enumerate(rows[1:], start=2):
                if row != rows[0]:
                    problems.append(f"{name}: {kind}-{i} was graded {row}, {kind}-1 {rows[0]}")
        reference = book["reference-1"]
        if reference["status"] != "graded" or reference["score"] != reference["max_score"]:
            problems.append(f"{name}: a reference solution was graded {without_name(reference)}")
    if len(books) == 2:
        a, b = books.values()
        for student in sorted(set(a) & set(b)):
            if a[student] != b[student]:
                problems.append(f"the two graders differ on {student}: {a[student]} and {b[student]}")
    print(f"{time.monotonic() - started:.0f} s in all")
    for row in books.get("grader-a", {}).values():
        if row["student"].endswith("-1"):
            print(f"  {row['student']}: {row['status']}, {row['score']}/{row['max_score']}")
    if problems:
        print("FAIL:\n  " + "\n  ".join(problems))
        return 1
    print("OK: every run of the class gave the same gradebook")
    return 0


if __name__ == "__main__":
    sys.exit(main())
