"""Benchmark sizes: a small set runs in `make test` (benchmarks disabled, each body once) and
the larger set with `make bench` (PACKGAP_BENCH=large)."""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType
from typing import Any

from packgap.result import SolveResult

LARGE = os.environ.get("PACKGAP_BENCH") == "large"


def sizes(small: list[int], large: list[int]) -> list[int]:
    return large if LARGE else small


def short_rounds() -> dict[str, int]:
    """``benchmark.pedantic`` rounds for a case of well under a second in the small set: one
    warm-up call, then the median of three. Timed once, such a case measured its first call's
    lazy imports and caches: on a fresh clone PAL's Sia-Philly simulation took 82-101 ms on
    its first call and 34 ms after, and five such cases failed ``bench-check`` twice in a row.
    The large set keeps one round."""
    return {"rounds": 1} if LARGE else {"rounds": 3, "warmup_rounds": 1}


class PeakRss:
    """The process's peak resident set (MB, VmHWM) while the block runs, the peak reset on
    entry through /proc/self/clear_refs; None where Linux's /proc is absent."""

    def __init__(self) -> None:
        self.mb: float | None = None

    @staticmethod
    def _field(name: str) -> float | None:
        status = Path("/proc/self/status")
        if not status.is_file():
            return None
        line = next(x for x in status.read_text().splitlines() if x.startswith(name))
        return int(line.split()[1]) / 1024

    def __enter__(self) -> PeakRss:
        clear = Path("/proc/self/clear_refs")
        if clear.exists():
            clear.write_text("5")
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self.mb = self._field("VmHWM:")


def exact_info(result: SolveResult, peak: PeakRss) -> dict[str, Any]:
    """What every exact-model benchmark records in ``extra_info`` (``make bench-check`` reads
    ``status`` and ``gap``)."""
    return {
        "status": str(result.status),
        "gap": result.gap,
        "seconds": result.wall_s,
        "build_s": result.build_s,
        "peak_rss_mb": peak.mb,
        "objective": result.objective,
        "bound": result.bound,
        "message": result.message,
    }
