"""Figure of one cluster-trace run: GPU utilisation per round and the JCT distribution.

A pure function of the run document; drawn on matplotlib's Agg canvas without pyplot.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plot_trace_run(document: dict[str, Any], path: Path) -> Path:
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, 3.6), layout="constrained")
    FigureCanvasAgg(fig)
    util, cdf = fig.subplots(1, 2)
    rounds = np.arange(len(document["utilisation"])) * document["round_length_s"] / 3600
    util.plot(rounds, 100 * np.asarray(document["utilisation"]), lw=0.8)
    util.set(xlabel="time (h)", ylabel="GPUs in use (%)", title="utilisation per round")
    jct = np.sort([j["jct_s"] for j in document["jobs"]]) / 3600
    cdf.plot(jct, np.arange(1, len(jct) + 1) / len(jct))
    cdf.set(xlabel="JCT (h)", ylabel="fraction of jobs", title=f"JCT CDF, mean {jct.mean():.2f} h")
    fig.suptitle(f"{document['instance']}: {document['scheduler']} + {document['placement']}")
    fig.savefig(path, dpi=120)
    return path
