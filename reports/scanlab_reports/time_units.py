"""The chapter's time-unit model of each scan algorithm, keyed by the `algorithm` of a series.

The model counts, for n elements, the execution resources an algorithm consumes (its work W,
in operator applications, counting the threads that sit idle in a step as the chapter does,
since they still hold their execution units) and the length of its longest chain of dependent
steps (its depth D). On a machine of P execution units that each apply the operator once per
time unit, it takes

    T_P(n) = max(W / P, D)  time units,

the larger of the two lower bounds: the work spread over every unit, and the steps no number
of units can shorten. The chapter's own estimate is the first term (it has P much smaller than
the section); the second keeps the model honest where P exceeds the work of a step. Memory
traffic, latency, launches and barriers cost nothing here: the model compares algorithms, it
does not predict a GPU's time, and the reports draw it beside the measured times so that the
difference can be seen.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from .results import Series

DEFAULT_EXECUTION_UNITS = 32  # the chapter's worked examples: one warp's 32 lanes

# What the reports say of the model, beside each algorithm's own formula (describe()).
ASSUMPTIONS = (
    "The chapter's time-unit model: a parallel machine of P execution units, each applying the "
    "operator once per time unit. An algorithm's work W counts every thread that holds an "
    "execution unit during a step, idle or not (as the chapter counts Kogge-Stone's and "
    "Brent-Kung's threads), and its depth D is its longest chain of dependent steps; it takes "
    "max(W/P, D) time units, the larger of two lower bounds. Sections scanned by separate blocks "
    "run side by side, so their work adds up and their steps do not. Memory traffic, latency, "
    "kernel launches and barriers cost nothing: the model ranks algorithms by the work and "
    "steps they need; it does not predict a GPU's time, which for large n is set by memory "
    "bandwidth. The sequential scan takes about n time units whatever P is.")


@dataclass(frozen=True)
class Cost:
    work: float   # W: operator applications, idle threads of a step included
    steps: float  # D: dependent steps

    def time_units(self, execution_units: int) -> float:
        return max(self.work / execution_units, self.steps)

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.work + other.work, self.steps + other.steps)


@dataclass(frozen=True)
class Shape:
    """What the model needs to know of a run besides n."""
    block_size: int | None
    section_size: int | None
    cpu_threads: int | None


def _log2(x: float) -> float:
    return math.log2(x) if x > 1 else 0.0


def _sections(n: int, section: int) -> int:
    return -(-n // section)


def sequential(n: int, shape: Shape) -> Cost:
    """One loop over the elements on one unit: n - 1 applications in a chain, about n."""
    return Cost(work=n, steps=n)


def cpu_parallel(n: int, shape: Shape) -> Cost | None:
    """t threads each scan their chunk, the t chunk totals are scanned, each thread adds its
    chunk's offset: about 2n applications, 2n/t + t steps."""
    t = shape.cpu_threads
    if not t:
        return None
    return Cost(work=2 * n + t, steps=2 * n / t + t)


def _kogge_stone_section(section: int) -> Cost:
    # Each of log2(N) steps occupies all N threads, active or not: N log2(N).
    return Cost(work=section * _log2(section), steps=_log2(section))


def kogge_stone(n: int, shape: Shape) -> Cost | None:
    """Sections of N elements, one thread each (N = section size, or the block size), scanned
    independently: n log2(N) work, log2(N) steps."""
    section = shape.section_size or shape.block_size
    if not section:
        return None
    return _per_section(n, section, _kogge_stone_section(min(n, section)))


def _brent_kung_section(section: int) -> Cost:
    # N/2 threads through a reduction and a distribution tree, 2 log2(N) - 1 steps, all
    # threads held for every step: (N/2)(2 log2(N) - 1).
    steps = max(2 * _log2(section) - 1, 0)
    return Cost(work=section / 2 * steps, steps=steps)


def _brent_kung_section_size(shape: Shape) -> int | None:
    return shape.section_size or (2 * shape.block_size if shape.block_size else None)


def brent_kung(n: int, shape: Shape) -> Cost | None:
    """Sections of N = 2 x block size elements: (n/2)(2 log2(N) - 1) work, 2 log2(N) - 1 steps."""
    section = _brent_kung_section_size(shape)
    if not section:
        return None
    return _per_section(n, section, _brent_kung_section(min(n, section)))


