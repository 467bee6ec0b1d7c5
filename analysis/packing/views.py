"""``packgap instances show --groups``: the packing exact models' inputs, auditable.

Every feasible group (each job alone, each equal-demand pair) with, per GPU type, the
interleaved iteration time, each job's standalone iteration time and each job's completion
offset from the group's start (CUCKOO section 3.2, the exact timeline).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from packgap.packing import PackingInstance


def packing_groups(instance: PackingInstance) -> list[dict[str, Any]]:
    from packgap.packing.timeline import candidate_groups

    return [
        {
            "jobs": list(jobs),
            "per_gpu_type": [
                {
                    "gpu_type": t.gpu_type,
                    "interleaved_iteration_ms": t.interleaved_ms,
                    "standalone_iteration_ms": list(t.standalone_ms),
                    "completion_offset_s": list(t.completion),
                    "duration_s": t.duration,
                }
                for t in timelines
            ],
        }
        for jobs, timelines in candidate_groups(instance)
    ]
