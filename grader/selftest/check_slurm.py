"""A class graded by a Slurm job array: grader/platforms/slurm/grade-array.sbatch, one task per
student, and the gradebook merged by a job that waits for them (sbatch --dependency).

Runs only where a Slurm controller answers (`sinfo` succeeds); elsewhere it exits 77, which
ctest reports as skipped, never as passed. Four lab 02 students (sample_submissions.py): a
correct one as a .zip, one that does not compile, one that calls exit(), one that hangs. The
merged gradebook must hold all four with their scores, each graded by its own task.

Usage: check_slurm.py --work-dir DIR  (DIR must be on a file system the Slurm nodes see)"""

import argparse
import csv
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

import sample_submissions  # noqa: E402

SKIP = 77


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--work-dir", required=True)
    p.add_argument("--wait", type=float, default=1800, help="seconds to wait for the jobs")
    args = p.parse_args()
    if shutil.which("sbatch") is None or subprocess.run(["sinfo"], capture_output=True).returncode != 0:
        print("skipped: no Slurm controller answers here (sbatch/sinfo)")
        return SKIP
    work = Path(args.work_dir).resolve()
    if work.exists():
        shutil.rmtree(work)
    class_dir, results = work / "class", work / "grades"
    samples = {s.student: s for s in sample_submissions.batch_samples()}
    expected = {"correct-1": "55", "not-compiling": "0", "cheat-process-escape": "0", "hanging": "0"}
    class_dir.mkdir(parents=True)
    for name in expected:
        sample_submissions.copy_solutions(class_dir / name, ["02-kogge-stone"])
        samples[name].edit(class_dir / name)
    sample_submissions._archive(class_dir / "correct-1", zip_format=True)

    script = REPO / "grader" / "platforms" / "slurm" / "grade-array.sbatch"
    log = work / "slurm-%A_%a.out"
    array = subprocess.run(["sbatch", "--parsable", f"--array=0-{len(expected) - 1}", f"--output={log}",
                            str(script), str(class_dir), str(results), "--timeout", "5", "--lab-timeout", "60", "02"],
                           cwd=REPO, capture_output=True, text=True,
                           env={**os.environ, "SCANLAB_BUILD_ROOT": str(work / "build")})
    if array.returncode != 0:
        print(f"FAIL: sbatch of the array: {array.stderr}")
        return 1
    job = array.stdout.strip().split(";")[0]
    merge = subprocess.run(["sbatch", "--parsable", f"--dependency=afterany:{job}", f"--output={work}/merge.out",
                            "--wrap", f"{REPO}/grader/grade --batch {class_dir} --results {results} --merge"],
                           cwd=REPO, capture_output=True, text=True)
    if merge.returncode != 0:
        print(f"FAIL: sbatch of the merge: {merge.stderr}")
        return 1
    merge_job = merge.stdout.strip().split(";")[0]
    print(f"array job {job} ({len(expected)} tasks), merge job {merge_job}", flush=True)
    deadline = time.monotonic() + args.wait
    while time.monotonic() < deadline:
        queued = subprocess.run(["squeue", "-h", "-j", f"{job},{merge_job}"], capture_output=True, text=True)
        if queued.returncode == 0 and not queued.stdout.strip():
            break
        time.sleep(5)
    else:
        print(f"FAIL: the jobs did not end within {args.wait:g} s")
        return 1
    for out in sorted(work.glob("slurm-*.out")):
        print(f"--- {out.name}\n" + out.read_text(errors="replace")[-600:])
    gradebook = results / "gradebook.csv"
    if not gradebook.is_file():
        print("FAIL: the merge job wrote no gradebook.csv")
        return 1
    with open(gradebook, newline="") as f:
        rows = {r["student"]: r for r in csv.DictReader(f)}
    print(gradebook.read_text())
    problems = [f"{name}: {rows.get(name)}, expected score {score}" for name, score in expected.items()
                if rows.get(name, {}).get("score") != score]
    tasks = sorted(work.glob("slurm-*_*.out"))
    if len(tasks) != len(expected):
        problems.append(f"{len(tasks)} task logs, expected {len(expected)}")
    if problems:
        print("FAIL:\n" + "\n".join(problems))
        return 1
    print(f"OK: {len(expected)} students graded by {len(expected)} array tasks and merged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
