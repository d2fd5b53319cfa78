"""The simulator's reports, as the student reads them under a check.

A test program sends, with each test's result, every report the simulator made while the test
ran (grader/harness/harness_main.cpp); a program that died printed them last instead. Each
report is read back into a Finding: its kind, its headline and its places (role, file, line),
with paths written the student's way: a lab file relative to the submission
(`02-kogge-stone/kogge_stone.cu:33`), never the build's staging copy, and a kit file relative
to the kit (`common/include/scanlab/affine_map.hpp:47`). A check lists each place once, however
many of its tests reached it.

The report text it reads (common/sim/runtime/findings/report.cpp):

    scanlab-sim: error: race on shared memory ...
      write: /abs/02-kogge-stone/kogge_stone.cu:57 (in void f<int>(...))  block (0,0,0) thread (3,0,0)
      read:  /abs/common/include/scanlab/affine_map.hpp:47 (in ...)  block (0,0,0) thread (4,0,0)
      <details>
      reproduce with: SCANLAB_SIM_SEED=1 ...
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

_HEADLINE = re.compile(r"^scanlab-sim: (?P<severity>error|warning): (?P<headline>.*)$")
_PARTY = re.compile(r"^  (?P<role>[A-Za-z_][\w ./-]*):\s+(?P<file>[^\s:()][^\s:]*):(?P<line>\d+)(?P<rest>.*)$")
_THREAD = re.compile(r"\s+block (?P<block>\([\d,]+\)) thread (?P<thread>\([\d,]+\))\s*$")
_FUNCTION = re.compile(r"^ \(in (?P<function>.*)\)$")
# A lab file's path as a build writes it: anything, then the lab folder (NN-name/...).
_LAB_PATH = re.compile(r"(?<![\w./-])(?:/[^\s:'\"()]*?)?/(?P<lab>\d\d-[a-z0-9][a-z0-9-]*/[^\s:'\"()]+)")
# The staging copy of a submission, absolute or relative (a build root inside the kit, as the
# default build/grade is, makes the compiler write it relative to the kit):
# .../submissions/NAME-DIGEST/NN-name/file.
_STAGED_PATH = re.compile(r"(?<![\w./-])[^\s:'\"()]*submissions/[^\s/:'\"()]+/"
                          r"(?P<lab>\d\d-[a-z0-9][a-z0-9-]*/[^\s:'\"()]+)")
MAX_SHOWN = 6  # places listed under one check; the rest are counted


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
    kind: str  # race, barrier-divergence, warp-mask, deadlock, out-of-bounds, uninitialized-read, ...
    error: bool
    headline: str
    places: list[Place] = field(default_factory=list)
    details: list[str] = field(default_factory=list)
    count: int = 1  # how many times it was reported (tests, and runs within a test)
    # For a place in kit code: the lines of the student's file that called it (call_sites.py).
    called_from: list[Place] = field(default_factory=list)

    @property
    def key(self) -> tuple:
        """Once per place: the same kind at the same lines of the student's file is one finding
        (an access inside kit code counts at the student's line that called it)."""
        lab = [(p.file, p.line) for p in self.called_from]
        kit = [(p.file, p.line) for p in self.places if not (lab and p.file.startswith("common/"))]
        return (self.kind, tuple(sorted(set(lab + kit))))

    def lab_places(self, lab_dir: str) -> list[Place]:
        return [p for p in self.places + self.called_from if p.file.startswith(lab_dir + "/")]

    def brief(self) -> str:
        """One line: '[race] race on shared memory ... at 02-kogge-stone/kogge_stone.cu:57 (write), ...'."""
        where = ", ".join([f"{p.where} ({p.role})" for p in self.places] +
                          [f"{p.where} (calling kit code)" for p in self.called_from])
        return f"[{self.kind}] {self.headline}" + (f" at {where}" if where else "")

    def lines(self) -> list[str]:
        """The report as the student reads it under a check."""
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
        out.extend("  " + d for d in self.details)
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


def parse(text: str, kind: str = "", error: bool | None = None, repo: Path | None = None) -> list[Finding]:
    """The reports in `text` (one report, or a program's output holding several)."""
    found: list[Finding] = []
    current: Finding | None = None
    for raw in text.splitlines():
        line = raw.rstrip()
        if m := _HEADLINE.match(line):
            current = Finding(kind, m.group("severity") == "error" if error is None else error,
                              student_paths_in(m.group("headline"), repo))
            found.append(current)
            continue
        if current is None or not line.startswith("  "):
            current = None if not line.startswith("  ") else current
            continue
        if line.startswith("  reproduce with:"):
            current.details.append(line.strip())
            continue
        if (m := _PARTY.match(line)) and not current.details:
            rest = m.group("rest")
            thread = ""
            if t := _THREAD.search(rest):
                thread = f"block {t.group('block')} thread {t.group('thread')}"
                rest = rest[:t.start()]
            fn = _FUNCTION.match(rest)
            current.places.append(Place(m.group("role"), student_path(m.group("file"), repo), int(m.group("line")),
                                        fn.group("function") if fn else "", thread))
            continue
        current.details.append(student_paths_in(line.strip(), repo))
    for f in found:
        if not f.kind:
            f.kind = _kind_from_headline(f.headline)
    return found


def _kind_from_headline(headline: str) -> str:
    """For reports read from printed output, which does not name the kind."""
    h = headline.lower()
    for words, kind in ((r"race", "race"), (r"deadlock", "deadlock"), (r"barrier", "barrier-divergence"),
                        (r"mask", "warp-mask"), (r"out of bounds|outside|no memory|past the", "out-of-bounds"),
                        (r"never written|nothing wrote", "uninitialized-read"), (r"launch", "invalid-launch")):
        if re.search(rf"\b(?:{words})\b", h):
            return kind
    return "report"


def from_records(records: list[dict], repo: Path | None) -> list[Finding]:
    """The findings a test's result record carries (runner.TestOutcome.findings)."""
    found = []
    for r in records:
        found += parse(str(r.get("text", "")), str(r.get("kind", "")), bool(r.get("error", True)), repo)
    return found


def merge(findings: list[Finding]) -> list[Finding]:
    """Each place once, errors first, in the order first reported; `count` says how often."""
    merged: dict[tuple, Finding] = {}
    for f in findings:
        if f.key in merged:
            merged[f.key].count += 1
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
        lines.extend("  " + l for l in f.lines() if not l.lstrip().startswith("reproduce with:"))
    if len(findings) > MAX_SHOWN:
        lines.append(f"  ... and {len(findings) - MAX_SHOWN} more places")
    reproduce = next((d for f in findings for d in f.details if d.startswith("reproduce with:")), None)
    if reproduce:
        lines.append("  " + reproduce)
    return lines
