"""CUCKOO (SoCC '25) Table 6: MCHP's edge weights (eq. 13-14) on Table 5 and the matching it picks;
the text's "allocating Group A to GPU A Order 1" is read as Group 1."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from packgap.analysis.kit import PaperValue, Reproduction, Tick, equal
from packgap.analysis.plotting import GREY, RED, legend, new_figure, save_figure

#: CUCKOO Table 6: (group, GPU, order) -> (C1, C2, C1 + C2).
TABLE6 = {
    ("1", "A", 1): (2.0, 0.0, 2.0),
    ("1", "A", 2): (4.5, 0.0, 4.5),
    ("1", "B", 1): (3.0, 0.0, 3.0),
    ("1", "B", 2): (6.5, 1.5, 8.0),
    ("2", "A", 1): (3.0, 0.0, 3.0),
    ("2", "A", 2): (5.5, 0.5, 6.0),
    ("2", "B", 1): (4.0, 0.0, 4.0),
    ("2", "B", 2): (7.5, 2.5, 10.0),
}


def table5_instance() -> Any:
    """CUCKOO Table 5: two groups, one GPU A and one GPU B, both deadlines 5."""
    from packgap.gpus import GpuType
    from packgap.planning import Group, PlanningInstance

    groups = (Group("1", (2.0, 3.0), 5.0, ("1",)), Group("2", (3.0, 4.0), 5.0, ("2",)))
    return PlanningInstance("cuckoo-table5", (GpuType("A", 1), GpuType("B", 1)), groups)


def table6(quick: bool, tick: Tick) -> list[dict[str, Any]]:
    """Every edge's C1, C2 and weight, MCHP's matching, and every matching of least cost."""
    from packgap.heuristics.planning import mchp, mchp_edge_costs
    from packgap.heuristics.planning.mchp import mchp_slots

    instance = table5_instance()
    slots = [(instance.type_names[k], n) for k, n in mchp_slots(instance)]
    c1, c2, total = mchp_edge_costs(instance)
    rows: list[dict[str, Any]] = [
        {"kind": "edge", "group": g.id, "gpu": x, "order": n, "c1": c1[i, s], "c2": c2[i, s], "weight": total[i, s]}
        for i, g in enumerate(instance.groups)
        for s, (x, n) in enumerate(slots)
    ]
    rows += [
        {"kind": "match", "group": gid, "gpu": seq.gpu_type, "order": n}
        for seq in mchp(instance).sequences
        for n, gid in enumerate(seq.groups, 1)
    ]
    cost = {pick: float(total[0, pick[0]] + total[1, pick[1]]) for pick in itertools.permutations(range(len(slots)), 2)}
    best = min(cost.values())
    return rows + [
        {"kind": "optimum", "cost": best, "slots": [list(slots[s]) for s in pick]}
        for pick, c in cost.items()
        if c == best
    ]


def compare_table6(rows: Sequence[Mapping[str, Any]]) -> list[PaperValue]:
    edges = {(r["group"], r["gpu"], r["order"]): r for r in rows if r["kind"] == "edge"}
    out = [
        PaperValue(
            "Table 6",
            f"group {g} -> (GPU {x}, order {n}) C1 + C2",
            paper[2],
            edges[g, x, n]["weight"],
            direction=equal(),
        )
        for (g, x, n), paper in TABLE6.items()
    ]
    cells = [edges[key][c] == v for key, p in TABLE6.items() for c, v in zip(("c1", "c2", "weight"), p, strict=True)]
    out.append(
        PaperValue("Table 6", "cells equal to the paper's", float(len(cells)), float(sum(cells)), direction=equal())
    )
    match = {r["group"]: (r["gpu"], r["order"]) for r in rows if r["kind"] == "match"}
    optima = [r for r in rows if r["kind"] == "optimum"]
    note = f"ours: {sorted(match.items())}; {len(optima)} matchings cost {optima[0]['cost']:g}, ties in queue order"
    cost = sum(edges[g, x, n]["weight"] for g, (x, n) in match.items())
    out.append(PaperValue("Table 6", "cost of MCHP's matching (1 -> A1, 2 -> B1)", 6.0, cost, "", note, equal()))
    return out


def draw_table6(rows: Sequence[Mapping[str, Any]], out_dir: Path) -> list[Path]:
    """Fig. 7's bipartite graph with Table 6's weights; MCHP's matching drawn bold."""
    fig = new_figure(6.4, 4.0)
    ax = fig.subplots()
    edges = [r for r in rows if r["kind"] == "edge"]
    groups = sorted({r["group"] for r in edges})
    slots = sorted({(r["gpu"], r["order"]) for r in edges})
    gy = {g: 2.5 - 1.5 * i for i, g in enumerate(groups)}
    sy = {s: 3.0 - i for i, s in enumerate(slots)}
    match = {(r["group"], r["gpu"], r["order"]) for r in rows if r["kind"] == "match"}
    for r in edges:
        y0, y1 = gy[r["group"]], sy[r["gpu"], r["order"]]
        bold = (r["group"], r["gpu"], r["order"]) in match
        ax.plot(
            [0, 1],
            [y0, y1],
            color=RED if bold else GREY,
            lw=3 if bold else 1,
            label="MCHP's matching" if bold and r["group"] == groups[0] else None,
        )
        at = 0.8 if r["group"] == groups[0] else 0.55
        ax.text(
            at,
            y0 + at * (y1 - y0),
            f"{r['weight']:g}",
            fontsize=8,
            ha="center",
            bbox={"fc": "w", "ec": "none", "pad": 0.5},
        )
    for g, y in gy.items():
        ax.text(-0.04, y, f"Group {g}", ha="right", va="center")
    for (x, n), y in sy.items():
        ax.text(1.04, y, f"GPU {x}, order {n}", ha="left", va="center")
    ax.set(
        xlim=(-0.45, 1.5), xticks=[], yticks=[], title="CUCKOO Table 6 / Fig. 7: MCHP edge weights C1 + C2 (eq. 13-14)"
    )
    legend(ax)
    return save_figure(fig, out_dir, "cuckoo_table6")


REPRODUCTION = Reproduction(
    "cuckoo-table6",
    "CUCKOO",
    "Table 6",
    "MCHP edge weights (eq. 13-14) on Table 5 and the min-cost matching",
    table6,
    draw_table6,
    compare_table6,
)
