"""reports/bench: build the bench programs of a submission, run them one after the other on
one machine, and write the results file (reports/results-format.md).

    reports/bench [--backend cuda|sim] [--submission DIR] [-o RESULTS.json] [--quick] [--labs NN ...]

How the programs measure: reports/METHOD.md. Each lab with a bench adapter
(grader/labs/NN-name/bench_adapter.cu) has its own program, labNN_bench, and the baselines
theirs, so a lab that does not build or crashes loses its own series only (and the results
file says why, under "errors")."""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from scanlab_build import BuildTree, first_errors

from .bench_progress import Progress
from .bench_results import RecordError, Results, method_of, parse_record

REPO = Path(__file__).resolve().parents[2]

BASELINES = "scanlab_bench_baselines"
NEWER_CUB = "scanlab_bench_cccl"  # built only where SCANLAB_CCCL_INCLUDE_DIR is given
_LAB_PROGRAM = re.compile(r"^lab(\d\d)_bench$")
_NVCC = Path("/usr/local/cuda/bin/nvcc")


@dataclass(frozen=True)
class Plan:
    """What every program is asked to measure."""

    sizes: tuple[int, int, int]  # log2 n: first, last, step
    sweep_sizes: tuple[int, ...]  # log2 n of the block-size sweeps
    count_max: int  # counting runs up to this log2 n
    samples: tuple[int, int]  # GPU samples per point: at least, at most
    budget_ms: float  # a point stops sampling (past the minimum) once its samples add up to this
    warmup_runs: int = 3  # fixed in measurement.hpp
    float32: bool = True  # float32 beside int32


    def program_args(self) -> list[str]:
        first, last, step = self.sizes
        return ["--sizes", f"{first}:{last}:{step}", "--sweep-sizes", ",".join(map(str, self.sweep_sizes)),
                "--count-max", str(self.count_max), "--samples", f"{self.samples[0]}:{self.samples[1]}",
                "--budget-ms", f"{self.budget_ms:g}"] + ([] if self.float32 else ["--int32-only"])


def plan_for(backend: str, quick: bool) -> Plan:
    if backend == "sim":  # the simulator runs every thread on the CPU: small sizes, int32 only
        # (its counts and counters are the same for float32)
        if quick:
            return Plan((10, 12, 2), (12,), 12, (1, 1), 0, float32=False)
        return Plan((10, 16, 2), (14,), 16, (1, 1), 0, float32=False)
    if quick:
        return Plan((10, 24, 2), (16, 20), 16, (5, 20), 100)
    return Plan((10, 30, 1), (16, 20, 24, 28), 16, (10, 50), 400)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="reports/bench", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--backend", choices=("cuda", "sim"), default="cuda",
                   help="cuda: time on the GPU (default); sim: the simulator's counts and counters, no timings")
    p.add_argument("--submission", default="labs",
                   help="directory that mirrors labs/ (default labs; 'solutions' means the references)")
    p.add_argument("-o", "--output", default="bench-results.json", help="results file (default %(default)s)")
    p.add_argument("--quick", action="store_true", help="fewer sizes and samples: a check that all runs, in seconds")
    p.add_argument("--labs", nargs="+", metavar="NN", help="only these labs (and the baselines)")
    p.add_argument("--sizes", metavar="FIRST:LAST[:STEP]", help="log2 n of the sizes, instead of the plan's")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="parallel build jobs")
    p.add_argument("--build-root", help="where the build tree goes (default build/bench)")
    p.add_argument("--cmake-define", action="append", default=[], metavar="VAR=VALUE",
                   help="extra -D for the configure step, e.g. CMAKE_CUDA_ARCHITECTURES=90, or "
                        "SCANLAB_CCCL_INCLUDE_DIR=DIR: a newer CCCL's headers, timed as extra baselines")
    return p


def _resolve_submission(text: str) -> Path:
    if text.rstrip("/") in ("labs", "solutions"):
        return REPO / text.rstrip("/")
    return Path(text).resolve()


