"""Cheating submissions are rejected, each by the right check (grader/README.md, "Tamper
resistance").

One submission (sample_submissions.py cheats) holds a different cheat in each of labs 01-05:
lab code that calls exit(), an answer computed on the CPU and copied back, a lab file that
includes its own reference solution, a write() to the grader's result channel, a call of the
simulator's control functions; lab 06 is a symbolic link into the reference solutions, and
lab 01's folder holds headers named like the kit's (cuda_runtime.h, gtest/gtest.h) that
would break the build if anything but the lab's own file were taken. Each lab must fail as a
whole, with the kind and the reason its cheat calls for.

Usage: check_tamper.py --build-root DIR [--jobs N]"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import sample_submissions  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--build-root", required=True)
    p.add_argument("--jobs", default="2")
    args = p.parse_args()
    build_root = Path(args.build_root).resolve()
    submission = build_root / "cheating-submission"
    sample_submissions.cheating_submission(submission)
    labs = [c.lab[:2] for c in sample_submissions.CHEATS] + ["06"]
    cmd = [str(HERE.parent / "grade"), "--submission", str(submission), "--format", "json", "--build-root",
           str(build_root), "--jobs", args.jobs, "--timeout", "30", *labs]
    print("$", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError:
        print(proc.stdout)
        print(f"FAIL: grade printed no JSON report (exit status {proc.returncode})")
        return 1
    by_number = {lab["number"]: lab for lab in doc["labs"]}
    problems = []
    expected = [(c.lab[:2], c.name, c.kind, c.says) for c in sample_submissions.CHEATS]
    expected.append(("06", "symbolic-link", "missing", "no submission for this lab"))
    for number, name, kind, says in expected:
        lab = by_number[number]
        graded = [c for c in lab["checks"] if c["status"] != "skip"]
        wrong = [c for c in graded if c["status"] != "fail" or c["kind"] != kind or says not in c["reason"]]
        verdict = "rejected" if not wrong and graded else "NOT REJECTED"
        print(f"lab {number} {name:<20} {verdict}: {graded[0]['reason'] if graded else 'no checks'}")
        if wrong or not graded:
            first = wrong[0] if wrong else {"id": "-", "status": "-", "kind": "-", "reason": "no checks"}
            problems.append(f"lab {number} ({name}): expected every check to fail as {kind} saying '{says}', "
                            f"got {first['id']}: {first['status']} {first['kind']}: {first['reason']}")
    symlink_note = [n for n in by_number["06"]["notes"] if "symbolic link" in n]
    if not symlink_note:
        problems.append("lab 06: no note that its file, a symbolic link, was not graded")
    shadow_note = [n for n in by_number["01"]["notes"] if "not taken" in n and "cuda_runtime.h" in n]
    if not shadow_note:
        problems.append("lab 01: no note that the headers beside its file were not taken")
    if proc.returncode != 1:
        problems.append(f"grade exited with {proc.returncode}, expected 1")
    if problems:
        print("\nFAIL:\n" + "\n".join(problems))
        return 1
    print(f"\nOK: {len(expected)} cheats rejected, each by its own check")
    return 0


if __name__ == "__main__":
    sys.exit(main())
