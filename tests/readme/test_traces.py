"""The trace page's section "Trace builders" (``docs/traces.md``): the cluster builders' default sizes, and the claim
that Gavel's step counts give back whole-second durations exactly for every row of the five
seeds (each quote reads ``../shared/traces``)."""

from __future__ import annotations

import functools
import math

import pytest

from packgap.analysis.registry import trace_builder
from tests.readme.quotes import Quote, check, on, params, quotes, trace_path

#: The page whose numbers this module recomputes.
PAGE = "docs/traces.md"

#: A file per source whose default cluster size the README quotes.
FILES = {"philly": "philly/philly.csv", "sia": "sia/workloads/saturn/workload-1.csv"}
TRACES = ("traces",)


@functools.cache
def cluster(source: str) -> tuple[int, int]:
    """(GPUs, GPUs per node) of a cluster trace built with the builder's defaults."""
    trace = trace_builder(f"cluster-{source}").build(trace_path(FILES[source]), {"max_jobs": 20, "drop_wide": True})
    return trace.cluster.num_gpus, trace.cluster.gpus_per_node


def gavel_exact_rows() -> float:
    """Rows of ``gavel/traces/msr/seed=0..4/*.trace`` whose total steps are ``int(d x t)`` for the
    whole number of seconds ``d`` the reader recovers (``t``: the job type's V100 throughput)."""
    from packgap.instances.packing.gavel import THROUGHPUTS, TRACE_FIELDS, read_tab_lines, read_throughputs

    rates = read_throughputs(trace_path(str(THROUGHPUTS)))
    folder = trace_path("gavel/traces/msr")
    exact = 0
    for path in sorted(folder.glob("seed=*/*.trace")):
        for _, fields in read_tab_lines(path):
            row = dict(zip(TRACE_FIELDS, fields, strict=True))
            rate, steps = rates[row["job_type"]], int(row["total_steps"])
            exact += int(math.ceil(steps / rate - 1e-9) * rate) == steps
    return exact


QUOTES: list[Quote] = [
    *quotes(
        "`--factors synthetic`. Durations: Gavel's from steps and its V100 throughputs (exact for all",
        [gavel_exact_rows],
        marks=TRACES,
    ),
    *quotes("on `--gpus` (", [lambda: cluster("philly")[0], lambda: cluster("sia")[0]], marks=TRACES),
    Quote("in nodes of `--gpus-per-node` (", 0, lambda: cluster("philly")[1], marks=TRACES),
]


@pytest.mark.parametrize("quote", params(on(PAGE, QUOTES)))
def test_trace_builder_numbers(quote: Quote) -> None:
    check(quote)
