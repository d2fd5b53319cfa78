"""grader/sync-labs: write what is derived from the solutions and the lab manifests.

  labs/NN-name/<file>       the skeleton of solutions/NN-name/<file> (solution_source.py)
  labs/NN-name/README.md    the points table, from grader/labs/NN-name/lab.toml
  README.md                 the lab table, from every lab's manifest

With --check nothing is written: every file that differs from what would be written is named,
and the exit status is 1. Exit status 2: a malformed marker or manifest, or a missing folder."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from . import manifest as manifest_mod
from . import solution_source
from .paths import REPO


POINTS_BEGIN = "<!-- points table: written by grader/sync-labs from grader/labs/{dir}/lab.toml -->"
POINTS_END = "<!-- end of points table -->"
LABS_BEGIN = "<!-- lab table: written by grader/sync-labs from grader/labs/*/lab.toml -->"
LABS_END = "<!-- end of lab table -->"


class SyncError(Exception):
    pass


@dataclass
class Derived:
    path: Path
    text: str


def _points(value: float) -> str:
    return f"{value:g}"


def points_table(lab: manifest_mod.Lab) -> str:
    rows = ["| check | what it needs | points |", "| --- | --- | --- |"]
    rows += [f"| `{c.id}` | {c.needs or c.title} | {_points(c.points)} |" for c in lab.checks]
    # What only a GPU grades is not in a simulator run's total: the total line says so.
    gpu_only = [c for c in lab.checks if c.category == "performance"]
    gpu_points = sum(c.points for c in gpu_only)
    total = _points(lab.max_points)
    if gpu_points:
        names = ", ".join(f"`{c.id}`" for c in gpu_only)
        total += (f" ({_points(lab.max_points - gpu_points)} on the simulator; the {_points(gpu_points)} of "
                  f"{names} on a GPU only)")
    rows.append(f"| | total | {total} |")
    return "\n".join(rows)


def lab_table(labs: list[manifest_mod.Lab]) -> str:
    rows = ["| lab | topic |", "| --- | --- |"]
    rows += [f"| [{l.dir}](labs/{l.dir}/README.md) | {l.summary or l.title} |" for l in labs]
    return "\n".join(rows)


def _replace_block(path: Path, begin: str, end: str, body: str) -> str:
    if not path.is_file():
        raise SyncError(f"{path}: does not exist (it needs a block between '{begin}' and '{end}')")
    text = path.read_text()
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        raise SyncError(f"{path}: no block between the lines\n    {begin}\n    {end}\n"
                        f"  put both where the table belongs; grader/sync-labs writes what goes between")
    return text[: start + len(begin)] + "\n" + body + "\n" + text[stop:]


def derived_files(repo: Path) -> list[Derived]:
    labs = list(manifest_mod.discover(repo / "grader" / "labs").values())
    derived: list[Derived] = []
    for lab in labs:
        solution_dir = repo / "solutions" / lab.dir
        if not solution_dir.is_dir():
            raise SyncError(f"lab {lab.number}: solutions/{lab.dir}/ does not exist")
        sources = sorted(p for p in solution_dir.iterdir() if p.is_file())
        if not sources:
            raise SyncError(f"lab {lab.number}: solutions/{lab.dir}/ has no files")
        skeleton_dir = repo / "labs" / lab.dir
        for source in sources:
            try:
                parsed = solution_source.parse(source)
            except solution_source.MarkerError as e:
                raise SyncError(str(e)) from None
            derived.append(Derived(skeleton_dir / source.name, parsed.skeleton))
        readme = skeleton_dir / "README.md"
        derived.append(Derived(readme, _replace_block(readme, POINTS_BEGIN.format(dir=lab.dir), POINTS_END,
                                                      points_table(lab))))
    derived.append(Derived(repo / "README.md", _replace_block(repo / "README.md", LABS_BEGIN, LABS_END,
                                                              lab_table(labs))))
    return derived


def stale_skeletons(repo: Path) -> list[Path]:
    """Files in labs/NN-name/ other than README.md that no solution file produces."""
    stale = []
    for lab in manifest_mod.discover(repo / "grader" / "labs").values():
        skeleton_dir = repo / "labs" / lab.dir
        if not skeleton_dir.is_dir():
            continue
        for path in sorted(skeleton_dir.iterdir()):
            if path.is_file() and path.name != "README.md" and not (repo / "solutions" / lab.dir / path.name).exists():
                stale.append(path)
    return stale


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="sync-labs", description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 if any file is out of date")
    p.add_argument("--repo", default=str(REPO), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    repo = Path(args.repo).resolve()
    try:
        derived = derived_files(repo)
        stale = stale_skeletons(repo)
    except (SyncError, manifest_mod.ManifestError) as e:
        print(f"sync-labs: {e}", file=sys.stderr)
        return 2
    changed = [d for d in derived if not d.path.is_file() or d.path.read_text() != d.text]
    for path in stale:
        print(f"sync-labs: {path.relative_to(repo)} has no counterpart in solutions/ (remove it, or add "
              f"the solution it is the skeleton of)", file=sys.stderr)
    if args.check:
        for d in changed:
            print(f"sync-labs: {d.path.relative_to(repo)} is out of date: run grader/sync-labs", file=sys.stderr)
        return 1 if changed or stale else 0
    for d in changed:
        d.path.parent.mkdir(parents=True, exist_ok=True)
        d.path.write_text(d.text)
        print(f"wrote {d.path.relative_to(repo)}")
    return 1 if stale else 0
