"""Plug-in methods and policies (issue 32): registered from a researcher's own file (``--plugin``,
``packgap.load_plugins``) or an installed package's entry point (``examples/packgap-example``,
installed in the test venv by the Makefile), validated and scored like packgap's own, through
solve, compare, sweep (2 workers, and a spawned worker that loads the plug-in by name), simulate
and report, with the plug-in's module and version in every stored row."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path
from typing import Any

import pytest

import packgap
from packgap.analysis import plugins, registry
from packgap.analysis.store import ResultStore, instance_digest
from packgap.analysis.sweep import Cell, run_sweep, solve_cell
from packgap.errors import PackgapError, ValidationError
from packgap.solvers.outcome import SolveOptions
from tests.clirun import in_process

ROOT = Path(__file__).resolve().parents[2]
OWN_RULES = ROOT / "examples" / "own_rules.py"


pytestmark = pytest.mark.usefixtures("plugin_registry")


def _generated(name: str, **options: Any) -> Any:
    return registry.generator(name).build({**registry.generator(name).example_options(), **options})


def _round() -> Any:
    return _generated("placement")


def test_a_plug_in_file_is_solved_validated_and_scored_with_its_origin() -> None:
    packgap.load_plugins(str(OWN_RULES))
    result = packgap.solve(_round(), "fastest-free", params={"widest_first": True})
    assert result.status == "feasible" and result.objective is not None
    assert result.solver == f"plugin:{OWN_RULES}" and result.solver_version.startswith("sha256:")
    assert result.params["widest_first"] is True
    table = packgap.compare(_round(), ["fastest-free", "exact-blocks"], time_limit=20)
    row = table.set_index("method").loc["fastest-free"]
    assert row["certified_gap"] is not None and row["certified_gap"] >= 0


def test_an_installed_package_plugs_in_through_its_entry_point() -> None:
    found = registry.methods("placement")["node-fastest"]
    assert found.plugin == "packgap_example"
    result = packgap.solve(_round(), "node-fastest")
    assert (result.solver, result.solver_version) == ("plugin:packgap_example", "0.2.0")
    assert "edf-solo" in plugins.policies("packing") and "node-fastest" in plugins.policies("placement")
    # a plug-in never joins the kit, which the reproductions read
    assert "node-fastest" not in {m.name for m in registry.kit("placement").methods}


def test_the_decorator_takes_a_document_and_an_invalid_answer_fails_validation() -> None:
    @packgap.register_method("placement", "everyone-on-gpu-0", params={"gpu": 0})
    def crowd(instance: Any, context: Any) -> dict[str, Any]:
        return {"allocations": {j.id: [context.params["gpu"]] * j.gpus for j in instance.jobs}}

    assert registry.method("placement", "everyone-on-gpu-0").defaults == {"gpu": 0}
    with pytest.raises(ValidationError, match="placement"):
        packgap.solve(_round(), "everyone-on-gpu-0")
    with pytest.raises(PackgapError, match="parameter gpu must be int"):
        packgap.solve(_round(), "everyone-on-gpu-0", params={"gpu": "x"})


@pytest.mark.parametrize(
    ("family", "name", "params", "message"),
    [
        ("placement", "pal", None, "taken by packgap's own"),
        ("placement", "all", None, "taken by packgap's own"),
        ("placement", "a,b", None, "without commas"),
        ("nowhere", "mine", None, "unknown family"),
        ("placement", "mine", {"x": [1]}, "parameter 'x' must have"),
    ],
)
def test_registration_refuses_bad_names_and_parameters(
    family: str, name: str, params: dict[str, Any] | None, message: str
) -> None:
    with pytest.raises(PackgapError, match=message):
        packgap.register_method(family, name, lambda instance, context: None, params=params)


def test_a_name_registered_by_two_modules_is_an_error() -> None:
    packgap.load_plugins(str(OWN_RULES))
    with pytest.raises(PackgapError, match="registered by"):
        packgap.register_method("placement", "fastest-free", lambda instance, context: None)
    with pytest.raises(PackgapError, match="taken by packgap's own"):
        packgap.register_policy("sharing", "sjf-bsbf", lambda instance: None)
    with pytest.raises(PackgapError, match="sticky applies to placement"):
        packgap.register_policy("sharing", "mine", lambda instance: None, sticky=True)


def test_a_broken_plug_in_file_names_its_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("x = 1\nraise RuntimeError('oops')\n")
    with pytest.raises(PackgapError, match=r"broken.py failed \(line 2\): RuntimeError: oops"):
        packgap.load_plugins(str(broken))
    with pytest.raises(PackgapError, match="does not exist"):
        packgap.load_plugins(str(tmp_path / "missing.py"))
    with pytest.raises(PackgapError, match="cannot be imported"):
        packgap.load_plugins("no_such_plugin_module")


def test_a_spawned_worker_loads_the_plug_in_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing depends on fork: a fresh interpreter (as a Dask worker is) finds the method from
    the specs the sweep sends with each cell."""
    specs = packgap.load_plugins(str(OWN_RULES))
    doc = registry.family("placement").instance_to_dict(_round())
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        found = pool.apply(solve_cell, (Cell("placement", doc, "fastest-free"), SolveOptions(), specs))
    assert found["method"] == "fastest-free" and found["solver"] == f"plugin:{OWN_RULES}"


