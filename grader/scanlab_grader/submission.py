"""What is taken from a submission: a lab's own files, by name, and nothing else.

A submission directory may hold anything: copies of the grader, a header named like one of
the kit's (`cuda_runtime.h`, `gtest/gtest.h`, `scanlab/counting_op.hpp`) placed where the
compiler would find it first, symbolic links into the reference solutions. So the grader
never builds from it. It copies, for every lab, the files the lab hands out (the names of
its skeleton folder labs/NN-name/, README.md aside; solutions/NN-name/ where a kit has no
skeletons) into a folder of its own, regular files only, and builds that folder. The tests,
the harness and the simulator always come from the kit that runs `grade`.

A submission may be laid out like labs/ (NN-name/ folders at its top), be a whole student
repository (its labs/ folder is used then), or hold the lab files themselves at its top, as
students upload them to Gradescope or PrairieLearn (`kogge_stone.cu` stands for
02-kogge-stone/kogge_stone.cu)."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
from dataclasses import dataclass, field
from pathlib import Path

from .manifest import Lab

MAX_FILE_BYTES = 1 << 20  # a lab's source; anything larger is not a lab file
_LAB_FOLDER = re.compile(r"\d\d-[a-z0-9][a-z0-9-]*")


@dataclass
class StagedLab:
    taken: list[str] = field(default_factory=list)  # file names copied
    missing: list[str] = field(default_factory=list)  # named files the submission lacks
    notes: list[str] = field(default_factory=list)  # what was left out, and why


def lab_files(repo: Path, lab: Lab) -> list[str]:
    """The names of the files a student hands in for `lab`."""
    for folder in (repo / "labs" / lab.dir, repo / "solutions" / lab.dir):
        if folder.is_dir():
            names = sorted(p.name for p in folder.iterdir() if p.is_file() and p.name != "README.md")
            if names:
                return names
    return []


def submission_root(path: Path) -> Path:
    """A whole student repository is graded through its labs/ folder."""
    has_labs_here = any(_LAB_FOLDER.fullmatch(p.name) for p in path.iterdir() if p.is_dir())
    # A labs/ that is a symbolic link could name any folder of the grading machine (the kit's
    # solutions/): only the submission's own folders are taken.
    if not has_labs_here and (path / "labs").is_dir() and not (path / "labs").is_symlink():
        return path / "labs"
    return path


def staging_dir(build_root: Path, submission: Path) -> Path:
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", submission.name) or "submission"
    digest = hashlib.sha1(str(submission).encode()).hexdigest()[:8]
    return build_root / "submissions" / f"{slug}-{digest}"


def _regular_file(path: Path) -> str | None:
    """None when `path` is a regular file of a lab's size; otherwise why it is not taken."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return "missing"
    if stat.S_ISLNK(info.st_mode):
        return "a symbolic link (only regular files are graded)"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    if info.st_size > MAX_FILE_BYTES:
        return f"larger than {MAX_FILE_BYTES >> 10} KiB"
    return None


def _write_if_changed(source: Path, target: Path) -> None:
    """Copies without touching an unchanged file, so that the build does not redo it."""
    data = source.read_bytes()
    if target.is_file() and not target.is_symlink() and target.read_bytes() == data:
        return
    if target.is_symlink() or target.exists():
        target.unlink()
    target.write_bytes(data)


def stage(repo: Path, submission: Path, labs: list[Lab], dest: Path) -> dict[str, StagedLab]:
    """Copies each lab's named files from `submission` to `dest`, and removes from `dest`
    whatever an earlier run left there that is not one of them."""
    dest.mkdir(parents=True, exist_ok=True)
    staged: dict[str, StagedLab] = {}
    wanted_dirs = set()
    for lab in labs:
        info = StagedLab()
        staged[lab.number] = info
        names = lab_files(repo, lab)
        source_dir = submission / lab.dir
        target_dir = dest / lab.dir
        wanted_dirs.add(lab.dir)
        flat = not source_dir.exists() and names and any(os.path.lexists(submission / n) for n in names)
        if flat:
            source_dir = submission  # the lab's files uploaded on their own
        outside = source_dir.is_dir() and not source_dir.resolve().is_relative_to(submission.resolve())
        if not source_dir.is_dir() or source_dir.is_symlink() or outside:
            info.missing = names
            linked = source_dir if source_dir.is_symlink() or outside else \
                submission / "labs" if (submission / "labs").is_symlink() else None
            if linked is not None:
                info.notes.append(f"{linked.relative_to(submission)}/ was not graded: it is a symbolic link (only "
                                  f"the submission's own folders and regular files are graded)")
            if target_dir.exists():
                shutil.rmtree(target_dir)
            continue
        target_dir.mkdir(exist_ok=True)
        for name in names:
            why = _regular_file(source_dir / name)
            if why is None:
                _write_if_changed(source_dir / name, target_dir / name)
                info.taken.append(name)
            else:
                info.missing.append(name)
                if why != "missing":
                    info.notes.append(f"{lab.dir}/{name} was not graded: it is {why}")
        for leftover in target_dir.iterdir():
            if leftover.name not in info.taken:
                leftover.unlink() if not leftover.is_dir() or leftover.is_symlink() else shutil.rmtree(leftover)
        extra = [] if flat else sorted(p.name for p in source_dir.iterdir()
                                       if p.name not in names and p.name != "README.md")
        if extra:
            info.notes.append(f"only {', '.join(names)} of {lab.dir}/ was graded; not taken: "
                              + ", ".join(extra[:8]) + (" ..." if len(extra) > 8 else ""))
    for leftover in dest.iterdir():
        if leftover.name not in wanted_dirs:
            shutil.rmtree(leftover) if leftover.is_dir() and not leftover.is_symlink() else leftover.unlink()
    return staged
