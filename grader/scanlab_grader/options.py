"""The command line of grader/grade, shared by single grading (cli.py) and batch grading
(batch.py), which grades each student with a `grade` process of its own and hands it every
option of its own command line but those below (`forwarded`): an option added to the parser
reaches each student's grading without a change to the batch."""

from __future__ import annotations

import argparse
import os

from .formats import FORMATS
from .paths import REPO

# Options a batch handles itself, or sets for each student (by dest).
BATCH_ONLY = frozenset({
    "batch", "results", "only", "merge", "list", "student_timeout", "build_jobs", "jobs",
    "submission", "stage_as", "build_root", "prepare", "format", "output", "color", "sandbox_hide", "sandbox_show",
})


def parser() -> argparse.ArgumentParser:
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
    p.add_argument("--pictures", metavar="DIR", default=None,
                   help="write one HTML page per graded submission here (NAME.html): the lab table, the findings, "
                        "and the picture of each race (a failed test is run once more to record it)")
    p.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                   help="parallel build jobs (default: all cores); with --batch: students graded at once (default 1)")
    batch = p.add_argument_group("grading a class (grader/README.md, 'Batch grading')")
    batch.add_argument("--batch", metavar="SUBMISSIONS_DIR",
                       help="grade every student of SUBMISSIONS_DIR (one folder or .zip/.tar.gz archive each)")
    batch.add_argument("--results", metavar="DIR", help="--batch: where reports and gradebook.csv go "
                       "(default: SUBMISSIONS_DIR-grades beside it)")
    batch.add_argument("--only", metavar="STUDENT", help="--batch: grade this student only (a Slurm array task)")
    batch.add_argument("--merge", action="store_true", help="--batch: only write gradebook.csv from the reports present")
    batch.add_argument("--list", action="store_true",
                       help="--batch: print the students of SUBMISSIONS_DIR, one a line, in the order a "
                            "Slurm array numbers its tasks, and grade nobody")
    batch.add_argument("--student-timeout", type=float, default=3600.0, metavar="S",
                       help="--batch: wall-time limit of one student's whole grading (default 3600)")
    batch.add_argument("--build-jobs", type=int, default=1, metavar="N",
                       help="--batch: parallel build jobs of each student's build (default 1)")
    p.add_argument("--annotations", metavar="PREFIX", default=None,
                   help="also print GitHub Actions ::error file=PREFIX/NN-name/FILE,line=N:: lines for the "
                        "lab lines that failed checks name (PREFIX: where the lab folders are, e.g. labs)")
    p.add_argument("--prepare", action="store_true",
                   help="build what every submission's build reuses (the simulator runtime, the harness, the "
                        "labs' tests) in BUILD_ROOT/prebuilt-BACKEND, and grade nothing (a platform's image does "
                        "this once; without it, the first grade of a build root builds it): every grade with the "
                        "same --build-root compiles only the submission's own files")
    p.add_argument("--stage-as", default=None, help=argparse.SUPPRESS)
    p.add_argument("--page-name", default=None, help=argparse.SUPPRESS)  # --pictures' page: NAME.html (batch)
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
    p.add_argument("--check", action="append", default=[], metavar="ID", dest="checks",
                   help="grade only this check (repeatable; its id as the report names it, e.g. "
                        "race-freedom-inplace): only its tests run, and the lab's other checks show as "
                        "skipped")
    p.add_argument("--no-sanitizer", action="store_true",
                   help="cuda backend: do not rerun checks under compute-sanitizer")
    p.add_argument("--cmake-define", action="append", default=[], metavar="VAR=VALUE",
                   help="extra -D for the CMake configure step (repeatable)")
    p.add_argument("--sanitizer-command", default="compute-sanitizer", help=argparse.SUPPRESS)
    p.add_argument("--labs-dir", default=str(REPO / "grader" / "labs"), help=argparse.SUPPRESS)
    p.add_argument("--test-binary", action="append", default=[], metavar="NN=PATH", help=argparse.SUPPRESS)
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    p.add_argument("--verbose", action="store_true",
                   help="text report: also GoogleTest's own text of every failed test, and the details of a "
                        "lab not started")
    p.add_argument("--sandbox", choices=("auto", "namespaces", "user", "none"),
                   default=os.environ.get("SCANLAB_SANDBOX", "auto"),
                   help="where student code runs (default: $SCANLAB_SANDBOX, else auto): the strongest box "
                        "this machine can make, or "
                        "namespaces (bubblewrap), user (as 'nobody'; root only), none (the symbol screen "
                        "alone); see grader/README.md, 'The sandbox'")
    # Set by --batch for each student: what of the class the student's runs must not see.
    p.add_argument("--sandbox-hide", action="append", default=[], metavar="DIR", help=argparse.SUPPRESS)
    p.add_argument("--sandbox-show", action="append", default=[], metavar="DIR", help=argparse.SUPPRESS)
    return p


def forwarded(args: argparse.Namespace) -> list[str]:
    """The command-line options of `args` that differ from their defaults, batch-only ones
    left out, written back as options (the long spelling)."""
    out: list[str] = []
    for action in parser()._actions:
        if not action.option_strings or action.dest in BATCH_ONLY or action.default == argparse.SUPPRESS:
            continue
        value = getattr(args, action.dest, action.default)
        if value == action.default:
            continue
        flag = action.option_strings[-1]
        if action.nargs == 0:  # store_true and kin: the flag alone
            out.append(flag)
        elif isinstance(value, list):  # append: once per value
            for item in value:
                out += [flag, str(item)]
        else:
            out += [flag, str(value)]
    return out
