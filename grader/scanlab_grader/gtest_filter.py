"""GoogleTest's --gtest_filter semantics, for mapping the manifest's checks to tests.

A filter is ``POSITIVE[-NEGATIVE]``; each part is a ``:``-separated list of
patterns where ``*`` matches any string and ``?`` any single character. A test
matches when its full name (``Suite.Name``) matches a positive pattern (an empty
positive part means ``*``) and no negative pattern.
"""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=None)
def _pattern_regex(patterns: str) -> re.Pattern[str]:
    alternatives = []
    for pattern in patterns.split(":"):
        if not pattern:
            continue
        parts = []
        for ch in pattern:
            if ch == "*":
                parts.append(".*")
            elif ch == "?":
                parts.append(".")
            else:
                parts.append(re.escape(ch))
        alternatives.append("".join(parts))
    if not alternatives:
        return re.compile(r"(?!)")
    return re.compile("(?:" + "|".join(alternatives) + r")\Z", re.DOTALL)


def _split(filter_text: str) -> tuple[str, str]:
    positive, _, negative = filter_text.partition("-")
    return (positive or "*"), negative


def matches(filter_text: str, test_name: str) -> bool:
    positive, negative = _split(filter_text.strip())
    if not _pattern_regex(positive).match(test_name):
        return False
    return not _pattern_regex(negative).match(test_name)


def select(filter_text: str, test_names) -> list[str]:
    return [name for name in test_names if matches(filter_text, name)]


def exact(test_names) -> str:
    """A filter that selects exactly the given tests."""
    return ":".join(test_names)
