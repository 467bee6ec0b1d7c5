"""No packing: every job is its own group (the "None" baseline of CUCKOO Table 12)."""

from __future__ import annotations

from packgap.packing import PackingInstance
from packgap.packing.groups import Groups


def no_packing(instance: PackingInstance) -> Groups:
    return tuple((j.id,) for j in instance.jobs)
