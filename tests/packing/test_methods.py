from __future__ import annotations

import pytest

from packgap.analysis.method import RunContext
from packgap.analysis.packing.methods import METHODS, PIPELINES
from packgap.errors import PackgapError, UnknownNameError
from packgap.instances.packing.generator import generate
from packgap.packing import FAMILY
from packgap.solvers.outcome import SolveOptions


def _run(name: str, **params: object):  # type: ignore[no-untyped-def]
    method = {m.name: m for m in METHODS}[name]
    ctx = RunContext(SolveOptions(), method.resolve_params(params))
    return method.run(generate(24, 5), ctx)


def test_every_method_answer_validates() -> None:
    inst = generate(24, 5)
    assert {m.name for m in METHODS} >= {"dab+mchp", "blossom+mchp", "none+edf", "none+fifo", "dab+edf"}
    for method in PIPELINES:
        out = method.run(inst, RunContext(SolveOptions(), method.resolve_params({})))
        assert out.solution is not None
        FAMILY.validate(inst, out.solution)
        assert FAMILY.evaluate(inst, out.solution).objective > 0


def test_parameters_are_checked() -> None:
    _run("dab+mchp", w=1.0, estimator="muri-p", anti_overpacking=False)
    with pytest.raises(PackgapError, match="no parameter w"):
        _run("blossom+mchp", w=0.5)
    with pytest.raises(UnknownNameError, match="estimator"):
        _run("dab+edf", estimator="exact")
