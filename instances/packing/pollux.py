"""Reader of Pollux and Sia workload files (traces/pollux/PROVENANCE.md, traces/sia/PROVENANCE.md).

Both use one schema, ``name,time,application,num_replicas,batch_size``:

* Pollux (OSDI'21 artifact, ``petuum/adaptdl`` branch ``osdi21-artifact``, Apache-2.0 on
  master): ``pollux/workloads{,-0.5,-1.5,-2.0,-realistic}/workload-{1..8}.csv``, 80 to 320
  jobs sampled from Philly (``philly/philly.csv``) over 8 hours;
* Sia (SOSP'23 artifact, ``siasosp23/artifacts``, no licence file):
  ``sia/workloads/{philly,saturn,newtrace}/workload-*.csv`` and ``sia/workloads/scale/*/``
  (Helios-Saturn samples; ``newtrace``'s origin is undocumented).

Columns: ``name`` (``<application>-<index>``, the job id), ``time`` (submit, s from the
start), ``application`` (bert, cifar10, deepspeech2, imagenet, ncf, yolov3), ``num_replicas``
(GPUs), ``batch_size`` (global). No duration column: a job ends after its application's
``max_epochs``; its duration here is the standalone run time at its GPU count and batch
size by :func:`packgap.instances.packing.pollux_jct.standalone_jct`, from the application's
throughput profiles (``<folder>/throughput_profiles/<application>/``; Sia's untyped files
are Pollux's). The measured GPU type of those profiles is not stated (PROVENANCE.md).
"""

from __future__ import annotations

from pathlib import Path

from packgap.errors import PackgapError
from packgap.instances.csvfile import read_csv
from packgap.instances.packing.pollux_jct import AppProfile, read_profile, standalone_jct
from packgap.instances.packing.trace_records import CellReader, JobTrace, TraceRecord
from packgap.instances.traces import traces_dir

COLUMNS = ("name", "time", "application", "num_replicas", "batch_size")
#: Default profile folders, relative to the trace folder, by source.
PROFILES = {"pollux": Path("pollux") / "throughput_profiles", "sia": Path("sia") / "throughput_profiles"}


def profiles_dir(source: str, explicit: Path | None, traces: str | Path | None) -> Path:
    """``explicit`` or the source's profile folder inside the trace folder."""
    return explicit if explicit is not None else traces_dir(traces) / PROFILES[source]


def read(path: Path, profiles: Path) -> JobTrace:
    """Every job of a workload file, durations from the profiles in ``profiles``."""
    rows = read_csv(path, COLUMNS, "a Pollux or Sia workload CSV")
    cells = CellReader(path)
    apps: dict[str, AppProfile] = {}
    # Jobs repeat a few settings: the 5,120 jobs of Sia's scale_32x/workload-1 have 18 (1.2 s -> 0.13 s).
    durations: dict[tuple[str, int, int], float] = {}
    records = []
    for line, row in rows:
        app = row["application"]
        if app not in apps and (profiles / app).is_dir():
            apps[app] = read_profile(profiles / app)
        if app not in apps:
            cells.error(line, "application", f"no throughput profile {profiles / app}")
        submit = cells.number(line, "time", row["time"])
        gpus = cells.number(line, "num_replicas", row["num_replicas"], integer=True, minimum=1)
        batch = cells.number(line, "batch_size", row["batch_size"], integer=True, minimum=1)
        name = cells.name(line, "name", row["name"])
        if app not in apps or submit is None or gpus is None or batch is None or name is None:
            continue
        key = (app, int(gpus), int(batch))
        if key not in durations:
            try:
                durations[key] = standalone_jct(apps[app], int(gpus), int(batch))
            except PackgapError as exc:
                cells.error(line, "batch_size", str(exc))
                continue
        records.append(TraceRecord(line, name, submit, int(gpus), durations[key]))
    return cells.trace("num_replicas", records, "name")
