"""Reader of Synergy's replay traces (traces/synergy/PROVENANCE.md; Synergy OSDI'22, MIT).

``deploy_trace_static_100job_6_3_1100.0.csv`` (100 jobs) and ``test_trace.csv`` (8 jobs),
from ``msr-fiddle/synergy`` ``simulator/deploy_trace`` and ``simulator/test_trace``: no
header, ``job_id, model_name, arrival_time, num_iters, gpu_demand`` per
``jobs/workload.py::populate_from_trace``. Arrival times are read as seconds (the
simulator's clock; its Philly mode prints ``arrival / 3600`` as hours). The simulator gives
each job its model's ``iteration_time`` (s, per iteration at the fair CPU/memory share);
here duration = ``num_iters x`` that time, with the ``iter_time`` of the model classes in
Synergy's ``simulator/models/`` (``synergy_model_tput_matrices_DERIVED.csv``, model_dir
``models``; the same for every GPU count there), kept in :data:`ITER_TIME`.

Synergy's job trace built from the raw Philly log (``cluster_job_log``,
``philly_jobs_sum_attempts_exp_single.pickle``) was not obtainable: these two small files
are the only Synergy job lists.
"""

from __future__ import annotations

from pathlib import Path

from packgap.instances.csvfile import read_csv
from packgap.instances.packing.trace_records import CellReader, JobTrace, TraceRecord

FIELDS = ("job_id", "model_name", "arrival_time", "num_iters", "gpu_demand")
#: ``iter_time`` (s) of Synergy's ``simulator/models/<model>_<gpus>.py`` classes.
ITER_TIME = {
    "alexnet": 0.6,
    "bert": 0.011,
    "deepspeech": 0.757,
    "gnmt": 0.12,
    "lstm": 0.011,
    "m5": 0.6,
    "mobilenet": 0.71,
    "res18": 0.64,
    "res50": 0.78,
    "shufflenet": 0.615,
    "transformer": 0.67,
    "vae": 0.011,
}


def read(path: Path) -> JobTrace:
    """Every job of a Synergy replay trace."""
    rows = read_csv(path, FIELDS, "a Synergy replay trace", names=FIELDS)
    cells = CellReader(path)
    records = []
    for line, row in rows:
        iter_time = ITER_TIME.get(row["model_name"])
        if iter_time is None:
            cells.error(line, "model_name", f"unknown model {row['model_name']!r} (known: {', '.join(ITER_TIME)})")
        arrival = cells.number(line, "arrival_time", row["arrival_time"])
        iters = cells.number(line, "num_iters", row["num_iters"], integer=True, minimum=1)
        gpus = cells.number(line, "gpu_demand", row["gpu_demand"], integer=True, minimum=1)
        job_id = cells.name(line, "job_id", row["job_id"])
        if job_id and iter_time is not None and arrival is not None and iters is not None and gpus is not None:
            records.append(TraceRecord(line, job_id, arrival, int(gpus), round(iters * iter_time, 6)))
    return cells.trace("gpu_demand", records, "job_id")
