"""What of the file system student code sees in the namespace box: the view.

A build step that compiles a lab's files and a run of its test program see, as bubblewrap
mounts (a read outside them finds no file, whatever call it is made with):

- the toolchain, read-only: /usr (compilers, system headers and libraries, Python and
  libclang for the simulator's rewriter, the CUDA toolkit in /usr/local/cuda), /opt, the
  top-level links into /usr (/bin, /lib, ...) and the few files of /etc that programs start
  with (SYSTEM_ETC: the dynamic linker's cache, `alternatives`, the time zone, OpenSSL's and
  Python's configuration); the installation of a program the build tree runs from elsewhere
  (the Python that CMake found, and the grader's own, where they live in a home folder);
  nothing else of /etc (no hostname, passwd, machine-id), no /home, /root, /run, /var or
  /srv; /tmp empty and its own;
- the kit, read-only: its folders and top-level files, but no build tree in it (a folder
  whose name starts with `build` or that holds a CMakeCache.txt), no .git, and of solutions/
  only the labs numbered below the one built (the earlier labs it builds on; its own
  reference and the later ones are empty folders);
- the submission's staged files (the grader's copy of its lab files), read-only;
- its own build tree (writable while building, read-only while its tests run, but the log
  folder it writes), in which the other labs' folders are empty: what an earlier grade of
  the same folder left there (another lab's rewritten copy of an earlier lab's reference) is
  out of sight;
- of a prebuilt tree (SCANLAB_PREBUILT_DIR), the files that its import file names (archives
  and objects the link reads) and that file itself, nothing else of it;
- while building, ccache's cache (written by ccache alone; what it holds is compressed
  objects and manifests, no source);
- a hidden check's test files (grader/labs/NN/hidden_*_test.cpp) as empty files, to a test
  program and to a build that imports a prebuilt tree (`hide_hidden_tests`).

`Scope` says which lab is graded and where its files are; `mounts` turns it into bwrap's
options. Without a scope (a program the grader runs for no lab) the view is the whole file
system read-only, as before there was a scope.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

SYSTEM_DIRS = ("/usr", "/opt")
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
SYSTEM_ETC = ("alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "ssl", "ca-certificates",
              "python3", "ccache.conf", "gdb", "nsswitch.conf")
_LAB_FOLDER = re.compile(r"^(\d\d)-[a-z0-9][a-z0-9-]*$")
_QUOTED_PATH = re.compile(r'"(/[^"$]+)"')


@dataclass(frozen=True)
class Scope:
    repo: Path
    lab_dir: str | None = None  # "02-kogge-stone": the lab whose files are built or run
    tree: Path | None = None  # its build tree
    submission: Path | None = None  # the staged submission
    prebuilt: Path | None = None  # SCANLAB_PREBUILT_DIR
    programs: tuple[Path, ...] = ()  # test programs given ready-made (--test-binary)


@lru_cache(maxsize=1)
def _system_mounts() -> tuple[str, ...]:
    return tuple(_system())


def _system() -> list[str]:
    argv: list[str] = []
    for path in SYSTEM_DIRS:
        argv += ["--ro-bind-try", path, path]
    for path in SYSTEM_LINKS:
        if os.path.islink(path):
            argv += ["--symlink", os.readlink(path), path]
        else:
            argv += ["--ro-bind-try", path, path]
    for name in SYSTEM_ETC:
        for path in sorted(Path("/etc").glob(name + "*")):
            argv += ["--ro-bind-try", str(path), str(path)]
    return argv + ["--tmpfs", "/tmp"]


# The programs a build tree runs (its CMakeCache.txt's): one installed outside /usr and /opt
# (a Python of pyenv's in a home folder, a CMake of pip's) brings its installation into view.
_TOOLS = re.compile(r"^(CMAKE_COMMAND|CMAKE_MAKE_PROGRAM|CMAKE_(?:C|CXX|CUDA)_COMPILER|CMAKE_(?:C|CXX|CUDA)_COMPILER_LAUNCHER|"
                    r"CMAKE_AR|CMAKE_LINKER|CMAKE_RANLIB|_?Python3_EXECUTABLE):[A-Z]+=(?P<path>.+)$", re.M)


def _installation(program: str) -> Path | None:
    """The folder a program outside the system's folders is installed in (the parent of its
    bin/), or None for one of the system's."""
    found = shutil.which(program) if not os.path.isabs(program) else program
    if not found:
        return None
    real = Path(found).resolve()
    if any(real.is_relative_to(d) for d in SYSTEM_DIRS):
        return None
    return real.parent.parent if real.parent.name == "bin" else real.parent


@lru_cache(maxsize=8)
def _tools_of(cache: Path) -> tuple[Path, ...]:
    try:
        text = cache.read_text(errors="replace")
    except OSError:
        text = ""
    programs = [m.group("path").strip() for m in _TOOLS.finditer(text)] + [sys.executable]
    return tuple(sorted({p for p in map(_installation, programs) if p is not None}))


def _is_build_tree(path: Path) -> bool:
    return path.name.startswith("build") or (path / "CMakeCache.txt").exists()


@lru_cache(maxsize=16)
def _kit_mounts(repo: Path, lab_number: str | None) -> tuple[str, ...]:
    return tuple(_kit(repo, lab_number))


