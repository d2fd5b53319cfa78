"""GitHub Actions workflow commands that put a failed check on the student's own line.

`grade --annotations PREFIX` prints, after the report, one `::error file=...,line=...::` line
for every place of a lab file that a failed check names: the first compiler errors
("02-kogge-stone/kogge_stone.cu:42: error: ...") and the simulator's reports (a race, a
barrier divergence, an out-of-bounds access name file:line of the lab's code). PREFIX is
where the lab folders lie in the repository (`labs` in a student repository), so that GitHub
shows each message beside that line of the pull request or commit."""

from __future__ import annotations

import re

from .grading import LabResult

# A lab file's place as the grader's reasons and the simulator's reports write it; a longer
# path before the lab folder (the grader's own copy of the file) is dropped.
_PLACE = re.compile(r"(?:[^\s:'\"(]*/)?(?P<file>\d\d-[a-z0-9-]+/[A-Za-z0-9_.-]+\.(?:cu|cuh|h|hpp)):(?P<line>\d+)")
MAX_PER_LAB = 10  # GitHub shows at most 10 error annotations per step


def _escape(text: str, property_value: bool = False) -> str:
    """Workflow-command escaping (GitHub's toolkit: %, CR, LF; also : and , in properties)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def annotations(labs: list[LabResult], prefix: str) -> list[str]:
    prefix = prefix.rstrip("/")
    lines: list[str] = []
    for lab in labs:
        seen = set()
        for check in lab.checks:
            if check.status != "fail":
                continue
            for text in [check.reason] + check.details:
                for m in _PLACE.finditer(text):
                    if not m.group("file").startswith(lab.lab.dir + "/"):
                        continue
                    place = (m.group("file"), m.group("line"))
                    if place in seen or len(seen) >= MAX_PER_LAB:
                        continue
                    seen.add(place)
                    path = f"{prefix}/{place[0]}" if prefix else place[0]
                    title = f"Lab {lab.lab.number} {check.check.id}"
                    lines.append(f"::error file={_escape(path, True)},line={place[1]},title={_escape(title, True)}::"
                                 f"{_escape(check.reason)}")
    return lines
