"""Calibration solutions: per worker, an LGRR share (%) and a sample count (LISS split).

Shares lie on the instance's granularity grid (section 4.1: restrictions move "at a fixed
granularity percent"). Samples may be fractional: the LISS split of the model is
proportional to speed (:mod:`packgap.calibration.speed`). ``search`` holds what the method reports
about its own search (evaluations, simulated search time of section 7.4, ...); it is copied to
the metrics, never used for the objective.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from packgap.fields import Reader, join


@dataclass(frozen=True)
class JobCalibration:
    """Shares and samples of one job's workers, in the order of the job's ``gpus``."""

    id: str
    shares: tuple[float, ...]
    samples: tuple[float, ...]


@dataclass(frozen=True)
class CalibrationSolution:
    jobs: tuple[JobCalibration, ...]
    search: Mapping[str, float] = field(default_factory=dict)

    def job(self, job_id: str) -> JobCalibration:
        return next(j for j in self.jobs if j.id == job_id)


def _floats(r: Reader, value: Any, path: str) -> tuple[float, ...] | None:
    items = r.items(value, path, lambda v, p: r.number(v, p))
    return None if items is None or None in items else tuple(items)


def _job(r: Reader, value: Any, path: str) -> JobCalibration | None:
    obj = r.obj(value, path, {"id": True, "shares": True, "samples": True})
    if obj is None or any(k not in obj for k in ("id", "shares", "samples")):
        return None
    jid = r.string(obj["id"], join(path, "id"))
    shares = _floats(r, obj["shares"], join(path, "shares"))
    samples = _floats(r, obj["samples"], join(path, "samples"))
    return None if jid is None or shares is None or samples is None else JobCalibration(jid, shares, samples)


def from_dict(document: Mapping[str, Any]) -> CalibrationSolution:
    r = Reader("calibration solution")
    doc = r.obj(document, "", {"jobs": True, "search": False})
    if doc is None or "jobs" not in doc:
        r.abort()
    jobs = r.items(doc["jobs"], "jobs", lambda v, p: _job(r, v, p)) or []
    search: dict[str, float] = {}
    given = doc.get("search", {})
    raw = r.obj(given, "search", dict.fromkeys(given, False) if isinstance(given, Mapping) else {}, data_keys=True)
    for key, value in (raw or {}).items():
        number = r.number(value, join("search", key))
        if number is not None:
            search[key] = number
    r.finish()
    return CalibrationSolution(tuple(j for j in jobs if j), search)


def to_dict(solution: CalibrationSolution) -> dict[str, Any]:
    return {
        "jobs": [{"id": j.id, "shares": list(j.shares), "samples": list(j.samples)} for j in solution.jobs],
        "search": dict(solution.search),
    }