def _with_sizes(plan: Plan, text: str) -> Plan:
    parts = [int(x) for x in text.split(":")]
    if len(parts) == 2:
        parts.append(1)
    if len(parts) != 3 or not 0 <= parts[0] <= parts[1] <= 30 or parts[2] < 1:
        raise ValueError(f"--sizes {text}: FIRST:LAST[:STEP] with FIRST <= LAST <= 30")
    return dataclasses.replace(plan, sizes=tuple(parts))


def select_programs(targets: dict[str, Path], labs: list[str] | None) -> list[str]:
    """The bench programs of the build, baselines first, then the labs by number."""
    wanted = {n.zfill(2) for n in labs} if labs else None
    names = sorted(t for t in targets if _LAB_PROGRAM.match(t) and
                   (wanted is None or _LAB_PROGRAM.match(t).group(1) in wanted))
    return [t for t in (BASELINES, NEWER_CUB) if t in targets] + names


def labs_without_adapter(grader_labs: Path, labs: list[str] | None) -> list[str]:
    """The lab folders of the grader (NN-name/ with a lab.toml) that have no bench adapter, among
    the labs asked for: without one a lab has no bench program, and would be missing from the
    results without a word. Each becomes an error of the results file instead."""
    wanted = {n.zfill(2) for n in labs} if labs else None
    return sorted(folder.name for folder in grader_labs.glob("[0-9][0-9]-*")
                  if (folder / "lab.toml").is_file() and not (folder / "bench_adapter.cu").is_file()
                  and (wanted is None or folder.name[:2] in wanted))


