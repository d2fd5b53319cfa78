"""The simulator's findings, as the student reads them under a check.

A finding is data from end to end. The simulator makes each one as a record
(common/sim/runtime/findings/report.hpp: kind, severity, headline, the parties with role, file,
line, function, block and thread, the location, the details, the fix, the reproduce line); a
test program sends the records of each test with its result (grader/harness/harness_main.cpp),
and a program that dies leaves the records it had not sent in $SCANLAB_SIM_REPORT_JSON, which
the runner reads (runner.py). Nothing here reads report text: the records' fields are taken as
they are. Their paths are already the student's: the build maps the staging copy of the
submission and the kit's top away at compile time (grader/cmake/LabTests.cmake,
scanlab_write_student_paths), so a lab file reads from its lab folder on
(`02-kogge-stone/kogge_stone.cu:33`) and a kit file from the kit's top
(`common/include/scanlab/affine_map.hpp:47`). A check lists each place once,
however many of its tests reached it. A finding in memory also carries, as data, where it
happened (`memory`, with its `space`: in "shared" memory the variable, byte and block; in
"global" memory, for a race, a stale hand-off or a read of unwritten bytes, the buffer as the
location names it and the byte of it) and its picture, which drawing.py draws: for a race in
shared memory in a run that asked for it (`picture`), and for every deadlock (`wait_picture`) and
every out-of-bounds access (`bounds_picture`). A hand-off between blocks without its ordering
also names, as data, the side that lacks it (`handoff`) and, as places of their own, the flag's
store and read (roles "flag store" and "flag read").
"""

from __future__ import annotations

import json
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
    "picture": "what a run was asked to draw (grade --pictures): not a finding about the code",
}
MAX_SHOWN = 6  # places listed under one check; the rest are counted
# The grader's own code (a test's kernel that calls the student's device functions, as a later lab
# would): where it is a party, it is said to be no place to fix.
GRADERS_FILES = "grader/"
GRADERS_LINE = "the grader's test code, calling yours: not a line to change"
FIX_SCOPES = ("", "warp", "block")  # what a fix orders, narrowest first (FixScope in the runtime)
MEMORY_SPACES = ("shared", "global")  # where a record's "memory" is (MemorySpace in the runtime)


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
    # For a place in kit code or in an earlier lab's reference: the line of the student's file
    # that led to it (grader/scanlab_grader/call_sites.py).
    called_from: list[Place] = field(default_factory=list)
    # Where in memory, as the record gives it ("memory"): its "space", "shared" (the variable, byte
    # and block, which a run asked for the race's picture names: drawing.py) or "global" (the
    # buffer and byte); None for a finding the record places nowhere.
    memory: dict | None = None
    # What drawing.py draws: a race's picture, where a run asked for one; a deadlock's blocks
    # ("kind": "wait") and an out-of-bounds access's buffer ("kind": "bounds"), which every such
    # record carries; a hand-off's sides ("kind": "handoff"), which drawing.py sets.
    picture: dict | None = None
    # A hand-off between blocks without its ordering: the side that lacks it, as the record's
    # "handoff" says: "release" (the writer's), "acquire" (the reader's) or "both"; "" otherwise.
    handoff_missing: str = ""
    test: str = ""  # the test that first reported it

    @property
    def memory_space(self) -> str:
        """"shared" or "global": the memory the finding happened in, where its record says; "" otherwise."""
        space = self.memory.get("space") if self.memory else None
        return space if space in MEMORY_SPACES else ""

    def reached_from_the_students_line(self, place: Place) -> bool:
        """Whether `place` lies outside the student's lab folder (the kit's code, an earlier lab's
        reference) and the finding knows the student's line that led there (called_from)."""
        folders = {p.file.split("/", 1)[0] for p in self.called_from}
        return bool(folders) and place.file.split("/", 1)[0] not in folders

    def the_students_line(self) -> Place | None:
        """The one line of the student's file through which the finding's places in other code
        were reached, or None where there is none or more than one."""
        return self.called_from[0] if len(self.called_from) == 1 else None

    @property
    def key(self) -> tuple:
        """Once per place: the same kind at the same lines of the student's file is one finding
        (an access outside the student's file counts at the student's line that led to it)."""
        lab = [(p.file, p.line) for p in self.called_from]
        other = [(p.file, p.line) for p in self.places if not self.reached_from_the_students_line(p)]
        return (self.kind, tuple(sorted(set(lab + other))))

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
        if (caller := self.the_students_line()) is not None:
            where = ", ".join(f"{caller.where} ({p.role}, through {p.where})" if self.reached_from_the_students_line(p)
                              else f"{p.where} ({p.role})" for p in self.places)
        else:
            where = ", ".join([f"{p.where} ({p.role})" for p in self.places] +
                              [f"{p.where} (calling kit code)" for p in self.called_from])
        return f"[{self.kind}] {self.headline}" + (f" at {where}" if where else "")

    def lines(self) -> list[str]:
        """The finding as the student reads it: what and where, the evidence, then the fix."""
        times = f" (reported {self.count} times)" if self.count > 1 else ""
        out = [f"[{self.kind}] {self.headline}{times}"]
        width = max([len(p.role) for p in self.places] + [0])
        caller = self.the_students_line()
        for p in self.places:
            # The student's line first: where one line of theirs led into the kit's code (or an
            # earlier lab's), that line is the place, and the line it reached comes after it.
            through = caller is not None and self.reached_from_the_students_line(p)
            text = f"  {p.role + ':':<{width + 1}} {caller.where if through else p.where}"
            if p.thread:
                text += f"  {p.thread}"
            if p.file.startswith(GRADERS_FILES):
                text += f"  ({GRADERS_LINE})"
            out.append(text)
            indent = "  " + " " * (width + 2)
            if through:
                whose = "the kit's code" if p.file.startswith("common/") else "the code your file includes"
                out.append(f"{indent}through {whose} at {p.where}")
            elif self.reached_from_the_students_line(p):
                out.append(indent + "called from your code at " + ", ".join(c.where for c in self.called_from))
        if self.location:
            out.append(f"  location: {self.location}")
        out.extend("  " + d for d in self.details)
        if self.fix:
            out.append(f"  fix: {self.fix}")
        return out


