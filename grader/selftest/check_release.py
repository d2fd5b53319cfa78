"""grader/release writes a student repository without solutions or hidden checks, and checks it.

In a copy of the kit (its git-tracked files, committed in a fresh repository) one check of
lab 01 is marked `hidden = true` and a hidden_*_test.cpp file is added beside lab 01's tests.
`grader/release` of that copy must succeed (it builds the release and grades lab 01's
skeleton, which must fail), and the release must have:

- no solutions/, grader/selftest/ or .ci/, and the GitHub Classroom workflow;
- no [[mutant]] table, no hidden check (manifest and README points table), no hidden test file;
- every other check of every lab, and skeletons equal to the kit's labs/;
- none of the solution regions' code in any file. The search is shown to find a region that
  is planted in the release afterwards, so it can fail;
- for every lab with a performance check, no reference solution as the grader looks for it:
  on a GPU the release times such a check against CUB alone and shows it as the instructor's
  to grade (grading.kit_has_reference; test_units_performance.py), where the kit grades it.

Usage: check_release.py --work-dir DIR [--jobs N]"""

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))  # scanlab_build, as grader/grade sets it

from scanlab_grader import grading, manifest, release  # noqa: E402

HIDDEN_LAB = "01-sequential"
HIDDEN_TEST_FILE = "hidden_probe_test.cpp"


def copy_kit(dest: Path) -> None:
    for rel in release.tracked_files(REPO):
        source = REPO / rel
        if source.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / rel, follow_symlinks=False)


def hide_first_check(kit: Path) -> str:
    path = kit / "grader" / "labs" / HIDDEN_LAB / "lab.toml"
    lab = manifest.load_lab(path)
    hidden = lab.checks[0].id
    text = path.read_text()
    anchor = f'id = "{hidden}"\n'
    path.write_text(text.replace(anchor, anchor + "hidden = true\n", 1))
    (path.parent / HIDDEN_TEST_FILE).write_text(
        "// A check the students do not see.\n#include <gtest/gtest.h>\nTEST(Lab01Hidden, Probe) { SUCCEED(); }\n")
    return hidden


def git(kit: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(kit), "-c", "user.name=scanlab", "-c", "user.email=scanlab@localhost",
                    *args], check=True, stdout=subprocess.DEVNULL)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--work-dir", required=True)
    p.add_argument("--jobs", default="2")
    args = p.parse_args()
    work = Path(args.work_dir).resolve()
    if work.exists():
        shutil.rmtree(work)
    kit, out = work / "kit", work / "release"
    copy_kit(kit)
    hidden = hide_first_check(kit)
    git(kit, "init", "-q")
    git(kit, "add", "-A")
    git(kit, "commit", "-q", "-m", "kit")

    cmd = [str(kit / "grader" / "release"), str(out), "--verify", HIDDEN_LAB[:2], "--jobs", args.jobs]
    print("$", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd)
    problems = []
    if proc.returncode != 0:
        problems.append(f"grader/release exited with {proc.returncode}")

    for gone in ("solutions", "grader/selftest", ".ci", f"grader/labs/{HIDDEN_LAB}/{HIDDEN_TEST_FILE}"):
        if (out / gone).exists():
            problems.append(f"the release has {gone}")
    if not (out / ".github" / "workflows" / "classroom.yml").is_file():
        problems.append("the release has no .github/workflows/classroom.yml")
    kit_labs = manifest.discover(kit / "grader" / "labs")
    try:
        student_labs = manifest.discover(out / "grader" / "labs")
    except manifest.ManifestError as e:
        student_labs = {}
        problems.append(f"the release's manifests do not load: {e}")
    for number, lab in kit_labs.items():
        student = student_labs.get(number)
        if student is None:
            problems.append(f"lab {number} is missing from the release")
            continue
        visible = [c.id for c in lab.checks if not c.hidden]
        if [c.id for c in student.checks] != visible:
            problems.append(f"lab {number}: the release's checks are {[c.id for c in student.checks]}, "
                            f"expected {visible}")
        if student.mutants:
            problems.append(f"lab {number}: the release's manifest has known-bad kernels")
        readme = (out / "labs" / lab.dir / "README.md").read_text()
        table_total = f"| | total | {student.max_points:g} "  # "| 65 |", or "| 65 (55 on the simulator; ...) |"
        if table_total not in readme:
            problems.append(f"lab {number}: its README's points table does not total {student.max_points:g}")
        if any(c.category == "performance" for c in lab.checks):
            if grading.kit_has_reference(out, lab) or not grading.kit_has_reference(kit, lab):
                problems.append(f"lab {number}: its performance check would be graded in the release, or not in the kit")
        for source in (kit / "labs" / lab.dir).iterdir():
            if source.name != "README.md" and (out / "labs" / lab.dir / source.name).read_text() != source.read_text():
                problems.append(f"lab {number}: the release's skeleton {source.name} differs from the kit's")
    if not any(c.hidden and c.id == hidden for c in kit_labs["01"].checks):
        problems.append(f"the kit's own manifest lost its hidden check {hidden}")
    if f"`{hidden}`" in (out / "labs" / HIDDEN_LAB / "README.md").read_text() or \
            hidden in (out / "grader" / "labs" / HIDDEN_LAB / "lab.toml").read_text():
        problems.append(f"the hidden check {hidden} shows in the release")

    regions = release.solution_regions(kit)
    found = release.leaks(out, regions)
    problems += found
    print(f"searched the release for {len(regions)} solution regions: {len(found)} found")
    planted = out / "labs" / "02-kogge-stone" / "kogge_stone.cu"
    where, body = next(r for r in regions if r[0].startswith("solutions/02-kogge-stone/"))
    planted.write_text(planted.read_text() + "\n" + body + "\n")
    if not any(where in leak for leak in release.leaks(out, regions)):
        problems.append(f"the search did not find the region of {where} planted in {planted.name}")

    if problems:
        print("\nFAIL:\n" + "\n".join(problems))
        return 1
    print(f"\nOK: the release has no solutions, no hidden check ({hidden}), and grades its skeleton as failing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
