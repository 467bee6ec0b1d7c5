"""Sharing solutions: per job its sub-batch, its run segments (start, GPUs, stop) and finish.

A non-preemptive schedule has one segment per job (start time and GPU ids, held until the
job finishes). A preemptive one (``preemptive: true``, Tiresias) may stop a job
(``stop``) and resume it later, possibly on other GPUs; the last segment never has a stop.
``steps`` is s = ceil(B / b) and ``co_runner`` the job already holding one of its GPUs
when it started (None: it started on free GPUs only); ``finish`` is the producer's claim,
which the validator checks against the progress model. ``resume_overhead_s`` (default 0) is
the no-progress time the policy charged each resume on top of the cluster's
``preemption_overhead_s`` (a reading of the policy, e.g. Tiresias's), so a replay charges both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from packgap.fields import Reader, join


@dataclass(frozen=True)
class Segment:
    start: float
    gpus: tuple[int, ...]
    stop: float | None = None


@dataclass(frozen=True)
class JobSchedule:
    id: str
    batch: int
    steps: int
    segments: tuple[Segment, ...]
    finish: float
    co_runner: str | None = None

    @property
    def start(self) -> float:
        return self.segments[0].start

    @property
    def gpus(self) -> tuple[int, ...]:
        return self.segments[0].gpus


@dataclass(frozen=True)
class SharingSolution:
    jobs: tuple[JobSchedule, ...]
    preemptive: bool = False
    resume_overhead_s: float = 0.0


def _segment(r: Reader, value: Any, path: str) -> Segment | None:
    obj = r.obj(value, path, {"start": True, "gpus": True, "stop": False})
    if obj is None or "start" not in obj or "gpus" not in obj:
        return None
    start = r.number(obj["start"], join(path, "start"), minimum=0.0)
    gpus = r.items(obj["gpus"], join(path, "gpus"), lambda v, p: r.number(v, p, minimum=0, integer=True))
    stop = None
    if obj.get("stop") is not None:
        stop = r.number(obj["stop"], join(path, "stop"), minimum=0.0)
    if start is None or gpus is None or None in gpus:
        return None
    return Segment(start, tuple(gpus), stop)


def _job(r: Reader, value: Any, path: str) -> JobSchedule | None:
    names = ("id", "batch", "steps", "segments", "finish")
    obj = r.obj(value, path, {**dict.fromkeys(names, True), "co_runner": False})
    if obj is None or any(k not in obj for k in names):
        return None
    jid = r.string(obj["id"], join(path, "id"))
    batch = r.number(obj["batch"], join(path, "batch"), positive=True, integer=True)
    steps = r.number(obj["steps"], join(path, "steps"), positive=True, integer=True)
    segments = r.items(obj["segments"], join(path, "segments"), lambda v, p: _segment(r, v, p))
    finish = r.number(obj["finish"], join(path, "finish"), minimum=0.0)
    co = obj.get("co_runner")
    co_runner = None if co is None else r.string(co, join(path, "co_runner"))
    if None in (jid, batch, steps, finish) or not segments or None in segments or (co is not None and not co_runner):
        return None
    return JobSchedule(jid, batch, steps, tuple(s for s in segments if s), finish, co_runner)


def from_dict(document: Mapping[str, Any]) -> SharingSolution:
    r = Reader("sharing solution")
    doc = r.obj(document, "", {"jobs": True, "preemptive": False, "resume_overhead_s": False})
    if doc is None or "jobs" not in doc:
        r.abort()
    preemptive = r.boolean(doc.get("preemptive", False), "preemptive")
    overhead = r.number(doc.get("resume_overhead_s", 0.0), "resume_overhead_s", minimum=0.0)
    jobs = r.items(doc["jobs"], "jobs", lambda v, p: _job(r, v, p), nonempty=False)
    r.finish()
    return SharingSolution(tuple(j for j in jobs or () if j is not None), bool(preemptive), overhead or 0.0)


def to_dict(solution: SharingSolution) -> dict[str, Any]:
    overhead = {"resume_overhead_s": solution.resume_overhead_s} if solution.resume_overhead_s else {}
    return {
        "preemptive": solution.preemptive,
        "jobs": [
            {
                "id": j.id,
                "batch": j.batch,
                "steps": j.steps,
                "finish": j.finish,
                "co_runner": j.co_runner,
                "segments": [
                    {"start": s.start, "gpus": list(s.gpus)} | ({} if s.stop is None else {"stop": s.stop})
                    for s in j.segments
                ],
            }
            for j in solution.jobs
        ],
    } | overhead
