"""The platform packaging runs where each platform runs it, on sample lab 02 submissions.

- Gradescope: `grader/package gradescope` writes the zip; it is unpacked (keeping the files'
  modes, as `unzip` does) to autograder/source, a student's kogge_stone.cu with a known-bad kernel (a missing
  barrier in the in-place scan) is put in autograder/submission as students upload it, and
  run_autograder must write autograder/results/results.json in Gradescope's format with one
  test per check, the check's points as max_score, 0 for the checks that must reject that
  kernel and full points for those of the double-buffered scan, which it does not touch, and
  its build must reuse what `grade --prepare` (setup.sh's step) built. (setup.sh installs
  packages and is left to the platform; the test checks that the zip holds it, executable.)
- GitHub Classroom: the workflow has the job `run-autograding-tests` running the grader's
  classroom output with --annotations; the same command on the known-bad kernel prints an
  `::error file=labs/02-kogge-stone/kogge_stone.cu,line=N::` for the race at the student's
  line, and on a file that does not compile, one at the line of the error.
- PrairieLearn: the kit as a course's serverFilesCourse/scanlab, the entry point run with
  /grade laid out in a temporary folder: a file that does not compile gives gradable false,
  the reference solution a score of 1.

Each platform's output must name the sandbox the student code ran in (grader/README.md, "The
sandbox").

All runs grade the same submission folder (PrairieLearn's student folder is a link to it), so
they share one build of the simulator and the suite and rebuild only the lab's file.

Usage: check_platforms.py --work-dir DIR"""

import argparse
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "common" / "python"))  # scanlab_findings, scanlab_build

import sample_submissions  # noqa: E402
import validators  # noqa: E402
from scanlab_grader import manifest, solution_source  # noqa: E402

LAB = "02-kogge-stone"
FILE = "kogge_stone.cu"
MUTANT = "missing-barrier-between-read-and-write"


def run(cmd, env=None, **kw) -> subprocess.CompletedProcess:
    print("$", " ".join(str(c) for c in cmd), flush=True)
    proc = subprocess.run([str(c) for c in cmd], env={**os.environ, **(env or {})}, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, **kw)
    print(proc.stdout[-2500:])
    return proc