def _index(value) -> str:
    """A block or thread index of a record ([x, y, z]) as the report prints it: (x,y,z)."""
    return "(" + ",".join(str(int(v)) for v in value) + ")" if isinstance(value, list) else ""


def _place(party: dict) -> Place:
    thread = ""
    if "block" in party and "thread" in party:
        thread = f"block {_index(party['block'])} thread {_index(party['thread'])}"
    return Place(str(party.get("role", "")), str(party.get("file", "")),
                 int(party.get("line", 0) or 0), str(party.get("function", "")), thread)


def _race_picture(record: dict) -> dict | None:
    """A race's picture as the record gives it (common/sim/runtime/findings/picture.hpp); None
    where the record has none or it is malformed."""
    picture = record.get("picture")
    if not isinstance(picture, dict) or not isinstance(picture.get("racing"), list) or len(picture["racing"]) != 2:
        return None
    out = dict(picture)
    out["accesses"] = [dict(a) for a in picture.get("accesses", []) if isinstance(a, dict)]
    out["racing"] = [dict(a) for a in picture["racing"] if isinstance(a, dict)]
    out["intervals"] = [dict(v) for v in picture.get("intervals", []) if isinstance(v, dict)]
    return out if len(out["racing"]) == 2 else None


def _listed_picture(record: dict, field_name: str, items: str, kind: str) -> dict | None:
    """A picture the simulator records on every finding of its kind (a deadlock's wait_picture,
    findings/wait_picture.hpp; an out-of-bounds access's bounds_picture, findings/bounds_picture.hpp),
    tagged with the kind drawing.py draws it as; None where the record has none or its list of
    blocks or accesses (`items`) is missing or empty, which leaves nothing to draw."""
    picture = record.get(field_name)
    if not isinstance(picture, dict) or not isinstance(picture.get(items), list):
        return None
    listed = [dict(v) for v in picture[items] if isinstance(v, dict)]
    return {**picture, "kind": kind, items: listed} if listed else None


def _picture(record: dict) -> dict | None:
    """The picture a record carries: a race's, where a run asked for it, or the one every deadlock,
    every launch that relied on co-residency and every out-of-bounds access carries; None where
    there is none. A wait picture says whether the launch stopped there (a deadlock) or went on,
    every block started, as a GPU that holds the grid would have (co-residency)."""
    wait = _listed_picture(record, "wait_picture", "blocks", "wait")
    if wait is not None:
        wait["stopped"] = record.get("kind") != "co-residency"
    return _race_picture(record) or wait or _listed_picture(record, "bounds_picture", "accesses", "bounds")


HANDOFF_SIDES = ("release", "acquire", "both")  # what a hand-off lacks (memory_order::missing_side in the runtime)


def _handoff_missing(record: dict) -> str:
    handoff = record.get("handoff")
    missing = handoff.get("missing") if isinstance(handoff, dict) else None
    return missing if missing in HANDOFF_SIDES else ""


def from_record(record: dict) -> Finding:
    """One finding from the simulator's record of it (the fields json_record writes)."""
    def text(key: str) -> str:
        return str(record.get(key, "") or "")

    severity = record.get("severity")
    error = severity == "error" if severity in ("error", "warning") else bool(record.get("error", True))
    return Finding(
        kind=str(record.get("kind", "")), error=error, headline=text("headline"),
        places=[_place(p) for p in record.get("parties", []) if isinstance(p, dict)],
        details=[str(d) for d in record.get("details", [])],
        location=text("location"), fix=text("fix"), reproduce=str(record.get("reproduce", "") or ""),
        fix_scope=scope if (scope := str(record.get("fix_scope", "") or "")) in FIX_SCOPES else "",
        memory=memory if isinstance(memory := record.get("memory"), dict) else None,
        picture=_picture(record), handoff_missing=_handoff_missing(record))


def from_records(records: list[dict], _repo: Path | None = None) -> list[Finding]:
    """The findings a test's result record carries (runner.TestOutcome.findings). The kit's top,
    which callers such as drawing.py still pass, is not needed: the paths arrive right."""
    return [from_record(r) for r in records if isinstance(r, dict)]


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
