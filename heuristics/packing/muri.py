"""Muri's packing as its authors released it (Muri, SIGCOMM'22, section 4; GitHub
Rivendile/Muri, commit 4e69a78, ``simulator/matching.py`` ``_Blossom_Same`` and
``simulator/run_sim.py``).

Muri groups jobs of equal GPU count (``_Blossom_Same``: "only match jobs with the same
#GPU") by repeated rounds of maximum-weight matching:

* Nodes are groups, at first one per job; the GPU counts in order of first appearance,
  the jobs of each count in instance order.
* An edge joins two nodes of equal count holding at most ``packing_num`` jobs together
  (default 4). Its weight is Muri's per-iteration *used ratio* (``calc_used_ratio``): the
  members' summed stage times ``S + F + B + C`` over ``multi_resource`` times the joint
  iteration time (:func:`packgap.packing.interleave.muri_group_iteration`: the 4-slot
  recurrence of ``multi_resource=4``, or Muri-P with ``3``, times the packed-time factor
  1.33 / 1.5 / 1.37 over 1.015 of 2, 3, 4 jobs). Iteration counts do not enter. An edge
  needs a weight above ``weight_lbd`` x (jobs / ``multi_resource``) (0: every edge).
* Each round matches each GPU count's nodes (maximum weight, not cardinality). Muri lists
  the outcome node by node: an unmatched node at its place, a matched pair at the place of
  its later node. Walking that list, while the GPU demand (one node of count ``d`` demands
  ``d``) exceeds ``cluster_gpu``, a pair is merged into one node, which lowers the demand
  by ``d``; once the demand fits, the rest of the list stays apart, in list order. Muri
  sorts the list by efficiency first but discards the result (``matching.py:643``), so the
  merge follows list order, not efficiency.
* A round always runs; further rounds run while the demand exceeds ``cluster_gpu``, at
  most ``packing_num`` rounds in all.
* ``autopack`` (``run_sim.py``, on by default): a group whose iteration time exceeds the
  sum of its members' standalone iteration times (each the measured time x 1.015) is split
  into single jobs.

Offline, ``cluster_gpu`` is the instance's GPU count. With several GPU types a node pair's
weight is its used ratio on the type where it is highest (CUCKOO's heterogeneity-aware
reading, section 3.3.2); on one type it is Muri's. Muri's matcher breaks ties between
equal weights (jobs of the same model and GPU count have identical ones) in its own
floating-point order; here rustworkx (weights scaled to integers) or networkx decides.

This is Muri as released. :mod:`packgap.heuristics.packing.blossom` is CUCKOO's reading of
it (Muri-P, whole-job efficiency, pairs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from packgap.errors import PackgapError
from packgap.packing import PackingInstance
from packgap.packing.groups import Groups
from packgap.packing.instance import Job
from packgap.packing.interleave import (
    MURI_ALONE_FACTOR,
    MURI_PACKED_FACTORS,
    muri_iteration,
)
from packgap.solvers.matching import MatchingBackend, max_weight_matching

Node = tuple[Job, ...]


def group_ms(jobs: Sequence[Job], k: int, multi_resource: int = 4) -> float:
    """Muri's iteration time (ms) of ``jobs`` on GPU type ``k``, factors included."""
    if len(jobs) == 1:
        return jobs[0].profiles[k].alone * MURI_ALONE_FACTOR
    return muri_iteration(tuple(j.profiles[k] for j in jobs), multi_resource) * MURI_PACKED_FACTORS[len(jobs)]


def used_ratio(jobs: Sequence[Job], k: int, multi_resource: int = 4) -> float:
    """Muri's ``calc_used_ratio`` of ``jobs`` run together on GPU type ``k``."""
    busy = sum(sum(j.profiles[k].resource_exclusive) for j in jobs)
    return busy / (multi_resource * group_ms(jobs, k, multi_resource))


def edge_weight(jobs: Sequence[Job], types: int, multi_resource: int = 4) -> float:
    """The highest used ratio of ``jobs`` over the GPU types."""
    return max(used_ratio(jobs, k, multi_resource) for k in range(types))


def slower_than_alone(jobs: Sequence[Job], types: int, multi_resource: int = 4) -> bool:
    """``autopack``'s test for a group of two or more: its iteration time exceeds its members'
    summed standalone ones on every GPU type (on one type: Muri's ``itertime_all /
    itertime_sum > 1``)."""
    return len(jobs) > 1 and all(
        group_ms(jobs, k, multi_resource) > sum(group_ms([j], k) for j in jobs) for k in range(types)
    )


