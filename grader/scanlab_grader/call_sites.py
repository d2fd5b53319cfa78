"""The student's line behind an access the simulator reports outside the student's file.

A report names the instruction that touched memory. When that instruction lies in a header of
the kit (an operator of common/include/scanlab/affine_map.hpp, inlined into the student's
kernel) or in the reference of an earlier lab that the student's file includes
(09-decoupled-lookback/decoupled_lookback_scan.cu in lab 10), the student needs the line of their
own file that led there. The report does not carry the call path, but the test program's debug
information does: every address of that line has a chain of inlined calls (`addr2line -i`), and
the first frame of that chain in the student's lab folder is the line that made the call.

Only the student's lines are named, and only one: where the line is reached from several lines
of the student's file (an operator used in two kernels), the one meant is the caller in the
chains that pass through the function of another place the report names (the racing access,
the shared variable's declaration, in the student's file or in the earlier lab's); where that
leaves more than one, or none, no line is named, since a guess would send the student to an
unrelated line. The grader's own files (grader/labs/..., the test program's instantiations) are
never a caller: they are not the student's to fix.

Needs binutils (readelf, addr2line), which the simulator needs anyway; without them, or without
debug information, a finding simply keeps the line it names."""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from scanlab_findings import records as findings_of

MAX_ADDRESSES = 256  # per line looked up: an operator inlined in every instantiation has dozens

_DECODED = re.compile(r"^(?P<file>\S+)\s+(?P<line>\d+)\s+(?P<address>0x[0-9a-f]+)")


@dataclass(frozen=True)
class Frame:
    function: str
    file: str  # as the debug information has it: the student's way (LabTests.cmake maps it)
    line: int


class CallSites:
    """Lookups in one test program's debug information, cached."""

    def __init__(self, binary: Path, lab_dir: str, repo: Path | None):
        self.binary = binary
        self.lab_dir = lab_dir
        self.repo = repo

    @lru_cache(maxsize=None)
    def _line_table(self) -> dict[tuple[str, int], list[str]]:
        """(file name, line) -> addresses, from the program's decoded line tables."""
        try:
            out = subprocess.run(["readelf", "--debug-dump=decodedline", str(self.binary)], capture_output=True,
                                 text=True, errors="replace", timeout=120).stdout
        except (OSError, subprocess.SubprocessError):
            return {}
        table: dict[tuple[str, int], list[str]] = {}
        for line in out.splitlines():
            if m := _DECODED.match(line):
                addresses = table.setdefault((m.group("file"), int(m.group("line"))), [])
                if len(addresses) < MAX_ADDRESSES:
                    addresses.append(m.group("address"))
        return table

    @lru_cache(maxsize=None)
    def chains(self, file: str, line: int) -> tuple[tuple[Frame, ...], ...]:
        """The inlined call chains (innermost first) of every address of file:line."""
        addresses = self._line_table().get((os.path.basename(file), line), [])
        if not addresses:
            return ()
        try:
            out = subprocess.run(["addr2line", "-a", "-f", "-i", "-C", "-e", str(self.binary)] + addresses,
                                 capture_output=True, text=True, errors="replace", timeout=120).stdout
        except (OSError, subprocess.SubprocessError):
            return ()
        chains: list[tuple[Frame, ...]] = []
        frames: list[Frame] = []
        lines = out.splitlines()
        i = 0
        while i < len(lines):
            if lines[i].startswith("0x"):
                if frames:
                    chains.append(tuple(frames))
                frames = []
                i += 1
                continue
            function = lines[i]
            where = lines[i + 1] if i + 1 < len(lines) else "??:0"
            where = where.split(" (discriminator")[0]
            path, _, number = where.rpartition(":")
            frames.append(Frame(function, path, int(number) if number.isdigit() else 0))
            i += 2
        if frames:
            chains.append(tuple(frames))
        # Keep only the chains of the kit's own file (a basename can be shared).
        wanted = file.split("/")[-1]
        return tuple(c for c in chains if c and os.path.basename(c[0].file) == wanted and c[0].line == line)

    def _students(self, frame: Frame) -> str | None:
        return frame.file if frame.file.startswith(self.lab_dir + "/") else None

    def functions_at(self, place: findings_of.Place) -> set[str]:
        """The functions that hold the line `place` (of the student's file or of an earlier lab's)."""
        found = set()
        for chain in self.chains(place.file, place.line):
            for frame in chain:
                if frame.file == place.file and frame.line == place.line:
                    found.add(frame.function)
                    break
        return found

    def callers(self, place: findings_of.Place, beside: list[findings_of.Place]) -> list[findings_of.Place]:
        """The line of the student's file through which `place` (outside it) was reached: one line,
        or none where the debug information does not single one out."""
        candidates: dict[tuple[str, int], set[str]] = {}
        for chain in self.chains(place.file, place.line):
            for i, frame in enumerate(chain[1:], start=1):
                if (shown := self._students(frame)) is not None:
                    # the functions of the chain up to the student's line: the earlier lab's too
                    candidates.setdefault((shown, frame.line), set()).update(f.function for f in chain[1:i + 1])
                    break
        if len(candidates) > 1 and beside:
            functions = set().union(*(self.functions_at(p) for p in beside))
            candidates = {k: v for k, v in candidates.items() if v & functions}
        if len(candidates) != 1:
            return []
        [(file, line)] = candidates
        return [findings_of.Place("called from", file, line)]


def _outside_the_students_file(place: findings_of.Place, lab_dir: str) -> bool:
    """A line the student did not write but reached: the kit's (common/) or an earlier lab's
    reference that the student's file includes (NN-name/...); never the grader's own files."""
    top = place.file.split("/", 1)[0]
    return (place.file.startswith("common/") or
            (top != lab_dir and re.fullmatch(r"\d\d-[a-z0-9-]+", top) is not None))


def attribute(found: list[findings_of.Finding], sites: CallSites | None) -> list[findings_of.Finding]:
    """Each place in kit code or in an earlier lab's reference gets the student's line that led
    to it; findings that now name the same lines of the student's file are one."""
    if sites is None:
        return found
    for f in found:
        # The lines the report names, its details included (the shared variable's declaration,
        # the last barrier), the student's and the earlier lab's: their functions are the ones meant.
        named = f.places + [findings_of.Place("mentioned", m.group(1), int(m.group(2)))
                            for d in [f.location] + f.details
                            for m in re.finditer(r"(\d\d-[a-z0-9-]+/[^\s:()]+):(\d+)", d)]
        for place in f.places:
            if not _outside_the_students_file(place, sites.lab_dir):
                continue
            beside = [p for p in named if p is not place and not p.file.startswith(("common/", "grader/"))]
            for caller in sites.callers(place, beside):
                if caller not in f.called_from:
                    f.called_from.append(caller)
    return findings_of.merge(found)
