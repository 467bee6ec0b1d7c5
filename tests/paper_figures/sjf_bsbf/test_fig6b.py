"""Fig. 6b's measured cause: where SJF-FFS's and SJF-BSBF's average JCT goes."""

from __future__ import annotations

import pytest

from packgap.instances.sharing.generator import generate
from packgap.paper_figures.sjf_bsbf.fig6b import _fig6b_cause, run_time_parts


def test_parts_add_up_to_the_average_jct_and_the_cause_quotes_them() -> None:
    parts = run_time_parts(generate(40, 1, nodes=2, hours=1.0, xi=1.0, workload="v1"))
    assert set(parts) == {"sjf-ffs", "sjf-bsbf", "sjf-bsbf without SF"}
    for p in parts.values():
        total = p["queuing_s"] + p["solo_s"] + p["accumulation_s"] + p["slowdown_s"]
        assert total == pytest.approx(p["avg_jct_s"])
        assert p["accumulation_s"] >= 0
        # xi = 1: sharing slows nobody, so all of the run time beyond solo is accumulation.
        assert p["slowdown_s"] == pytest.approx(0.0, abs=1e-6)
    cause = _fig6b_cause([{"run_time": parts}])
    ffs = parts["sjf-ffs"]["accumulation_s"] / 3600
    assert f"({ffs:.3f} vs" in cause and "share_flag=False" in cause
    assert _fig6b_cause([{}]) == ""
