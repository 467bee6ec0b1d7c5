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
# # Tutorial: from one instance to a sweep and a report
#
# This notebook is stored as a plain script in jupytext's percent format,
# [`docs/tutorial.py`](tutorial.py).
# Open it in Jupyter (with `jupytext` installed, it opens as a notebook), or run it top to
# bottom with `python docs/tutorial.py`; it writes its files into `tutorial-out/` under the
# current folder and takes well under three minutes on two cores. `make test` executes it, so
# every step below works on the code it documents.
#
# It covers: generating and loading instances of two families, `packgap.solve`,
# `packgap.compare` to a pandas DataFrame, a small sweep into a results store, a report as a
# table and as a performance-profile plot, and reading the rows of one paper reproduction.

# %%
from pathlib import Path

import packgap
from packgap import jsonio
from packgap.analysis import registry

out = Path("tutorial-out")
out.mkdir(exist_ok=True)
print("packgap", packgap.__version__, "families:", ", ".join(registry.kits()))

# %% [markdown]
# ## 1. Generate and load instances of two families
#
# Every generator is reached by name through the registry, with the options
# `packgap instances generate NAME --help` lists; the same seed gives the same bytes. Here a
# CUCKOO planning instance (8 formed groups on a scarce 3-GPU cluster) and a CUCKOO packing
# instance (6 jobs). The command line equivalent of the first is
# `packgap instances generate planning --groups 8 --gpu-types A800:1,RTX4090:2 --seed 7 -o planning.json`.

# %%
planning = registry.generator("planning").build({"groups": 8, "gpu_types": "A800:1,RTX4090:2", "seed": 7})
packing = registry.generator("packing").build({"jobs": 6, "seed": 3})
for name, instance in (("planning", planning), ("packing", packing)):
    jsonio.write(registry.to_document(name, instance), out / f"{name}.json")

family, loaded = registry.load_instance(out / "planning.json")  # validated: every bad field is named
print(family.name, loaded.name, family.summary(loaded))

# %% [markdown]
# ## 2. Solve one instance with one method
#
# `packgap.solve` takes a file path, a parsed document or an instance object. The result's
# objective is always the family's evaluator's, never a solver's; exact methods add a proven
# bound, and `gap` is the certified gap `(objective - bound) / |objective|`.

# %%
heuristic = packgap.solve(out / "planning.json", "mchp")
exact = packgap.solve(loaded, "exact-milp", time_limit=20)
for r in (heuristic, exact):
    print(f"{r.method:<11} {r.status:<9} objective {r.objective:,.0f}  bound {r.bound}  gap {r.certified_gap}")
print(f"MCHP is {(heuristic.objective - exact.bound) / heuristic.objective:.1%} above the proven optimum")

# %% [markdown]
# ## 3. Compare every method to a DataFrame
#
# `packgap.compare` runs the methods of each instance's family (`"all"`, or a list of names)
# and returns one row per result, with its certified gap against the best bound proven on the
# instance (`bound_source` names it) and its best-found gap against the best objective there.
# With `store=` every finished cell is kept, and a rerun resumes.

# %%
table = packgap.compare([out / "planning.json", packing], "all", time_limit=5)
table[["instance", "method", "status", "objective", "certified_gap", "bound_source", "best_found_gap", "wall_s"]]

# %% [markdown]
# ## 4. A small sweep into a results store
#
# A sweep file lists generators x sizes x seeds, the methods and the time limit
# (`packgap sweep --spec sweep.toml --store sweep.duckdb` runs the same from the command line;
# `--scheduler ADDRESS` sends the cells to a Dask cluster). Each cell is stored the moment it
# finishes, so an interrupted sweep resumes where it stopped; running this cell twice
# recomputes nothing.

# %%
from packgap.analysis.spec import load_spec
from packgap.analysis.store import ResultStore
from packgap.analysis.sweep import run_sweep
from packgap.solvers.outcome import SolveOptions

spec_file = out / "sweep.toml"
spec_file.write_text(
    """
time_limit = 5

[[generate]]
generator = "planning"
sizes = [4, 6, 8]
seeds = [0, 1]
options = { gpu_types = "A800:1,RTX4090:2" }
methods = ["mchp", "fifo", "edf", "exact-milp"]
""",
    encoding="utf-8",
)
spec = load_spec(spec_file)
store = ResultStore(out / "sweep.duckdb")
results = run_sweep(spec.cells, SolveOptions(time_limit=spec.time_limit), store, workers=2)
print(len(spec.cells), "cells,", sum(r.status == "optimal" for r in results), "proven optimal")

# %% [markdown]
# ## 5. Report: a gap table and a performance profile
#
# Reports are pure functions of the stored rows (`packgap report sweep.duckdb --by groups`
# prints the same table). A Dolan-More performance profile shows, for each method, the share
# of instances on which its objective is within a factor tau of the best.

# %%
from packgap.analysis.profiles import plot_profiles
from packgap.analysis.report import gap_table, load_rows

rows = load_rows(store)
gaps = gap_table(rows, by="groups")
plot_profiles(rows, "objective", out / "profile.png")
print("profile written to", out / "profile.png")
gaps

# %% [markdown]
# ## 6. One paper reproduction's rows
#
# `packgap figures NAME` computes a reproduction's rows once into a store, draws its figures
# and writes `REPRODUCTION.md`; the same from Python, for CUCKOO's Table 6 (MCHP's edge
# weights), with the paper's values beside ours.

# %%
import pandas as pd

from packgap.analysis.figures import chosen, reproduce
from packgap.analysis.kit import no_tick

done = reproduce(chosen(["cuckoo-table6"]), quick=True, out=out, store=store, recompute=False, tick=no_tick)
table6 = done[0]
print(len(table6.rows), "rows", "reused" if table6.reused else "computed", "by packgap", table6.stored.version)
print("figures:", ", ".join(p.name for p in table6.figures))
store.close()
pd.DataFrame([vars(v) for v in done[0].values]).head(8)