def test_a_two_worker_sweep_stores_plug_in_rows(tmp_path: Path) -> None:
    packgap.load_plugins(str(OWN_RULES))
    docs = [registry.family("placement").instance_to_dict(_generated("placement", seed=s, gpus=32)) for s in (2, 3)]
    cells = [Cell("placement", d, m) for d in docs for m in ("fastest-free", "node-fastest", "pal")]
    store = ResultStore(tmp_path / "s.duckdb")
    try:
        results = run_sweep(cells, SolveOptions(), store, workers=2)
        stored = store.results_of(instance_digest(docs[0]))
    finally:
        store.close()
    assert all(r.objective is not None for r in results)
    assert {r.method: r.solver for r in stored} == {
        "fastest-free": f"plugin:{OWN_RULES}",
        "node-fastest": "plugin:packgap_example",
        "pal": "packgap",
    }


def test_plug_in_policies_run_online_in_each_family() -> None:
    from packgap.analysis.packing.simulate import run as run_packing
    from packgap.analysis.placement.simulate import run_trace
    from packgap.analysis.sharing.simulate import run as run_sharing

    def tick(*args: Any) -> None:
        pass

    packgap.load_plugins(str(OWN_RULES))
    shared = run_sharing(_generated("sharing"), {"policy": "fifo,widest-first", "bound": "cheap"}, 0, None, tick)
    assert [r["policy"] for r in shared["runs"]] == ["fifo", "widest-first"]
    placed = run_trace(_generated("synergy"), {"placement": "fastest-free"}, 0, None, tick)
    assert placed["placement"] == "fastest-free" and placed["metrics"]["jobs"] == 5
    packed = run_packing(_generated("packing"), {"pipeline": "dab+mchp,edf-solo"}, 0, None, tick)
    assert [p["pipeline"] for p in packed["pipelines"]] == ["dab+mchp", "edf-solo"]
    with pytest.raises(PackgapError, match="unknown placement policy 'nope'"):
        run_trace(_generated("synergy"), {"placement": "nope"}, 0, None, tick)


def _cli(monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    code, printed, errors = in_process(monkeypatch, *args)
    assert code == 0, errors
    return printed


def test_the_cli_takes_plug_ins_everywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--plugin FILE`` and ``$PACKGAP_PLUGINS``: methods, solve, compare, simulate --store,
    sweep --workers 2, report."""
    monkeypatch.chdir(tmp_path)
    registry.family("placement")
    (tmp_path / "r.json").write_text(packgap.jsonio.dumps(registry.to_document("placement", _round())))
    (tmp_path / "t.json").write_text(packgap.jsonio.dumps(registry.to_document("cluster-trace", _generated("synergy"))))
    plugin = ("--plugin", str(OWN_RULES))
    assert "[plug-in packgap_example]" in _cli(monkeypatch, *plugin, "methods", "placement")
    assert "fastest-free" in _cli(monkeypatch, *plugin, "solve", "r.json", "-m", "fastest-free")
    monkeypatch.setenv(plugins.ENV, str(OWN_RULES))
    compared = _cli(
        monkeypatch, "compare", "r.json", "--methods", "fastest-free,node-fastest,exact-blocks", "--store", "s"
    )
    assert "fastest-free" in compared and "node-fastest" in compared
    _cli(monkeypatch, "simulate", "t.json", "--placement", "fastest-free", "--store", "s")
    swept = ("sweep", "placement", "--store", "s", "--sizes", "3", "--gpus", "16", "--workers", "2")
    assert "fastest-free" in _cli(monkeypatch, *swept, "--methods", "fastest-free,pal")
    rows = json.loads(_cli(monkeypatch, "report", "s", "--rows", "--json"))
    solvers = {r["method"]: r["solver"] for r in rows}
    assert solvers["fastest-free"] == solvers["simulate:fastest-free"] == f"plugin:{OWN_RULES}"
    assert solvers["node-fastest"] == "plugin:packgap_example"
    gaps = json.loads(_cli(monkeypatch, "report", "s", "--json"))["rows"]
    assert {"fastest-free", "node-fastest"} <= {g["method"] for g in gaps}


def test_a_plug_in_policy_never_joins_a_reproduction() -> None:
    from packgap.paper_figures.sjf_bsbf.common import POLICIES, simulate_row

    packgap.load_plugins(str(OWN_RULES))
    row = simulate_row(_generated("sharing"), {}, lambda *args: None, lp=False)
    assert "widest-first" in plugins.policies("sharing")
    assert [r["policy"] for r in row["runs"]] == list(POLICIES)
