"""The starts the sharing branch and bound (:mod:`packgap.models.sharing.branch_bound`) tries
for one waiting job at a node: its GPUs up to symmetry and its sub-batch.

GPUs are identical and eq. 4 has no topology term, so a GPU is characterised by the set of
jobs it holds; an allocation is a count per such class (at most C holders, eq. 9), and one
representative of it is searched: the lowest GPU ids of each class (:func:`concrete`). The
sub-batches are the ladder's that fit beside the holders (Algorithm 2's ladder B, ceil(B/2),
..., 1), all of them or the largest only, less those another one dominates
(:class:`packgap.models.sharing.dominance.BatchSignatures`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from packgap.models.sharing.dominance import BatchSignatures, Rules
from packgap.models.sharing.node_bound import MEMORY_TOL, Running
from packgap.sharing import Perf, SharingInstance
from packgap.sharing.perf import ladder

#: An allocation: the holder set of each GPU taken.
Taken = tuple[tuple[int, ...], ...]


class Moves:
    """Every start of a job at a node, up to symmetry: (allocation, sub-batch); ``every_batch``
    False keeps the largest fitting sub-batch only; ``late`` says when the search must stop."""

    def __init__(
        self, instance: SharingInstance, perf: Perf, rules: Rules, every_batch: bool, late: Callable[[], bool]
    ) -> None:
        self.inst, self.perf, self.rules, self.every_batch, self.late = instance, perf, rules, every_batch, late
        self.ids = [j.id for j in instance.jobs]
        self.slots = instance.cluster.max_jobs_per_gpu
        self.cache: dict[tuple[object, ...], list[tuple[Taken, int]]] = {}
        self.signatures = BatchSignatures(instance, perf)

    def __call__(self, classes: dict[tuple[int, ...], int], running: Running, job: int) -> Iterator[tuple[Taken, int]]:
        """Made lazily (a gang job on a large cluster has very many) and cached once complete."""
        key = (job, tuple(sorted(classes.items())), tuple(sorted((j, v[1]) for j, v in running.items())))
        if key in self.cache:
            yield from self.cache[key]
            return
        made = []
        for taken in self.allocations(classes, job):
            if self.late():
                # Allocations without a fitting sub-batch yield nothing, and a gang job on a
                # large cluster has very many: 480 jobs on 64 GPUs ran 15-18 s under a 5 s
                # limit here. Cut short, the list is not cached; the node's bound covers the rest.
                return
            for b in self.batches(running, job, taken):
                made.append((taken, b))
                yield taken, b
        self.cache[key] = made

    def allocations(self, classes: dict[tuple[int, ...], int], job: int) -> Iterator[Taken]:
        """The counts per class of GPUs with room for one more holder that make up the job's G_j."""
        keys = sorted((h for h in classes if len(h) < self.slots), key=len)
        room = [0] * (len(keys) + 1)
        for k in range(len(keys) - 1, -1, -1):
            room[k] = room[k + 1] + classes[keys[k]]

        def rec(k: int, left: int) -> Iterator[list[tuple[int, ...]]]:
            if left == 0:
                yield []
                return
            for take in range(min(left, classes[keys[k]]), max(0, left - room[k + 1]) - 1, -1):
                for rest in rec(k + 1, left - take):
                    yield [keys[k]] * take + rest

        if room[0] >= self.inst.jobs[job].gpus:
            yield from (tuple(taken) for taken in rec(0, self.inst.jobs[job].gpus))

    def batches(self, running: Running, job: int, taken: Taken) -> list[int]:
        """The sub-batches tried beside the holders of ``taken``."""
        mem = self.inst.cluster.gpu_memory_gb
        room = min(mem - sum(self.perf.memory(self.ids[h], running[h][1]) for h in holders) for holders in set(taken))
        jid = self.ids[job]
        fits = [b for b in ladder(self.inst.jobs[job].batch) if self.perf.memory(jid, b) <= room + MEMORY_TOL]
        if not self.every_batch:
            return fits[:1]
        if not self.rules.batch_dominance or self.slots != 2:
            return fits
        return self.signatures.kept(job, fits)


def concrete(taken: Taken, members: dict[tuple[int, ...], list[int]]) -> tuple[int, ...]:
    """The canonical GPU ids of an allocation: the first ones of each class."""
    counts: dict[tuple[int, ...], int] = {}
    for h in taken:
        counts[h] = counts.get(h, 0) + 1
    return tuple(sorted(g for h, c in counts.items() for g in members[h][:c]))
