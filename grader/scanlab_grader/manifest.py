"""Reading and checking grader/points.toml (format: grader/README.md)."""

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
)


class ManifestError(Exception):
    pass


@dataclass(frozen=True)
class Check:
    id: str
    title: str
    category: str
    tests: str
    points: float


@dataclass(frozen=True)
class Lab:
    number: str  # "02"
    title: str
    dir: str  # "02-kogge-stone"
    checks: tuple[Check, ...] = field(default_factory=tuple)
    timeout_s: float | None = None  # optional per-test wall-time limit for this lab

    @property
    def target(self) -> str:
        return f"lab{self.number}_tests"

    @property
    def max_points(self) -> float:
        return sum(c.points for c in self.checks)


def _require(table: dict, key: str, kind, where: str):
    if key not in table:
        raise ManifestError(f"{where}: missing key '{key}'")
    value = table[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ManifestError(f"{where}: '{key}' must be {getattr(kind, '__name__', kind)}")
    return value


def load(path: Path) -> dict[str, Lab]:
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise ManifestError(f"{path}: no such file") from None
    except tomllib.TOMLDecodeError as e:
        raise ManifestError(f"{path}: {e}") from None
    labs_table = data.get("labs")
    if not isinstance(labs_table, dict) or not labs_table:
        raise ManifestError(f"{path}: no [labs.\"NN\"] tables")
    labs: dict[str, Lab] = {}
    for number, table in sorted(labs_table.items()):
        where = f"{path.name}: labs.\"{number}\""
        if not re.fullmatch(r"\d\d", number):
            raise ManifestError(f"{where}: lab keys are two digits, like \"02\"")
        if not isinstance(table, dict):
            raise ManifestError(f"{where}: must be a table")
        title = _require(table, "title", str, where)
        lab_dir = _require(table, "dir", str, where)
        if not lab_dir.startswith(number + "-"):
            raise ManifestError(f"{where}: dir '{lab_dir}' must start with '{number}-'")
        timeout = table.get("timeout_s")
        if timeout is not None and (not isinstance(timeout, (int, float)) or timeout <= 0):
            raise ManifestError(f"{where}: timeout_s must be a positive number")
        checks = []
        seen = set()
        for i, check in enumerate(table.get("checks", [])):
            cw = f"{where}.checks[{i}]"
            cid = _require(check, "id", str, cw)
            cw = f"{where} check '{cid}'"
            if cid in seen:
                raise ManifestError(f"{cw}: duplicate id")
            seen.add(cid)
            category = _require(check, "category", str, cw)
            if category not in CATEGORIES:
                raise ManifestError(f"{cw}: category '{category}' is not one of {', '.join(CATEGORIES)}")
            tests = _require(check, "tests", str, cw).strip()
            if not tests or tests == "-":
                raise ManifestError(f"{cw}: empty test filter")
            points = _require(check, "points", (int, float), cw)
            if points < 0:
                raise ManifestError(f"{cw}: negative points")
            checks.append(Check(cid, _require(check, "title", str, cw), category, tests, float(points)))
        if not checks:
            raise ManifestError(f"{where}: no [[labs.\"{number}\".checks]]")
        labs[number] = Lab(number, title, lab_dir, tuple(checks), float(timeout) if timeout else None)
    return labs


def resolve(labs: dict[str, Lab], selectors: list[str]) -> list[Lab]:
    """'02', '2', '02-kogge-stone' or 'all' -> labs, in manifest order, no duplicates."""
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
