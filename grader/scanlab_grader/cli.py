"""Command line of grader/grade."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

from . import containment
from . import manifest as manifest_mod
from . import submission as submission_mod
from .build import BuildTree, first_errors
from .formats import FORMATS, Report, render
from .grading import Options, grade_lab
from .runner import Limits

REPO = Path(__file__).resolve().parents[2]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="grade",
        description="Build, run and score scanlab labs. Exit status: 0 when every check passed, "
                    "1 when a check failed, 2 on a usage or manifest error or when this machine lacks what the kit needs.")
    p.add_argument("labs", nargs="*", metavar="LAB", help='"02", "02-kogge-stone" or "all" (--batch: default all)')
    p.add_argument("--backend", choices=("sim", "cuda"), default="sim",
                   help="sim: CPU simulator, no GPU needed (default); cuda: nvcc and a GPU")
    p.add_argument("--submission", default="labs", metavar="DIR",
                   help='directory laid out like labs/ (default: labs; "solutions" grades the references)')
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("--output", metavar="FILE", help="write the report here (the text table still goes to stdout)")
    p.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                   help="parallel build jobs (default: all cores); with --batch: students graded at once (default 1)")
    batch = p.add_argument_group("grading a class (grader/README.md, 'Batch grading')")
    batch.add_argument("--batch", metavar="SUBMISSIONS_DIR",
                       help="grade every student of SUBMISSIONS_DIR (one folder or .zip/.tar.gz archive each)")
    batch.add_argument("--results", metavar="DIR", help="--batch: where reports and gradebook.csv go "
                       "(default: SUBMISSIONS_DIR-grades beside it)")
    batch.add_argument("--only", metavar="STUDENT", help="--batch: grade this student only (a Slurm array task)")
    batch.add_argument("--merge", action="store_true", help="--batch: only write gradebook.csv from the reports present")
    batch.add_argument("--student-timeout", type=float, default=3600.0, metavar="S",
                       help="--batch: wall-time limit of one student's whole grading (default 3600)")
    batch.add_argument("--build-jobs", type=int, default=1, metavar="N",
                       help="--batch: parallel build jobs of each student's build (default 1)")
    p.add_argument("--annotations", metavar="PREFIX", default=None,
                   help="also print GitHub Actions ::error file=PREFIX/NN-name/FILE,line=N:: lines for the "
                        "lab lines that failed checks name (PREFIX: where the lab folders are, e.g. labs)")
    p.add_argument("--stage-as", default=None, help=argparse.SUPPRESS)
    p.add_argument("--build-root", metavar="DIR", help="where build trees go (default: <repo>/build/grade)")
    p.add_argument("--timeout", type=float, default=60.0, metavar="S",
                   help="wall-time limit of one test in seconds (default 60)")
    p.add_argument("--lab-timeout", type=float, default=900.0, metavar="S",
                   help="wall-time limit for all runs of one lab's tests (default 900)")
    p.add_argument("--memory-limit", type=int, default=None, metavar="MIB",
                   help="resident memory limit of a test program in MiB; 0 = none "
                        "(default: 4096 on sim, none on cuda)")
    p.add_argument("--address-space-limit", type=int, default=None, metavar="MIB",
                   help="RLIMIT_AS of a test program in MiB; 0 = none (default: none: the simulator and the "
                        "CUDA driver reserve far more address space than they use)")
    p.add_argument("--no-sanitizer", action="store_true",
                   help="cuda backend: do not rerun checks under compute-sanitizer")
    p.add_argument("--cmake-define", action="append", default=[], metavar="VAR=VALUE",
                   help="extra -D for the CMake configure step (repeatable)")
    p.add_argument("--sanitizer-command", default="compute-sanitizer", help=argparse.SUPPRESS)
    p.add_argument("--labs-dir", default=str(REPO / "grader" / "labs"), help=argparse.SUPPRESS)
    p.add_argument("--test-binary", action="append", default=[], metavar="NN=PATH", help=argparse.SUPPRESS)
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    return p


_DEFAULT_NVCC = Path("/usr/local/cuda/bin/nvcc")


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


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.batch:
        from . import batch
        args.jobs = args.jobs or 1
        return batch.main(args)
    if not args.labs:
        parser.error("name the labs to grade (or all)")
    args.jobs = args.jobs or os.cpu_count() or 2
    started = time.monotonic()
    try:
        labs_all = manifest_mod.discover(Path(args.labs_dir))
        labs = manifest_mod.resolve(labs_all, args.labs)
    except manifest_mod.ManifestError as e:
        print(f"grade: {e}", file=sys.stderr)
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
    build_root = Path(args.build_root).resolve() if args.build_root else REPO / "build" / "grade"
    # Only each lab's own files are taken from the submission, into a folder of the grader's:
    # nothing else the submission holds is ever on a compiler's path (submission.py).
    submission = submission_mod.staging_dir(build_root, Path(args.stage_as) if args.stage_as else original)
    staged = submission_mod.stage(REPO, original, list(labs_all.values()), submission)
    opts = Options(repo=REPO, backend=args.backend, submission=submission, build_root=build_root,
                   jobs=max(1, args.jobs), limits=limits, defines=args.cmake_define,
                   sanitize=not args.no_sanitizer, sanitizer=args.sanitizer_command,
                   test_binaries=test_binaries, staged=staged)

    tree = None
    configure_error = None
    if any(l.number not in test_binaries for l in labs):
        if args.backend == "cuda" and not _nvcc_found():
            print("grade: --backend cuda needs the CUDA toolkit's nvcc, which is neither on PATH nor in "
                  f"{_DEFAULT_NVCC.parent}; install the toolkit from NVIDIA, or grade on the simulator "
                  "(--backend sim)", file=sys.stderr)
            return 2
        tree = BuildTree(REPO, build_root, args.backend, submission, opts.jobs, args.cmake_define)
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

    # Lab code that escapes its test program's session (setsid) is re-parented to the grader,
    # which stops it when the test program ends (containment.py).
    containment.become_subreaper()
    results = []
    for lab in labs:
        print(f"grade: lab {lab.number} ({lab.dir}): building and testing", file=sys.stderr)
        results.append(grade_lab(lab, opts, tree, configure_error))

    try:
        shown = str(original.relative_to(REPO)) + "/"
    except ValueError:
        shown = str(original)
    report = Report(args.backend, shown, results, time.monotonic() - started)
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty()
                                       and os.environ.get("NO_COLOR") is None)
    if args.output:
        text = render(report, args.format)
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(args.output).write_text(text)
        if args.format != "text":
            sys.stdout.write(render(report, "text", color))
    else:
        sys.stdout.write(render(report, args.format, color and args.format == "text"))
    if args.annotations is not None:
        from .annotations import annotations
        # Workflow commands are read from stdout and stderr alike; keep a report on stdout parseable.
        stream = sys.stdout if args.output or args.format == "text" else sys.stderr
        for line in annotations(results, args.annotations):
            print(line, file=stream)
    manifest_errors = [c for l in results for c in l.checks if c.kind == "manifest"]
    if manifest_errors:
        return 2
    return 0 if report.passed else 1
