"""Algorithm 2's ``wait_batch`` reading (issue 30.3): the sequential alternative charged at the
candidate sub-batch (the default, as printed) or at the job's solo sub-batch."""

from __future__ import annotations

import numpy as np
import pytest

from packgap.errors import PackgapError
from packgap.heuristics.sharing.batch_scaling import Rule, pair_table
from packgap.heuristics.sharing.sjf_bsbf import sjf_bsbf
from packgap.instances.sharing.generator import generate
from packgap.sharing import Perf


def test_solo_charges_the_wait_at_the_solo_sub_batch() -> None:
    inst = generate(12, 3, nodes=2, workload="v1")
    perf = Perf(inst)
    rows = perf.ladder_rows([j.id for j in inst.jobs])
    left, room, models = np.full(len(rows), 5000.0), np.full(len(rows), 4.0), perf.model_rows[rows]
    candidate = pair_table(perf, rows, left, room, models)
    solo = pair_table(perf, rows, left, room, models, Rule(wait_batch="solo"))
    for k, job in enumerate(inst.jobs):
        waited = 5000.0 + perf.solo_time(job.id, perf.solo_batch(job)) / 2
        if not solo.share[k] and np.isfinite(solo.t[k]):
            assert solo.t[k] == pytest.approx(waited)
        # A smaller candidate b only lengthens the job: waiting is never dearer at the solo b.
        assert solo.t[k] <= candidate.t[k] + 1e-9


def test_the_readings_differ_on_a_whole_workload_and_bad_names_are_refused() -> None:
    inst = generate(60, 2, nodes=2, workload="v1")
    assert sjf_bsbf(inst) != sjf_bsbf(inst, wait_batch="solo")
    with pytest.raises(PackgapError, match="wait_batch"):
        sjf_bsbf(inst, wait_batch="partner")
