"""One colour per algorithm, the same in every figure of every report, so that a reader who
learnt that Brent-Kung is blue in one figure finds it blue in the next. The colours are the
Okabe-Ito set, told apart by readers with any common colour vision deficiency, then the tab10
hues; the copy (the physical ceiling) is black.

An algorithm this table does not know (a lab added later) still gets a fixed colour: one of the
spare hues, chosen from its name, so it too stays the same across figures and runs."""

from __future__ import annotations

import zlib

COLOURS: dict[str, str] = {
    "copy": "#000000",
    "cub": "#D55E00",                        # vermillion
    "cub-generic": "#F0A07A",                # light vermillion: CUB again, its generic tuning
    "cub-cccl": "#E6550D",                   # dark orange: a newer CUB's InclusiveSum
    "cub-cccl-warpspeed": "#FDAE6B",         # light orange: that CUB's warp-specialized scan
    "thrust": "#CC79A7",                     # reddish purple
    "sequential": "#7F7F7F",                 # grey
    "std-inclusive-scan": "#B3B3B3",         # light grey
    "cpu-parallel": "#8C564B",               # brown
    "kogge-stone": "#E69F00",                # orange
    "kogge-stone-double-buffer": "#A6761D",  # dark gold (Okabe-Ito's yellow is too faint on white)
    "kogge-stone-exclusive": "#BCBD22",      # olive
    "brent-kung": "#0072B2",                 # blue
    "brent-kung-exclusive": "#1F3A93",       # dark blue
    "three-phase": "#56B4E9",                # sky blue
    "hierarchical": "#009E73",               # bluish green
    "single-pass": "#9467BD",                # purple
    "binary-prefix-ballot": "#332288",       # indigo (Paul Tol's set, for lab 08's four series)
    "binary-prefix-shuffle": "#44AA99",      # teal
    "binary-count-intrinsic": "#AA4499",     # Tol's purple
    "binary-count-reduction": "#DDCC77",     # sand
    "decoupled-lookback": "#8B0000",         # dark red: lab 09
    "warp-specialized": "#661100",           # Tol's dark red-brown: lab 10, the kit's fastest scan
}
SPARE: tuple[str, ...] = ("#17BECF", "#1F77B4", "#2CA02C", "#D62728", "#FF7F0E", "#E377C2", "#393B79", "#637939")

# Lines that are limits to reach rather than contenders are drawn dashed.
REFERENCE_LINES = ("copy", "cub", "cub-generic")


def colour(algorithm: str) -> str:
    known = COLOURS.get(algorithm)
    if known is not None:
        return known
    return SPARE[zlib.crc32(algorithm.encode()) % len(SPARE)]
