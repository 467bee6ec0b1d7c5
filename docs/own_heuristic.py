# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Your own heuristic
#
# How far from optimal is *your* rule? This page, stored as the script
# [`docs/own_heuristic.py`](own_heuristic.py) and executed by `make test`, plugs a placement
# rule and a sharing policy of your own into packgap from a folder of your own, without
# editing packgap: their certified gaps in a comparison, a 2-worker sweep into a results store,
# a report, and your own jobs from a CSV file. It writes into `own-out/` and takes about a
# minute on two cores.
#
# A plug-in is a Python module or `.py` file that calls `packgap.register_method` (a method:
# `function(instance, context)` returns a solution of the family, object or JSON document) or
# `packgap.register_policy` (an online policy of `packgap simulate`, with the interface of
# packgap's own: sharing `function(instance)`, placement `function(round, seed)`, packing
# `function(view)`) when it is imported; the module docstring of `packgap.analysis.plugins`
# gives every interface. packgap validates and scores every answer with the family's own
# validator and evaluator, as for its built-in methods.

# %%
import textwrap
from pathlib import Path

import packgap
from packgap.analysis import registry

out = Path("own-out")
rules = out / "my-rules" / "rules.py"
rules.parent.mkdir(parents=True, exist_ok=True)
rules.write_text(
    textwrap.dedent('''
    """My own rules: a PAL-style placement without locality, and a sharing policy."""

    import packgap


    @packgap.register_method("placement", "fastest-free")
    def fastest_free(instance, context):
        """each job takes the fastest free GPUs of its class, wherever they are"""
        free = set(instance.free_gpus())
        allocations = {}
        for job in instance.jobs:
            scores = instance.pm_scores[job.job_class]
            chosen = sorted(free, key=lambda g: (scores[g], g))[: job.gpus]
            free.difference_update(chosen)
            allocations[job.id] = chosen
        return {"allocations": allocations}


    @packgap.register_policy("sharing", "widest-first")
    def widest_first(instance):
        """the widest waiting job first, on GPUs of its own, backfilling"""
        from packgap.heuristics.sharing.exclusive import exclusive_policy
        from packgap.heuristics.sharing.online import run_online

        return run_online(instance, exclusive_policy(backfill=True), priority=lambda view, job: -job.gpus)
    ''')
)
print(packgap.load_plugins(str(rules)))

# %% [markdown]
# From the command line the same file is loaded with `packgap --plugin my-rules/rules.py
# COMMAND ...` or with `export PACKGAP_PLUGINS=my-rules/rules.py` (`:` between several); an
# installed package names its module in the entry-point group `packgap.methods` (see
# `examples/packgap-example/pyproject.toml`) and needs neither. `packgap methods placement` now
# lists `fastest-free`, marked as a plug-in.
#
# ## 1. Certified gaps in a comparison
#
# Three generated PAL rounds, your rule beside PAL and the exact block method: `certified_gap`
# is each answer's gap against the best proven bound on its round, `bound_source` names it.

# %%
rounds = [registry.generator("placement").build({"gpus": 32, "jobs": 5, "seed": s}) for s in (2, 3, 4)]
table = packgap.compare(rounds, ["pal", "fastest-free", "exact-blocks"], time_limit=30)
table[["instance", "method", "objective", "certified_gap", "bound_source", "solver"]]

# %% [markdown]
# The `solver` column says where each answer came from: `plugin:<file>` for yours, with the
# file's SHA-256 as its version in `solver_version`, so a store always tells which code made a
# row.
#
# ## 2. Score a solution made anywhere
#
# A placement computed outside packgap (here your rule's answer, written to a JSON file as
# another program would write it) is checked by the validator, scored by the evaluator and
# given its certified gap (`packgap solve round.json --solution mine.json` on the command line);
# a broken one is refused with the field's path.

# %%
import json

first = rounds[0]
(out / "mine.json").write_text(json.dumps(packgap.solve(first, "fastest-free").solution))
scored = packgap.score(first, json.loads((out / "mine.json").read_text()), bound_methods="exact-blocks", time_limit=30)
print(f"objective {scored.objective:.4f}, bound {scored.bound:.4f}, certified gap {scored.gap:.2%}")

# %% [markdown]
# ## 3. A 2-worker sweep and a report
#
# The sweep's worker processes load the plug-in again by its file name (they never rely on a
# forked copy of this process), so the same works on a Dask cluster that sees the file. Every
# cell is stored as it finishes; the report is a function of the stored rows
# (`packgap --plugin my-rules/rules.py sweep placement --sizes 4,6 --gpus 64 --methods
# pal,fastest-free,exact-blocks --workers 2 --store own.duckdb`, then `packgap report own.duckdb`).

# %%
from packgap.analysis.report import gap_table, load_rows
from packgap.analysis.store import ResultStore
from packgap.analysis.sweep import Cell, run_sweep
from packgap.solvers.outcome import SolveOptions

cells = [
    Cell("placement", registry.to_document("placement", r), m)
    for r in rounds
    for m in ("pal", "fastest-free", "exact-blocks")
]
store = ResultStore(out / "own.duckdb")
results = run_sweep(cells, SolveOptions(time_limit=30), store, workers=2)
gaps = gap_table(load_rows(store), by=None)
store.close()
gaps

# %% [markdown]
# ## 4. Your own jobs from a CSV file, and your online policy
#
# `packgap instances from-csv FAMILY FILE` reads a job list with columns `arrival_s`, `gpus`,
# `duration_s` or `iterations`, `model` (optional `id`, `deadline_s`, `batch_size`; the module
# docstring of `packgap.instances.csv_jobs` says how each family reads them). A model packgap
# has no profile of is mapped by a stated rule, and every dropped or changed row is named by
# its line: the notes below. Then `packgap simulate` runs packgap's sharing policies and yours
# on the jobs, beside a proven bound on the average JCT.

# %%
import warnings

jobs = out / "jobs.csv"
jobs.write_text(
    "arrival_s,gpus,duration_s,model\n"
    "0,1,3600,resnet50\n"
    "60,2,1800,bert\n"
    "120,4,5400,my-transformer\n"
    "200,1,900,ResNet-18\n"
    "300,16,600,resnet50\n"
)
with warnings.catch_warnings(record=True) as notes:
    warnings.simplefilter("always")
    sharing = registry.kit("sharing").csv_builder.build(jobs, {"nodes": 2, "xi_source": "global"})
for note in notes:
    print("note:", note.message)
simulated = registry.kit("sharing").simulation.run(
    sharing, {"policy": "fifo,sjf-bsbf,widest-first", "bound": "cheap"}, 0, None, lambda *args: None
)
{run["policy"]: round(run["metrics"]["avg_jct_s"]) for run in simulated["runs"]}
