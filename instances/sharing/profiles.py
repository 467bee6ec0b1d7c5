"""Per-model time profiles (eqs. 3, 4, 7) fitted to Pollux's measured step times.

SJF-BSBF's simulation uses Pollux's six tasks (section VI-A) and fits eq. 7 to measured
throughputs (Fig. 2); its own measurements are not published. Pollux's profiles are
(``pollux/throughput_profiles/<app>/placements.csv``: placement, local batch, step time,
sync time). The fit, :func:`fit_pollux`:

* eq. 3: least squares of the one-GPU step time (placement ``1``) on the local batch;
* eq. 4: ``t_comm = a + b M`` with a, b shared by all models ("constants not related to M",
  section III-B), least squares of each model's median multi-GPU sync time on its gradient
  size M (:data:`MESSAGE_MB`, fp32 parameter counts of the standard models);
* eq. 7's delta: the value on a 0.25 grid in [1, 10] that best predicts multi-GPU step
  times from t_comp(local batch) and the measured sync time.

:data:`DEFAULT_PROFILES` holds the result of that fit (rounded to 4 significant digits) so
the generator works without the trace folder; a trace test re-fits and compares. Memory
(``mem_base_gb + mem_per_sample_gb x b``) is ours: the paper gives no memory model; the
values put the largest local batch Pollux profiled on one GPU at about 10 GB of an 11 GB
2080 Ti.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import numpy as np

from packgap.errors import PackgapError
from packgap.instances.csvfile import cell, number, read_csv
from packgap.sharing import ModelProfile

#: Gradient (message) size per model in MB: fp32 parameters of BERT-base (110 M), ResNet-18
#: (11.2 M), DeepSpeech2 (~38 M), ResNet-50 (25.6 M), NCF (~1.3 M), YOLOv3 (61.9 M).
MESSAGE_MB = {"bert": 440.0, "cifar10": 44.7, "deepspeech2": 152.0, "imagenet": 102.4, "ncf": 5.2, "yolov3": 247.6}
#: Our memory model per model: (base GB, GB per sample); see the module docstring.
MEMORY_GB = {
    "bert": (2.0, 0.7),
    "cifar10": (1.0, 0.008),
    "deepspeech2": (2.0, 0.1),
    "imagenet": (2.0, 0.04),
    "ncf": (0.5, 0.0003),
    "yolov3": (2.5, 0.5),
}
#: Per-GPU batch B each task asks for in the generator (within Pollux's profiled range).
DEFAULT_BATCH = {"bert": 12, "cifar10": 128, "deepspeech2": 20, "imagenet": 64, "ncf": 4096, "yolov3": 8}

DELTA_GRID = tuple(1.0 + 0.25 * k for k in range(37))


def _rows(folder: Path, app: str) -> list[dict[str, str]]:
    """The rows of one application's profile, every cell the fit reads checked first."""
    path = folder / app / "placements.csv"
    rows = read_csv(path, ("placement", "local_bsz", "step_time", "sync_time"), "a Pollux throughput profile")
    for line, row in rows:
        for column in ("local_bsz", "step_time", "sync_time"):
            number(row[column], cell(path, line, column))
        if not row["placement"].isdigit():
            raise PackgapError(
                f"{cell(path, line, 'placement')}: expected digits (GPUs per node), got {row['placement']!r}"
            )
    return [row for _, row in rows]


def _replicas(placement: str) -> int:
    return sum(int(c) for c in placement)


def fit_pollux(folder: Path) -> dict[str, ModelProfile]:
    """Fit every model of ``folder`` (Pollux's ``throughput_profiles``) as described above."""
    comp: dict[str, tuple[float, float]] = {}
    sync: dict[str, float] = {}
    rows = {app: _rows(folder, app) for app in MESSAGE_MB}
    for app, rs in rows.items():
        one = [(float(r["local_bsz"]), float(r["step_time"])) for r in rs if r["placement"] == "1"]
        x = np.array([b for b, _ in one])
        design = np.vstack([np.ones_like(x), x]).T
        alpha, beta = np.linalg.lstsq(design, np.array([t for _, t in one]), rcond=None)[0]
        comp[app] = (max(0.0, float(alpha)), max(0.0, float(beta)))
        sync[app] = statistics.median(float(r["sync_time"]) for r in rs if _replicas(r["placement"]) >= 2)
    m = np.array([MESSAGE_MB[a] for a in sync])
    design = np.vstack([np.ones_like(m), m]).T
    a, b = np.linalg.lstsq(design, np.array(list(sync.values())), rcond=None)[0]
    a, b = max(0.0, float(a)), max(0.0, float(b))
    out = {}
    for app, rs in rows.items():
        ca, cb = comp[app]
        multi = [r for r in rs if _replicas(r["placement"]) >= 2]
        tc = np.array([ca + cb * float(r["local_bsz"]) for r in multi])
        ts = np.array([float(r["sync_time"]) for r in multi])
        step = np.array([float(r["step_time"]) for r in multi])
        delta = min(DELTA_GRID, key=lambda d: float(np.sum(((tc**d + ts**d) ** (1 / d) - step) ** 2)))
        base, per = MEMORY_GB[app]
        out[app] = ModelProfile(app, ca, cb, a, b, MESSAGE_MB[app], delta, base, per)
    return out


def _p(name: str, ca: float, cb: float, delta: float) -> ModelProfile:
    base, per = MEMORY_GB[name]
    return ModelProfile(name, ca, cb, COMM_ALPHA, COMM_BETA, MESSAGE_MB[name], delta, base, per)


#: eq. 4's shared network constants a (s) and b (s/MB) from :func:`fit_pollux` (a < 0 clamped).
COMM_ALPHA = 0.0
COMM_BETA = 0.002335
#: :func:`fit_pollux` on Pollux's profiles (petuum/adaptdl osdi21-artifact c793c70), 4 digits.
DEFAULT_PROFILES: dict[str, ModelProfile] = {
    p.name: p
    for p in (
        _p("bert", 0.2267, 0.05783, 1.0),
        _p("cifar10", 0.01775, 0.0006643, 1.0),
        _p("deepspeech2", 0.09281, 0.02905, 1.0),
        _p("imagenet", 0.07965, 0.004208, 1.0),
        _p("ncf", 0.007649, 4.337e-07, 1.0),
        _p("yolov3", 0.2189, 0.0243, 1.0),
    )
}
