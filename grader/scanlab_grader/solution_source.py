"""A lab's reference solution is the one source of its skeleton.

A solution file marks what only the solution has and what only the skeleton shows, in the
manner of nbgrader and otter-grader, with comment lines that leave it valid CUDA C++:

    // BEGIN SOLUTION
    ... lines the skeleton leaves out ...
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 1: lines the skeleton shows instead, each written after "//|"
    // END PROMPT

A line of code may carry a tag, `//@ name` at its end, which known-bad kernels
(grader/labs/NN-name/lab.toml, [[mutant]] `at = "name"`) use as their place in the file, so
that rewording a comment never moves them. The skeleton shows neither markers nor tags.
Every malformed marker is an error naming the file and line."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

BEGIN_SOLUTION = "// BEGIN SOLUTION"
END_SOLUTION = "// END SOLUTION"
BEGIN_PROMPT = "// BEGIN PROMPT"
END_PROMPT = "// END PROMPT"
PROMPT_PREFIX = "//|"

_MARKERS = (BEGIN_SOLUTION, END_SOLUTION, BEGIN_PROMPT, END_PROMPT)
_MARKER_LIKE = re.compile(r"^\s*//\s*(BEGIN|END)\s+[A-Z]+\b")
_TAG = re.compile(r"\s*//@\s*(?P<name>\S*)\s*$")
_TAG_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")


class MarkerError(Exception):
    """A malformed marker or tag; the message starts with file:line."""


@dataclass
class SolutionSource:
    path: Path
    text: str
    skeleton: str
    tags: dict[str, int] = field(default_factory=dict)  # tag name -> 0-based line index in text
    regions: list[tuple[int, str]] = field(default_factory=list)  # (first line, text) of each SOLUTION region

    def tagged_line(self, name: str) -> str:
        """The line that carries tag `name`, without the tag and the line break."""
        return strip_tag(self.text.splitlines()[self.tags[name]])

    def edited(self, at: str, find: str | None, replace: str) -> str:
        """The solution with one edit on the line tagged `at`: `find` (which must occur exactly
        once on that line) replaced by `replace`, or without `find` the whole line replaced
        (an empty replacement deletes the line)."""
        if at not in self.tags:
            known = ", ".join(sorted(self.tags)) or "none"
            raise MarkerError(f"{self.path}: no line is tagged '//@ {at}' (tags: {known})")
        lines = self.text.splitlines(keepends=True)
        index = self.tags[at]
        line = self.tagged_line(at)
        if find is None:
            lines[index] = replace + "\n" if replace else ""
        else:
            count = line.count(find)
            if count != 1:
                raise MarkerError(f"{self.path}:{index + 1}: {find!r} occurs {count} times on the line "
                                  f"tagged '{at}' (must be exactly once)")
            lines[index] = line.replace(find, replace) + "\n"
        return "".join(lines)


    def line_after_edit(self, tag: str, at: str, find: str | None, replace: str) -> int:
        """The 1-based line number of the line tagged `tag` in edited(at, find, replace): one less
        below a deleted line."""
        if tag not in self.tags:
            known = ", ".join(sorted(self.tags)) or "none"
            raise MarkerError(f"{self.path}: no line is tagged '//@ {tag}' (tags: {known})")
        deleted = find is None and not replace
        if deleted and tag == at:
            raise MarkerError(f"{self.path}: the line tagged '{tag}' is deleted by the edit; name another line")
        shift = 1 if deleted and self.tags[at] < self.tags[tag] else 0
        return self.tags[tag] + 1 - shift


def strip_tag(line: str) -> str:
    return _TAG.sub("", line)


def parse(path: Path, text: str | None = None) -> SolutionSource:
    text = path.read_text() if text is None else text
    skeleton: list[str] = []
    tags: dict[str, int] = {}
    region: tuple[str, int] | None = None  # (BEGIN marker, its line number)
    regions: list[tuple[int, str]] = []
    for index, line in enumerate(text.splitlines(keepends=True)):
        number = index + 1
        where = f"{path}:{number}"
        stripped = line.strip()
        if stripped in _MARKERS:
            region = _next_region(region, stripped, number, where, path)
            if stripped == BEGIN_SOLUTION:
                regions.append((number + 1, ""))
            continue
        if _MARKER_LIKE.match(line):
            raise MarkerError(f"{where}: '{stripped}' is not a marker; the markers are "
                              f"{', '.join(repr(m) for m in _MARKERS)}")
        tag = _TAG.search(line)
        if tag:
            name = tag.group("name")
            if not _TAG_NAME.fullmatch(name):
                raise MarkerError(f"{where}: tag '{name}' must be lower-case letters, digits and dashes")
            if name in tags:
                raise MarkerError(f"{where}: tag '{name}' is already on line {tags[name] + 1}")
            if region and region[0] == BEGIN_PROMPT:
                raise MarkerError(f"{where}: a tag inside a prompt marks nothing in the solution")
            tags[name] = index
        if region is not None and region[0] == BEGIN_SOLUTION:
            regions[-1] = (regions[-1][0], regions[-1][1] + _untagged(line))
        if region is None:
            skeleton.append(_untagged(line))
        elif region[0] == BEGIN_PROMPT:
            skeleton.append(_prompt_line(line, where))
    if region is not None:
        raise MarkerError(f"{path}:{region[1]}: '{region[0]}' has no matching "
                          f"'{END_SOLUTION if region[0] == BEGIN_SOLUTION else END_PROMPT}'")
    return SolutionSource(path, text, "".join(skeleton), tags, regions)


def _next_region(region, marker: str, number: int, where: str, path: Path):
    if marker in (BEGIN_SOLUTION, BEGIN_PROMPT):
        if region is not None:
            raise MarkerError(f"{where}: '{marker}' inside the '{region[0]}' of line {region[1]} "
                              f"(regions do not nest)")
        return (marker, number)
    opening = BEGIN_SOLUTION if marker == END_SOLUTION else BEGIN_PROMPT
    if region is None or region[0] != opening:
        open_text = f" (the open region is the '{region[0]}' of line {region[1]})" if region else ""
        raise MarkerError(f"{where}: '{marker}' without a '{opening}' before it{open_text}")
    return None


def _untagged(line: str) -> str:
    body = line.rstrip("\n")
    ending = line[len(body):]
    return strip_tag(body).rstrip() + ending


def _prompt_line(line: str, where: str) -> str:
    body = line.rstrip("\n")
    ending = line[len(body):]
    indent = body[: len(body) - len(body.lstrip())]
    rest = body.lstrip()
    if not rest.startswith(PROMPT_PREFIX):
        raise MarkerError(f"{where}: every line of a prompt starts with '{PROMPT_PREFIX}' "
                          f"(what follows it is what the skeleton shows)")
    shown = rest[len(PROMPT_PREFIX):]
    if shown.startswith(" "):
        shown = shown[1:]
    return (indent + shown).rstrip() + ending if shown else ending
