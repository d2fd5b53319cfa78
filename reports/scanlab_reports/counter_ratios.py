"""The simulator's counters as the ratios a reader compares, the same in the figures and the
tables: none of them grows with n, and each has the value of an ideal kernel beside it (the
counters' definitions and the Nsight Compute metrics they mirror: common/sim/README.md)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ratio:
    title: str        # what it is about
    label: str        # numerator / denominator, in words
    numerator: str    # counter names of the results format
    denominator: str
    ideal: float      # the ratio of a kernel without conflicts, with coalesced accesses, without divergence

    def of(self, counters: dict | None) -> float | None:
        if not counters or self.numerator not in counters or not counters.get(self.denominator):
            return None
        return counters[self.numerator] / counters[self.denominator]


RATIOS = (
    Ratio("shared-memory bank conflicts", "bank conflicts / shared requests", "bank_conflicts", "shared_requests", 0.0),
    Ratio("shared-memory wavefronts", "wavefronts / ideal wavefronts", "shared_wavefronts", "shared_ideal_wavefronts",
          1.0),
    Ratio("global-memory coalescing", "sectors / ideal sectors", "global_sectors", "global_ideal_sectors", 1.0),
    Ratio("divergence", "divergent / all warp intervals", "divergent_warp_intervals", "warp_intervals", 0.0),
)
