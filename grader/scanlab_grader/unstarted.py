"""A lab the student has not started: its files are the skeleton as handed out.

Every check of such a lab fails, each for the same reason (nothing is written yet), so the
report says so in a few lines instead: where to start (the skeleton's first TODO) and what each
check needs (the manifest's `needs`, in the words of the lab's README).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from . import solution_source

_TODO = re.compile(r"TODO(?:\s+(?P<number>\d+))?")
_UNNUMBERED = 1 << 30  # after every numbered TODO
MAX_TODO_LINES = 6


@dataclass(frozen=True)
class FirstTodo:
    file: str  # the student's way: "09-decoupled-lookback/decoupled_lookback_scan.cu"
    line: int
    text: list[str]  # the TODO's comment, line by line, as the skeleton has it

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def skeletons(repo: Path, lab_dir: str) -> dict[str, str]:
    """The lab's skeleton files as handed out, by name: what grader/sync-labs writes from the
    reference solutions (labs/ itself may be the student's working copy). Empty where the kit
    has no solutions (a student's copy)."""
    solution_dir = repo / "solutions" / lab_dir
    if not solution_dir.is_dir():
        return {}
    texts = {}
    for source in sorted(p for p in solution_dir.iterdir() if p.is_file()):
        try:
            texts[source.name] = solution_source.parse(source).skeleton
        except (solution_source.MarkerError, OSError, UnicodeDecodeError):
            return {}
    return texts


def first_todo(repo: Path, submission_dir: Path, lab_dir: str) -> FirstTodo | None:
    """The skeleton's first TODO when every file of the skeleton is in the submission unchanged;
    None when the student changed any of them, or when there is no skeleton to compare with."""
    handed_out = skeletons(repo, lab_dir)
    if not handed_out:
        return None
    for name, text in handed_out.items():
        try:
            if (submission_dir / name).read_text() != text:
                return None
        except (OSError, UnicodeDecodeError):
            return None
    # The skeleton numbers its TODOs in the order to do them, which need not be the file's order
    # (a helper above the kernel that uses it): the lowest number, else the first in the file.
    todos = []
    for name, text in handed_out.items():
        lines = text.splitlines()
        for index, line in enumerate(lines):
            if m := _TODO.search(line):
                order = int(m.group("number")) if m.group("number") else _UNNUMBERED
                comment = [line[m.start():].strip()] + _comment_continued(lines[index + 1 :])
                todos.append((order, len(todos), FirstTodo(f"{lab_dir}/{name}", index + 1, comment)))
    return min(todos)[2] if todos else None


def _comment_continued(lines: list[str]) -> list[str]:
    """The lines of a // comment that follow its first, up to the code or the next TODO."""
    said = []
    for line in lines[:MAX_TODO_LINES - 1]:
        text = line.strip()
        if not text.startswith("//") or _TODO.search(text):
            break
        said.append(text[2:].strip())
    return said
