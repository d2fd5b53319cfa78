"""Build once: the first grades of a build root build the kit's shared part once, and every later
grade of a new submission folder compiles only that folder's files.

In an empty build root, with no `grade --prepare` and nothing imported (SCANLAB_PREBUILT_DIR is
removed from the environment), two grades start at once: the lab 01 reference in one folder, its
skeleton in another. Both must finish with their marks (full, and none); exactly one of them
builds the shared part (the simulator runtime, the harness, the lab's tests) into
BUILD_ROOT/prebuilt-sim, the other waits for it; neither submission's own tree holds a runtime.
Then a grade of lab 02's reference in a third folder, never graded before, must reuse that tree
(no runtime of its own, no word of building the shared part) with full marks; its time is
printed beside the first grades'.

Usage: check_build_once.py --work-dir DIR"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import sample_submissions  # noqa: E402

BUILDING = "building what every student's build reuses, once"


def start(work: Path, folder: Path, lab: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "SCANLAB_PREBUILT_DIR"}
    cmd = [str(HERE.parent / "grade"), "--submission", str(folder), "--build-root", str(work / "build"),
           "--format", "json", "--output", str(work / f"{folder.name}.json"), "--color", "never", lab]
    print("$", " ".join(cmd), flush=True)
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def finish(proc: subprocess.Popen, started: float) -> tuple[int, str, float]:
    output, _ = proc.communicate()
    return proc.returncode, output, time.monotonic() - started


def score(work: Path, name: str) -> tuple[float, float] | None:
    report = work / f"{name}.json"
    if not report.is_file():
        return None
    doc = json.loads(report.read_text())
    return doc.get("score"), doc.get("max_score")


def own_runtimes(build: Path) -> list[Path]:
    """Runtime archives built anywhere in the build root but the prebuilt tree."""
    return [p for p in build.rglob("libscanlab_sim.a") if "prebuilt-sim" not in p.parts]


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--work-dir", required=True)
    args = p.parse_args()
    work = Path(args.work_dir).resolve()
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    reference, skeleton, later = work / "reference", work / "skeleton", work / "later"
    sample_submissions.copy_solutions(reference, ["01-sequential"])
    shutil.copytree(sample_submissions.REPO / "labs" / "01-sequential", skeleton / "01-sequential")
    sample_submissions.copy_solutions(later, ["02-kogge-stone"])

    problems = []
    started = time.monotonic()
    first = {"reference": start(work, reference, "01"), "skeleton": start(work, skeleton, "01")}
    ended = {name: finish(proc, started) for name, proc in first.items()}
    for name, (rc, output, seconds) in ended.items():
        print(f"--- {name}: exit {rc}, {seconds:.0f} s\n{output[-2500:]}", flush=True)
    builders = [name for name, (_, output, _) in ended.items() if BUILDING in output]
    if len(builders) != 1:
        problems.append(f"the shared part was built by {builders or 'neither grade'}, expected exactly one")
    marks = {name: score(work, name) for name in first}
    if marks["reference"] is None or marks["reference"][0] != marks["reference"][1] or not marks["reference"][1]:
        problems.append(f"the lab 01 reference got {marks['reference']}, expected full marks")
    if marks["skeleton"] is None or marks["skeleton"][0] != 0:
        problems.append(f"the lab 01 skeleton got {marks['skeleton']}, expected 0")
    if ended["reference"][0] != 0 or ended["skeleton"][0] != 1:
        problems.append(f"exit statuses {ended['reference'][0]} and {ended['skeleton'][0]}, expected 0 and 1")

    started = time.monotonic()
    rc, output, seconds = finish(start(work, later, "02"), started)
    print(f"--- later, a new folder's lab 02: exit {rc}, {seconds:.0f} s\n{output[-2500:]}", flush=True)
    if BUILDING in output:
        problems.append("a later grade built the shared part again")
    mark = score(work, "later")
    if rc != 0 or mark is None or mark[0] != mark[1] or not mark[1]:
        problems.append(f"the later grade of lab 02's reference exited {rc} with {mark}, expected full marks")
    if rebuilt := own_runtimes(work / "build"):
        problems.append(f"a submission's tree built a runtime of its own: {rebuilt[:3]}")
    print(f"first two grades at once: {max(s for _, _, s in ended.values()):.0f} s; "
          f"a new folder's lab 02 after them: {seconds:.0f} s")
    if problems:
        print("FAIL:\n  " + "\n  ".join(problems))
        return 1
    print("OK: the shared part was built once, by one of two grades at once, and reused by a later one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
