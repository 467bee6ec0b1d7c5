"""Local search of ``exact-ti``'s primal side over the serial schedule's priority list.

Hill climbing from an answer (:mod:`packgap.models.packing.serial` turns a priority list into a
schedule): move one group to another place in the priority list (the best place for it,
insertion moves) or to another GPU type, keeping every move that lowers the objective, until
no move helps or the time is spent (measured on the Muri 40-job instance: adjacent swaps
alone stopped at 44.72, insertions reach 42.00).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence

from packgap.models.packing.data import Candidate, Weights
from packgap.models.packing.serial import Chosen, Profile, group_cost, place_group, serial_schedule
from packgap.packing import PackingInstance


def _total(instance: PackingInstance, cands: Sequence[Candidate], chosen: Chosen, w: Weights) -> float:
    return sum(group_cost(instance, cands[c], k, start, w) for c, k, start in chosen)


def local_search(
    instance: PackingInstance, cands: Sequence[Candidate], chosen: Chosen, weights: Weights, seconds: float
) -> tuple[Chosen, bool]:
    """Hill climbing from ``chosen`` (module docstring) for at most ``seconds``; also says
    whether it stopped at a local optimum (not for lack of time). A move re-schedules only
    from the first place it changes, from a copy of the profiles kept there."""
    stop = time.perf_counter() + seconds
    order = [(c, [k]) for c, k, _ in sorted(chosen, key=lambda t: (t[2], t[0]))]

    def prefixes() -> tuple[Chosen, list[list[Profile]], list[float]]:
        profiles = [Profile(t.count) for t in instance.gpu_types]
        done: Chosen = []
        states, costs = [], [0.0]
        for c, types in order:
            states.append([p.copy() for p in profiles])
            k, start = place_group(instance, cands[c], types, profiles, weights)
            done.append((c, k, start))
            costs.append(costs[-1] + group_cost(instance, cands[c], k, start, weights))
        return done, states, costs

    def neighbours(i: int) -> Iterator[tuple[int, list[tuple[int, list[int]]]]]:
        """(first changed place, order): group i at every other place, then on other types."""
        rest = order[:i] + order[i + 1 :]
        for j in range(len(order)):
            if j != i:
                yield min(i, j), [*rest[:j], order[i], *rest[j:]]
        c, ks = order[i]
        for k, d in enumerate(cands[c].durations):
            if d is not None and [k] != ks:
                yield i, [*order[:i], (c, [k]), *order[i + 1 :]]

    best, states, costs = prefixes()
    value = costs[-1]
    improved = True
    while improved and time.perf_counter() < stop:
        improved = False
        for i in range(len(order)):
            found = None
            for first, move in neighbours(i):
                if time.perf_counter() >= stop:
                    break
                tail = serial_schedule(instance, cands, move[first:], weights, [p.copy() for p in states[first]])
                cost = costs[first] + _total(instance, cands, tail, weights)
                if cost < value - 1e-12 * max(1.0, abs(value)):
                    found, value = move, cost
            if found is not None:
                order, improved = found, True
                best, states, costs = prefixes()
    return best, not improved