def _first_line(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""
    lines = [l.strip() for l in out.splitlines() if l.strip()]
    return lines[0] if lines else ""


def host_machine(backend: str, tree_dir: Path) -> dict:
    """What the programs cannot say about the machine: the CPU, the compilers, the driver."""
    cpu = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cxx = "c++"
    cache = tree_dir / "CMakeCache.txt"
    if cache.exists():
        m = re.search(r"^CMAKE_CXX_COMPILER:\w+=(.+)$", cache.read_text(), re.M)
        if m:
            cxx = m.group(1)
    compilers = [_first_line([cxx, "--version"])]
    machine = {"cpu": cpu, "cpu_threads": os.cpu_count()}
    if backend == "cuda":
        nvcc = shutil.which("nvcc") or str(_NVCC)
        release = [l for l in subprocess.run([nvcc, "--version"], stdout=subprocess.PIPE, text=True).stdout.splitlines()
                   if "release" in l]
        compilers.insert(0, "nvcc " + release[0].split("release", 1)[1].strip() if release else "nvcc")
        driver = _first_line(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"])
        if driver:
            machine["driver"] = driver
    machine["compiler"] = " / ".join(c for c in compilers if c)
    return machine


def run_program(name: str, path: Path, args: list[str], results: Results, progress: Progress, log: Path) -> None:
    """Runs one program, adding its records as they come; its stderr goes to `log`."""
    with log.open("w") as err:
        proc = subprocess.Popen([str(path)] + args, stdout=subprocess.PIPE, stderr=err, text=True,
                                stdin=subprocess.DEVNULL)
        assert proc.stdout is not None
        for line in proc.stdout:
            if not line.strip():
                continue
            try:
                record = parse_record(line)
                results.add(name, record)
            except RecordError as e:
                results.program_failed(name, str(e))
                continue
            if record["record"] in ("point", "error"):
                progress.advance(f"{name}: {record.get('series', '')} n={record.get('n', '')}")
            if record["record"] == "error":
                progress.note(f"bench: {name}: {record.get('series')} n={record.get('n')}: {record.get('message')}")
        rc = proc.wait()
    if rc != 0:
        tail = [l for l in log.read_text(errors="replace").splitlines() if l.strip()][-5:]
        message = f"exit status {rc}" + (": " + " | ".join(tail) if tail else "")
        results.program_failed(name, message)
        progress.note(f"bench: {name}: {message} (log: {log})")


def count_points(path: Path, args: list[str]) -> int:
    out = subprocess.run([str(path)] + args + ["--plan"], stdout=subprocess.PIPE, text=True, check=True).stdout
    return int(parse_record(out.splitlines()[0])["points"])


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    submission = _resolve_submission(args.submission)
    if not submission.is_dir():
        print(f"bench: submission directory {submission} does not exist", file=sys.stderr)
        return 2
    plan = plan_for(args.backend, args.quick)
    if args.sizes:
        try:
            plan = _with_sizes(plan, args.sizes)
        except ValueError as e:
            print(f"bench: {e}", file=sys.stderr)
            return 2
    if args.backend == "cuda" and shutil.which("nvcc") is None:
        if not _NVCC.is_file():
            print("bench: --backend cuda needs the CUDA toolkit's nvcc (not on PATH, not in /usr/local/cuda/bin); "
                  "--backend sim needs no GPU", file=sys.stderr)
            return 2
        os.environ["PATH"] = f"{_NVCC.parent}{os.pathsep}{os.environ.get('PATH', '')}"

    build_root = Path(args.build_root).resolve() if args.build_root else REPO / "build" / "bench"
    tree = BuildTree(REPO, build_root, args.backend, submission, max(1, args.jobs), args.cmake_define)
    configured = tree.configure()
    if not configured.ok:
        print("bench: CMake could not configure the build:\n" + configured.output[-3000:], file=sys.stderr)
        return 2
    created = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    shown = args.submission if args.submission.rstrip("/") in ("labs", "solutions") else str(submission)
    results = Results(args.backend, shown, created,
                      method=method_of(args.backend, plan.samples, plan.warmup_runs, plan.budget_ms))
    results.machine.update(host_machine(args.backend, tree.dir))

    for lab in labs_without_adapter(REPO / "grader" / "labs", args.labs):
        message = (f"grader/labs/{lab}/bench_adapter.cu does not exist, so lab {lab[:2]} has no bench program and "
                   f"is not measured (grader/README.md, \"Adding a lab\", says what an adapter holds)")
        results.program_failed(f"lab{lab[:2]}_bench", message)
        print(f"bench: {message}", file=sys.stderr)

    interactive = sys.stderr.isatty()
    built: list[tuple[str, Path]] = []
    names = select_programs(tree.targets(), args.labs)
    # Every program side by side first: each is mostly one translation unit, so building them one
    # at a time leaves the cores idle. The builds below then find them made, and name any that failed.
    tree.build_libraries(names)
    for name in names:
        if interactive:
            print(f"\r\033[Kbench: building {name}", end="", file=sys.stderr, flush=True)
        result = tree.build(name)
        if result.ok and result.artifact is not None:
            built.append((name, result.artifact))
        else:
            errors = first_errors(result.output, submission, REPO)
            results.program_failed(name, "does not build: " + " | ".join(errors))
            print(f"\rbench: {name} does not build:\n  " + "\n  ".join(errors), file=sys.stderr)
    if interactive:
        print("\r\033[K", end="", file=sys.stderr, flush=True)

    program_args = plan.program_args()
    total = sum(count_points(path, program_args) for _, path in built)
    progress = Progress(total)
    logs = tree.dir / "bench-logs"
    logs.mkdir(exist_ok=True)
    for name, path in built:
        run_program(name, path, program_args, results, progress, logs / f"{name}.log")
    progress.finish()

    doc = results.document()
    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(doc, indent=1) + "\n")
    points = sum(len(s["points"]) for s in doc["series"])
    wrong = [s["id"] for s in doc["series"] if not s["correct"]]
    print(f"bench: wrote {output}: {len(doc['series'])} series, {points} points"
          + (f"; results that did not match the reference: {', '.join(wrong)}" if wrong else "")
          + (f"; {len(doc['errors'])} error(s), see 'errors'" if doc["errors"] else ""))
    return 1 if doc["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
