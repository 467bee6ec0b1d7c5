"""Hand-built online cases shared by the online tests."""

from __future__ import annotations

from packgap.gpus import GpuType
from packgap.packing import Job, PackingInstance
from packgap.packing.interleave import StageProfile

#: One second per iteration under Muri-P (S + F + B + C = 1000 ms).
ONE_SECOND = StageProfile(0.0, 500.0, 500.0, 0.0)


def three_jobs() -> PackingInstance:
    """One GPU; jobs of 100 s, 50 s and 20 s arriving at 0, 10 and 30 s."""
    jobs = tuple(
        Job(jid, arrival, arrival + 500.0, 1, iterations, "m", "before_forward", (ONE_SECOND,))
        for jid, arrival, iterations in (("j1", 0.0, 100), ("j2", 10.0, 50), ("j3", 30.0, 20))
    )
    return PackingInstance("three", (GpuType("A", 1),), jobs, objective="mean-jct", interleaving="muri-p")