def _coarsened_scan(section: int, threads: int) -> Cost:
    # Each thread scans its section/threads elements, a Kogge-Stone scan of the thread totals
    # (every thread held for log2(T) steps), each thread combines what comes before its own.
    per_thread = section / threads
    return Cost(work=section - 1 + threads * _log2(threads) + section - threads,
                steps=2 * (per_thread - 1) + _log2(threads))


def _coarsened_reduce(section: int, threads: int) -> Cost:
    # Each thread combines its section/threads elements, then a tree over the thread totals
    # (every thread held for log2(T) steps).
    per_thread = section / threads
    return Cost(work=section - threads + threads * _log2(threads), steps=per_thread - 1 + _log2(threads))


def _tile_shape(n: int, shape: Shape) -> tuple[int, int] | None:
    section, threads = shape.section_size, shape.block_size
    if not section or not threads:
        return None
    section = min(n, section)
    return section, min(threads, section)


def three_phase(n: int, shape: Shape) -> Cost | None:
    """Sections of N elements scanned by T threads: each thread scans N/T elements, a
    Kogge-Stone scan of the T subsection totals, each thread adds its predecessor's total:
    N - 1 + T log2(T) + N - T work per section, 2(N/T - 1) + log2(T) steps."""
    tile = _tile_shape(n, shape)
    if tile is None:
        return None
    return _per_section(n, tile[0], _coarsened_scan(*tile))


def hierarchical(n: int, shape: Shape) -> Cost | None:
    """Reduce then scan over tiles of N elements, T threads each (N/T per thread): going up,
    every level's tiles are reduced to their totals (N - T + T log2(T) work, N/T - 1 + log2(T)
    steps a tile), level after level until one tile holds them; coming down, every tile of every
    level is scanned from what comes before it, as the three-phase scan does."""
    if _tile_shape(n, shape) is None:
        return None
    cost = Cost(0.0, 0.0)
    while True:
        section, threads = _tile_shape(n, shape)
        cost += _per_section(n, section, _coarsened_scan(section, threads))
        if n <= section:
            return cost
        cost += _per_section(n, section, _coarsened_reduce(section, threads))
        n = _sections(n, section)


def single_pass(n: int, shape: Shape) -> Cost | None:
    """Tiles of N elements, T threads each (lab 07 builds on lab 06's tile): every tile is
    reduced, its total handed from each tile to the next, one after another (one step and one
    application per tile in that chain), and the tile scanned from what comes before it."""
    tile = _tile_shape(n, shape)
    if tile is None:
        return None
    section, threads = tile
    handoffs = _sections(n, section)
    return (_per_section(n, section, _coarsened_reduce(section, threads) + _coarsened_scan(section, threads)) +
            Cost(work=handoffs, steps=handoffs))


# Lab 08's series take each element apart into 16 bits and run one block-level operation per bit
# (grader/labs/08-binary-scans/bench_adapter.cu); one thread per element, sections of one block.
BITS_PER_ELEMENT = 16
_WARP_STEPS = 5  # a shuffle scan over a warp's 32 lanes: log2(32) steps


def _bits_of_sections(n: int, shape: Shape, per_bit: Callable[[int], Cost]) -> Cost | None:
    section = shape.section_size or shape.block_size
    if not section:
        return None
    one = per_bit(min(n, section))
    return _per_section(n, section, Cost(one.work * BITS_PER_ELEMENT, one.steps * BITS_PER_ELEMENT))


def _warp_totals_scan() -> Cost:
    # One warp scans the warps' totals with shuffles, then every thread adds its warp's offset.
    return Cost(work=32 * _WARP_STEPS, steps=_WARP_STEPS)


def binary_prefix_ballot(n: int, shape: Shape) -> Cost | None:
    """Per bit, per section of N threads: a ballot and a popc held by every thread (2N, 2 steps),
    the warps' totals scanned by one warp (5 shuffle steps of 32 lanes), every thread adding its
    warp's offset (N, 1 step); 16 bits per element."""
    return _bits_of_sections(n, shape, lambda N: Cost(2 * N, 2) + _warp_totals_scan() + Cost(N, 1))


