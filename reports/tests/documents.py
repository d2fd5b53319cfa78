"""Small results documents in the format of reports/results-format.md, built for the tests, with
the series reports/bench writes (lab 01's CPU scans as baselines, a lab with a block-size sweep,
the library scans and the copy). Their numbers are chosen so that the expected ratios can be
worked out by hand: the copy moves 2000 GB/s, CUB's InclusiveSum 1600 GB/s and its generic
InclusiveScan 1200 GB/s, the sequential scan takes 100 ms and the multithreaded one 10 ms at
every n."""

from __future__ import annotations

import copy
import json
from pathlib import Path

SIZES = (1024, 65536, 1 << 20, 1 << 28)
SWEEP_SIZES = (65536, 1 << 28)
COPY_GB_PER_S = 2000.0
CUB_GB_PER_S = 1600.0
CUB_GENERIC_GB_PER_S = 1200.0
SEQUENTIAL_MS = 100.0
CPU_PARALLEL_MS = 10.0

# The ids of the series, as reports/bench names them: lab/entry[/block-B]/element type.
SEQUENTIAL = "01-sequential/sequential_inclusive_scan/int32"
CPU_PARALLEL = "01-sequential/parallel_cpu_inclusive_scan/int32"
IN_PLACE = "02-kogge-stone/kogge_stone_inplace_scan/int32"
DOUBLE_BUFFER = "02-kogge-stone/kogge_stone_double_buffer_scan/int32"
IN_PLACE_256 = "02-kogge-stone/kogge_stone_inplace_scan/block-256/int32"
IN_PLACE_32 = "02-kogge-stone/kogge_stone_inplace_scan/block-32/int32"
HIERARCHICAL = "06-hierarchical/hierarchical_scan/int32"
CUB = "baselines/cub-inclusive-sum/int32"
CUB_GENERIC = "baselines/cub-inclusive-scan-functor/int32"
COPY = "baselines/device-copy/int32"
STD = "baselines/std-inclusive-scan/int32"


def _bytes(n: int) -> int:
    return 2 * 4 * n  # int32: n read, n written


def _timed_point(n: int, ms: float, correct: bool = True) -> dict:
    return {"n": n, "bytes": _bytes(n),
            "time_ms": {"median": ms, "min": ms * 0.98, "max": ms * 1.05, "noise": 0.01, "samples": 50},
            "gb_per_s": _bytes(n) / (ms * 1e-3) / 1e9, "correct": correct,
            "operator_applications": None, "counters": None}


def _at_throughput(n: int, gb_per_s: float, correct: bool = True) -> dict:
    return _timed_point(n, _bytes(n) / (gb_per_s * 1e9) * 1e3, correct)


def _series(identifier: str, label: str, algorithm: str, points: list[dict], *, role: str = "lab",
            where: str = "gpu", block_size: int | None = None, section_size: int | None = None,
            scope: str = "whole-array", sweep: str | None = None, correct: bool = True) -> dict:
    lab = identifier.split("/")[0] if identifier[0].isdigit() else None
    return {"id": identifier, "lab": lab, "label": label, "algorithm": algorithm, "role": role, "where": where,
            "element_type": "int32", "operator": "plus", "scope": scope, "block_size": block_size,
            "section_size": section_size, "sweep": sweep, "correct": correct, "points": points}


