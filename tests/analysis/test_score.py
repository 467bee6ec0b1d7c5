"""The solution scorer (issue 32.2): ``packgap solve FILE --solution S.json`` and
:func:`packgap.score` validate a solution made anywhere, score it with the evaluator and give its
certified gap against the best bound of the instance's exact methods, computed or stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import packgap
from packgap.errors import InstanceError, PackgapError, ValidationError
from tests.clirun import in_process

#: Two nodes of 4 GPUs; j0 (class A, 2 GPUs) is fastest on GPUs 5 and 6 (max PM-score 1.0, one
#: node), j1 (class B, 1 GPU) on any GPU but 4 (1.0): the optimum is 2.0.
ROUND: dict[str, Any] = {
    "schema": "packgap.placement",
    "version": 1,
    "name": "hand-round",
    "nodes": 2,
    "gpus_per_node": 4,
    "classes": ["A", "B"],
    "pm_scores": {"A": [1.0, 1.2, 0.9, 1.1, 1.3, 1.0, 0.8, 1.05], "B": [1.0, 1.0, 1.0, 1.0, 1.1, 1.0, 1.0, 1.0]},
    "locality_penalty": 1.5,
    "jobs": [
        {"id": "j0", "gpus": 2, "class": "A", "model": "resnet50"},
        {"id": "j1", "gpus": 1, "class": "B", "model": "resnet50"},
    ],
}
#: By hand: j0 on GPUs 0 and 1 (max 1.2, one node), j1 on GPU 4 (1.1): 2.3, 13.04 % above 2.0.
MINE = {"allocations": {"j0": [0, 1], "j1": [4]}}


def test_a_hand_written_solution_gets_its_certified_gap() -> None:
    result = packgap.score(ROUND, MINE, bound_methods="exact-blocks")
    assert result.objective == pytest.approx(2.3)
    assert result.bound == pytest.approx(2.0)
    assert result.gap == pytest.approx(0.3 / 2.3) == result.certified_gap
    assert result.message == "bound computed by exact-blocks"


def test_the_bound_is_read_from_a_store(tmp_path: Path) -> None:
    store = tmp_path / "r.duckdb"
    packgap.compare(ROUND, ["exact-blocks"], store=store)
    result = packgap.score(ROUND, MINE, store=store)
    assert result.message == "bound stored by exact-blocks" and result.bound == pytest.approx(2.0)


def test_bad_solutions_are_refused_with_the_field_path() -> None:
    with pytest.raises(InstanceError, match=r"allocations\.j0\[1\]: expected a number"):
        packgap.score(ROUND, {"allocations": {"j0": [0, "x"], "j1": [4]}})
    with pytest.raises(ValidationError, match="j1"):
        packgap.score(ROUND, {"allocations": {"j0": [0, 1], "j1": [1]}}, bound_methods="exact-blocks")
    with pytest.raises(PackgapError, match="prove no bound"):
        packgap.score(ROUND, MINE, bound_methods="pal")


def test_solve_solution_on_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("round.json").write_text(json.dumps(ROUND))
    Path("mine.json").write_text(json.dumps(MINE))
    code, printed, _ = in_process(
        monkeypatch, "solve", "round.json", "--solution", "mine.json", "--bound-methods", "exact-blocks", "--json"
    )
    assert code == 0 and json.loads(printed)["certified_gap"] == pytest.approx(0.3 / 2.3)
    Path("bad.json").write_text(json.dumps({"allocations": {"j0": [0, -1], "j1": [4]}}))
    code, _, errors = in_process(monkeypatch, "solve", "round.json", "--solution", "bad.json")
    assert code == 2 and "allocations.j0[1]" in errors and "bad.json" in errors
    code, _, errors = in_process(monkeypatch, "solve", "round.json")
    assert code == 2 and "--method NAME (solve) or --solution FILE (score)" in errors