def _kit(repo: Path, lab_number: str | None) -> list[str]:
    argv: list[str] = []
    for entry in sorted(repo.iterdir()):
        if entry.name.startswith(".") or (entry.is_dir() and _is_build_tree(entry)):
            continue
        if entry.name == "solutions" and entry.is_dir():
            argv += ["--tmpfs", str(entry)]
            for lab in sorted(entry.iterdir()):
                m = _LAB_FOLDER.match(lab.name)
                if m and lab_number is not None and m.group(1) < lab_number:
                    argv += ["--ro-bind", str(lab), str(lab)]
            continue
        argv += ["--ro-bind", str(entry), str(entry)]
    return argv


@lru_cache(maxsize=4)
def _prebuilt_files(prebuilt: Path) -> tuple[Path, ...]:
    return tuple(_files_of_prebuilt(prebuilt))


def _files_of_prebuilt(prebuilt: Path) -> list[Path]:
    """The import file of a prebuilt tree and the files of the tree it names."""
    found = [prebuilt / "scanlab-prebuilt.cmake", prebuilt / "scanlab-prebuilt-backend.txt"]
    try:
        text = found[0].read_text(errors="replace")
    except OSError:
        return []
    for m in _QUOTED_PATH.finditer(text):
        for path in m.group(1).split(";"):
            p = Path(path)
            if p.is_relative_to(prebuilt) and p.is_file():
                found.append(p)
    return found


@lru_cache(maxsize=1)
def ccache_dir() -> Path | None:
    """ccache's cache, where ccache is installed (its own answer: CCACHE_DIR, its configuration)."""
    if shutil.which("ccache") is None:
        return None
    try:
        out = subprocess.run(["ccache", "-k", "cache_dir"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(out) if out and Path(out).is_dir() else None


def _other_labs(tree: Path, lab_dir: str) -> list[str]:
    argv = []
    for folder in (tree / "grader" / "labs", tree / "grade-logs", tree / "reports"):
        if not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir()):
            if entry.is_dir() and entry.name != lab_dir and (_LAB_FOLDER.match(entry.name) or folder.name == "reports"):
                argv += ["--tmpfs", str(entry)]
    return argv


def mounts(scope: Scope | None, *, building: bool, writable: tuple[Path, ...],
           program: Path | None = None) -> tuple[list[str], list[str]]:
    """bwrap's options for the view of a build step (`building`) or a test run of `scope`:
    (what comes before the batch's hidden and shown folders, what comes after them). The
    `writable` folders are bound read-write after both. `program`: the test program the
    grader runs, whose folder is shown where nothing else shows it (one given ready-made)."""
    if scope is None:
        return ["--ro-bind", "/", "/"], []
    lab_number = scope.lab_dir[:2] if scope.lab_dir else None
    before = [*_system_mounts(), *_kit_mounts(scope.repo, lab_number)]
    cache = (scope.tree or scope.repo) / "CMakeCache.txt"
    before += [a for p in _tools_of(cache) for a in ("--ro-bind", str(p), str(p))]
    after: list[str] = []
    if scope.submission is not None:
        after += ["--ro-bind", str(scope.submission), str(scope.submission)]
    if scope.tree is not None and scope.tree.is_dir():
        after += ["--ro-bind", str(scope.tree), str(scope.tree)]
    if scope.prebuilt is not None and scope.prebuilt != scope.tree:
        after += [a for p in _prebuilt_files(scope.prebuilt) for a in ("--ro-bind", str(p), str(p))]
    for given in scope.programs + ((program,) if program is not None and program.is_absolute() else ()):
        folder = given.parent
        if not any(folder.is_relative_to(d) for d in SYSTEM_DIRS) and folder.is_dir():
            after += ["--ro-bind", str(folder), str(folder)]
    if building and (cache := ccache_dir()) is not None:
        after += ["--bind", str(cache), str(cache)]
    return before, after


# The tests of a hidden check (grader/README.md, "Hidden checks"): the instructor's, not the
# student's to read.
_HIDDEN_TEST = "hidden_*_test.cpp"


@lru_cache(maxsize=1)
def _empty_file() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="scanlab-view-"))
    (folder / "empty").write_bytes(b"")
    return folder / "empty"


@lru_cache(maxsize=4)
def _hidden_tests(repo: Path) -> tuple[Path, ...]:
    return tuple(sorted((repo / "grader" / "labs").glob("*/" + _HIDDEN_TEST)))


def hide_hidden_tests(scope: Scope | None, *, building: bool) -> list[str]:
    """A hidden check's test files, read as empty: always by a test program (it runs compiled
    code only), and by a build that imports the prebuilt kit (the suites that compile them are
    the prebuilt tree's; a tree that builds its own suites needs them as they are)."""
    if scope is None or (building and (scope.prebuilt is None or scope.prebuilt == scope.tree)):
        return []
    return [a for path in _hidden_tests(scope.repo) for a in ("--ro-bind", str(_empty_file()), str(path))]


def hide_other_labs(scope: Scope | None) -> list[str]:
    """Last of all (after the writable folders): the other labs' folders of the build tree."""
    if scope is None or scope.tree is None or scope.lab_dir is None or not scope.tree.is_dir():
        return []
    return _other_labs(scope.tree, scope.lab_dir)
