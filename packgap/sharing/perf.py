"""SJF-BSBF's time model (eqs. 3-7) with gradient accumulation, and the memory footprint.

One iteration of a job at sub-batch ``b`` (accumulation steps s = ceil(B / b), eq. 7):

    t_iter = (s - 1) t_comp(B / s) + (t_comp(B / s)^delta + t_comm^delta)^(1 / delta)

with ``t_comp(x) = comp_alpha + comp_beta x`` (eq. 3) and ``t_comm = comm_alpha + comm_beta M``
(eq. 4). Reading: a one-GPU job runs no all-reduce, so its t_comm is 0 (eq. 2 aggregates the
gradients of N >= 2 workers); eq. 4 has no topology term, so the iteration time does not
depend on which nodes hold the job. While a job shares any of its GPUs its iteration time
is xi times longer (eqs. 5-6); a gang job shares different GPUs with different partners
only by taking one partner per GPU, and then runs at the pace of its slowest worker: the
largest xi over its partners (the paper's model names only one partner).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from packgap.sharing.instance import Job, ModelProfile, SharingInstance
from packgap.sharing.pair_time import sooner_factor


def ladder(batch: int) -> tuple[int, ...]:
    """Algorithm 2's candidate sub-batches B, ceil(B/2), ceil(B/4), ..., 1 (largest first)."""
    out = [batch]
    while out[-1] > 1:
        out.append(math.ceil(out[-1] / 2))
    return tuple(out)


def steps(batch: int, sub_batch: int) -> int:
    """Accumulation steps s = ceil(B / b) that reach the requested batch B."""
    return math.ceil(batch / sub_batch)


def iteration_time(model: ModelProfile, batch: int, sub_batch: int, gpus: int) -> float:
    """Solo iteration time (s) of eq. 7 at sub-batch ``sub_batch`` on ``gpus`` GPUs."""
    s = steps(batch, sub_batch)
    comp = model.comp_alpha + model.comp_beta * batch / s
    comm = 0.0 if gpus == 1 else model.comm_alpha + model.comm_beta * model.message_mb
    if comm == 0.0:
        return s * comp
    d = model.delta
    return (s - 1) * comp + (comp**d + comm**d) ** (1.0 / d)


def memory_gb(model: ModelProfile, sub_batch: int) -> float:
    """One worker's GPU memory at sub-batch ``sub_batch`` (our linear model; see instance)."""
    return model.mem_base_gb + model.mem_per_sample_gb * sub_batch


@dataclass(frozen=True)
class Ladders:
    """Every job's ladder sub-batches (largest first, b = 1 in the last column; rows in
    instance order), with its solo run time L and worker memory at each. Shorter ladders
    are padded in front with the requested batch B at infinite memory, which fits nowhere,
    so column 0 always holds B. Rows are filled on first use (:meth:`Perf.ladder_rows`)."""

    batches: np.ndarray
    solo_time: np.ndarray
    memory: np.ndarray


