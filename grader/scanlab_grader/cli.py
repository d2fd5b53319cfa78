"""grader/grade LAB...: grade one submission (the command line is options.py's; --batch is
batch.py's)."""

from __future__ import annotations

import argparse
import fcntl
import os
import shutil
import sys
import time
from pathlib import Path

from scanlab_build import BuildTree

from . import manifest as manifest_mod
from . import prebuilt as prebuilt_mod
from . import sandbox
from . import submission as submission_mod
from .formats import Report, render
from .grading import NOT_GRADED_EXIT, Options, grade_lab
from .paths import REPO
from .runner import Limits

_DEFAULT_NVCC = Path("/usr/local/cuda/bin/nvcc")


def _nvcc_missing() -> bool:
    """True (and said) where --backend cuda finds no nvcc."""
    if _nvcc_found():
        return False
    print("grade: --backend cuda needs the CUDA toolkit's nvcc, which is neither on PATH nor in "
          f"{_DEFAULT_NVCC.parent}; install the toolkit from NVIDIA, or grade on the simulator "
          "(--backend sim)", file=sys.stderr)
    return True


def _nvcc_found() -> bool:
    """Whether nvcc is there; the toolkit's default place is put on PATH for the build."""
    if shutil.which("nvcc") is not None:
        return True
    if _DEFAULT_NVCC.is_file():
        os.environ["PATH"] = f"{_DEFAULT_NVCC.parent}{os.pathsep}{os.environ.get('PATH', '')}"
        return True
    return False


def configure_error_lines(output: str, limit: int = 12) -> list[str]:
    """The lines of CMake's output that say what went wrong, from its first error on."""
    lines = [l for l in output.splitlines() if l.strip()]
    errors = [i for i, l in enumerate(lines) if l.startswith("CMake Error")]
    start = errors[0] if errors else max(0, len(lines) - limit)
    return lines[start : start + limit]


def _resolve_submission(text: str) -> Path:
    """'labs' and 'solutions' name the repository's own directories."""
    if text.rstrip("/") in ("labs", "solutions"):
        return REPO / text.rstrip("/")
    return Path(text).resolve()


def _build_root(args: argparse.Namespace) -> Path:
    return Path(args.build_root).resolve() if args.build_root else REPO / "build" / "grade"


def prepare(args: argparse.Namespace, labs: list) -> int:
    """grade --prepare [LAB...]: the prebuilt tree of these labs (default: every lab) in the build
    root, and no grading. A later grading of another lab builds that lab's part there first."""
    build_root = _build_root(args)
    if args.backend == "cuda" and _nvcc_missing():
        return 2
    folder, output = prebuilt_mod.build_prebuilt(build_root, args.backend, args.jobs, args.cmake_define, labs)
    if folder is None:
        print("grade: the kit's own code could not be built:\n" + output[-3000:], file=sys.stderr)
        return 2
    print(f"grade: prepared {folder}; grading with --build-root {build_root} compiles only each submission's files")
    return 0


def shared_build(build_root: Path, args: argparse.Namespace, labs: list) -> tuple[list[str], list[str] | None]:
    """The CMake define that makes a submission's build import the build root's prebuilt tree
    (the simulator runtime, the harness, these labs' tests), which is built first where this is
    the build root's first grade, and brought up to date otherwise; none where --cmake-define or
    SCANLAB_PREBUILT_DIR names a tree to import already. Second: the lines that say why the kit's
    own code could not be built, or None."""
    if any(d.startswith("SCANLAB_PREBUILT_DIR=") for d in args.cmake_define):
        return [], None
    folder, output = prebuilt_mod.build_prebuilt(build_root, args.backend, args.jobs, args.cmake_define, labs)
    if folder is None:
        return [], configure_error_lines(output, limit=40)
    return [f"SCANLAB_PREBUILT_DIR={folder}"], None


def prebuilt_from_environment(args: argparse.Namespace) -> list[str]:
    """The CMake define that makes a submission's build import the build tree named by
    SCANLAB_PREBUILT_DIR, unless --cmake-define names one already."""
    folder = prebuilt_mod.named_by_environment()
    if folder is None or any(d.startswith("SCANLAB_PREBUILT_DIR=") for d in args.cmake_define):
        return []
    return [f"SCANLAB_PREBUILT_DIR={folder}"]


