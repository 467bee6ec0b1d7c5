"""Reader of Alibaba's openb pod lists (traces/alibaba-gpu-v2023-openb/PROVENANCE.md).

The FGD trace (Weng et al., ATC'23; ``alibaba/clusterdata`` ``cluster-trace-gpu-v2023``,
licence unverified): ``openb_pod_list_default.csv`` (8,152 pods) and the variants sampled
from it, columns ``name, cpu_milli, memory_mib, num_gpu, gpu_milli, gpu_spec, qos,
pod_phase, creation_time, deletion_time, scheduled_time`` (times in seconds).

The pods carry arrival and duration, so they are jobs:

* id = ``name``; submit time = ``creation_time``;
* duration = ``deletion_time - creation_time``, the pod's lifetime (PROVENANCE.md's first
  reading). Pods never scheduled (empty ``scheduled_time``, 897 ``Pending`` pods of the
  default list) are kept: their lifetime is then time spent waiting, the trace's only
  length for them;
* GPU demand = ``num_gpu``; a GPU-sharing pod (``num_gpu`` 1, ``gpu_milli`` < 1000) counts
  as one whole GPU, since neither CUCKOO nor PAL shares a GPU by fractions;
* CPU-only pods (``num_gpu`` 0; 1,088 in the default list) are not GPU jobs and are skipped.

The ``multigpu{20,30,40,50}`` variants carry only ``name, cpu_milli, memory_mib, num_gpu,
gpu_milli``: no arrival and no duration, so they are refused. No model type is in the trace.
"""

from __future__ import annotations

from pathlib import Path

from packgap.errors import PackgapError
from packgap.instances.csvfile import header, read_csv
from packgap.instances.packing.trace_records import CellReader, JobTrace, TraceRecord

COLUMNS = ("name", "num_gpu", "creation_time", "deletion_time")
TIMES = ("creation_time", "deletion_time")


def read(path: Path) -> JobTrace:
    """Every GPU pod of an openb pod list, as a job."""
    if not set(TIMES) <= set(header(path)):
        raise PackgapError(
            f"{path} has no creation_time / deletion_time: openb pod lists without times (the multigpu* "
            "variants) carry no arrivals or durations, so they make no jobs; use openb_pod_list_default.csv "
            "or a cpu*, gpushare* or gpuspec* variant"
        )
    rows = read_csv(path, COLUMNS, "an Alibaba openb pod list")
    cells = CellReader(path)
    records = []
    for line, row in rows:
        gpus = cells.number(line, "num_gpu", row["num_gpu"], integer=True)
        created = cells.number(line, "creation_time", row["creation_time"])
        deleted = cells.number(line, "deletion_time", row["deletion_time"])
        name = cells.name(line, "name", row["name"])
        if created is not None and deleted is not None and deleted < created:
            cells.error(line, "deletion_time", f"{deleted:g} is before creation_time {created:g}")
        elif name and gpus and created is not None and deleted is not None:
            records.append(TraceRecord(line, name, created, int(gpus), deleted - created))
    return cells.trace("num_gpu", records, "name")
