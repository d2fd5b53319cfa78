"""`grade --batch` grades a class of lab 02 submissions, isolated from each other, and resumes.

Six students (sample_submissions.py): two correct ones (one as a .zip, one as a .tar.gz), one
that does not compile, one that hangs, one that calls exit(), and an archive that is not one.
The simulator runtime and the suite must be built once (a prebuilt tree), never in a worker's
tree. With -j2 every student must get a row of gradebook.csv with the right outcome (full marks, a
compile error scoring 0, a time-out, a forbidden call, "not graded"), a report each, and the
broken archive must not stop the others. A second run must grade nobody (every report is newer
than its submission); after one student's submission changes, only that one is graded again.
`--only` and `--merge`, the steps of a Slurm job array, must give the same rows; the tasks write
no gradebook, and the merge names the students no task graded "not graded".

Usage: check_batch.py --work-dir DIR"""

import argparse
import csv
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import sample_submissions  # noqa: E402


def grade(*args: str) -> subprocess.CompletedProcess:
    cmd = [str(HERE.parent / "grade"), *args]
    print("$", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(proc.stdout[-3000:])
    return proc


def gradebook(results: Path) -> dict[str, dict]:
    with open(results / "gradebook.csv", newline="") as f:
        return {row["student"]: row for row in csv.DictReader(f)}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--work-dir", required=True)
    args = p.parse_args()
    work = Path(args.work_dir).resolve()
    if work.exists():
        shutil.rmtree(work)
    class_dir, results = work / "class", work / "class-grades"
    samples = {s.student: s for s in sample_submissions.batch_samples()}
    chosen = ["correct-1", "correct-2", "not-compiling", "hanging", "cheat-process-escape"]
    class_dir.mkdir(parents=True)
    for name in chosen:
        folder = class_dir / name
        sample_submissions.copy_solutions(folder, ["02-kogge-stone"])
        samples[name].edit(folder)
    sample_submissions._archive(class_dir / "correct-1", zip_format=True)
    sample_submissions._archive(class_dir / "correct-2", zip_format=False)
    (class_dir / "broken-archive.zip").write_bytes(b"this is not a zip file")

    common = ["--results", str(results), "--timeout", "5", "--lab-timeout", "60", "02"]
    first = grade("--batch", str(class_dir), "-j2", *common)
    problems = []
    if first.returncode != 1:
        problems.append(f"the batch exited with {first.returncode}, expected 1 (one student could not be graded)")
    book = gradebook(results)
    expected = {"correct-1": ("graded", "55", ""), "correct-2": ("graded", "55", ""),
                "not-compiling": ("graded", "0", "compile error"), "hanging": ("graded", "0", "timed out"),
                "cheat-process-escape": ("graded", "0", "process escape"), "broken-archive": ("not graded", "", "unpack")}
    for student, (status, score, says) in expected.items():
        row = book.get(student)
        if row is None:
            problems.append(f"{student}: no row in gradebook.csv")
            continue
        if row["status"] != status or (score is not None and row["score"] != score):
            problems.append(f"{student}: gradebook row {row}, expected status {status}, score {score}")
        report = results / "reports" / f"{student}.txt"
        text = (row["problems"] + (report.read_text(errors="replace") if report.is_file() else ""))
        if says and says not in text:
            problems.append(f"{student}: neither its gradebook row nor its report says '{says}'")

    # What is not student code was built once, in the prebuilt tree, and never by a worker.
    workers = sorted((results / "build").glob("worker-*"))
    rebuilt = [p for w in workers for p in w.rglob("*")
               if p.name == "libscanlab_sim.a" or (p.suffix == ".o" and any(d.endswith("_suite.dir") for d in p.parts))]
    if len(workers) != 2 or rebuilt:
        problems.append(f"{len(workers)} worker trees (expected 2); built again by a worker: {rebuilt[:3]}")
    if not list((results / "build" / "prebuilt-sim").rglob("libscanlab_sim.a")):
        problems.append("the prebuilt tree has no simulator runtime")

    started = time.monotonic()
    again = grade("--batch", str(class_dir), "-j2", *common)
    if "5 of 6 students already graded" not in again.stdout:
        problems.append("a second run did not reuse the five reports it had")
    (class_dir / "hanging" / "02-kogge-stone" / "kogge_stone.cu").write_text(
        (sample_submissions.REPO / "solutions" / "02-kogge-stone" / "kogge_stone.cu").read_text())
    third = grade("--batch", str(class_dir), "-j2", *common)
    # The broken archive has no report, so it is tried again too.
    if "4 of 6 students already graded" not in third.stdout:
        problems.append("after one submission changed, the others were graded again")
    if gradebook(results).get("hanging", {}).get("score") != "55":
        problems.append("after its fix, the hanging student was not graded again")
    print(f"re-runs took {time.monotonic() - started:.0f} s")

    # The steps of a Slurm array: one student per task, then the merge.
    (results / "gradebook.csv").unlink()
    shutil.rmtree(results / "reports" )
    for name in ("not-compiling", "cheat-process-escape"):
        grade("--batch", str(class_dir), "--only", name, *common)
    if (results / "gradebook.csv").exists():
        problems.append("an --only task wrote gradebook.csv (the merge alone writes it)")
    grade("--batch", str(class_dir), "--merge", "--results", str(results))
    merged = gradebook(results)
    tasks = {"cheat-process-escape", "not-compiling"}
    # The merge names every student: those no task graded "not graded", with that reason.
    if (set(merged) != set(expected) or any(merged[n]["score"] != "0" for n in tasks)
            or any(r["status"] != "not graded" or "no grading of this student ran" not in r["problems"]
                   for n, r in merged.items() if n not in tasks)):
        problems.append(f"--only and --merge gave {merged}")

    if problems:
        print("\nFAIL:\n" + "\n".join(problems))
        return 1
    print("\nOK: the batch graded every student, kept going past a broken one, and resumed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