def unzip(archive: Path, dest: Path) -> None:
    """Unpacks like `unzip`: the files' Unix modes (executable scripts) are kept."""
    with zipfile.ZipFile(archive) as z:
        for info in z.infolist():
            path = Path(z.extract(info, dest))
            mode = info.external_attr >> 16
            if mode:
                path.chmod(mode & 0o777)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--work-dir", required=True)
    args = p.parse_args()
    work = Path(args.work_dir).resolve()
    if work.exists():
        shutil.rmtree(work)
    autograder = work / "autograder"
    source, submission = autograder / "source", autograder / "submission"
    source.mkdir(parents=True)
    submission.mkdir()
    problems: list[str] = []

    lab = manifest.discover(REPO / "grader" / "labs")["02"]
    mutant = next(m for m in lab.mutants if m.name == MUTANT)
    reference = solution_source.parse(REPO / "solutions" / LAB / FILE)
    student_file = submission / FILE

    # ---- Gradescope
    zip_path = work / "autograder.zip"
    if run([REPO / "grader" / "package", "gradescope", zip_path]).returncode != 0:
        problems.append("grader/package gradescope failed")
    unzip(zip_path, source)
    for entry in ("setup.sh", "run_autograder"):
        if not os.access(source / entry, os.X_OK):
            problems.append(f"the zip's {entry} is not executable once unpacked")
    student_file.write_text(reference.edited(mutant.at, mutant.find, mutant.replace))
    env = {"AUTOGRADER_ROOT": str(autograder), "SCANLAB_LABS": "02"}
    # What setup.sh builds into the image (for lab 02 alone, here): run_autograder must reuse it.
    if run([source / "grader" / "grade", "--prepare", "--build-root", autograder / "build", "02"]).returncode != 0:
        problems.append("grade --prepare failed")
    if "--prepare" not in (source / "setup.sh").read_text():
        problems.append("setup.sh does not prepare the build every submission reuses")
    if run([source / "run_autograder"], env=env).returncode != 0:
        problems.append("run_autograder failed")
    prepared = re.compile(rf"^SCANLAB_PREBUILT_DIR:\w+={re.escape(str(autograder / 'build' / 'prebuilt-sim'))}$", re.M)
    reused = [cache for cache in (autograder / "build").glob("sim-*/CMakeCache.txt") if prepared.search(cache.read_text())]
    if not reused:
        problems.append("run_autograder built the simulator again instead of reusing the prepared build")
    results = autograder / "results" / "results.json"
    if not results.is_file():
        problems.append("run_autograder wrote no results/results.json")
    else:
        text = results.read_text()
        problems += [f"Gradescope results.json: {p}" for p in validators.gradescope(text)]
        # The package grades in the sandbox like any grade run, and says which box it had.
        box = re.search(r"^sandbox: (.+)$", json.loads(text)["output"], re.M)
        print(f"Gradescope: student code ran in the sandbox: {box.group(1) if box else None}")
        if box is None:
            problems.append("Gradescope: results.json's output does not name the sandbox")
        tests = json.loads(text)["tests"]
        graded = [c for c in lab.checks if c.category not in ("performance",)]
        if len(tests) != len(graded):
            problems.append(f"Gradescope: {len(tests)} tests for {len(graded)} checks")
        # run_autograder grades with --pictures: a check the race failed shows the race's picture.
        pictured = [t["name"] for t in tests if t.get("output_format") == "html"
                    and '<img src="data:image/svg+xml;base64,' in t["output"]]
        if not pictured:
            problems.append("Gradescope: no failed check shows the race's picture")
        for check, test in zip(graded, tests):
            # The checks that must reject the kernel score 0; those of the other scan, which the
            # edit does not touch, full points; the rest may go either way.
            expected = (0 if check.id in mutant.rejected_by
                        else check.points if "double-buffer" in check.id else test["score"])
            if test["max_score"] != check.points or test["score"] != expected or "visibility" not in test:
                problems.append(f"Gradescope: {check.id}: score {test['score']}/{test['max_score']}, "
                                f"expected {expected:g}/{check.points:g} with a visibility")

    # ---- GitHub Classroom: the workflow, its output, and annotations at the student's lines
    workflow = (REPO / "grader" / "platforms" / "classroom" / "classroom.yml").read_text()
    for needed in ("run-autograding-tests:", "--format classroom", "--annotations labs",
                   "classroom-resources/autograding-grading-reporter@v1", "--pictures scanlab-pictures",
                   "actions/upload-artifact@v4"):
        if needed not in workflow:
            problems.append(f"the Classroom workflow lacks '{needed}'")
    classroom_cmd = [source / "grader" / "grade", "--submission", submission, "--build-root", autograder / "build",
                     "--annotations", "labs", "--format", "classroom", "--output", work / "classroom.b64", "02"]
    race = run(classroom_cmd)
    problems += [f"Classroom payload: {p}" for p in validators.classroom((work / "classroom.b64").read_text())]
    # The barrier's line is deleted, so the write that races with the reads before it moves up
    # to that line number.
    race_line = str(reference.tags[mutant.at] + 1)
    annotated = re.findall(rf"::error file=labs/{LAB}/{FILE},line=(\d+)", race.stdout)
    if race_line not in annotated:
        problems.append(f"no ::error annotation at line {race_line} of the student's file for the race "
                        f"(annotated: {annotated})")
    print(f"race annotated at lines {annotated}")

    broken = reference.text + "\nthis line is not C++;\n"
    broken_line = broken.count("\n") - 0
    student_file.write_text(broken)
    compile_run = run(classroom_cmd)
    if f"::error file=labs/{LAB}/{FILE},line={broken_line}," not in compile_run.stdout:
        problems.append(f"no ::error annotation at line {broken_line} for the compile error")
    payload = json.loads(base64.b64decode((work / "classroom.b64").read_text()))
    if not payload.get("sandbox"):
        problems.append("Classroom: the payload does not name the sandbox")
    if payload["status"] != "error":
        problems.append(f"Classroom: a compile error gives status {payload['status']}, expected error")

    # ---- PrairieLearn
    grade_root = work / "grade"
    (grade_root / "serverFilesCourse").mkdir(parents=True)
    (grade_root / "serverFilesCourse" / "scanlab").symlink_to(source)
    (grade_root / "student").symlink_to(submission)  # same folder: the same build is reused
    (grade_root / "data").mkdir()
    (grade_root / "data" / "data.json").write_text(json.dumps({"params": {"lab": "02"}}))
    entry = grade_root / "serverFilesCourse" / "scanlab" / "grader" / "platforms" / "prairielearn" / "grade"
    pl_env = {"SCANLAB_PL_ROOT": str(grade_root), "SCANLAB_BUILD_ROOT": str(autograder / "build")}
    pl_results = grade_root / "results" / "results.json"
    run([entry], env=pl_env)
    doc = json.loads(pl_results.read_text()) if pl_results.is_file() else {}
    problems += [f"PrairieLearn (compile error): {p}" for p in validators.prairielearn(json.dumps(doc))]
    if doc.get("gradable") is not False or f"{FILE}:{broken_line}" not in doc.get("message", ""):
        problems.append(f"PrairieLearn: a compile error gave gradable={doc.get('gradable')}, "
                        f"message {doc.get('message')!r}")
    student_file.write_text(reference.text)
    run([entry], env=pl_env)
    doc = json.loads(pl_results.read_text()) if pl_results.is_file() else {}
    problems += [f"PrairieLearn (reference): {p}" for p in validators.prairielearn(json.dumps(doc))]
    if "\nsandbox: " not in doc.get("output", ""):
        problems.append("PrairieLearn: the output does not name the sandbox")
    if doc.get("gradable") is not True or doc.get("score") != 1:
        problems.append(f"PrairieLearn: the reference solution scored {doc.get('score')} "
                        f"(gradable {doc.get('gradable')}), expected 1")

    if problems:
        print("\nFAIL:\n" + "\n".join(problems))
        return 1
    print("\nOK: Gradescope, GitHub Classroom and PrairieLearn packaging graded the samples as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
