"""Runs reports/bench on the reference solutions and checks the results file it writes.

    check_bench_run.py --backend sim|cuda --build-root DIR --output RESULTS.json [--quick]
                       [--prebuilt TREE]

With --prebuilt, the bench's build imports the simulator runtime from TREE, a built tree of the
kit (the one ctest runs in), as a grade does, instead of compiling it again: the run's programs,
and so its results, are the same.

Checks: the file follows reports/results-format.md in what the plots read; every lab with a
bench adapter and the baselines have series; every result matched the reference (the
solutions are right); timings are there on cuda and absent on sim; the counting runs give the
sequential scan's n - 1 applications; the simulator's counters are there for the GPU series
on sim and absent on cuda; no errors."""

import argparse
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def problems_of(doc: dict, backend: str) -> list[str]:
    problems = []
    if doc.get("format") != "scanlab-bench/1" or doc.get("backend") != backend:
        problems.append(f"format/backend: {doc.get('format')}/{doc.get('backend')}")
    if doc.get("errors"):
        problems += [f"error: {e}" for e in doc["errors"]]
    labs_with_adapter = sorted(p.parent.name for p in (REPO / "grader" / "labs").glob("[0-9][0-9]-*/bench_adapter.cu"))
    labs_seen = sorted({s["lab"] for s in doc["series"] if s["lab"]})
    if labs_seen != labs_with_adapter:
        problems.append(f"labs with series {labs_seen}, labs with a bench adapter {labs_with_adapter}")
    algorithms = {s["algorithm"] for s in doc["series"]}
    expected = {"std-inclusive-scan"} | ({"cub", "cub-generic", "thrust", "copy"} if backend == "cuda" else set())
    if not expected <= algorithms:
        problems.append(f"baselines missing: {sorted(expected - algorithms)}")
    ids = [s["id"] for s in doc["series"]]
    if len(ids) != len(set(ids)):
        problems.append("series ids are not unique")
    for s in doc["series"]:
        if not s["points"]:
            problems.append(f"{s['id']}: no points")
        if not s["correct"]:
            bad = [p["n"] for p in s["points"] if not p["correct"]]
            problems.append(f"{s['id']}: did not match the reference at n = {bad}")
        for p in s["points"]:
            where = f"{s['id']} n={p['n']}"
            if p["bytes"] != 2 * p["n"] * 4:
                problems.append(f"{where}: bytes {p['bytes']}")
            if backend == "cuda":
                if not (p.get("gb_per_s") or 0) > 0 or p["time_ms"]["samples"] < 1:
                    problems.append(f"{where}: no timing")
                if p["counters"] is not None:
                    problems.append(f"{where}: simulator counters on cuda")
            else:
                if "time_ms" in p or "gb_per_s" in p:
                    problems.append(f"{where}: a timing on sim")
                if s["where"] == "gpu" and not p["counters"]:
                    problems.append(f"{where}: no counters on sim")
            if s["algorithm"] == "sequential" and p["operator_applications"] is not None \
                    and p["operator_applications"] != p["n"] - 1:
                problems.append(f"{where}: {p['operator_applications']} applications, not n - 1")
    if not any(p["operator_applications"] for s in doc["series"] for p in s["points"]):
        problems.append("no point has operator applications")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", choices=("sim", "cuda"), required=True)
    ap.add_argument("--build-root", required=True)
    ap.add_argument("--output", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--prebuilt", help="a built tree of the kit whose simulator runtime the bench's build imports")
    args = ap.parse_args()
    cmd = [str(REPO / "reports" / "bench"), "--backend", args.backend, "--submission", "solutions",
           "-o", args.output, "--build-root", args.build_root, "--jobs", args.jobs] + (["--quick"] if args.quick else [])
    if args.prebuilt:
        cmd += ["--cmake-define", f"SCANLAB_PREBUILT_DIR={args.prebuilt}"]
    print("$", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd)
    try:
        doc = json.loads(Path(args.output).read_text())
    except (OSError, json.JSONDecodeError) as e:
        print(f"FAIL: no results file ({e}); bench exited with {proc.returncode}")
        return 1
    problems = problems_of(doc, args.backend)
    if proc.returncode != 0:
        problems.append(f"reports/bench exited with {proc.returncode}")
    points = sum(len(s["points"]) for s in doc["series"])
    print(f"{len(doc['series'])} series, {points} points")
    if problems:
        print("FAIL:\n  " + "\n  ".join(problems[:40]))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
