"""What a lab's compiled code reaches, judged from the build, not from the source text.

After a lab's test program is built and before it runs, the grader looks at the objects
compiled from the submission's files (found through the build's own dependency records):

- the files the compiler and the simulator's rewriter read for them: lab NN may read its own
  file, the earlier labs it builds on (labs numbered below NN), the kit's common headers and
  the system's, nothing else (not the reference solution of its own lab, not the grader);
- the symbols they leave for the linker to resolve (`nm -u`): the simulator's control
  functions, the grader's result channel and process-level escapes have no place in lab code.

Either finding fails the whole lab with its reason, and its tests are not run. A macro, a
string or a comment that merely names such a function changes nothing here; a call does,
however it is spelled."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

# (what it is, why lab code may not use it, pattern of the demangled undefined symbol)
FORBIDDEN_SYMBOLS: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("simulator control",
     "the simulator's reports, schedule, counters and exit status belong to the grader's tests",
     re.compile(r"scanlab::sim::(set_error_exit_status|set_schedule|get_schedule|take_reports|"
                r"forget_reported_places|set_counting|take_counters|device_allocations)\b.*")),
    ("grader channel",
     "lab code has no business with file descriptors, the grader's signing or GoogleTest",
     re.compile(r"(HMAC\w*|EVP_\w+|testing::.*|write|writev|pwrite(64)?|pwritev2?|send|sendto|sendmsg|"
                r"dup|dup2|dup3|fcntl(64)?|fdopen|open(64)?|openat(64)?|creat(64)?|syscall|ioctl)")),
    ("file access",
     "a scan reads and writes memory only; files are the grader's (and may hold what a lab must not see)",
     re.compile(r"(fopen(64)?|freopen(64)?|opendir|readlink|std::basic_[io]?fstream<.*|std::basic_filebuf<.*|"
                r"std::filesystem::.*)")),
    ("process escape",
     "lab code runs inside the test program and may not end, leave, replace or signal it",
     re.compile(r"(exit|_exit|_Exit|quick_exit|at_quick_exit|atexit|fork|vfork|clone3?|"
                r"_Fork|__fork|__libc_fork|__vfork|__clone2?|__clone3|execveat|__execve|"
                r"execl|execle|execlp|execv|execve|execvp|execvpe|fexecve|posix_spawnp?|"
                r"kill|killpg|tgkill|tkill|system|popen|dlopen|dlmopen|dlsym|dlvsym|setsid|setpgid|"
                r"ptrace|prctl|signal|sigaction|sigprocmask|pthread_sigmask|setrlimit|prlimit(64)?|"
                r"longjmp|_longjmp|siglongjmp)")),
)

_LAB_FOLDER = re.compile(r"(?P<number>\d\d)-[a-z0-9][a-z0-9-]*")
# The tests of a hidden check (grader/README.md, "Hidden checks"), in the lab's own test folder
# but not the student's to read.
_HIDDEN_TEST = re.compile(r"hidden_[A-Za-z0-9_]*_test\.cpp")


@dataclass
class Finding:
    kind: str  # "simulator control" | "grader channel" | "process escape" | "reads outside the lab"
    what: str  # the symbol or file
    why: str


def _demangled_undefined(obj: Path) -> list[str]:
    proc = subprocess.run(["nm", "-u", "-C", str(obj)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"nm {obj}: {proc.stderr.strip()}")
    return [line.split(None, 1)[1].strip() for line in proc.stdout.splitlines() if line.strip().startswith("U ")]


# Calls that nvcc writes into every object with device code: its module registration hands
# the unregistration to atexit, and the host-side copy of a device function (which must never
# run on the host) is a call to exit. They are the toolkit's, not the lab's; the simulator
# build compiles the same source with a host compiler and still sees a lab's own calls.
_NVCC_MODULE_REGISTRATION = "__cudaRegisterFatBinary"
_NVCC_GENERATED_CALLS = frozenset({"atexit", "exit"})


def forbidden_among(symbols: list[str]) -> list[Finding]:
    """The findings among an object's undefined symbols (demangled, as `nm -u -C` lists them)."""
    names = [symbol.split("@", 1)[0] for symbol in symbols]
    toolkit = _NVCC_GENERATED_CALLS if _NVCC_MODULE_REGISTRATION in names else frozenset()
    found: list[Finding] = []
    for name in names:
        if name in toolkit:
            continue
        for kind, why, pattern in FORBIDDEN_SYMBOLS:
            if pattern.fullmatch(name):
                found.append(Finding(kind, name, why))
                break
    return found


