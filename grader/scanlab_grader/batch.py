"""grade --batch SUBMISSIONS_DIR: grade a whole class.

SUBMISSIONS_DIR holds one entry per student: a folder (laid out like labs/, or a whole student
repository) or an archive of one (.zip, .tar.gz, .tgz), named after the student. Each student
is graded by its own `grade` process (its own process limits, time-outs and build of the
student's files); a student whose grading fails in any way gets an error row and the batch
goes on.

What is not student code is built once, before the first student, in <results>/build/prebuilt-BACKEND
(prebuilt.py), or taken from the built tree SCANLAB_PREBUILT_DIR names: every student's build
tree imports it and compiles only the student's lab files
and links. Worker K keeps one such tree
(<results>/build/worker-K) whose submission folder is always the same path, so a tree is
configured once per worker; before each student's turn everything the student before left
there (their files, what was built of them, their logs) is removed (`clear_worker`): a
student's runs see their own build tree, and it holds nothing of anyone else.

Results go to <results> (default: SUBMISSIONS_DIR-grades/): reports/<student>.txt and .json,
and gradebook.csv, rewritten after every student (gradebook.py). A re-run skips students
whose report is newer than their submission, so an interrupted batch resumes where it
stopped. On a terminal a progress line shows students done, failed and the time left.

For a cluster, `--only STUDENT` grades one student (one Slurm array task each), writing that
student's files only, and `--merge` alone writes the gradebook, from the reports present and a
"not graded" row for each student without one (grader/README.md, "Batch grading"). A batch
that is stopped with SIGTERM or SIGINT (Slurm's time limit, scancel, Ctrl-C) writes why for
the students it was grading before it ends."""

from __future__ import annotations

import glob
import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import threading
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from scanlab_build import keep_configuration_only

from . import manifest as manifest_mod
from . import options
from .grading import NOT_GRADED_EXIT
from .gradebook import grading_done, grading_failed, grading_started, marker_of, write_gradebook
from .paths import GRADE, REPO
from .prebuilt import build_prebuilt, named_by_environment

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".zip")
MAX_UNPACKED_BYTES = 64 << 20


class BatchError(Exception):
    pass


@dataclass
class Student:
    name: str
    entry: Path  # the folder or archive in SUBMISSIONS_DIR


