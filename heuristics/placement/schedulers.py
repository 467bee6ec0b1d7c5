"""The schedulers PAL's placement is attached to (section IV-A2): FIFO, Tiresias' two-level
LAS and SRTF. Each orders the queue (running and waiting jobs), highest priority first;
every sort is stable, so equal keys keep the queue's order.
"""

from __future__ import annotations

from collections.abc import Sequence

from packgap.placement.simulator import JobState

#: Tiresias' queue threshold in attained GPU-seconds; the PAL paper gives no value, and
#: Tiresias (Gu et al., NSDI 2019) tunes it per cluster. One GPU-hour is this toolkit's choice.
LAS_THRESHOLD = 3600.0


def fifo(queue: Sequence[JobState]) -> list[JobState]:
    """First in, first out: by submit time."""
    return sorted(queue, key=lambda s: s.job.submit_time)


def las(queue: Sequence[JobState], threshold: float = LAS_THRESHOLD) -> list[JobState]:
    """Tiresias two-level least attained service: jobs below ``threshold`` attained
    GPU-seconds come first; FIFO inside each level (Tiresias' discretised 2D-LAS)."""
    return sorted(queue, key=lambda s: (s.service >= threshold, s.job.submit_time))


def srtf(queue: Sequence[JobState]) -> list[JobState]:
    """Shortest remaining time first (preemptive): by remaining work on a median GPU."""
    return sorted(queue, key=lambda s: (s.remaining_time, s.job.submit_time))


SCHEDULERS = {"fifo": fifo, "las": las, "srtf": srtf}