def _wait_for_turn(staging: Path):
    """The submission's lock, taken (waiting while another grade of it holds it)."""
    staging.parent.mkdir(parents=True, exist_ok=True)
    lock = open(staging.parent / f"{staging.name}.lock", "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"grade: {staging.name} is being graded by another grade; waiting for it", file=sys.stderr, flush=True)
        fcntl.flock(lock, fcntl.LOCK_EX)
    return lock


def main(args: argparse.Namespace) -> int:
    args.jobs = args.jobs or os.cpu_count() or 2
    started = time.monotonic()
    try:
        labs_all = manifest_mod.discover(Path(args.labs_dir))
        labs = manifest_mod.resolve(labs_all, args.labs)
    except manifest_mod.ManifestError as e:
        print(f"grade: {e}", file=sys.stderr)
        return 2
    if args.prepare:
        return prepare(args, labs if args.labs else list(labs_all.values()))
    unknown = [c for c in args.checks if not any(c == check.id for lab in labs for check in lab.checks)]
    if unknown:
        print(f"grade: no check {', '.join(unknown)} in lab {', '.join(l.number for l in labs)}; the checks are: "
              + ", ".join(sorted({check.id for lab in labs for check in lab.checks})), file=sys.stderr)
        return 2
    original = _resolve_submission(args.submission)
    if not original.is_dir():
        print(f"grade: submission directory {original} does not exist", file=sys.stderr)
        return 2
    original = submission_mod.submission_root(original)
    test_binaries = {}
    for item in args.test_binary:
        number, _, path = item.partition("=")
        test_binaries[number.zfill(2)] = Path(path).resolve()

    memory_mib = args.memory_limit if args.memory_limit is not None else (4096 if args.backend == "sim" else 0)
    as_mib = args.address_space_limit or 0
    limits = Limits(test_timeout_s=args.timeout, total_timeout_s=args.lab_timeout,
                    memory_bytes=(memory_mib << 20) if memory_mib else None,
                    address_space_bytes=(as_mib << 20) if as_mib else None)
    build_root = _build_root(args)
    args.cmake_define = list(args.cmake_define) + prebuilt_from_environment(args)
    imported = [Path(d.partition("=")[2]) for d in args.cmake_define if d.startswith("SCANLAB_PREBUILT_DIR=")]
    # Only each lab's own files are taken from the submission, into a folder of the grader's:
    # nothing else the submission holds is ever on a compiler's path (submission.py).
    submission = submission_mod.staging_dir(build_root, Path(args.stage_as) if args.stage_as else original)
    # Two grades of one submission folder at once share its staging copy and build tree: the
    # second waits for the first (the lock is held until this process ends).
    held = _wait_for_turn(submission)  # noqa: F841 (held, not read)
    staged = submission_mod.stage(REPO, original, list(labs_all.values()), submission)
    opts = Options(repo=REPO, backend=args.backend, submission=submission, build_root=build_root,
                   jobs=max(1, args.jobs), limits=limits, defines=args.cmake_define,
                   sanitize=not args.no_sanitizer, sanitizer=args.sanitizer_command,
                   test_binaries=test_binaries, staged=staged, pictures=args.pictures is not None,
                   checks=tuple(args.checks))

    try:
        build_root.mkdir(parents=True, exist_ok=True)
        box = sandbox.choose(REPO, args.sandbox, hidden=tuple(Path(p) for p in args.sandbox_hide),
                             shown=tuple(Path(p) for p in args.sandbox_show),
                             reach=(build_root, *imported, *test_binaries.values()))
    except sandbox.SandboxError as e:
        print(f"grade: {e}", file=sys.stderr)
        return 2
    print(f"grade: student code runs in the sandbox: {box.description}", file=sys.stderr)

    tree = None
    configure_error = None
    if any(l.number not in test_binaries for l in labs):
        if args.backend == "cuda" and _nvcc_missing():
            return 2
        shared, kit_error = shared_build(build_root, args, [l for l in labs if l.number not in test_binaries])
        if kit_error is not None:
            # Nothing of the submission's is compiled there: the machine or the kit is at fault,
            # and no lab can be graded. Say it once, instead of failing every check of every lab.
            print("grade: the kit's own code (the simulator runtime, the harness, the labs' tests) could not "
                  "be built on this machine (no lab was graded):\n  " + "\n  ".join(kit_error)
                  + "\nMissing packages are installed by common/bin/prerequisites; see README.md.", file=sys.stderr)
            return 2
        defines = list(args.cmake_define) + shared
        tree = BuildTree(REPO, build_root, args.backend, submission, opts.jobs, defines,
                         run_build=sandbox.run_build)
        print(f"grade: configuring {tree.dir}", file=sys.stderr)
        configured = tree.configure()
        if not configured.ok:
            configure_error = configure_error_lines(configured.output)
            if not any(str(submission) in line for line in configure_error):
                # Nothing of the submission's: this machine's set-up is at fault, and no lab
                # can be graded. Say it once, instead of failing every check of every lab.
                print("grade: the kit could not be configured on this machine (no lab was graded):\n  "
                      + "\n  ".join(configure_error)
                      + "\nMissing packages are installed by common/bin/prerequisites; see README.md.",
                      file=sys.stderr)
                return 2

    results = []
    for lab in labs:
        print(f"grade: lab {lab.number} ({lab.dir}): building and testing", file=sys.stderr)
        results.append(grade_lab(lab, opts, tree, configure_error))

    try:
        shown = str(original.relative_to(REPO)) + "/"
    except ValueError:
        shown = str(original)
    report = Report(args.backend, shown, results, time.monotonic() - started, sandbox=box.description)
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty()
                                       and os.environ.get("NO_COLOR") is None)
    if args.output:
        text = render(report, args.format)
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(args.output).write_text(text)
        if args.format != "text":
            sys.stdout.write(render(report, "text", color, args.verbose))
    else:
        sys.stdout.write(render(report, args.format, color and args.format == "text", args.verbose))
    if args.pictures is not None:
        from scanlab_findings.drawing import PicturesUnavailable
        from .pictures import write_page
        try:
            page = write_page(report, Path(args.pictures).resolve(), args.page_name)
        except PicturesUnavailable as e:
            # The grades stand without the page (the platforms' entry points ask for it on
            # every submission): say why it is missing, and go on.
            print(f"grade: no page of pictures: {e}", file=sys.stderr)
            page = None
        # Where the page is, said on stdout after a text report (a JSON one stays parseable).
        if page is not None:
            print(f"Page of this grading, with pictures of what failed: {page}",
                  file=sys.stdout if args.output or args.format == "text" else sys.stderr)
    if args.annotations is not None:
        from .annotations import annotations
        # Workflow commands are read from stdout and stderr alike; keep a report on stdout parseable.
        stream = sys.stdout if args.output or args.format == "text" else sys.stderr
        for line in annotations(results, args.annotations):
            print(line, file=stream)
    manifest_errors = [c for l in results for c in l.checks if c.kind == "manifest"]
    if manifest_errors:
        return 2
    if report.not_graded():
        return NOT_GRADED_EXIT  # not the student's doing: grade again
    return 0 if report.passed else 1
