"""A class graded by a Slurm job array: grader/platforms/slurm/grade-array.sbatch, one task per
student, and the gradebook merged by a job that waits for them (sbatch --dependency).

Runs only where a Slurm controller answers (`sinfo` succeeds); elsewhere it exits 77, which
ctest reports as skipped, never as passed (CI starts one: grader/platforms/slurm/single-node).

- The README's three lines (grader/README.md, "On a cluster"), word for word but for the two
  folders, in a shell without USER or SCANLAB_BUILD_ROOT, on three lab 02 students
  (sample_submissions.py): a correct one as a .zip, one that does not compile, one that calls
  exit(). The merged gradebook must hold all three with their scores.
- A class of one whose task Slurm kills at its time limit (--time=1, a submission that hangs,
  the grader's own limits longer): its merged gradebook must still have the student's row,
  "not graded", saying why.
- The README's GPU lines (--backend cuda, --gres=gpu:1): on a cluster without GPUs, sbatch
  refuses them for their GPU request.

Usage: check_slurm.py --work-dir DIR  (DIR must be on a file system the Slurm nodes see)"""

import argparse
import csv
import os
import re
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
SBATCH = REPO / "grader" / "platforms" / "slurm" / "grade-array.sbatch"
# What a task's environment must not depend on: Slurm passes on the submitter's, and a CI
# runner's or a container's has no USER.
NOT_PASSED_ON = ("USER", "LOGNAME", "SCANLAB_BUILD_ROOT", "SCANLAB_KIT")


def readme_lines(which: int = 0) -> str:
    """The shell lines of grader/README.md's section on Slurm: its first block (the class on
    CPU nodes), or its second (the same class on GPU nodes)."""
    text = (REPO / "grader" / "README.md").read_text()
    section = text[text.index("### On a cluster: a Slurm job array"):]
    section = section[:section.index("\n## ")]
    return re.findall(r"```sh\n(.*?)```", section, re.S)[which]


def check_gpu_request(class_dir: Path, work: Path, env: dict) -> list[str]:
    """The README's GPU lines ask Slurm for a GPU a task: a cluster without GPUs refuses them
    at once, and nothing is queued."""
    if "gpu" in subprocess.run(["sinfo", "-h", "-o", "%G"], capture_output=True, text=True).stdout:
        print("the README's GPU lines: not tried, this cluster has GPUs")
        return []
    first = readme_lines(0).splitlines()[0]  # n=$(grader/grade --batch ~/class --list | wc -l)
    lines = (first + "\n" + readme_lines(1)).replace("~/class", str(class_dir))
    lines = lines.replace("~/grades-gpu", str(work / "grades-gpu"))
    typed = subprocess.run(["bash", "-c", lines], cwd=REPO, capture_output=True, text=True, env=env)
    print(f"the README's GPU lines on a cluster without GPUs:\n{typed.stdout}{typed.stderr}")
    if "Invalid generic resource (gres)" not in typed.stderr or submitted_jobs(typed.stdout):
        return ["the README's GPU lines were not refused for their GPU request on a cluster without GPUs"]
    return []


def gradebook(results: Path) -> dict[str, dict[str, str]]:
    path = results / "gradebook.csv"
    if not path.is_file():
        return {}
    with open(path, newline="") as f:
        return {r["student"]: r for r in csv.DictReader(f)}


def make_class(folder: Path, students: list[str]) -> None:
    samples = {s.student: s for s in sample_submissions.batch_samples()}
    folder.mkdir(parents=True)
    for name in students:
        sample_submissions.copy_solutions(folder / name, ["02-kogge-stone"])
        samples[name].edit(folder / name)


