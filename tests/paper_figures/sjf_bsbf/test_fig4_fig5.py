"""SJF-BSBF Figs. 4-5: per-job JCTs and per-model queuing of every policy (paper_figures/sjf_bsbf/fig4_fig5.py)."""

from __future__ import annotations

import pytest

from packgap.analysis.agreement import unexplained
from packgap.analysis.sharing.simulate import POLICY_NAMES, validated_policy
from packgap.instances.sharing.generator import generate
from packgap.paper_figures.sjf_bsbf.fig4_fig5 import ALONE, compare_fig4, compare_fig5, job_rows, share_at_most
from packgap.sharing import FAMILY


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    return [r for seed in (1, 2) for r in job_rows(generate(16, seed, nodes=2, hours=0.5, workload="v1"), seed)]


def test_per_job_times_average_to_the_evaluator_and_stay_above_each_job_alone(rows: list[dict]) -> None:
    instance = generate(16, 1, nodes=2, hours=0.5, workload="v1")
    alone = next(r["jct_s"] for r in rows if r["seed"] == 1 and r["policy"] == ALONE)
    assert len(alone) == 16 and sum(next(r["jobs"] for r in rows if r["policy"] == ALONE).values()) == 16
    for policy in POLICY_NAMES:
        jct = next(r["jct_s"] for r in rows if r["seed"] == 1 and r["policy"] == policy)
        metrics = FAMILY.evaluate(instance, validated_policy(policy, instance)).metrics
        assert sum(jct) / len(jct) == pytest.approx(metrics["avg_jct_s"])
        # Order statistics: each job's JCT is at least its solo time, so the i-th shortest is too.
        assert all(t >= a - 1e-6 for t, a in zip(jct, alone, strict=True))
    assert share_at_most(rows, ALONE, 0.0) == 0.0 and share_at_most(rows, ALONE, float("inf")) == 1.0


def test_every_disagreement_carries_its_measured_cause(rows: list[dict]) -> None:
    for compare in (compare_fig4, compare_fig5):
        values = compare(rows)
        assert not unexplained(values)
        assert any(v.quantity.startswith("sjf-bsbf share of jobs with JCT") for v in values)
