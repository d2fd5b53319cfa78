"""What a batch leaves of each student in <results>/reports, and the gradebook made of it.

Each student's grading writes its own files only: <student>.json (the report) once graded,
<student>.error (why not) when it failed, and <student>.grading while it runs (who grades it:
the host, the process, the Slurm task). gradebook.csv is written from those files alone, by
one writer at a time (a local batch, under its own lock; on a cluster the merge job only), and
it appears whole or not at all: it is written beside and renamed into place.

A student whose grading ended without a report or an error (a Slurm task killed by its memory
limit, a lost node) still gets a row, "not graded", with what its files say of the reason."""

from __future__ import annotations

import csv
import json
import os
import socket
import tempfile
import time
from pathlib import Path

MAX_PROBLEMS = 500  # characters of the "problems" cell


def report_of(reports: Path, student: str) -> Path:
    return reports / f"{student}.json"


def error_of(reports: Path, student: str) -> Path:
    return reports / f"{student}.error"


def marker_of(reports: Path, student: str) -> Path:
    return reports / f"{student}.grading"


def _grader() -> str:
    """Who grades, as a gradebook row should name it."""
    where = f"on {socket.gethostname()}, process {os.getpid()}"
    job, task = os.environ.get("SLURM_ARRAY_JOB_ID"), os.environ.get("SLURM_ARRAY_TASK_ID")
    if job and task:
        return f"Slurm array task {job}_{task} {where}"
    if os.environ.get("SLURM_JOB_ID"):
        return f"Slurm job {os.environ['SLURM_JOB_ID']} {where}"
    return where


def grading_started(reports: Path, student: str) -> None:
    reports.mkdir(parents=True, exist_ok=True)
    marker_of(reports, student).write_text(f"{_grader()}, started {time.strftime('%Y-%m-%d %H:%M:%S')}\n")


def grading_failed(reports: Path, student: str, why: str) -> None:
    reports.mkdir(parents=True, exist_ok=True)
    error_of(reports, student).write_text(why + "\n")
    marker_of(reports, student).unlink(missing_ok=True)


def grading_done(reports: Path, student: str) -> None:
    error_of(reports, student).unlink(missing_ok=True)
    marker_of(reports, student).unlink(missing_ok=True)


def _first_problem(lab: dict) -> str:
    """What cost a lab its points: its lab-wide failure, else its first failed check's reason."""
    if lab.get("error"):
        return lab["error"]
    failed = [c for c in lab["checks"] if c["status"] == "fail"]
    return f"{failed[0]['id']}: {failed[0]['reason']}" if failed else ""


def _why_not_graded(reports: Path, student: str, complete: bool) -> str | None:
    """Why a student has no report; None while that may still come (a batch still running)."""
    error, marker = error_of(reports, student), marker_of(reports, student)
    if error.is_file():
        return error.read_text().strip()
    if not complete:
        return None
    if marker.is_file():
        return (f"its grading ({marker.read_text().strip()}) ended without a report or an error: it was stopped "
                "from outside (under Slurm: the task's time or memory limit, scancel, a lost node; its Slurm "
                "log says which)")
    return "no grading of this student ran (under Slurm: its task never started; see the array's logs)"


def write_gradebook(results: Path, students: list[str], complete: bool = False) -> Path:
    """gradebook.csv: one row per student (in SUBMISSIONS_DIR's order) with the total, each
    lab's points, and what went wrong. While a batch runs, students not graded yet are left
    out; a `complete` gradebook (the last one of a batch, the merge) has every student, those
    without a report "not graded" with the reason."""
    reports = results / "reports"
    rows = []
    lab_columns: list[str] = []
    for name in students:
        report = report_of(reports, name)
        if report.is_file() and not error_of(reports, name).is_file():
            doc = json.loads(report.read_text())
            labs = {f"lab {l['number']}": l["score"] for l in doc["labs"]}
            for column in labs:
                if column not in lab_columns:
                    lab_columns.append(column)
            problems = [f"lab {l['number']}: {_first_problem(l)}" for l in doc["labs"] if _first_problem(l)]
            rows.append({"student": name, "status": "graded", "score": doc["score"], "max_score": doc["max_score"],
                         **labs, "problems": " ".join("; ".join(problems).split())[:MAX_PROBLEMS]})
        elif (why_not := _why_not_graded(reports, name, complete)) is not None:
            rows.append({"student": name, "status": "not graded", "score": "", "max_score": "",
                         "problems": " ".join(why_not.split())[:MAX_PROBLEMS]})
    results.mkdir(parents=True, exist_ok=True)
    path = results / "gradebook.csv"
    # A name of its own, so that a second writer (which should not be) never takes this one's file.
    fd, tmp = tempfile.mkstemp(dir=results, prefix=".gradebook-", suffix=".csv")
    try:
        with os.fdopen(fd, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=["student", "status", "score", "max_score", *lab_columns,
                                                   "problems"])
            writer.writeheader()
            writer.writerows(rows)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
