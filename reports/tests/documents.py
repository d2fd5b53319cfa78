"""Small results documents in the format of reports/results-format.md, built for the tests:
a GPU run and a simulator run of a few labs and the baselines, with numbers chosen so that
the expected ratios can be worked out by hand (the copy moves 2000 GB/s, CUB 1600 GB/s,
the sequential scan takes 100 ms and the multithreaded one 10 ms at every n)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

SIZES = (1024, 65536, 1 << 20, 1 << 28)
COPY_GB_PER_S = 2000.0
CUB_GB_PER_S = 1600.0
SEQUENTIAL_MS = 100.0
CPU_PARALLEL_MS = 10.0


def _bytes(n: int) -> int:
    return 2 * 4 * n  # int32 and float32: n read, n written


def _timed_point(n: int, ms: float, correct: bool = True) -> dict:
    return {"n": n, "bytes": _bytes(n),
            "time_ms": {"median": ms, "min": ms * 0.98, "max": ms * 1.05, "noise": 0.01, "samples": 50},
            "gb_per_s": _bytes(n) / (ms * 1e-3) / 1e9, "correct": correct,
            "operator_applications": None, "counters": None}


def _at_throughput(n: int, gb_per_s: float) -> dict:
    return _timed_point(n, _bytes(n) / (gb_per_s * 1e9) * 1e3)


def _series(identifier: str, lab: str | None, algorithm: str, points: list[dict], *, role: str = "lab",
            where: str = "gpu", element_type: str = "int32", block_size: int | None = None,
            section_size: int | None = None, scope: str = "whole-array", correct: bool = True) -> dict:
    return {"id": identifier, "lab": lab, "label": identifier.replace("/", " "), "algorithm": algorithm, "role": role,
            "where": where, "element_type": element_type, "operator": "plus", "scope": scope,
            "block_size": block_size, "section_size": section_size, "correct": correct, "points": points}


def cuda_document() -> dict:
    """A GPU run: lab 02 at two block sizes (one of them wrong), lab 06 at 80% of the copy's
    throughput, and the baselines."""
    return {
        "format": "scanlab-bench/1", "backend": "cuda", "submission": "solutions", "created": "2026-11-23T20:15:00Z",
        "machine": {"gpu": "Test GPU", "sm_clock_mhz": 1980, "driver": "580.00", "cuda_runtime": "13.0",
                    "cpu": "Test CPU", "cpu_threads": 16, "compiler": "nvcc 13.0 / g++ 12.2.0"},
        "method": {"warmup_runs": 3, "samples": 50, "l2_flush": True, "timer": "cuda-event", "statistic": "median",
                   "noise": "relative interquartile range", "cpu_timer": "steady_clock"},
        "series": [
            _series("02-kogge-stone/in_place_256", "02-kogge-stone", "kogge-stone",
                    [_at_throughput(n, 500.0) for n in SIZES], block_size=256, section_size=256, scope="sections"),
            _series("02-kogge-stone/in_place_1024", "02-kogge-stone", "kogge-stone",
                    [_at_throughput(n, 400.0) for n in SIZES], block_size=1024, section_size=1024,
                    scope="sections", correct=False),
            _series("06-hierarchical/hierarchical_scan", "06-hierarchical", "hierarchical",
                    [_at_throughput(n, 0.8 * COPY_GB_PER_S) for n in SIZES], block_size=1024, section_size=2048),
            _series("baseline/sequential", None, "sequential", [_timed_point(n, SEQUENTIAL_MS) for n in SIZES],
                    role="baseline", where="cpu"),
            _series("baseline/cpu-parallel", None, "cpu-parallel", [_timed_point(n, CPU_PARALLEL_MS) for n in SIZES],
                    role="baseline", where="cpu"),
            _series("baseline/cub", None, "cub", [_at_throughput(n, CUB_GB_PER_S) for n in SIZES], role="baseline"),
            _series("baseline/copy", None, "copy", [_at_throughput(n, COPY_GB_PER_S) for n in SIZES], role="ceiling"),
        ],
    }


def _counted_point(n: int, applications: int, counters: dict | None = None) -> dict:
    return {"n": n, "bytes": _bytes(n), "correct": True, "operator_applications": applications,
            "counters": counters}


def sim_document() -> dict:
    """A simulator run: lab 02 (Kogge-Stone, n log2 n - (n - 1) per section of 1024), lab 04
    (Brent-Kung, 2N - 2 - log2 N per section of 2048, with counters) and the sequential scan."""
    sizes = (2048, 8192, 65536)
    sections_ks = {n: n // 1024 for n in sizes}
    sections_bk = {n: n // 2048 for n in sizes}
    return {
        "format": "scanlab-bench/1", "backend": "sim", "submission": "labs", "created": "2026-11-23T20:15:00Z",
        "machine": {"cpu": "Test CPU", "cpu_threads": 2, "compiler": "g++ 12.2.0"},
        "method": {"counting": "scanlab simulator"},
        "series": [
            _series("02-kogge-stone/in_place", "02-kogge-stone", "kogge-stone",
                    [_counted_point(n, sections_ks[n] * (1024 * 10 - 1023)) for n in sizes],
                    block_size=1024, section_size=1024, scope="sections"),
            _series("04-brent-kung/inclusive", "04-brent-kung", "brent-kung",
                    [_counted_point(n, sections_bk[n] * (2 * 2048 - 2 - 11),
                                    {"bank_conflicts": 3 * n, "shared_wavefronts": 5 * n,
                                     "shared_ideal_wavefronts": n, "global_sectors": n // 4,
                                     "global_ideal_sectors": n // 8, "divergent_warp_intervals": n // 32})
                     for n in sizes],
                    block_size=1024, section_size=2048, scope="sections"),
            _series("baseline/sequential", None, "sequential", [_counted_point(n, n - 1) for n in sizes],
                    role="baseline", where="cpu"),
        ],
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