def students_in(submissions: Path) -> list[Student]:
    found = []
    for entry in sorted(submissions.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir() and not entry.is_symlink():
            found.append(Student(entry.name, entry))
            continue
        for suffix in ARCHIVE_SUFFIXES:
            if entry.is_file() and entry.name.endswith(suffix):
                found.append(Student(entry.name[: -len(suffix)], entry))
                break
    names = [s.name for s in found]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise BatchError(f"{submissions}: two entries for the same student: {', '.join(twice)}")
    return found


def unpack(archive: Path, dest: Path) -> Path:
    """Extracts a student's archive safely (no absolute paths, no `..`, no links out, a size
    cap) and returns the folder to grade: the archive's single top folder if it has one."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            total = sum(i.file_size for i in z.infolist())
            if total > MAX_UNPACKED_BYTES:
                raise BatchError(f"{archive.name} unpacks to {total >> 20} MiB, more than {MAX_UNPACKED_BYTES >> 20}")
            for info in z.infolist():
                target = (dest / info.filename).resolve()
                if not str(target).startswith(str(dest.resolve()) + os.sep):
                    raise BatchError(f"{archive.name}: {info.filename} would be written outside the archive's folder")
            z.extractall(dest)
    else:
        with tarfile.open(archive) as t:
            total = sum(m.size for m in t.getmembers())
            if total > MAX_UNPACKED_BYTES:
                raise BatchError(f"{archive.name} unpacks to {total >> 20} MiB, more than {MAX_UNPACKED_BYTES >> 20}")
            try:
                t.extractall(dest, filter="data")
            except tarfile.FilterError as e:
                raise BatchError(f"{archive.name}: {e}") from None
    entries = [p for p in dest.iterdir() if not p.name.startswith((".", "__MACOSX"))]
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return dest


def clear_worker(work: Path) -> None:
    """Before a student's turn, a worker's folder keeps nothing of the student before: their
    unpacked archive, staged files, rewritten sources, objects, test programs and logs go
    (the student's runs may read this folder), and of each build tree only its configuration
    stays, so that it is configured once per worker. A build tree without a record of its
    configuration goes as a whole."""
    if not work.is_dir():
        return
    for entry in work.iterdir():
        if entry.is_dir() and not entry.is_symlink() and keep_configuration_only(entry):
            continue
        shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()


@dataclass
class Outcome:
    student: str
    ok: bool  # graded (whatever the score); False: could not be graded
    score: float = 0.0
    max_score: float = 0.0
    error: str = ""
    seconds: float = 0.0
    reused: bool = False


class Batch:
    def page_name(self, student: str) -> list[str]:
        """With --pictures, the student's page is named after the student, not the folder unpacked."""
        return ["--page-name", student] if "--pictures" in self.grade_args else []

    def __init__(self, submissions: Path, results: Path, labs: list[str], grade_args: list[str], workers: int,
                 student_timeout_s: float):
        self.submissions = submissions
        self.results = results
        self.labs = labs
        self.grade_args = grade_args
        self.workers = max(1, workers)
        self.student_timeout_s = student_timeout_s
        self.reports = results / "reports"
        self.lock = threading.Lock()
        self.stopping = False  # a signal ends the batch: the reasons are written by its handler
        self.build_root = results / "build"
        self.prebuilt = self.build_root / "prebuilt"  # what every student's build imports
        self.worker_name = ""  # --only: a build tree of the student's own, so that tasks never share one
        self.grading: dict[str, float] = {}  # student: when its grading started (time.monotonic)

    def student_environment(self) -> dict[str, str]:
        """The simulator runs a test program's blocks on every core; with several students
        graded at once, each gets its share of the cores (SCANLAB_SIM_THREADS), unless the
        instructor chose a number. Reports do not depend on it."""
        env = dict(os.environ)
        if "SCANLAB_SIM_THREADS" not in env:
            env["SCANLAB_SIM_THREADS"] = str(max(1, (os.cpu_count() or 1) // self.workers))
        return env

    def view_of(self, work: Path) -> list[str]:
        """What a student's runs may not see (the class, its results, the other workers' build
        trees) and what they may (their own build tree, the kit's prebuilt parts): options for
        the student's `grade` (sandbox/)."""
        hidden = [self.submissions, self.results, self.build_root]
        # The prebuilt tree is shown again only where a hidden folder holds it (BUILD_ROOT/prebuilt-BACKEND):
        # one named by SCANLAB_PREBUILT_DIR elsewhere is visible as it is, and showing it whole
        # would show again whatever hidden folder lies inside it (a results folder, say).
        inside_hidden = any(self.prebuilt.resolve().is_relative_to(h.resolve()) for h in hidden)
        shown = [work] + ([self.prebuilt] if inside_hidden else [])
        return ([a for h in hidden for a in ("--sandbox-hide", str(h))]
                + [a for s in shown for a in ("--sandbox-show", str(s))])

    def report_json(self, student: str) -> Path:
        return self.reports / f"{student}.json"

    def up_to_date(self, s: Student) -> bool:
        report = self.report_json(s.name)
        if not report.is_file():
            return False
        newest = max([s.entry.stat().st_mtime] + ([p.stat().st_mtime for p in s.entry.rglob("*")]
                                                   if s.entry.is_dir() else []))
        return report.stat().st_mtime >= newest

    def grade_one(self, s: Student, worker: str) -> Outcome:
        started = time.monotonic()
        grading_started(self.reports, s.name)
        with self.lock:
            self.grading[s.name] = started
        try:
            return self._grade_one(s, worker, started)
        finally:
            with self.lock:
                self.grading.pop(s.name, None)

    def _grade_one(self, s: Student, worker: str, started: float) -> Outcome:
        work = self.build_root / worker
        clear_worker(work)
        try:
            folder = unpack(s.entry, work / "unpacked") if s.entry.is_file() else s.entry
        except (BatchError, OSError, zipfile.BadZipFile, tarfile.TarError) as e:
            return self._failed(s, f"could not unpack: {e}", started)
        report = self.report_json(s.name)
        partial = report.with_suffix(".json.partial")
        cmd = [str(GRADE), "--submission", str(folder), "--stage-as", worker,
               "--build-root", str(work), "--format", "json", "--output", str(partial), "--color", "never",
               *self.grade_args, *self.page_name(s.name), *self.view_of(work), *self.labs]
        log = self.reports / f"{s.name}.txt"
        try:
            with open(log, "wb") as out:
                proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                        start_new_session=True, env=self.student_environment())
                try:
                    rc = proc.wait(timeout=self.student_timeout_s)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
                    return self._failed(s, f"grading took more than {self.student_timeout_s:g} s", started)
        except OSError as e:
            return self._failed(s, f"could not run grade: {e}", started)
        if rc == NOT_GRADED_EXIT and partial.is_file():
            # Stopped by what is not the student's doing: no marks yet, a later run grades again.
            labs = json.loads(partial.read_text()).get("labs", [])
            why = "; ".join(f"lab {l['number']}: {l['not_graded']}" for l in labs if l.get("not_graded"))
            return self._failed(s, f"not graded, not the student's doing (grade again): {why}", started)
        if rc not in (0, 1) or not partial.is_file():
            tail = [l for l in log.read_text(errors="replace").splitlines() if l.strip()][-3:]
            ended = f"was killed by {signal.Signals(-rc).name}" if rc < 0 else f"exited with status {rc}"
            return self._failed(s, f"grade {ended}: " + " | ".join(tail), started)
        doc = json.loads(partial.read_text())
        partial.replace(report)
        grading_done(self.reports, s.name)
        return Outcome(s.name, True, float(doc["score"]), float(doc["max_score"]), seconds=time.monotonic() - started)

    def preparing(self, s: Student) -> None:
        """`s` is this batch's to grade from now on, though its turn has not come."""
        grading_started(self.reports, s.name)
        with self.lock:
            self.grading[s.name] = time.monotonic()

    def _failed(self, s: Student, why: str, started: float) -> Outcome:
        with self.lock:
            if not self.stopping:  # else the reason is the signal's (stop_when_told)
                grading_failed(self.reports, s.name, why)
        return Outcome(s.name, False, error=why, seconds=time.monotonic() - started)

    def stop_when_told(self) -> None:
        """On SIGTERM or SIGINT (Slurm ends a task past its time limit with SIGTERM, KillWait
        seconds before SIGKILL; scancel; Ctrl-C) the students being graded are stopped and
        each gets the reason in its error file, so that the gradebook says why; then the
        batch ends, with the signal's exit status."""
        def stop(signum, _frame):
            name = signal.Signals(signum).name
            under_slurm = " (Slurm's time limit or scancel)" if "SLURM_JOB_ID" in os.environ else ""
            with self.lock:
                grading = dict(self.grading)
                # The workers whose grade is killed below must not write their own reason
                # ("killed by SIGKILL") over this one while the batch ends (_failed).
                self.stopping = True
            # Each student's grade leads a session of its own; one that has just started may not
            # be in `grading` yet, so every child of the batch goes.
            for pid in _children_of_this_process():
                for kill in (os.killpg, os.kill):  # the process too: it may not lead its session yet
                    try:
                        kill(pid, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
            for student, started in grading.items():
                grading_failed(self.reports, student, f"grading was stopped by {name}{under_slurm} after "
                                                      f"{time.monotonic() - started:.0f} s")
            os._exit(128 + signum)
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, stop)

    def run(self, students: list[Student], progress) -> list[Outcome]:
        todo: queue.Queue[Student] = queue.Queue()
        outcomes: list[Outcome] = []
        for s in students:
            if self.up_to_date(s):
                outcomes.append(Outcome(s.name, True, reused=True))
                marker_of(self.reports, s.name).unlink(missing_ok=True)
            else:
                todo.put(s)
        progress.start(len(students), len(outcomes), todo.qsize())

        def work(worker: str) -> None:
            while True:
                try:
                    s = todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    outcome = self.grade_one(s, worker)
                except Exception as e:  # a broken submission never stops the batch
                    outcome = self._failed(s, f"{type(e).__name__}: {e}", time.monotonic())
                with self.lock:
                    outcomes.append(outcome)
                    if not self.worker_name:  # one of a cluster's tasks: the merge writes the gradebook
                        write_gradebook(self.results, [x.name for x in students])
                    progress.step(outcome)

        names = [self.worker_name] if self.worker_name else [f"worker-{k}" for k in range(self.workers)]
        threads = [threading.Thread(target=work, args=(name,), daemon=True) for name in names]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if not self.worker_name:
            write_gradebook(self.results, [x.name for x in students], complete=True)
        progress.finish()
        return outcomes


def gpu_visible() -> bool:
    """Whether this process may use a GPU: the driver's device files are there and no job
    scheduler has hidden every device (Slurm sets CUDA_VISIBLE_DEVICES for the GPUs it gives)."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    return bool(glob.glob("/dev/nvidia[0-9]*")) and visible not in ("", "-1", "NoDevFiles")


def _children_of_this_process() -> list[int]:
    found = []
    for task in Path("/proc/self/task").iterdir():
        try:
            found += [int(pid) for pid in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return found


class Progress:
    """`done/total, failed, time left` on one rewritten line (a terminal), else one line per student."""

    def __init__(self, stream=sys.stderr):
        self.stream = stream
        self.tty = stream.isatty()

    def start(self, total: int, reused: int, todo: int) -> None:
        self.total, self.done, self.failed, self.todo = total, reused, 0, todo
        self.graded = 0
        self.started = time.monotonic()
        if reused:
            self.stream.write(f"batch: {reused} of {total} students already graded (reports newer than "
                              f"their submissions); grading {todo}\n")

    def step(self, outcome: Outcome) -> None:
        self.done += 1
        self.graded += 1
        self.failed += 0 if outcome.ok else 1
        elapsed = time.monotonic() - self.started
        left = elapsed / self.graded * (self.todo - self.graded)
        line = (f"batch: {self.done}/{self.total} students done, {self.failed} failed to grade, "
                f"about {_duration(left)} left")
        what = (f"{outcome.student}: {outcome.score:g}/{outcome.max_score:g} in {outcome.seconds:.0f} s" if outcome.ok
                else f"{outcome.student}: NOT GRADED: {outcome.error}")
        if self.tty:
            self.stream.write(f"\r\x1b[K{what}\n{line}")
        else:
            self.stream.write(f"{what}\n{line}\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.tty:
            self.stream.write("\n")
        self.stream.write(f"batch: {self.done}/{self.total} students, {self.failed} could not be graded, "
                          f"{_duration(time.monotonic() - self.started)}\n")


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60} min {seconds % 60:02d} s" if seconds >= 60 else f"{seconds} s"


def main(args) -> int:
    submissions = Path(args.batch).resolve()
    if not submissions.is_dir():
        print(f"grade: --batch {submissions} is not a directory", file=sys.stderr)
        return 2
    results = Path(args.results).resolve() if args.results else submissions.parent / f"{submissions.name}-grades"
    if args.pictures is not None:
        args.pictures = str(Path(args.pictures).resolve())  # each student's grading runs elsewhere
    try:
        students = students_in(submissions)
    except BatchError as e:
        print(f"grade: {e}", file=sys.stderr)
        return 2
    if args.list:
        print("\n".join(s.name for s in students))
        return 0
    if args.merge:
        path = write_gradebook(results, [s.name for s in students], complete=True)
        print(f"grade: wrote {path}")
        return 0
    if args.only:
        chosen = [s for s in students if s.name == args.only]
        if not chosen:
            print(f"grade: no student '{args.only}' in {submissions}", file=sys.stderr)
            return 2
        students = chosen
    try:
        labs = manifest_mod.resolve(manifest_mod.discover(Path(args.labs_dir)), args.labs or ["all"])
    except manifest_mod.ManifestError as e:
        print(f"grade: {e}", file=sys.stderr)
        return 2
    if args.backend == "cuda" and not gpu_visible():
        # Every student would score 0 for the machine's sake: none is graded, and each says why.
        why = f"--backend cuda needs a GPU, and {socket.gethostname()} shows this task none"
        if "SLURM_JOB_ID" in os.environ:
            why += ": submit the array with --gres=gpu:1 (grader/README.md, 'On a cluster')"
        print(f"grade: {why}", file=sys.stderr)
        for s in students:
            grading_failed(results / "reports", s.name, why)
        if not args.only:
            write_gradebook(results, [s.name for s in students], complete=True)
        return 2
    build_root = Path(args.build_root).resolve() if args.build_root else results / "build"
    batch = Batch(submissions, results, args.labs or ["all"], [], args.jobs, args.student_timeout)
    batch.build_root = build_root
    batch.stop_when_told()
    if args.only:
        batch.worker_name = f"student-{args.only}"
        # A task's student is being graded from here on: stopped while the kit's shared parts
        # build, it is still named in the gradebook with the reason.
        batch.preparing(students[0])
    if (named := named_by_environment()) is not None:
        # A built tree of the kit to import, named by whoever runs the batch (grader/README.md).
        prebuilt, output = named, ""
    else:
        prebuilt, output = build_prebuilt(build_root, args.backend, args.jobs * args.build_jobs, args.cmake_define,
                                          labs)
    if prebuilt is None:
        print("grade: the kit's own code could not be built, no student was graded:\n" + output[-3000:], file=sys.stderr)
        if args.only:
            grading_failed(batch.reports, args.only, "the kit's own code could not be built on "
                                                     f"{socket.gethostname()}: " + output[-300:])
        return 2
    # Every option of the batch's own command line reaches each student's grading, but the
    # batch's own (options.BATCH_ONLY).
    batch.prebuilt = prebuilt
    batch.grade_args = ["--cmake-define", f"SCANLAB_PREBUILT_DIR={prebuilt}", "--jobs", str(args.build_jobs),
                        *options.forwarded(args)]
    outcomes = batch.run(students, Progress())
    if args.only:
        print(f"grade: report in {results / 'reports'}; the gradebook is written by --merge")
    else:
        print(f"grade: gradebook {results / 'gradebook.csv'}, reports in {results / 'reports'}")
    return 0 if all(o.ok for o in outcomes) else 1
