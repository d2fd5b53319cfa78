"""grader/release DIR: the repository students get.

It holds what the kit's git checkout holds, except:

- solutions/ (the reference solutions) and grader/selftest/ (the kit's own tests, which need
  them); .ci/ (the kit's CI runs the solutions) gives way to the GitHub Classroom workflow
  (grader/platforms/classroom/);
- in each grader/labs/NN-name/lab.toml, the [[mutant]] tables (known-bad variants of the
  solution) and the checks marked `hidden = true`, which the instructor's copy still grades;
  test files named hidden_*_test.cpp, where a hidden check's tests live, are left out too;
- labs/NN-name/ is written afresh from the solutions' markers (grader/sync-labs machinery),
  with points tables that leave the hidden checks out.

Then every file of the release is searched for the text of every solution region (a leak
fails the release), and, unless --no-verify, the release is built and its skeletons graded
in a temporary directory: every lab must build, run and fail by failed assertions only.

Exit status: 0 written and checked, 1 a check of the release failed, 2 usage error."""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from . import manifest as manifest_mod
from . import solution_source, sync
from .paths import REPO


LEFT_OUT = ("solutions/", "grader/selftest/", ".ci/", "build/")
HIDDEN_TEST = re.compile(r"hidden_[A-Za-z0-9_]*_test\.cpp")
MIN_REGION_CHARS = 24  # shorter solution regions (a brace, a blank line) say nothing by themselves
_TABLE_HEADER = re.compile(r"^\s*\[\[(?P<name>[a-z]+)\]\]\s*(#.*)?$")


class ReleaseError(Exception):
    pass


