"""A researcher's own placement rule and sharing policy, as a plug-in file for packgap.

Load it with ``packgap --plugin examples/own_rules.py COMMAND ...``, ``$PACKGAP_PLUGINS`` or
``packgap.load_plugins("examples/own_rules.py")``. packgap's families are imported inside the
functions, so that the CLI still starts without NumPy.
"""

from __future__ import annotations

import packgap


def fastest_free(instance, seed=0, widest_first=False):
    """Each job in queue order (or widest first) takes the free GPUs with the lowest PM-score of
    its class, wherever they are (no locality)."""
    free = set(instance.free_gpus())
    allocations = {}
    order = sorted(instance.jobs, key=lambda j: -j.gpus) if widest_first else instance.jobs
    for job in order:
        scores = instance.pm_scores[job.job_class]
        chosen = sorted(free, key=lambda g: (scores[g], g))[: job.gpus]
        free.difference_update(chosen)
        allocations[job.id] = chosen
    return {"allocations": allocations}


@packgap.register_method("placement", "fastest-free", params={"widest_first": False})
def fastest_free_method(instance, context):
    """fastest free GPUs per job, no locality (own rule)"""
    return fastest_free(instance, widest_first=context.params["widest_first"])


packgap.register_policy("placement", "fastest-free", fastest_free, description="fastest free GPUs, no locality")


@packgap.register_policy("sharing", "widest-first")
def widest_first(instance):
    """widest job first on exclusive GPUs, backfilling (own policy)"""
    from packgap.heuristics.sharing.exclusive import exclusive_policy
    from packgap.heuristics.sharing.online import run_online

    return run_online(instance, exclusive_policy(backfill=True), priority=lambda view, job: -job.gpus)