@dataclass(frozen=True)
class MuriOptions:
    """Muri's flags (``run_sim.py``) that shape its groups, with their shipped defaults."""

    multi_resource: int = 4
    packing_num: int = 4
    weight_lbd: float = 0.0
    backend: MatchingBackend = "rustworkx"


#: One entry of Muri's round list: a GPU count and one node, or two matched nodes.
Entry = tuple[int, tuple[Node, ...]]


def match_round(nodes: dict[int, list[Node]], types: int, options: MuriOptions) -> list[Entry]:
    """One round's maximum-weight matching of each GPU count's nodes, listed as Muri lists
    it: node by node, a matched pair at the place of its later node."""
    listed: list[Entry] = []
    for gpus, row in nodes.items():
        edges = []
        for u in range(len(row)):
            for v in range(u + 1, len(row)):
                size = len(row[u]) + len(row[v])
                if size > options.packing_num:
                    continue
                w = edge_weight(row[u] + row[v], types, options.multi_resource)
                if w > options.weight_lbd * size / options.multi_resource:
                    edges.append((u, v, w))
        pairs = max_weight_matching(len(row), edges, backend=options.backend).pairs if edges else ()
        later = {v: u for u, v in pairs}
        earlier = set(later.values())
        listed += [
            (gpus, (row[later[i]], row[i]) if i in later else (row[i],)) for i in range(len(row)) if i not in earlier
        ]
    return listed


def merge_in_order(listed: Sequence[Entry], demand: int, cluster_gpu: int) -> tuple[dict[int, list[Node]], int]:
    """Walk Muri's list: merge a matched pair while the demand exceeds ``cluster_gpu`` (each
    merge frees one node's GPUs), keep the rest apart; the next round's nodes and demand."""
    merged: dict[int, list[Node]] = {}
    for gpus, entry in listed:
        row = merged.setdefault(gpus, [])
        if demand > cluster_gpu and len(entry) == 2:
            row.append(entry[0] + entry[1])
            demand -= gpus
        else:
            row += list(entry)
    return merged, demand


def check_flags(options: MuriOptions) -> None:
    """Muri's flags within what its code supports, else an error naming the flag."""
    if options.multi_resource not in (3, 4):
        raise PackgapError(f"multi_resource must be 3 or 4, got {options.multi_resource}")
    if not 1 <= options.packing_num <= 4:
        raise PackgapError(f"packing_num must be 1 to 4 (Muri's packed-time factors), got {options.packing_num}")
    if options.weight_lbd < 0:
        raise PackgapError(f"weight_lbd must be >= 0, got {options.weight_lbd}")


def blossom_rounds(
    nodes: dict[int, list[Node]], cluster_gpu: int, types: int, options: MuriOptions
) -> dict[int, list[Node]]:
    """``Blossom_Same.run``: one round, then more while the demand exceeds ``cluster_gpu``,
    ``packing_num`` rounds at most."""
    demand = sum(gpus * len(row) for gpus, row in nodes.items())
    for _ in range(options.packing_num):
        nodes, demand = merge_in_order(match_round(nodes, types, options), demand, cluster_gpu)
        if demand <= cluster_gpu:
            break
    return nodes


def autopacked(node: Node, types: int, multi_resource: int = 4) -> list[Node]:
    """``autopack``: the node, or its jobs apart when it is :func:`slower_than_alone`."""
    return [(j,) for j in node] if slower_than_alone(node, types, multi_resource) else [node]


def muri_groups(
    instance: PackingInstance,
    *,
    cluster_gpu: int | None = None,
    options: MuriOptions = MuriOptions(),
    autopack: bool = True,
) -> Groups:
    """Muri's groups (``Blossom_Same.run``, then ``autopack``), in Muri's order: GPU counts
    by first appearance, nodes in list order. ``cluster_gpu`` None: the instance's GPUs."""
    check_flags(options)
    capacity = sum(t.count for t in instance.gpu_types) if cluster_gpu is None else cluster_gpu
    types = len(instance.gpu_types)
    nodes: dict[int, list[Node]] = {}
    for job in instance.jobs:
        nodes.setdefault(job.gpus, []).append((job,))
    formed = [node for row in blossom_rounds(nodes, capacity, types, options).values() for node in row]
    if autopack:
        formed = [part for node in formed for part in autopacked(node, types, options.multi_resource)]
    return tuple(tuple(j.id for j in node) for node in formed)
