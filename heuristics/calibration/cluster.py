"""GPU occupancy of the end-to-end runs, and where a new job may go under GIMBAL section 5.1.

A job gets its GPUs for good when it starts (the base schedulers of section 7.2 are
non-preemptive here). It goes either on free GPUs or, when packing is allowed, onto GPUs that
hold one worker of a job *host*, never with more than two workers per GPU. Section 5.1 decides
which hosts are allowed: the host must be the J_max of its set (a partner co-locates only with
J_max), the newcomer must be smaller, or of the same world size and then on all of the host's
GPUs with the host alone ("balanced co-location"); either way the newcomer sits on the fewest
nodes. ``unequal=False`` is the baselines' rule (section 7.2): only balanced co-location.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field


@dataclass
class Cluster:
    nodes: int
    gpus_per_node: int
    holders: list[list[str]] = field(default_factory=list)
    gpus: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.holders = [[] for _ in range(self.nodes * self.gpus_per_node)]

    def place(self, job: str, gpus: tuple[int, ...]) -> None:
        self.gpus[job] = gpus
        for g in gpus:
            self.holders[g].append(job)

    def remove(self, job: str) -> None:
        for g in self.gpus.pop(job):
            self.holders[g].remove(job)

    def fewest_nodes(self, candidates: list[int], size: int) -> tuple[int, ...] | None:
        """``size`` of ``candidates`` on ceil(size / gpus_per_node) nodes, fullest nodes first; or None."""
        by_node: dict[int, list[int]] = {}
        for g in candidates:
            by_node.setdefault(g // self.gpus_per_node, []).append(g)
        need = math.ceil(size / self.gpus_per_node)
        if size <= self.gpus_per_node:
            fits = [gs for gs in by_node.values() if len(gs) >= size]
            return tuple(sorted(min(fits, key=len)[:size])) if fits else None
        chosen = sorted(by_node.values(), key=lambda gs: (-len(gs), gs[0]))[:need]
        picked = sorted(g for gs in chosen for g in gs)[:size]
        return tuple(picked) if len(picked) == size else None

    def free_placement(self, size: int) -> tuple[int, ...] | None:
        return self.fewest_nodes([g for g, h in enumerate(self.holders) if not h], size)

    def set_of(self, job: str) -> set[str]:
        """The job set (co-location component) that ``job`` belongs to."""
        seen, todo = {job}, [job]
        while todo:
            for g in self.gpus[todo.pop()]:
                for other in self.holders[g]:
                    if other not in seen:
                        seen.add(other)
                        todo.append(other)
        return seen

    def j_max(self, members: set[str]) -> str:
        return max(sorted(members), key=lambda j: len(self.gpus[j]))

    def hosts(self, size: int, unequal: bool) -> list[tuple[str, tuple[int, ...]]]:
        """(host, GPUs) a newcomer of ``size`` GPUs may pack onto (section 5.1), in host order."""
        out = []
        for host in sorted(self.gpus):
            members = self.set_of(host)
            if self.j_max(members) != host or size > len(self.gpus[host]):
                continue
            open_gpus = [g for g in self.gpus[host] if len(self.holders[g]) == 1]
            if size == len(self.gpus[host]):
                if len(members) == 1:
                    out.append((host, self.gpus[host]))
            elif unequal and (gpus := self.fewest_nodes(open_gpus, size)) is not None:
                out.append((host, gpus))
        return out