def submitted_jobs(output: str) -> list[str]:
    return re.findall(r"^(?:Submitted batch job )?(\d+)(?:;\S+)?$", output, re.M)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--work-dir", required=True)
    p.add_argument("--wait", type=float, default=1800, help="seconds to wait for the jobs")
    args = p.parse_args()
    if shutil.which("sbatch") is None or subprocess.run(["sinfo"], capture_output=True).returncode != 0:
        print("skipped: no Slurm controller answers here (sbatch/sinfo)")
        return SKIP
    started = time.monotonic()
    work = Path(args.work_dir).resolve()
    if work.exists():
        shutil.rmtree(work)
    env = {k: v for k, v in os.environ.items() if k not in NOT_PASSED_ON}

    # A class of one that Slurm stops at its time limit, submitted first so that it runs beside
    # the other class (each task asks for one core).
    killed_class, killed_results = work / "killed-class", work / "killed-grades"
    make_class(killed_class, ["hanging"])
    array = subprocess.run(["sbatch", "--parsable", "--array=0-0", "--time=1", f"--output={work}/killed-%A_%a.out",
                            str(SBATCH), str(killed_class), str(killed_results),
                            "--timeout", "600", "--lab-timeout", "900", "02"],
                           cwd=REPO, capture_output=True, text=True, env=env)
    if array.returncode != 0:
        print(f"FAIL: sbatch of the class whose task is killed: {array.stderr}")
        return 1
    killed_job = array.stdout.strip().split(";")[0]
    merge = subprocess.run(["sbatch", "--parsable", f"--dependency=afterany:{killed_job}",
                            f"--output={work}/killed-merge.out", "--wrap",
                            f"grader/grade --batch {killed_class} --results {killed_results} --merge"],
                           cwd=REPO, capture_output=True, text=True, env=env)
    if merge.returncode != 0:
        print(f"FAIL: sbatch of the merge of the killed class: {merge.stderr}")
        return 1
    jobs = [killed_job, merge.stdout.strip().split(";")[0]]

    # The README's lines, as an instructor types them, on a class of three.
    class_dir, results = work / "class", work / "grades"
    expected = {"correct-1": "55", "not-compiling": "0", "cheat-process-escape": "0"}
    make_class(class_dir, list(expected))
    sample_submissions._archive(class_dir / "correct-1", zip_format=True)
    lines = readme_lines().replace("~/class", str(class_dir)).replace("~/grades", str(results))
    print("the README's lines, run in a shell without " + ", ".join(NOT_PASSED_ON) + ":\n" + lines, flush=True)
    typed = subprocess.run(["bash", "-c", lines + 'echo "$jobs"\n'], cwd=REPO, capture_output=True, text=True,
                           env=env)
    print(typed.stdout + typed.stderr)
    readme_jobs = submitted_jobs(typed.stdout)
    if typed.returncode != 0 or len(readme_jobs) != 2:
        print(f"FAIL: the README's lines exited {typed.returncode} and submitted {readme_jobs}")
        return 1
    jobs += readme_jobs
    print(f"jobs {', '.join(jobs)}", flush=True)
    problems = check_gpu_request(class_dir, work, env)

    deadline = time.monotonic() + args.wait
    while time.monotonic() < deadline:
        queued = subprocess.run(["squeue", "-h", "-j", ",".join(jobs)], capture_output=True, text=True)
        if queued.returncode == 0 and not queued.stdout.strip():
            break
        time.sleep(5)
    else:
        print(f"FAIL: the jobs did not end within {args.wait:g} s")
        subprocess.run(["scancel", *jobs])
        return 1
    # The README's jobs wrote their logs where they were submitted, as Slurm does: the kit's top.
    for job in readme_jobs:
        for log in REPO.glob(f"slurm-{job}*.out"):
            shutil.move(log, work / log.name)
    for out in sorted(work.glob("*.out")):
        print(f"--- {out.name}\n" + out.read_text(errors="replace")[-600:])
    rows = gradebook(results)
    print((results / "gradebook.csv").read_text() if rows else "(no gradebook.csv)")
    problems += [f"{name}: {rows.get(name)}, expected score {score}" for name, score in expected.items()
                 if rows.get(name, {}).get("score") != score]
    tasks = sorted(work.glob("slurm-*_*.out"))
    if len(tasks) != len(expected):
        problems.append(f"{len(tasks)} task logs of the README's array, expected {len(expected)}")
    killed = gradebook(killed_results).get("hanging", {})
    print(f"the killed task's student: {killed}")
    if killed.get("status") != "not graded" or not re.search(r"SIGTERM|time or memory limit", killed.get("problems", "")):
        problems.append(f"the task Slurm killed at its time limit left the row {killed or 'none'}, expected "
                        "'not graded' with the reason")
    if problems:
        print("FAIL:\n" + "\n".join(problems))
        return 1
    print(f"OK: {len(expected)} students graded by the README's array and merged; the task killed at its time "
          f"limit left a 'not graded' row; {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
