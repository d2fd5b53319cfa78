"""The labs, found by their folders: each grader/labs/NN-name/ holds a lab.toml with the
lab's checks, their points and its known-bad kernels (format: grader/README.md). Nothing
else lists the labs."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

CATEGORIES = (
    "correctness",
    "operation-count",
    "race-freedom",
    "input-unmodified",
    "forward-progress",
    "performance",
    "efficiency",
)
MANIFEST_NAME = "lab.toml"
LAB_DIR = re.compile(r"(?P<number>\d\d)-[a-z0-9][a-z0-9-]*")

_LAB_KEYS = {"title", "summary", "timeout_s", "check", "mutant"}
_CHECK_KEYS = {"id", "title", "needs", "category", "tests", "points", "hidden"}
_MUTANT_KEYS = {"name", "description", "file", "at", "find", "replace", "rejected_by", "compile_error", "gpu_blind",
                "finding", "names", "feedback"}
# The kinds of the simulator's reports (common/sim: scanlab::sim::to_string(ReportKind)).
FINDING_KINDS = ("race", "barrier-divergence", "barrier-after-exit", "warp-mask", "deadlock", "co-residency",
                 "out-of-bounds", "uninitialized-read", "invalid-launch", "host-access", "unsupported", "api-misuse")


class ManifestError(Exception):
    pass


@dataclass(frozen=True)
class Check:
    id: str
    title: str
    category: str
    tests: str
    points: float
    needs: str = ""  # what the check asks of a submission, in the words of the lab's README
    hidden: bool = False  # graded by the instructor's copy only; absent from the student release


@dataclass(frozen=True)
class Mutant:
    """A known-bad variant of the reference solution: the line tagged `//@ at` in
    solutions/NN-name/<file>, with `find` replaced by `replace` (the whole line when there is no
    `find`; an empty replacement deletes it). Every check in `rejected_by` must fail it. With
    `compile_error`, the mutant must not build, and the grader must say so at the mutated
    line of the student's file with a message containing that text (a CUDA feature that no
    longer exists must be named at the student's line, not inside a header). With
    `gpu_blind`, no tool of the GPU backend can see the bug (it says why): the GPU self-test
    names it instead of running it. With `finding`, a check of `rejected_by` must show a report of
    the simulator of that kind naming the line of the student's file tagged `names` (default: the
    mutated line), in the text report and in the JSON: the feedback must point at the mistake.
    With `feedback`, the failure of a check of `rejected_by` must contain that text, in the text
    report and in the JSON: where no report of the simulator names a line (a wrong value, a
    count, host code), the feedback must still say what went wrong (the first wrong index, an
    element never written, a write past the end, a count beside the one needed). Every mutant
    says which of the three a student gets (`compile_error`, `finding` or `feedback`), except one
    that is only slower (rejected by performance checks alone, measured on a GPU)."""
    name: str
    description: str
    file: str
    at: str
    find: str | None
    replace: str
    rejected_by: tuple[str, ...]
    compile_error: str | None = None
    gpu_blind: str | None = None
    finding: str | None = None  # kind of the simulator's report the feedback must show
    names: str | None = None  # tag of the line that report must name (None: `at`)
    feedback: str | None = None  # text the failure message of a rejecting check must contain


@dataclass(frozen=True)
class Lab:
    number: str  # "02"
    title: str
    dir: str  # "02-kogge-stone"
    checks: tuple[Check, ...] = field(default_factory=tuple)
    timeout_s: float | None = None  # optional per-test wall-time limit for this lab
    summary: str = ""  # one line for the lab table of README.md
    mutants: tuple[Mutant, ...] = field(default_factory=tuple)

    @property
    def target(self) -> str:
        return f"lab{self.number}_tests"

    @property
    def max_points(self) -> float:
        return sum(c.points for c in self.checks)


def _require(table: dict, key: str, kind, where: str):
    if key not in table:
        raise ManifestError(f"{where}: missing key '{key}'")
    return _typed(table, key, kind, where)


def _typed(table: dict, key: str, kind, where: str, default=None):
    if key not in table:
        return default
    value = table[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ManifestError(f"{where}: '{key}' must be {getattr(kind, '__name__', 'a number')}")
    return value


def _unknown_keys(table: dict, allowed: set[str], where: str) -> None:
    unknown = sorted(table.keys() - allowed)
    if unknown:
        raise ManifestError(f"{where}: unknown key {', '.join(repr(k) for k in unknown)}")


def _entry(table, where: str, name_key: str, allowed: set[str]) -> tuple[str, str]:
    """A [[check]] or [[mutant]] table's name, and where it is for error messages."""
    if not isinstance(table, dict):
        raise ManifestError(f"{where}: must be a table")
    name = _require(table, name_key, str, where)
    where = f"{where} ('{name}')"
    _unknown_keys(table, allowed, where)
    return name, where


def _check(table, where: str) -> Check:
    cid, where = _entry(table, where, "id", _CHECK_KEYS)
    category = _require(table, "category", str, where)
    if category not in CATEGORIES:
        raise ManifestError(f"{where}: category '{category}' is not one of {', '.join(CATEGORIES)}")
    tests = _require(table, "tests", str, where).strip()
    if not tests or tests == "-":
        raise ManifestError(f"{where}: empty test filter")
    points = _require(table, "points", (int, float), where)
    if points < 0:
        raise ManifestError(f"{where}: negative points")
    return Check(cid, _require(table, "title", str, where), category, tests, float(points),
                 _typed(table, "needs", str, where, ""), _typed(table, "hidden", bool, where, False))


