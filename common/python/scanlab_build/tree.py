"""A submission's build: one CMake build directory per (backend, submission), configured once
and asked through CMake's file API for the programs it builds.

The grader builds in its sandbox (the compiler and the simulator's rewriter read the
submission's files); reports/bench builds the same trees without one. Whoever makes a
BuildTree says how its builds run (`run_build`)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

_QUERY_CLIENT = "client-scanlab-grade"
_STAMP = "scanlab-grade-configure.json"
# The files the configure step left in the tree (one relative path a line): what a batch keeps
# of a worker's tree between two students (keep_configuration_only).
_CONFIGURED_FILES = "scanlab-grade-configured-files.txt"

# How a build step runs: (command, cwd=, writable=, timeout=) -> (exit status, output); 124
# when it ran out of time, 127 when it could not be started.
RunBuild = Callable[..., tuple[int, str]]


@dataclass
class BuildResult:
    ok: bool
    output: str
    artifact: Path | None = None


def run_plainly(cmd: list[str], *, cwd: Path, writable: tuple[Path, ...] = (), timeout: float) -> tuple[int, str]:
    """A build step as the caller's own process runs it: no box, `writable` is not enforced."""
    try:
        proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", errors="replace")
        return 124, out + f"\n[build step timed out after {timeout:g} s]"
    except FileNotFoundError as e:
        return 127, str(e)
    return proc.returncode, proc.stdout.decode("utf-8", errors="replace")


def earlier_labs_dir(repo: Path, submission: Path) -> Path:
    """Where a lab's `#include "NN-name/file.cu"` of an earlier lab is found: the reference
    solutions when the kit has them (an earlier lab's bug then costs points in that lab
    only), the submission itself otherwise (a student's copy of the kit)."""
    solutions = repo / "solutions"
    return solutions if solutions.is_dir() else submission


class BuildTree:
    """One CMake build directory per (backend, submission directory)."""

    def __init__(self, repo: Path, build_root: Path, backend: str, submission: Path, jobs: int,
                 defines: list[str] | None = None, build_timeout_s: float = 1800.0,
                 run_build: RunBuild = run_plainly):
        self.repo = repo
        self.run_build = run_build
        self.backend = backend
        self.submission = submission
        self.jobs = jobs
        self.defines = list(defines or [])
        self.build_timeout_s = build_timeout_s
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", submission.name) or "submission"
        digest = hashlib.sha1(str(submission).encode()).hexdigest()[:8]
        self.dir = build_root / f"{backend}-{slug}-{digest}"
        self._targets: dict[str, Path] | None = None

    def configure_args(self) -> list[str]:
        # The simulator's own tests and benchmarks are not needed for grading.
        args = [f"-DSCANLAB_BACKEND={self.backend}", f"-DSCANLAB_SUBMISSION_DIR={self.submission}",
                f"-DSCANLAB_EARLIER_LABS_DIR={earlier_labs_dir(self.repo, self.submission)}",
                "-DSCANLAB_BUILD_GRADER=ON", "-DSCANLAB_BUILD_SIM_TESTS=OFF"]
        if not any(d.startswith("CMAKE_BUILD_TYPE=") for d in self.defines):
            args.append("-DCMAKE_BUILD_TYPE=Release")
        args += [f"-D{d}" for d in self.defines]
        return args

    def configure(self) -> BuildResult:
        self.dir.mkdir(parents=True, exist_ok=True)
        query = self.dir / ".cmake" / "api" / "v1" / "query" / _QUERY_CLIENT / "codemodel-v2"
        query.parent.mkdir(parents=True, exist_ok=True)
        query.touch()
        args = self.configure_args()
        stamp = self.dir / _STAMP
        other = configured_source(self.dir)
        if other is not None and other != self.repo.resolve():
            # A build root shared by two checkouts of the kit: CMake refuses a tree configured
            # for another source, so this tree is made again for this one.
            print(f"scanlab: {self.dir} was configured for the kit in {other}; configuring it again "
                  f"for {self.repo.resolve()}", file=sys.stderr, flush=True)
            clear_tree(self.dir, keep={".scanlab-lock"})
            self.dir.mkdir(parents=True, exist_ok=True)
            query.parent.mkdir(parents=True, exist_ok=True)
            query.touch()
        fresh = not (self.dir / "CMakeCache.txt").exists()
        if not fresh and stamp.exists() and json.loads(stamp.read_text()) == args and self._reply_index():
            return BuildResult(True, "")  # `cmake --build` re-runs CMake itself when inputs change
        cmd = ["cmake", "-S", str(self.repo), "-B", str(self.dir)] + args
        if fresh and shutil.which("ninja"):
            cmd += ["-G", "Ninja"]
        stamp.unlink(missing_ok=True)
        rc, out = run_plainly(cmd, cwd=self.repo, timeout=self.build_timeout_s)
        if rc == 0:
            stamp.write_text(json.dumps(args))
            _record_configuration(self.dir)
        return BuildResult(rc == 0, out)

    def _reply_index(self) -> Path | None:
        reply = self.dir / ".cmake" / "api" / "v1" / "reply"
        indexes = sorted(reply.glob("index-*.json")) if reply.is_dir() else []
        return indexes[-1] if indexes else None

    def targets(self) -> dict[str, Path]:
        """Executable targets of the build and their files (CMake file API)."""
        if self._targets is not None:
            return self._targets
        found: dict[str, Path] = {}
        index_path = self._reply_index()
        if index_path is not None:
            reply = index_path.parent
            index = json.loads(index_path.read_text())
            client = index.get("reply", {}).get(_QUERY_CLIENT, {})
            codemodel = client.get("codemodel-v2", {})
            if "jsonFile" in codemodel:
                model = json.loads((reply / codemodel["jsonFile"]).read_text())
                for config in model.get("configurations", [])[:1]:
                    for t in config.get("targets", []):
                        target = json.loads((reply / t["jsonFile"]).read_text())
                        if target.get("type") != "EXECUTABLE" or not target.get("artifacts"):
                            continue
                        path = Path(target["artifacts"][0]["path"])
                        found[target["name"]] = path if path.is_absolute() else self.dir / path
        self._targets = found
        return found

    def build_libraries(self, targets: list[str]) -> BuildResult:
        """Builds targets that are not programs (the simulator runtime, the lab suites)."""
        rc, out = run_plainly(["cmake", "--build", str(self.dir), "--parallel", str(self.jobs), "--target", *targets],
                              cwd=self.repo, timeout=self.build_timeout_s)
        return BuildResult(rc == 0, out)

    def _kit_part(self, target: str) -> list[str]:
        """What of the kit a lab's test program needs before its own files are compiled, where
        this tree builds the kit's part: Ninja's build file and the kit's targets it links;
        nothing where the tree imports them from a prebuilt tree."""
        m = re.fullmatch(r"lab(\d\d)_tests", target)
        if m is None or any(d.startswith("SCANLAB_PREBUILT_DIR=") for d in self.defines):
            # An imported kit: CMake, where it runs again, reads nothing the view hides (the
            # suites, whose configuration asks for solutions/, are the prebuilt tree's).
            return []
        regenerate = ["build.ninja"] if (self.dir / "build.ninja").is_file() else []
        return regenerate + [f"lab{m.group(1)}_suite", "scanlab_grader_harness"]

    def object_dir(self, target: str) -> Path | None:
        """Where CMake puts the object files of `target`."""
        return next(iter(sorted(self.dir.glob(f"**/CMakeFiles/{target}.dir"))), None)

    def build(self, target: str) -> BuildResult:
        """Builds a lab's test program. The simulator's rewriter and the compiler read the
        submission's files here, so they run as `run_build` says, writing the build tree only."""
        artifact = self.targets().get(target)
        # Where this tree builds the kit's own part (no prebuilt tree imported), that part first,
        # as the kit's build runs: CMake run again where its inputs changed (it then reads
        # solutions/, which the sandbox's view of a lab hides) and the kit's code that the
        # program links (its suite, the harness, the simulator; none of the submission's files
        # is on their path). The step below compiles the submission's files alone, in the
        # sandbox, under its limits.
        kit_part = self._kit_part(target)
        if kit_part:
            rc, out = run_plainly(["cmake", "--build", str(self.dir), "--parallel", str(self.jobs), "--target",
                                   *kit_part], cwd=self.repo, timeout=self.build_timeout_s)
            if rc != 0:
                return BuildResult(False, out)
        rc, out = self.run_build(
            ["cmake", "--build", str(self.dir), "--target", target, "--parallel", str(self.jobs)],
            cwd=self.repo, writable=(self.dir,), timeout=self.build_timeout_s)
        self._targets = None  # a re-run of CMake may have changed the model
        artifact = self.targets().get(target, artifact)
        ok = rc == 0 and artifact is not None and artifact.exists()
        return BuildResult(ok, out, artifact if ok else None)


