"""The papers' reproduced tables and figures, one package per paper and one module per numbered
result (or tight group of results), each holding its computation, its figure and its paper values.

``cuckoo/`` (CUCKOO and its Muri baseline), ``sjf_bsbf/``, ``pal/``, ``gimbal/``, and ``gaps/`` for
the figures packgap adds (certified gaps per family). Each package lists its
:class:`~packgap.analysis.kit.Reproduction` records in ``REPRODUCTIONS``; :data:`REPRODUCTIONS`
joins them, and ``packgap figures`` finds it through the ``packgap.reproductions`` entry point
(``pyproject.toml``), so the engine under ``analysis/`` never imports this package (the layers
point down: paper_figures -> analysis -> models, heuristics, instances -> solvers -> hub).

    packgap figures pal-fig11 --quick        # or: python -m packgap.paper_figures pal-fig11 --quick
"""

from packgap.analysis.kit import Reproduction
from packgap.paper_figures import cuckoo, gaps, gimbal, pal, sjf_bsbf


def _beside(papers: tuple[Reproduction, ...], own: tuple[Reproduction, ...]) -> tuple[Reproduction, ...]:
    """``papers`` with each of packgap's ``own`` figures after the reproduction it stood after when
    the reproductions lived in the family kits (:data:`AFTER`), so REPRODUCTION.md keeps its order."""
    out = list(papers)
    for item in own:
        at = 0 if AFTER[item.name] is None else next(i for i, r in enumerate(out) if r.name == AFTER[item.name]) + 1
        out.insert(at, item)
    return tuple(out)


#: Where each of packgap's own figures stands: after the named reproduction (None: first).
AFTER = {"planning-gaps": None, "pal-round-gaps": "pal-summit"}
#: Every reproduction, in the order ``packgap figures --list`` and REPRODUCTION.md show them: by
#: paper, packgap's own figures beside the paper whose heuristics they measure.
REPRODUCTIONS = _beside(
    (*cuckoo.REPRODUCTIONS, *pal.REPRODUCTIONS, *gimbal.REPRODUCTIONS, *sjf_bsbf.REPRODUCTIONS), gaps.REPRODUCTIONS
)