def forbidden_symbols(obj: Path) -> list[Finding]:
    return forbidden_among(_demangled_undefined(obj))


def _parse_depfile(text: str) -> list[str]:
    """The prerequisites of a Make-style depfile (`out: a b \\` ...)."""
    body = text.replace("\\\n", " ")
    _, _, deps = body.partition(": ")
    return [d.replace("\\ ", " ") for d in re.findall(r"(?:\\ |\S)+", deps)]


def object_dependencies(build_dir: Path, objects: list[Path]) -> dict[Path, list[str]]:
    """The files each object was compiled from, from Ninja's log or the compiler's depfile."""
    result: dict[Path, list[str]] = {o: [] for o in objects}
    if (build_dir / "build.ninja").is_file() and shutil.which("ninja"):
        rel = [os.path.relpath(o, build_dir) for o in objects]
        proc = subprocess.run(["ninja", "-C", str(build_dir), "-t", "deps", *rel], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
        current: Path | None = None
        for line in proc.stdout.splitlines():
            if line and not line.startswith(" "):
                name = line.split(":", 1)[0]
                current = (build_dir / name).resolve()
                current = next((o for o in objects if o.resolve() == current), None)
            elif current is not None and line.strip():
                result[current].append(line.strip())
    for obj in objects:
        depfile = Path(str(obj) + ".d")
        if not result[obj] and depfile.is_file():
            result[obj] = _parse_depfile(depfile.read_text(errors="replace"))
    return result


def _read_by_rewriter(path: str) -> list[str]:
    """A file the simulator's rewriter generated stands for the files it read (its depfile)."""
    depfile = Path(path + ".d")
    if depfile.is_file():
        return _parse_depfile(depfile.read_text(errors="replace"))
    return [path]


@dataclass
class LabObjects:
    objects: list[Path]  # compiled from the submission's files
    reads: dict[Path, list[Path]]  # object -> the source files behind it


def lab_objects(build_dir: Path, target_dir: Path, submission: Path) -> LabObjects:
    """The objects under `target_dir` whose sources include a file of the submission."""
    objects = sorted(target_dir.rglob("*.o"))
    deps = object_dependencies(build_dir, objects)
    submission = submission.resolve()
    lab: list[Path] = []
    reads: dict[Path, list[Path]] = {}
    for obj in objects:
        # Ninja records paths relative to the build tree where the compiler was given them so
        # (ccache with CCACHE_BASEDIR rewrites them that way).
        files = [Path(os.path.normpath(build_dir / f)) for d in deps[obj]
                 for f in _read_by_rewriter(str(build_dir / d))]
        if any(f.resolve().is_relative_to(submission) for f in files):
            lab.append(obj)
            reads[obj] = files
    return LabObjects(lab, reads)


def foreign_reads(files: list[Path], *, lab_dir: str, submission: Path, earlier: Path, repo: Path,
                  build_dir: Path) -> list[Finding]:
    """Files read for a lab's object that lab `lab_dir` has no right to: inside the kit or the
    submission, anything but its own folder, earlier labs, the kit's common headers and the lab's
    own test folder; outside them, anything but the system's headers."""
    number = int(lab_dir[:2])
    repo, submission, earlier, build_dir = (p.resolve() for p in (repo, submission, earlier, build_dir))
    allowed = [submission / lab_dir, repo / "common", repo / "grader" / "labs" / "common",
               repo / "grader" / "labs" / lab_dir, build_dir]
    found: list[Finding] = []
    seen = set()
    for f in files:
        # /proc and /dev as the box had them: resolved here, /proc/self would be the grader.
        real = Path(os.path.normpath(f)) if _box_own(f) else f.resolve()
        hidden_test = _HIDDEN_TEST.fullmatch(real.name) is not None and real.is_relative_to(repo / "grader")
        if real in seen or (not hidden_test and any(real.is_relative_to(a) for a in allowed)):
            continue
        seen.add(real)
        for base in (earlier, submission):
            if real.is_relative_to(base):
                folder = real.relative_to(base).parts[0]
                m = _LAB_FOLDER.fullmatch(folder)
                if m and int(m.group("number")) < number:
                    break
        else:
            if not (real.is_relative_to(repo) or real.is_relative_to(submission)) and str(real).startswith(("/usr/", "/opt/")):
                continue
            found.append(Finding("reads outside the lab", _shown(real, repo),
                                 "a lab may include its own files, earlier labs, the kit's common headers "
                                 "and the system's"))
    return found


def _shown(path: Path, repo: Path) -> str:
    try:
        return str(path.relative_to(repo))
    except ValueError:
        return str(path)


def screen(build_dir: Path, target_dir: Path, *, lab_dir: str, submission: Path, earlier: Path,
           repo: Path) -> tuple[list[Finding], list[str]]:
    """Findings that fail the lab, and notes (what could not be screened)."""
    objs = lab_objects(build_dir, target_dir, submission)
    if not objs.objects:
        return [], ["the lab's object files could not be found in the build, so what its code calls "
                    "was not checked"]
    findings: list[Finding] = []
    for obj in objs.objects:
        findings += foreign_reads(objs.reads[obj], lab_dir=lab_dir, submission=submission, earlier=earlier,
                                  repo=repo, build_dir=build_dir)
        findings += forbidden_symbols(obj)
    unique: dict[tuple[str, str], Finding] = {}
    for f in findings:
        unique.setdefault((f.kind, f.what), f)
    return list(unique.values()), []


# gcc/clang: "file:line:col: fatal error: NAME: No such file or directory"; nvcc's front end:
# 'file(line): catastrophic error: cannot open source file "NAME"'; the assembler, for an
# `.incbin "NAME"` of an asm statement: "Error: file not found: NAME".
_NOT_FOUND = re.compile(r'(?:fatal error: (?P<gcc>[^:\n]+): No such file or directory|'
                        r'cannot open source file "(?P<nvcc>[^"\n]+)"|'
                        r'Error: file not found: (?P<gas>[^\n]+))')


def _box_own(path: Path) -> bool:
    return Path(os.path.normpath(path)).parts[1:2] in (("proc",), ("dev",))


def _is_file_here(path: Path) -> bool:
    """Whether a file the box did not let the compiler read is a file out here. /proc and /dev
    are the box's own (/proc/self is the compiler there, the grader here; /proc/1/root is a
    root this process may not enter): a name in them says nothing about this machine's files."""
    if _box_own(path):
        return False
    try:
        return path.is_file()
    except OSError:
        return False


def refused_includes(output: str, *, lab_dir: str, submission: Path, earlier: Path, repo: Path,
                     build_dir: Path) -> list[Finding]:
    """The includes of a failed build that the sandbox's view refused: a file the compiler did
    not find although it is there, outside what the lab may read (its own reference, another
    build tree, a system file). Named as the screen names a read outside the lab."""
    found: list[Finding] = []
    for m in _NOT_FOUND.finditer(output):
        name = (m.group("gcc") or m.group("nvcc") or m.group("gas")).strip()
        bases = [earlier, submission / lab_dir, repo / "grader" / "labs" / lab_dir, repo / "grader" / "labs" / "common",
                 repo / "common" / "include", repo / "common" / "sim" / "include"]
        candidates = [Path(name)] if os.path.isabs(name) else [b / name for b in bases]
        there = [c for c in candidates if _is_file_here(c)]
        found += foreign_reads(there[:1], lab_dir=lab_dir, submission=submission, earlier=earlier, repo=repo,
                               build_dir=build_dir)
    unique: dict[str, Finding] = {}
    for f in found:
        unique.setdefault(f.what, f)
    return list(unique.values())