def binary_prefix_shuffle(n: int, shape: Shape) -> Cost | None:
    """Per bit, per section of N threads: a 32-bit shuffle scan in every warp (5N, 5 steps), the
    warps' totals scanned by one warp (5 steps of 32 lanes), every thread adding its warp's offset
    (N, 1 step); 16 bits per element."""
    return _bits_of_sections(n, shape, lambda N: Cost(_WARP_STEPS * N, _WARP_STEPS) + _warp_totals_scan() +
                             Cost(N, 1))


def binary_count_intrinsic(n: int, shape: Shape) -> Cost | None:
    """Per bit, per section of N threads: one __syncthreads_count, a step held by every thread (N,
    1 step; the hardware's own reduction costs no time units); 16 bits per element."""
    return _bits_of_sections(n, shape, lambda N: Cost(N, 1))


def binary_count_reduction(n: int, shape: Shape) -> Cost | None:
    """Per bit, per section of N threads: every thread stores its bit, then a tree of log2(N)
    levels holding every thread (N + N log2(N), 1 + log2(N) steps); 16 bits per element."""
    return _bits_of_sections(n, shape, lambda N: Cost(N + N * _log2(N), 1 + _log2(N)))


def decoupled_lookback(n: int, shape: Shape) -> Cost | None:
    """Tiles of N elements, T threads each: every tile is reduced and scanned as in the
    single-pass scan, and looks back over the aggregates of the tiles before it, 32 at a time,
    each window combined by a tree (31 applications, 5 steps). A tile that finds an inclusive
    prefix in its first window (the usual case) costs one window; the longest chain is a tile
    whose look-back goes back window by window to the first tile."""
    tile = _tile_shape(n, shape)
    if tile is None:
        return None
    section, threads = tile
    tiles = _sections(n, section)
    windows = math.ceil(tiles / 32)
    return (_per_section(n, section, _coarsened_reduce(section, threads) + _coarsened_scan(section, threads)) +
            Cost(work=31 * tiles, steps=5 * windows))


def warp_specialized(n: int, shape: Shape) -> Cost | None:
    """The decoupled look-back's tiles, status words and look-back, with the roles split between
    warps (one loads, some reduce, one publishes, one looks back, some scan): that changes when
    the work is done and what overlaps, not how much there is or how long its chains are."""
    return decoupled_lookback(n, shape)


def _per_section(n: int, section: int, one: Cost) -> Cost:
    """Independent sections: the work adds up, the steps are those of one section."""
    return Cost(work=one.work * _sections(n, section), steps=one.steps)


# The algorithms of the chapter. Library scans (cub, thrust) and the copy have no model here:
# the chapter does not analyse them, and the reports say so.
MODELS: dict[str, Callable[[int, Shape], Cost | None]] = {
    "sequential": sequential,
    "std-inclusive-scan": sequential,
    "cpu-parallel": cpu_parallel,
    "kogge-stone": kogge_stone,
    "kogge-stone-double-buffer": kogge_stone,
    "kogge-stone-exclusive": kogge_stone,
    "brent-kung": brent_kung,
    "brent-kung-exclusive": brent_kung,
    "three-phase": three_phase,
    "hierarchical": hierarchical,
    "single-pass": single_pass,
    "binary-prefix-ballot": binary_prefix_ballot,
    "binary-prefix-shuffle": binary_prefix_shuffle,
    "binary-count-intrinsic": binary_count_intrinsic,
    "binary-count-reduction": binary_count_reduction,
    "decoupled-lookback": decoupled_lookback,
    "warp-specialized": warp_specialized,
}


# The scans the chapter does not analyse, and so never will have a model here; any other
# algorithm without one is a lab whose model has not been written (a lab added later).
UNANALYSED = ("cub", "cub-generic", "cub-cccl", "cub-cccl-warpspeed", "thrust", "copy")


def cost(series: Series, n: int, cpu_threads: int | None = None) -> Cost | None:
    """The model's cost of `series` at `n` elements, or None where the model does not cover it
    (an algorithm the chapter does not analyse, or a run that lacks the block or section size)."""
    model = MODELS.get(series.algorithm)
    if model is None:
        return None
    return model(n, Shape(block_size=series.block_size, section_size=series.section_size, cpu_threads=cpu_threads))


def describe(algorithm: str) -> str | None:
    """The model of `algorithm` in a sentence, for the reports."""
    model = MODELS.get(algorithm)
    return " ".join(model.__doc__.split()) if model and model.__doc__ else None