def _mutant(table, where: str, categories: dict[str, str]) -> Mutant:
    name, where = _entry(table, where, "name", _MUTANT_KEYS)
    rejected_by = _require(table, "rejected_by", list, where)
    if not rejected_by or not all(isinstance(c, str) for c in rejected_by):
        raise ManifestError(f"{where}: rejected_by must be a non-empty list of check ids")
    unknown = [c for c in rejected_by if c not in categories]
    if unknown:
        raise ManifestError(f"{where}: rejected_by names checks this lab does not have: {', '.join(unknown)}")
    find = _typed(table, "find", str, where)
    replace = _require(table, "replace", str, where)
    if find is not None and (not find or find == replace):
        raise ManifestError(f"{where}: find must be non-empty and differ from replace")
    finding = _typed(table, "finding", str, where)
    if finding is not None and finding not in FINDING_KINDS:
        raise ManifestError(f"{where}: finding '{finding}' is not one of {', '.join(FINDING_KINDS)}")
    names = _typed(table, "names", str, where)
    if names is not None and finding is None:
        raise ManifestError(f"{where}: names needs a finding (the kind of report that names the line)")
    feedback = _typed(table, "feedback", str, where)
    if feedback is not None and not feedback.strip():
        raise ManifestError(f"{where}: feedback must be non-empty (the text a failure message must contain)")
    compile_error = _typed(table, "compile_error", str, where)
    only_slower = all(categories[c] == "performance" for c in rejected_by)
    if compile_error is None and finding is None and feedback is None and not only_slower:
        raise ManifestError(f"{where}: say what a student is told about this mistake: finding (the kind of the "
                            "simulator's report at their line), feedback (text the failure must say) or "
                            "compile_error")
    return Mutant(name, _typed(table, "description", str, where, ""), _require(table, "file", str, where),
                  _require(table, "at", str, where), find, replace, tuple(rejected_by),
                  compile_error, _typed(table, "gpu_blind", str, where), finding, names, feedback)


def load_lab(path: Path) -> Lab:
    """One lab's manifest; its number and folder name come from the folder it is in."""
    lab_dir = path.parent.name
    m = LAB_DIR.fullmatch(lab_dir)
    if not m:
        raise ManifestError(f"{path}: the folder name must be NN-name (two digits, a dash, lower-case words)")
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise ManifestError(f"{path}: no such file") from None
    except tomllib.TOMLDecodeError as e:
        raise ManifestError(f"{path}: {e}") from None
    where = f"grader/labs/{lab_dir}/{path.name}"
    _unknown_keys(data, _LAB_KEYS, where)
    timeout = _typed(data, "timeout_s", (int, float), where)
    if timeout is not None and timeout <= 0:
        raise ManifestError(f"{where}: timeout_s must be a positive number")
    checks = tuple(_check(c, f"{where}: check #{i + 1}") for i, c in enumerate(data.get("check", [])))
    if not checks:
        raise ManifestError(f"{where}: no [[check]] tables")
    _no_duplicates([c.id for c in checks], where, "check id")
    categories = {c.id: c.category for c in checks}
    mutants = tuple(_mutant(t, f"{where}: mutant #{i + 1}", categories)
                    for i, t in enumerate(data.get("mutant", [])))
    _no_duplicates([mu.name for mu in mutants], where, "mutant name")
    return Lab(m.group("number"), _require(data, "title", str, where), lab_dir, checks,
               float(timeout) if timeout else None, _typed(data, "summary", str, where, ""), mutants)


def _no_duplicates(names: list[str], where: str, what: str) -> None:
    seen = set()
    for name in names:
        if name in seen:
            raise ManifestError(f"{where}: duplicate {what} '{name}'")
        seen.add(name)


def discover(labs_dir: Path) -> dict[str, Lab]:
    """Every lab under labs_dir (grader/labs), by number. A folder named like a lab must
    have a manifest; two folders may not share a number."""
    labs: dict[str, Lab] = {}
    for folder in sorted(p for p in labs_dir.iterdir() if p.is_dir() and LAB_DIR.fullmatch(p.name)):
        manifest = folder / MANIFEST_NAME
        if not manifest.is_file():
            raise ManifestError(f"{folder}: a lab folder needs a {MANIFEST_NAME} (its checks and points)")
        lab = load_lab(manifest)
        if lab.number in labs:
            raise ManifestError(f"{folder}: lab {lab.number} is also {labs[lab.number].dir}")
        labs[lab.number] = lab
    if not labs:
        raise ManifestError(f"{labs_dir}: no lab folders (NN-name/{MANIFEST_NAME})")
    return labs


def resolve(labs: dict[str, Lab], selectors: list[str]) -> list[Lab]:
    """'02', '2', '02-kogge-stone' or 'all' -> labs, in number order, no duplicates."""
    chosen: list[Lab] = []
    for sel in selectors:
        sel = sel.strip().rstrip("/")
        if sel == "all":
            found = list(labs.values())
        else:
            m = re.fullmatch(r"(\d{1,2})(-.*)?", sel)
            lab = labs.get(m.group(1).zfill(2)) if m else None
            if lab is None or (m.group(2) and sel != lab.dir):
                known = ", ".join(f"{l.number} ({l.dir})" for l in labs.values())
                raise ManifestError(f"unknown lab '{sel}'; known labs: {known}")
            found = [lab]
        for lab in found:
            if lab not in chosen:
                chosen.append(lab)
    return sorted(chosen, key=lambda l: l.number)
