"""reports/plot RESULTS.json -o DIR: the figures and Markdown reports of a results file of
reports/bench (reports/README.md). Exit status 0 when the reports are written, 2 when the file
cannot be read as the format describes (the message says where and why)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import time_units
from .results import ResultsError, load


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="reports/plot",
        description="Turn a results file of reports/bench into PNG figures and Markdown reports: "
                    "one report per lab (DIR/NN-name.md) and a summary across labs (DIR/summary.md).")
    parser.add_argument("results", metavar="RESULTS.json", type=Path, help="the results file reports/bench wrote")
    parser.add_argument("-o", "--output", metavar="DIR", type=Path, required=True,
                        help="the folder to write the reports and figures into (created if need be)")
    parser.add_argument("--execution-units", metavar="P", type=_positive, default=time_units.DEFAULT_EXECUTION_UNITS,
                        help="the P of the chapter's time-unit model: execution units of the parallel machine "
                             f"(default: {time_units.DEFAULT_EXECUTION_UNITS}, the chapter's examples)")
    args = parser.parse_args(argv)
    try:
        results = load(args.results)
    except ResultsError as error:
        print(f"plot: {error}", file=sys.stderr)
        return 2
    if args.output.exists() and not args.output.is_dir():
        print(f"plot: {args.output} is there and is not a folder: name a folder for the reports", file=sys.stderr)
        return 2
    # Imported only now: the figures need matplotlib, and a bad file should be told without it.
    from .report import write_all
    try:
        reports = write_all(results, args.output, args.execution_units)
    except OSError as error:
        print(f"plot: cannot write into {args.output}: {error.strerror or error}", file=sys.stderr)
        return 2
    for report in reports:
        print(f"{report.path}  ({len(report.drawings)} figures)")
    return 0


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"'{text}' is not a positive whole number")
    return value


if __name__ == "__main__":
    sys.exit(main())