def configured_source(tree: Path) -> Path | None:
    """The source folder a configured tree was made for (its CMakeCache.txt's
    CMAKE_HOME_DIRECTORY), or None where the tree is not configured."""
    cache = tree / "CMakeCache.txt"
    if not cache.is_file():
        return None
    for line in cache.read_text(errors="replace").splitlines():
        if line.startswith("CMAKE_HOME_DIRECTORY:"):
            return Path(line.split("=", 1)[1]).resolve()
    return None


def clear_tree(tree: Path, keep: set[str]) -> None:
    """Removes everything in a build tree but the top-level entries named in keep (a lock
    file another process may hold)."""
    for entry in tree.iterdir():
        if entry.name in keep:
            continue
        entry.unlink() if entry.is_symlink() or not entry.is_dir() else shutil.rmtree(entry)


def _record_configuration(tree: Path) -> None:
    """Lists what a freshly configured tree holds: the configuration (CMakeCache.txt, the
    generator's files, the file API's reply) and its folders, nothing yet built or run."""
    entries = sorted(str(p.relative_to(tree)) for p in tree.rglob("*"))
    (tree / _CONFIGURED_FILES).write_text("".join(f"{e}\n" for e in entries))


def keep_configuration_only(tree: Path) -> bool:
    """Removes from a configured tree everything its configure step did not leave: what builds
    and runs wrote (rewritten sources, objects, test programs, logs, Ninja's logs), so that the
    tree holds nothing of the submission it last built, and keeps the configuration, so that
    the next submission's build need not configure again. False (the tree left as it is) when
    the tree has no record of its configuration: it must then be removed as a whole."""
    record = tree / _CONFIGURED_FILES
    if not record.is_file():
        return False
    keep = set(record.read_text().splitlines()) | {_CONFIGURED_FILES}
    for folder, dirs, files in os.walk(tree):
        here = Path(folder)
        for name in list(dirs):
            path = here / name
            if str(path.relative_to(tree)) not in keep:
                dirs.remove(name)
                path.unlink() if path.is_symlink() else shutil.rmtree(path)
        for name in files:
            path = here / name
            if str(path.relative_to(tree)) not in keep:
                path.unlink()
    return True
