"""MCHP's order on each GPU: eq. 13 is blind to it; ``gpu_order`` measures what that costs."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from packgap.errors import UnknownNameError
from packgap.heuristics.planning.mchp import mchp, mchp_edge_costs, mchp_slots
from packgap.instances.planning.generator import generate
from packgap.planning import FAMILY

CLUSTER = (("A800", 1), ("RTX4090", 2))


def test_total_c1_is_the_same_for_every_order_of_a_types_groups() -> None:
    # Eq. 13's (n - 1) T_X does not depend on which group fills the earlier orders.
    instance = generate(4, 2, gpu_types=(("A800", 1),))
    c1, _, _ = mchp_edge_costs(instance)
    slots = mchp_slots(instance)
    totals = {round(sum(c1[g, n] for g, n in enumerate(perm)), 6) for perm in itertools.permutations(range(len(slots)))}
    assert len(totals) == 1


@pytest.mark.parametrize("seed", range(5))
def test_shortest_first_keeps_each_gpus_groups_and_sorts_them(seed: int) -> None:
    instance = generate(12, seed, gpu_types=CLUSTER, tardiness_weight=0.0)
    slots, shortest = mchp(instance), mchp(instance, gpu_order="shortest-first")
    times = {g.id: dict(zip(instance.type_names, g.times, strict=True)) for g in instance.groups}
    by_gpu = {(s.gpu_type, s.gpu): s.groups for s in slots.sequences}
    for s in shortest.sequences:
        assert sorted(s.groups) == sorted(by_gpu[s.gpu_type, s.gpu])
        assert list(np.diff([times[g][s.gpu_type] for g in s.groups]) >= 0) == [True] * (len(s.groups) - 1)
    # Without tardiness, shortest first is the best order on fixed GPUs (Smith's rule).
    assert FAMILY.evaluate(instance, shortest).objective <= FAMILY.evaluate(instance, slots).objective


def test_an_unknown_gpu_order_is_named() -> None:
    with pytest.raises(UnknownNameError, match="gpu_order"):
        mchp(generate(3, 0, gpu_types=CLUSTER), gpu_order="longest-first")