class Perf:
    """Cached time and memory lookups of one instance (the heuristics call these per GPU)."""

    def __init__(self, instance: SharingInstance) -> None:
        self.instance = instance
        self.jobs = {j.id: j for j in instance.jobs}
        self._iter: dict[tuple[str, int], float] = {}
        self._solo: dict[str, int] = {}
        self._least: dict[str, float] = {}
        self._xi: dict[tuple[str, str], float] = {}
        self.row = {j.id: i for i, j in enumerate(instance.jobs)}
        depth = max((len(ladder(b)) for b in {j.batch for j in instance.jobs}), default=1)
        shape = (len(instance.jobs), depth)
        self.ladders = Ladders(np.zeros(shape, dtype=int), np.zeros(shape), np.full(shape, np.inf))
        self._filled = np.zeros(len(instance.jobs), dtype=bool)
        self._unfilled = len(instance.jobs)
        self._iterations = np.array([j.iterations for j in instance.jobs], dtype=np.int64)
        #: Ladder sub-batches, iteration times and memory per (model, B, G_j).
        self._kinds: dict[tuple[str, int, int], tuple[tuple[int, ...], np.ndarray, np.ndarray]] = {}
        names = sorted(instance.models)
        #: Model index of every job, and xi as a matrix [own model, partner model].
        self.model_index = {j.id: names.index(j.model) for j in instance.jobs}
        self.model_rows = np.array([self.model_index[j.id] for j in instance.jobs], dtype=np.intp)
        self.xi_table = np.array([[instance.interference.xi(a, b) for b in names] for a in names], dtype=float)
        xi_new, xi_running = self.xi_table, self.xi_table.T
        #: Per model pair (column ``new job's model x model_count + running job's``): xi_N, xi_R and
        #: the factors of Theorem 1's t_con when the new job ends first and when the running one
        #: does (:func:`sooner_factor`), one row each.
        self.pair_terms = np.stack(
            [xi_new, xi_running, sooner_factor(xi_running, xi_new), sooner_factor(xi_new, xi_running)]
        ).reshape(4, -1)
        self.model_count = len(names)

    def t_iter(self, job_id: str, sub_batch: int) -> float:
        key = (job_id, sub_batch)
        if key not in self._iter:
            job = self.jobs[job_id]
            self._iter[key] = iteration_time(self.instance.models[job.model], job.batch, sub_batch, job.gpus)
        return self._iter[key]

    def solo_time(self, job_id: str, sub_batch: int) -> float:
        """L = t_iter x I: the whole job's run time alone (Algorithm 1's input)."""
        return self.t_iter(job_id, sub_batch) * self.jobs[job_id].iterations

    def memory(self, job_id: str, sub_batch: int) -> float:
        return memory_gb(self.instance.models[self.jobs[job_id].model], sub_batch)

    def xi(self, job_id: str, partner_id: str) -> float:
        key = (self.jobs[job_id].model, self.jobs[partner_id].model)
        if key not in self._xi:
            self._xi[key] = self.instance.interference.xi(*key)
        return self._xi[key]

    def ladder_rows(self, job_ids: Sequence[str]) -> np.ndarray:
        """The jobs' rows in :attr:`ladders`, filled if not yet."""
        rows = np.array([self.row[j] for j in job_ids], dtype=np.intp)
        self.fill_ladders(rows)
        return rows

    def fill_ladders(self, rows: np.ndarray) -> None:
        """Fill the :attr:`ladders` rows ``rows`` (instance order) that are not yet: one ladder
        of iteration times per model, B and G_j (jobs share few), times the job's I_j as
        :meth:`solo_time` multiplies, written for all the jobs of a kind at once."""
        if self._unfilled == 0:
            return
        missing = rows[~self._filled[rows]]
        kinds: dict[tuple[str, int, int], list[int]] = {}
        for r in np.unique(missing).tolist() if missing.size else ():
            job = self.instance.jobs[r]
            kinds.setdefault((job.model, job.batch, job.gpus), []).append(r)
        for key, members in kinds.items():
            if key not in self._kinds:
                job_id = self.instance.jobs[members[0]].id
                bs = ladder(key[1])
                self._kinds[key] = (
                    bs,
                    np.array([self.t_iter(job_id, b) for b in bs]),
                    np.array([self.memory(job_id, b) for b in bs]),
                )
            bs, times, memory = self._kinds[key]
            at = np.array(members, dtype=np.intp)
            first = self.ladders.batches.shape[1] - len(bs)
            self.ladders.batches[at, :first] = key[1]
            self.ladders.batches[at, first:] = bs
            self.ladders.solo_time[at, first:] = times * self._iterations[at, None]
            self.ladders.memory[at, first:] = memory
            self._filled[at] = True
            self._unfilled -= len(members)

    def largest_fitting(self, job: Job, free_gb: float) -> int | None:
        """The largest ladder sub-batch whose worker fits in ``free_gb`` (None: none fits)."""
        model = self.instance.models[job.model]
        for b in ladder(job.batch):
            if memory_gb(model, b) <= free_gb + 1e-9:
                return b
        return None

    def least_memory(self, job: Job) -> float:
        """The least worker memory over the job's ladder (GB): :meth:`largest_fitting` finds a
        sub-batch exactly where this one fits."""
        if job.id not in self._least:
            model = self.instance.models[job.model]
            self._least[job.id] = min(memory_gb(model, b) for b in ladder(job.batch))
        return self._least[job.id]

    def solo_batch(self, job: Job) -> int:
        """The sub-batch of a job alone on its GPUs (the largest that fits an empty GPU)."""
        if job.id not in self._solo:
            b = self.largest_fitting(job, self.instance.cluster.gpu_memory_gb)
            assert b is not None, "the instance reader rejects jobs that fit no GPU at b = 1"
            self._solo[job.id] = b
        return self._solo[job.id]