def cuda_document() -> dict:
    """A GPU run: lab 01's CPU scans; lab 02's in-place scan at 500 GB/s, its double-buffered
    scan wrong at 400 GB/s, the in-place scan's sweep at 256 threads (450 GB/s) and 32 threads
    (100 GB/s); lab 06 at 80% of the copy; the library scans and the copy; CUB's generic scan
    last."""
    return {
        "format": "scanlab-bench/1", "backend": "cuda", "submission": "solutions", "created": "2026-11-23T20:15:00Z",
        "machine": {"gpu": "Test GPU", "sm_clock_mhz": 1980, "driver": "580.00", "cuda_runtime": "13.0",
                    "sm_count": 132, "cpu": "Test CPU", "cpu_threads": 16, "compiler": "nvcc 13.0 / g++ 12.2.0"},
        "method": {"warmup_runs": 3, "samples": 50, "min_samples": 10, "budget_ms_per_point": 400, "l2_flush": True,
                   "timer": "cuda-event", "statistic": "median", "noise": "relative interquartile range",
                   "cpu_timer": "steady_clock"},
        "series": [
            _series(SEQUENTIAL, "01 sequential (1 CPU thread)", "sequential",
                    [_timed_point(n, SEQUENTIAL_MS) for n in SIZES], role="baseline", where="cpu"),
            _series(CPU_PARALLEL, "01 parallel CPU (16 threads)", "cpu-parallel",
                    [_timed_point(n, CPU_PARALLEL_MS) for n in SIZES], role="baseline", where="cpu"),
            _series(IN_PLACE, "02 Kogge-Stone in place", "kogge-stone", [_at_throughput(n, 500.0) for n in SIZES],
                    block_size=1024, section_size=1024, scope="sections"),
            _series(DOUBLE_BUFFER, "02 Kogge-Stone double-buffered", "kogge-stone-double-buffer",
                    [_at_throughput(n, 400.0, correct=n != 1024) for n in SIZES], block_size=1024, section_size=1024,
                    scope="sections", correct=False),
            _series(IN_PLACE_256, "02 Kogge-Stone in place, 256 threads", "kogge-stone",
                    [_at_throughput(n, 450.0) for n in SWEEP_SIZES], block_size=256, section_size=256,
                    scope="sections", sweep="block_size"),
            _series(IN_PLACE_32, "02 Kogge-Stone in place, 32 threads", "kogge-stone",
                    [_at_throughput(n, 100.0) for n in SWEEP_SIZES], block_size=32, section_size=32,
                    scope="sections", sweep="block_size"),
            _series(HIERARCHICAL, "06 hierarchical (three kernels)", "hierarchical",
                    [_at_throughput(n, 0.8 * COPY_GB_PER_S) for n in SIZES], block_size=512, section_size=4096),
            _series(STD, "std::inclusive_scan (1 CPU thread)", "std-inclusive-scan",
                    [_timed_point(n, 2 * SEQUENTIAL_MS) for n in SIZES], role="baseline", where="cpu"),
            _series(CUB, "cub::DeviceScan::InclusiveSum", "cub", [_at_throughput(n, CUB_GB_PER_S) for n in SIZES],
                    role="baseline"),
            _series(COPY, "device-to-device copy", "copy", [_at_throughput(n, COPY_GB_PER_S) for n in SIZES],
                    role="ceiling"),
            _series(CUB_GENERIC, "cub::DeviceScan::InclusiveScan (kit's Plus functor)", "cub-generic",
                    [_at_throughput(n, CUB_GENERIC_GB_PER_S) for n in SIZES], role="baseline"),
        ],
        "errors": [
            {"program": "lab07_bench", "message": "does not build: single_pass.cu:12: error"},
            {"program": "lab02_bench", "series": DOUBLE_BUFFER, "n": 1024, "message": "result differs at index 1000"},
        ],
    }


def _counted_point(n: int, applications: int, counters: dict | None = None) -> dict:
    return {"n": n, "bytes": _bytes(n), "correct": True, "operator_applications": applications,
            "counters": counters}


def _counters(n: int) -> dict:
    """Brent-Kung's counters at n, in easy ratios: 3 conflicts per shared request, 5 wavefronts
    per ideal one, 2 sectors per ideal one, a quarter of the warp intervals divergent."""
    return {"bank_conflicts": 3 * n, "shared_requests": n, "shared_wavefronts": 5 * n, "shared_ideal_wavefronts": n,
            "global_requests": n // 32, "global_sectors": n // 4, "global_ideal_sectors": n // 8,
            "warp_intervals": n // 8, "divergent_warp_intervals": n // 32}


def sim_document() -> dict:
    """A simulator run: lab 01's sequential scan (n - 1 applications), lab 02 (Kogge-Stone,
    N log2 N - (N - 1) per section of 1024) and lab 04 (Brent-Kung, 2N - 2 - log2 N per section
    of 2048, with counters)."""
    sizes = (2048, 8192, 65536)
    return {
        "format": "scanlab-bench/1", "backend": "sim", "submission": "labs", "created": "2026-11-23T20:15:00Z",
        "machine": {"cpu": "Test CPU", "cpu_threads": 2, "compiler": "g++ 12.2.0"},
        "method": {"warmup_runs": None, "samples": None, "l2_flush": False, "timer": None},
        "series": [
            _series(SEQUENTIAL, "01 sequential (1 CPU thread)", "sequential", [_counted_point(n, n - 1) for n in sizes],
                    role="baseline", where="cpu"),
            _series(IN_PLACE, "02 Kogge-Stone in place", "kogge-stone",
                    [_counted_point(n, n // 1024 * (1024 * 10 - 1023)) for n in sizes],
                    block_size=1024, section_size=1024, scope="sections"),
            _series("04-brent-kung/brent_kung_scan/int32", "04 Brent-Kung", "brent-kung",
                    [_counted_point(n, n // 2048 * (2 * 2048 - 2 - 11), _counters(n)) for n in sizes],
                    block_size=1024, section_size=2048, scope="sections"),
        ],
        "errors": [],
    }


def write(document: dict, folder: Path, name: str = "results.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(document, indent=1))
    return path


def changed(document: dict, change) -> dict:
    """A deep copy of `document` with `change` applied to it, for the malformed-file tests."""
    result = copy.deepcopy(document)
    change(result)
    return result
