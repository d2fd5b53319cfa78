"""The first errors of a failed build, as a student should read them: the compiler's and the
linker's messages, those in the submission's own files first, each at the submission's line
(an error inside a header of the kit, reached from the submission's code, is named at the
line that led there)."""

from __future__ import annotations

import os
import re
from pathlib import Path

# gcc/clang: file:line[:col]: [fatal ]error: message    nvcc: file(line): error: message
_GCC_ERROR = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:\d+:)? (?:fatal )?error: (?P<msg>.*)$")
_NVCC_ERROR = re.compile(r"^(?P<file>[^\s(][^(]*)\((?P<line>\d+)\): (?:catastrophic )?error:? (?P<msg>.*)$")
# gcc/clang, before an error inside a template: "file:line:col:   required from here"
_REQUIRED_FROM = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:\d+:)?\s+required from")
_LINK_ERROR = re.compile(r"(undefined reference to|multiple definition of|ld returned|cannot find -l)")


def first_errors(output: str, submission: Path, repo: Path, limit: int = 4) -> list[str]:
    """The first compiler/linker errors, those in the submission's files first,
    as 'file:line: error: message' lines followed by the compiler's context lines."""
    lines = output.splitlines()
    found: list[tuple[int, int, list[str]]] = []  # (rank, index, block)
    for i, line in enumerate(lines):
        m = _GCC_ERROR.match(line) or _NVCC_ERROR.match(line)
        if m:
            path = m.group("file").strip()
            line_number = m.group("line")
            if not _inside(path, submission):
                # An error inside a header of the kit or the toolkit, reached from the
                # submission's code (a removed intrinsic, a template it instantiated): name
                # the submission's line that led there.
                origin = _submission_origin(lines[max(0, i - 8):i], submission)
                if origin is not None:
                    path, line_number = origin
            shown = _shorten(path, submission, repo)
            rank = 0 if _inside(path, submission) else 1
            block = [f"{shown}:{line_number}: error: {m.group('msg').strip()}"]
            for follow in lines[i + 1 : i + 4]:
                if _GCC_ERROR.match(follow) or _NVCC_ERROR.match(follow) or not follow.startswith(" "):
                    break
                block.append(follow.rstrip())
            found.append((rank, i, block))
        elif _LINK_ERROR.search(line):
            found.append((2, i, [line.strip()]))
    found.sort(key=lambda x: (x[0], x[1]))
    result: list[str] = []
    seen = set()
    for _rank, _i, block in found:
        if block[0] in seen:
            continue
        seen.add(block[0])
        result.extend(block)
        if len(seen) >= limit:
            break
    if not result:
        tail = [l for l in lines if l.strip()][-12:]
        result = tail or ["the build failed without an error message"]
    return result


def _submission_origin(preceding: list[str], submission: Path) -> tuple[str, str] | None:
    """The last 'required from' line among `preceding` that lies in the submission."""
    for line in reversed(preceding):
        m = _REQUIRED_FROM.match(line.strip())
        if m and _inside(m.group("file"), submission):
            return m.group("file"), m.group("line")
    return None


def _inside(path: str, directory: Path) -> bool:
    try:
        Path(os.path.abspath(path)).relative_to(directory)
        return True
    except ValueError:
        return False


def _shorten(path: str, submission: Path, repo: Path) -> str:
    p = Path(os.path.abspath(path))
    for base in (submission, repo):
        try:
            return str(p.relative_to(base))
        except ValueError:
            continue
    return path
