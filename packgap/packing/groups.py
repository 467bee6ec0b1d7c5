"""Groups of packed jobs, as every packer returns them (CUCKOO section 3.3.2)."""

from __future__ import annotations

from packgap.packing.instance import PackingInstance

#: Groups of job ids: each a job alone or 2-4 jobs of equal demand (eq. 3; CUCKOO pairs, Muri up to 4).
Groups = tuple[tuple[str, ...], ...]


def default_now(instance: PackingInstance) -> float:
    """The packing moment of an offline batch: the first arrival."""
    return min(j.arrival for j in instance.jobs)
