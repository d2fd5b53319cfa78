"""GitHub Actions workflow commands that put a failed check on the student's own line.

`grade --annotations PREFIX` prints, after the report, one `::error file=...,line=...::` line
for every place of a lab file that a failed check names: the simulator's errors (a race, a
barrier divergence, an out-of-bounds access, each at its lines of the lab's code with its own
report as the message) and, for a check without them, the places its reason and details name
(the first compiler errors: "02-kogge-stone/kogge_stone.cu:42: error: ..."). PREFIX is
where the lab folders lie in the repository (`labs` in a student repository), so that GitHub
shows each message beside that line of the pull request or commit."""

from __future__ import annotations

import re

from .grading import LabResult

# A lab file's place as the grader's reasons write it: from its lab folder on, as the build
# names it (grader/cmake/LabTests.cmake) and as compiler errors are shown; a path that goes on
# before the lab folder is some other file (the grader's own grader/labs/NN-name/...).
_PLACE = re.compile(r"(?<![\w./-])(?P<file>\d\d-[a-z0-9-]+/[A-Za-z0-9_.-]+\.(?:cu|cuh|h|hpp)):(?P<line>\d+)")
MAX_PER_LAB = 10  # GitHub shows at most 10 error annotations per step


def _escape(text: str, property_value: bool = False) -> str:
    """Workflow-command escaping (GitHub's toolkit: %, CR, LF; also : and , in properties)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def _places(lab: LabResult, check) -> list[tuple[str, str, str]]:
    """(file, line, message) of a failed check: first the places of the simulator's errors, each
    with its own report (the racing lines, the line of an out-of-bounds access, the student's line
    that called kit code), then the places its reason and details name (a compiler error)."""
    found = [(p.file, str(p.line), f.brief()) for f in check.findings if f.error
             for p in f.lab_places(lab.lab.dir)]
    if not found:
        found = [(m.group("file"), m.group("line"), check.reason)
                 for text in [check.reason] + check.details for m in _PLACE.finditer(text)
                 if m.group("file").startswith(lab.lab.dir + "/")]
    return found


def annotations(labs: list[LabResult], prefix: str) -> list[str]:
    prefix = prefix.rstrip("/")
    lines: list[str] = []
    for lab in labs:
        seen = set()
        for check in lab.checks:
            if check.status != "fail":
                continue
            for file, line, message in _places(lab, check):
                place = (file, line)
                if place in seen or len(seen) >= MAX_PER_LAB:
                    continue
                seen.add(place)
                path = f"{prefix}/{file}" if prefix else file
                title = f"Lab {lab.lab.number} {check.check.id}"
                lines.append(f"::error file={_escape(path, True)},line={line},title={_escape(title, True)}::"
                             f"{_escape(message)}")
    return lines
