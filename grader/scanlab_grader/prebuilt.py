"""What every submission's build reuses, built once in BUILD_ROOT/prebuilt: the simulator
runtime, the grader's harness and each lab's GoogleTest objects (labNN_suite). A submission's
build tree imports them (CMake's SCANLAB_PREBUILT_DIR, grader/cmake/Prebuilt.cmake) and
compiles only the student's lab files.

A batch builds it before its first student. `grade --prepare` builds it for every lab and
grades nothing: a grading platform's image does that once (grader/platforms/gradescope/setup.sh),
and every later `grade --submission` with the same --build-root finds it and reuses it."""

from __future__ import annotations

import fcntl
import os
import sys
from pathlib import Path

from scanlab_build import BuildTree

from .paths import REPO

FOLDER = "prebuilt"


def build_prebuilt(build_root: Path, backend: str, jobs: int, defines: list[str],
                   labs: list) -> tuple[Path | None, str]:
    """Builds (or brings up to date) BUILD_ROOT/prebuilt for these labs. A lock lets several
    graders (array tasks on one node) share it: one builds, the others wait."""
    tree = BuildTree(REPO, build_root, backend, REPO / "labs", max(1, jobs), defines)
    tree.dir = build_root / FOLDER
    tree.dir.mkdir(parents=True, exist_ok=True)
    print(f"grade: building what every student's build reuses in {tree.dir}", file=sys.stderr, flush=True)
    with open(tree.dir / ".scanlab-lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        configured = tree.configure()
        if not configured.ok:
            return None, configured.output
        targets = ["scanlab_grader_harness"] + [f"lab{lab.number}_suite" for lab in labs]
        built = tree.build_libraries(targets)
    return (tree.dir, "") if built.ok else (None, built.output)


def named_by_environment() -> Path | None:
    """The built tree of this kit that SCANLAB_PREBUILT_DIR names (the kit's own `cmake --build`
    tree, or a BUILD_ROOT/prebuilt of `grade --prepare`), or None."""
    folder = os.environ.get("SCANLAB_PREBUILT_DIR", "").strip()
    return Path(folder).resolve() if folder else None


def prepared(build_root: Path, backend: str) -> bool:
    """Whether BUILD_ROOT holds a prebuilt tree of this kit for this backend (`--prepare`, or a
    batch that graded there)."""
    folder = build_root / FOLDER
    marker = folder / "scanlab-prebuilt-backend.txt"
    return ((folder / "scanlab-prebuilt.cmake").is_file() and marker.is_file()
            and marker.read_text().strip() == backend)