def tracked_files(repo: Path) -> list[str]:
    proc = subprocess.run(["git", "-C", str(repo), "ls-files", "-z"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    if proc.returncode != 0:
        raise ReleaseError(f"{repo} is not a git checkout ({proc.stderr.decode().strip()}); the release "
                           "is made of the files git tracks")
    return [f for f in proc.stdout.decode().split("\0") if f]


def student_manifest(text: str, where: str) -> str:
    """`text` of a lab.toml without [[mutant]] tables and without hidden checks. Each
    [[table]] runs from its header to the next one; what precedes the first stays."""
    lines = text.splitlines(keepends=True)
    starts = [i for i, l in enumerate(lines) if _TABLE_HEADER.match(l)]
    kept = lines[: starts[0]] if starts else lines
    for n, start in enumerate(starts):
        block = lines[start : starts[n + 1] if n + 1 < len(starts) else len(lines)]
        name = _TABLE_HEADER.match(block[0]).group("name")
        if name == "mutant":
            continue
        if name == "check":
            try:
                table = tomllib.loads("".join(block))["check"][0]
            except (tomllib.TOMLDecodeError, KeyError, IndexError) as e:
                raise ReleaseError(f"{where}: a [[check]] table could not be read on its own: {e}") from None
            if table.get("hidden") is True:
                continue
        kept.extend(block)
    return "".join(kept).rstrip() + "\n"


def _normalized(text: str) -> str:
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


def _code(text: str) -> str:
    """A region's lines of code: a heading comment may well repeat in another lab's skeleton."""
    return "\n".join(line for line in _normalized(text).splitlines() if not line.startswith("//"))


def solution_regions(repo: Path) -> list[tuple[str, str]]:
    """(where, normalized code) of every solution region with code long enough to mean
    something (a lone brace says nothing)."""
    regions = []
    solutions = repo / "solutions"
    for path in sorted(solutions.rglob("*")) if solutions.is_dir() else []:
        if not path.is_file():
            continue
        for line, text in solution_source.parse(path).regions:
            body = _code(text)
            if len(re.sub(r"\s", "", body)) >= MIN_REGION_CHARS:
                regions.append((f"{path.relative_to(repo)}:{line}", body))
    return regions


def leaks(release: Path, regions: list[tuple[str, str]]) -> list[str]:
    """Files of `release` that contain the text of a solution region."""
    found = []
    for path in sorted(release.rglob("*")):
        if not path.is_file() or path.is_symlink():
            continue
        try:
            text = _code(path.read_text())
        except (UnicodeDecodeError, OSError):
            continue
        for where, body in regions:
            if body in text:
                found.append(f"{path.relative_to(release)} contains the solution region of {where}")
    return found


def write_release(repo: Path, dest: Path) -> list[str]:
    """Writes the student repository to `dest`; returns the files written."""
    labs = manifest_mod.discover(repo / "grader" / "labs")
    derived = {d.path.relative_to(repo).as_posix(): d.text for d in sync.derived_files(repo)}
    written = []
    for rel in tracked_files(repo):
        if rel.startswith(LEFT_OUT) or HIDDEN_TEST.fullmatch(Path(rel).name):
            continue
        source = repo / rel
        if not source.is_file() and not source.is_symlink():
            continue  # deleted in the work tree but not yet in git
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if rel.startswith("grader/labs/") and rel.endswith("/" + manifest_mod.MANIFEST_NAME):
            target.write_text(student_manifest(source.read_text(), rel))
        elif rel in derived:
            target.write_text(derived[rel])
        elif source.is_symlink():
            target.symlink_to(source.readlink())
        else:
            shutil.copy2(source, target)
        written.append(rel)
    # Skeletons and points tables from the student's manifests (no hidden points).
    student_labs = manifest_mod.discover(dest / "grader" / "labs")
    for lab in student_labs.values():
        readme = dest / "labs" / lab.dir / "README.md"
        if readme.is_file():
            readme.write_text(sync._replace_block(readme, sync.POINTS_BEGIN.format(dir=lab.dir), sync.POINTS_END,
                                                  sync.points_table(lab)))
    for number, lab in labs.items():
        for source in sorted((repo / "solutions" / lab.dir).glob("*")):
            if source.is_file():
                target = dest / "labs" / lab.dir / source.name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(solution_source.parse(source).skeleton)
    classroom = repo / "grader" / "platforms" / "classroom" / "classroom.yml"
    if classroom.is_file():
        workflow = dest / ".github" / "workflows" / "classroom.yml"
        workflow.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(classroom, workflow)
        written.append(".github/workflows/classroom.yml")
    return written


def verify(dest: Path, labs: list[str], jobs: int) -> list[str]:
    """Builds the release in a temporary directory and grades its skeletons: each lab must
    fail, by failed assertions only (it compiles, runs and does not crash)."""
    problems = []
    with tempfile.TemporaryDirectory(prefix="scanlab-release-check-") as tmp:
        cmd = [str(dest / "grader" / "grade"), "--format", "json", "--build-root", tmp, "--jobs", str(jobs),
               "--color", "never", *labs]
        print("release: $ " + " ".join(cmd), flush=True)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            doc = json.loads(proc.stdout)
        except json.JSONDecodeError:
            return [f"grading the release printed no report (exit status {proc.returncode}):\n"
                    + proc.stderr[-3000:]]
    if proc.returncode != 1:
        problems.append(f"grading the release's skeletons exited with {proc.returncode}, expected 1")
    for lab in doc["labs"]:
        failed = [c for c in lab["checks"] if c["status"] == "fail"]
        if not failed:
            problems.append(f"the skeleton of lab {lab['number']} passes every check")
        for c in failed:
            if c["kind"] != "assertion":
                problems.append(f"the skeleton of lab {lab['number']}, check {c['id']}: {c['kind']}: {c['reason']}")
        print(f"release:   lab {lab['number']}: {len(failed)} of {len(lab['checks'])} checks fail, as a skeleton's must",
              flush=True)
    return problems


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="release", description=__doc__.split("\n\n")[0])
    p.add_argument("dir", help="where to write the student repository (must not exist, or be empty)")
    p.add_argument("--verify", default="all", metavar="LABS",
                   help='labs whose skeletons are built and graded afterwards: "all" (default) or e.g. "02,03"')
    p.add_argument("--no-verify", action="store_true", help="only write and search the release")
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args(argv)
    dest = Path(args.dir).resolve()
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        print(f"release: {dest} exists and is not an empty directory", file=sys.stderr)
        return 2
    try:
        if REPO.is_relative_to(dest):
            raise ReleaseError(f"{dest} holds the kit itself; write the release elsewhere")
        written = write_release(REPO, dest)
        regions = solution_regions(REPO)
    except (ReleaseError, sync.SyncError, manifest_mod.ManifestError, solution_source.MarkerError) as e:
        print(f"release: {e}", file=sys.stderr)
        return 2
    print(f"release: wrote {len(written)} files to {dest}")
    found = leaks(dest, regions)
    print(f"release: searched it for the text of {len(regions)} solution regions: {len(found)} found")
    problems = list(found)
    if not args.no_verify and not problems:
        labs = ["all"] if args.verify == "all" else args.verify.split(",")
        problems += verify(dest, labs, args.jobs)
    if problems:
        print("release: FAILED:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    print("release: OK")
    return 0
