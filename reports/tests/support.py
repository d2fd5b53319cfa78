"""What the tests share: the kit's Python packages on the path (as reports/plot sets them),
and reading back the tables of a written Markdown report."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPORTS = Path(__file__).resolve().parents[1]
REPO = REPORTS.parent
PLOT = REPORTS / "plot"
for folder in (REPORTS, REPO / "common" / "python"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))


def markdown_tables(text: str) -> dict[str, list[dict[str, str]]]:
    """The tables of a report by the heading above them: each row as {column title: cell}."""
    tables: dict[str, list[dict[str, str]]] = {}
    heading, header = None, None
    for line in text.splitlines():
        if line.startswith("#"):
            heading, header = line.lstrip("#").strip(), None
        elif line.startswith("|"):
            cells = [c.strip() for c in line.strip()[1:-1].split("|")]
            if header is None:
                header = cells
            elif not all(set(c) <= set("-: ") for c in cells):
                tables.setdefault(heading, []).append(dict(zip(header, cells)))
        else:
            header = None
    return tables


def run_plot(*args: str) -> subprocess.CompletedProcess:
    """reports/plot as a user runs it. The tests run where the kit's prerequisites were checked
    already, so the launcher is told not to check them again (no apt-get from a test)."""
    return subprocess.run([str(PLOT), *args], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, SCANLAB_SKIP_PREREQUISITES="1"))
