"""What every submission's build reuses, built once per build root and backend in
BUILD_ROOT/prebuilt-BACKEND: the simulator runtime, the grader's harness and each lab's GoogleTest
objects (labNN_suite). A submission's build tree imports them (CMake's SCANLAB_PREBUILT_DIR,
grader/cmake/Prebuilt.cmake) and compiles only the student's lab files.

The first grade that needs it builds it (the default build root is the kit checkout's
build/grade, so one per checkout and backend), and every later grade of any submission folder
reuses it; each brings it up to date first, which rebuilds only what the kit's changed sources
need (nothing when they did not change). A batch builds it before its first student. `grade
--prepare` builds it for every lab and grades nothing: a grading platform's image does that once
(grader/platforms/gradescope/setup.sh)."""

from __future__ import annotations

import fcntl
import os
import sys
from pathlib import Path

from scanlab_build import BuildTree

from .paths import REPO

def folder(build_root: Path, backend: str) -> Path:
    """Where the build root keeps the prebuilt tree of this backend."""
    return build_root / f"prebuilt-{backend}"


def build_prebuilt(build_root: Path, backend: str, jobs: int, defines: list[str],
                   labs: list) -> tuple[Path | None, str]:
    """Builds (or brings up to date) BUILD_ROOT/prebuilt-BACKEND for these labs. A lock lets
    several graders (two grades started at once, array tasks on one node) share it: one builds,
    the others wait and then find it up to date."""
    tree = BuildTree(REPO, build_root, backend, REPO / "labs", max(1, jobs), defines)
    tree.dir = folder(build_root, backend)
    tree.dir.mkdir(parents=True, exist_ok=True)
    with open(tree.dir / ".scanlab-lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print("grade: another grade is building (or updating) what every student's build reuses; waiting for it",
                  file=sys.stderr, flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)
        if not prepared(build_root, backend):
            print(f"grade: building what every student's build reuses, once, in {tree.dir}", file=sys.stderr, flush=True)
        configured = tree.configure()
        if not configured.ok:
            return None, configured.output
        targets = ["scanlab_grader_harness"] + [f"lab{lab.number}_suite" for lab in labs]
        if backend == "sim":
            targets.append("scanlab_sim")  # the suites compile against its headers alone
        built = tree.build_libraries(targets)
    return (tree.dir, "") if built.ok else (None, built.output)


def named_by_environment() -> Path | None:
    """The built tree of this kit that SCANLAB_PREBUILT_DIR names (the kit's own `cmake --build`
    tree, or a BUILD_ROOT/prebuilt of `grade --prepare`), or None."""
    folder = os.environ.get("SCANLAB_PREBUILT_DIR", "").strip()
    return Path(folder).resolve() if folder else None


def prepared(build_root: Path, backend: str) -> bool:
    """Whether BUILD_ROOT holds a configured prebuilt tree of this kit for this backend."""
    tree = folder(build_root, backend)
    marker = tree / "scanlab-prebuilt-backend.txt"
    return ((tree / "scanlab-prebuilt.cmake").is_file() and marker.is_file()
            and marker.read_text().strip() == backend)
