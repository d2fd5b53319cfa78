"""The simulator's findings, as the student reads them under a check.

A finding is data from end to end. The simulator makes each one as a record
(common/sim/runtime/findings/report.hpp: kind, severity, headline, the parties with role, file,
line, function, block and thread, the location, the details, the fix, the reproduce line); a
test program sends the records of each test with its result (grader/harness/harness_main.cpp),
and a program that dies leaves the records it had not sent in $SCANLAB_SIM_REPORT_JSON, which
the runner reads (runner.py). Nothing here reads report text: the records' fields are taken as
they are, and only their paths are written the student's way: a lab file relative to the
submission (`02-kogge-stone/kogge_stone.cu:33`), never the build's staging copy, and a kit file
relative to the kit (`common/include/scanlab/affine_map.hpp:47`). A check lists each place once,
however many of its tests reached it. A race in shared memory also carries, as data, where it
happened (`memory`: variable, byte, block) and, in a run that asked for it, its picture
(`picture`), which pictures.py draws.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

# The kinds of finding the simulator makes, with what each is in a student's words: the one list
# (ReportKind and to_string in the runtime must name the same; a self-test compares them).
KINDS = {
    "race": "two threads touch the same bytes with nothing ordering them",
    "barrier-divergence": "the threads of a block or tile do not all reach the same barrier",
    "barrier-after-exit": "a barrier that some threads of the block had already exited before",
    "warp-mask": "a warp intrinsic whose mask does not match the lanes that call it",
    "deadlock": "no thread can make progress",
    "co-residency": "blocks wait for blocks that need not have started",
    "out-of-bounds": "an access outside every buffer and shared variable",
    "uninitialized-read": "a read of memory that nothing wrote",
    "invalid-launch": "a launch configuration the device rejects",
    "host-access": "host code touches device memory",
    "unsupported": "something the simulator cannot run",
    "api-misuse": "a CUDA runtime call with invalid arguments",
}
# A lab file's path as a build writes it: anything, then the lab folder (NN-name/...).
_LAB_PATH = re.compile(r"(?<![\w./-])(?:/[^\s:'\"()]*?)?/(?P<lab>\d\d-[a-z0-9][a-z0-9-]*/[^\s:'\"()]+)")
# The staging copy of a submission, absolute or relative (a build root inside the kit, as the
# default build/grade is, makes the compiler write it relative to the kit):
# .../submissions/NAME-DIGEST/NN-name/file.
_STAGED_PATH = re.compile(r"(?<![\w./-])[^\s:'\"()]*submissions/[^\s/:'\"()]+/"
                          r"(?P<lab>\d\d-[a-z0-9][a-z0-9-]*/[^\s:'\"()]+)")
MAX_SHOWN = 6  # places listed under one check; the rest are counted
FIX_SCOPES = ("", "warp", "block")  # what a fix orders, narrowest first (FixScope in the runtime)


@dataclass(frozen=True)
class Place:
    role: str
    file: str  # the student's way: "02-kogge-stone/kogge_stone.cu", or the kit's "common/..."
    line: int
    function: str = ""
    thread: str = ""  # "block (0,0,0) thread (3,0,0)" for a kernel's access

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Finding:
    kind: str  # one of KINDS
    error: bool
    headline: str
    places: list[Place] = field(default_factory=list)
    details: list[str] = field(default_factory=list)  # the evidence, in words
    location: str = ""  # the buffer or variable and the byte
    fix: str = ""  # what would fix it, when the simulator knows
    fix_scope: str = ""  # what the fix orders, where it is a barrier: "warp" or "block" (FIX_SCOPES)
    reproduce: str = ""  # the settings that run the same schedule again
    count: int = 1  # how many times it was reported (tests, and runs within a test)
    # For a place in kit code: the lines of the student's file that called it (call_sites.py).
    called_from: list[Place] = field(default_factory=list)
    # A race in shared memory: the variable, byte and block, as the record gives them ("memory"),
    # which a run asked for the race's picture names (pictures.py); None for any other finding.
    memory: dict | None = None
    picture: dict | None = None  # the race's picture, where a run recorded one (pictures.py)
    test: str = ""  # the test that first reported it

    @property
    def key(self) -> tuple:
        """Once per place: the same kind at the same lines of the student's file is one finding
        (an access inside kit code counts at the student's line that called it)."""
        lab = [(p.file, p.line) for p in self.called_from]
        kit = [(p.file, p.line) for p in self.places if not (lab and p.file.startswith("common/"))]
        return (self.kind, tuple(sorted(set(lab + kit))))

    def absorb(self, other: Finding) -> None:
        """The same finding reported again: counted, and where the other run needed a wider
        barrier (two warps racing at lines where this run saw two lanes of one warp), its fix
        is the one that fixes both."""
        self.count += other.count
        self.picture = self.picture or other.picture
        if FIX_SCOPES.index(other.fix_scope) > FIX_SCOPES.index(self.fix_scope):
            self.fix, self.fix_scope = other.fix, other.fix_scope

    def lab_places(self, lab_dir: str) -> list[Place]:
        return [p for p in self.places + self.called_from if p.file.startswith(lab_dir + "/")]

    def brief(self) -> str:
        """One line: '[race] data race ... at 02-kogge-stone/kogge_stone.cu:57 (write), ...'."""
        where = ", ".join([f"{p.where} ({p.role})" for p in self.places] +
                          [f"{p.where} (calling kit code)" for p in self.called_from])
        return f"[{self.kind}] {self.headline}" + (f" at {where}" if where else "")

    def lines(self) -> list[str]:
        """The finding as the student reads it: what and where, the evidence, then the fix."""
        times = f" (reported {self.count} times)" if self.count > 1 else ""
        out = [f"[{self.kind}] {self.headline}{times}"]
        width = max([len(p.role) for p in self.places] + [0])
        for p in self.places:
            text = f"  {p.role + ':':<{width + 1}} {p.where}"
            if p.thread:
                text += f"  {p.thread}"
            out.append(text)
            if p.file.startswith("common/") and self.called_from:
                out.append("  " + " " * (width + 2) + "called from your code at "
                           + ", ".join(c.where for c in self.called_from))
        if self.location:
            out.append(f"  location: {self.location}")
        out.extend("  " + d for d in self.details)
        if self.fix:
            out.append(f"  fix: {self.fix}")
        return out


def student_path(path: str, repo: Path | None) -> str:
    """A path as the student knows it: a lab folder's file from the lab folder on (the staging
    copy a build compiled, `build/grade/submissions/NAME/02-kogge-stone/kogge_stone.cu`, is
    `02-kogge-stone/kogge_stone.cu`), any other file of the kit relative to the kit."""
    return student_paths_in(path, repo)


def _lab_file(m: re.Match) -> str:
    # The grader's own test files live in lab folders too (grader/labs/NN-name/): kept whole.
    prefix = m.group(0)[: -len(m.group("lab"))]
    return m.group(0) if prefix.endswith("grader/labs/") else m.group("lab")


def student_paths_in(text: str, repo: Path | None) -> str:
    """Every absolute path in a message written the student's way (see student_path)."""
    text = _STAGED_PATH.sub(lambda m: m.group("lab"), text)
    text = _LAB_PATH.sub(_lab_file, text)
    if repo is not None:
        text = text.replace(str(repo) + os.sep, "")
    return text


def _index(value) -> str:
    """A block or thread index of a record ([x, y, z]) as the report prints it: (x,y,z)."""
    return "(" + ",".join(str(int(v)) for v in value) + ")" if isinstance(value, list) else ""


def _place(party: dict, repo: Path | None) -> Place:
    thread = ""
    if "block" in party and "thread" in party:
        thread = f"block {_index(party['block'])} thread {_index(party['thread'])}"
    return Place(str(party.get("role", "")), student_path(str(party.get("file", "")), repo),
                 int(party.get("line", 0) or 0), str(party.get("function", "")), thread)


def _picture(record: dict, repo: Path | None) -> dict | None:
    """A race's picture as the record gives it (common/sim/runtime/findings/picture.hpp), its
    files written the student's way; None where the record has none or it is malformed."""
    picture = record.get("picture")
    if not isinstance(picture, dict) or not isinstance(picture.get("racing"), list) or len(picture["racing"]) != 2:
        return None
    def placed(access: dict) -> dict:
        return {**access, "file": student_path(str(access.get("file", "")), repo)}
    out = dict(picture)
    out["accesses"] = [placed(a) for a in picture.get("accesses", []) if isinstance(a, dict)]
    out["racing"] = [placed(a) for a in picture["racing"] if isinstance(a, dict)]
    out["intervals"] = [{**v, "barrier": placed(v["barrier"])} if isinstance(v.get("barrier"), dict) else dict(v)
                        for v in picture.get("intervals", []) if isinstance(v, dict)]
    return out if len(out["racing"]) == 2 else None


def from_record(record: dict, repo: Path | None) -> Finding:
    """One finding from the simulator's record of it (the fields json_record writes)."""
    def text(key: str) -> str:
        return student_paths_in(str(record.get(key, "") or ""), repo)

    severity = record.get("severity")
    error = severity == "error" if severity in ("error", "warning") else bool(record.get("error", True))
    return Finding(
        kind=str(record.get("kind", "")), error=error, headline=text("headline"),
        places=[_place(p, repo) for p in record.get("parties", []) if isinstance(p, dict)],
        details=[student_paths_in(str(d), repo) for d in record.get("details", [])],
        location=text("location"), fix=text("fix"), reproduce=str(record.get("reproduce", "") or ""),
        fix_scope=scope if (scope := str(record.get("fix_scope", "") or "")) in FIX_SCOPES else "",
        memory=memory if isinstance(memory := record.get("memory"), dict) else None,
        picture=_picture(record, repo))


def from_records(records: list[dict], repo: Path | None) -> list[Finding]:
    """The findings a test's result record carries (runner.TestOutcome.findings)."""
    return [from_record(r, repo) for r in records if isinstance(r, dict)]


def records_in_file(path: Path) -> list[dict]:
    """The records a program wrote to $SCANLAB_SIM_REPORT_JSON, one JSON object a line; a line
    cut short by the program's death is left out."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return []
    records = []
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict):
            records.append(record)
    return records


def merge(findings: list[Finding]) -> list[Finding]:
    """Each place once, errors first, in the order first reported; `count` says how often."""
    merged: dict[tuple, Finding] = {}
    for f in findings:
        if f.key in merged:
            merged[f.key].absorb(f)
        else:
            merged[f.key] = f
    return sorted(merged.values(), key=lambda f: not f.error)


def detail_lines(findings: list[Finding]) -> list[str]:
    """What a check's details say of its findings."""
    if not findings:
        return []
    errors = sum(1 for f in findings if f.error)
    head = (f"the simulator reported {len(findings)} place{'s' if len(findings) != 1 else ''} "
            f"({errors} error{'s' if errors != 1 else ''}) while this check's tests ran:")
    lines = [head]
    for f in findings[:MAX_SHOWN]:
        lines.extend("  " + l for l in f.lines())
    if len(findings) > MAX_SHOWN:
        lines.append(f"  ... and {len(findings) - MAX_SHOWN} more places")
    reproduce = next((f.reproduce for f in findings if f.reproduce), "")
    if reproduce:
        lines.append("  reproduce with: " + reproduce)
    return lines
