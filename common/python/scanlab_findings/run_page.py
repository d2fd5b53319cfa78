"""The page of one program's run: what the simulator found, each finding with its picture, on one
self-contained HTML page (no script, no font, nothing fetched).

A program that simcc built, run with SCANLAB_SIM_PAGE=FILE.html, keeps its finding records in a
file of its own and at exit runs common/bin/simcc-page with them and its command line
(common/sim/runtime/findings/run_page.hpp):

    simcc-page --records RECORDS --out FILE.html [--seconds S] [--executable PATH] -- PROGRAM [ARGS...]

A deadlock and an access outside a buffer carry their pictures in their records, and a hand-off
between blocks is drawn from its own places; a race in shared memory is drawn from a second run
of the program, with SCANLAB_SIM_RACE_PICTURE naming the race's block, variable and byte: the
simulator's runs are deterministic for a schedule, so that run meets the same race and records the
accesses around it. At most MAX_RACE_RUNS runs, each stopped after RUN_AGAIN_FACTOR times the first
run's time (and at least MIN_RUN_AGAIN_SECONDS); the program's output from them is discarded, but
whatever files it writes, it writes again.
"""

from __future__ import annotations

import argparse
import html
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from . import drawing, records

MAX_RACE_RUNS = 4
RUN_AGAIN_FACTOR = 3
MIN_RUN_AGAIN_SECONDS = 60
KIT = Path(__file__).resolve().parents[3]  # common/python/scanlab_findings -> the kit's top


def _is_kit_file(file: str) -> bool:
    path = Path(file)
    return not file or file.startswith("common/") or (path.is_absolute() and (
        KIT in path.parents or any(Path(d) in path.parents for d in ("/usr", "/opt"))))


def program_dir(f: records.Finding) -> str:
    """The folder of the program's own file that the finding names first, so that its lines are
    drawn as "line N" and the kit's and the toolkit's keep their file names."""
    mine = next((p.file for p in f.places if not _is_kit_file(p.file)), "")
    return str(Path(mine).parent) if mine else ""


def run_again(command: list[str], request: str, seconds: float) -> list[dict]:
    """The records of one more run of the program, asked for the picture `request` names."""
    with tempfile.TemporaryDirectory(prefix="scanlab-page-") as folder:
        out = Path(folder) / "records.jsonl"
        env = {k: v for k, v in os.environ.items() if k not in ("SCANLAB_SIM_PAGE", "SCANLAB_SIM_REPORT_JSON")}
        env[drawing.RACE_REQUEST_ENV] = request
        env["SCANLAB_SIM_REPORT_JSON"] = str(out)
        try:
            subprocess.run(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=max(MIN_RUN_AGAIN_SECONDS, RUN_AGAIN_FACTOR * seconds))
        except (OSError, subprocess.TimeoutExpired):
            pass  # the records it wrote before it stopped still count
        return records.records_in_file(out)


def draw_races(found: list[records.Finding], command: list[str], seconds: float) -> None:
    """Each race in shared memory gets its picture from a run of its own, MAX_RACE_RUNS at most."""
    runs = 0
    for f in found:
        if runs >= MAX_RACE_RUNS:
            break
        if f.kind != "race" or not f.error or f.picture:
            continue
        request = drawing.request_for(f)
        if request is None:
            continue
        runs += 1
        again = records.from_records(run_again(command, request, seconds))
        f.picture = next((g.picture for g in again if g.kind == "race" and g.picture and g.key == f.key),
                         next((g.picture for g in again if g.kind == "race" and g.picture), None))


def draw_handoffs(found: list[records.Finding]) -> None:
    for f in found:
        if not f.picture and f.error:
            f.picture = drawing.handoff_picture(f, program_dir(f))


def render(found: list[records.Finding], command: list[str], reproduce: str) -> str:
    items = [drawing.finding_item(f, program_dir(f), number, []) for number, f in enumerate(found, 1)]
    return drawing.environment().get_template("run.html.j2").render(
        command=" ".join(command), items=items, reproduce=reproduce,
        errors=sum(f.error for f in found), warnings=sum(not f.error for f in found), escape=html.escape)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="simcc-page", description=__doc__.split("\n\n")[0])
    p.add_argument("--records", required=True, type=Path, help="the run's finding records, one JSON object a line")
    p.add_argument("--out", required=True, type=Path, help="the page to write")
    p.add_argument("--seconds", type=float, default=0.0, help="how long the run took")
    p.add_argument("--executable", default=None, help="the program's file, where PROGRAM as typed may not find it")
    p.add_argument("command", nargs="+", help="the program and its arguments as typed, run again for a race's picture")
    args = p.parse_args(argv)
    rerun = ([args.executable] if args.executable else args.command[:1]) + args.command[1:]
    kept = records.records_in_file(args.records)
    found = records.merge(records.from_records([r for r in kept if r.get("kind") != "picture"]))
    try:
        draw_races(found, rerun, args.seconds)
        draw_handoffs(found)
        page = render(found, args.command, next((f.reproduce for f in found if f.reproduce), ""))
    except drawing.PicturesUnavailable as e:
        print(f"scanlab-sim: SCANLAB_SIM_PAGE: no page written: {e}", file=sys.stderr)
        return 1
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(page)
    except OSError as e:
        print(f"scanlab-sim: SCANLAB_SIM_PAGE: could not write {args.out}: {e.strerror}", file=sys.stderr)
        return 1
    drawn = sum(1 for f in found if f.picture)
    print(f"scanlab-sim: the page of this run: {args.out} ({len(found)} finding{'s' if len(found) != 1 else ''}, "
          f"{drawn} drawn)", file=sys.stderr)
    return 0
