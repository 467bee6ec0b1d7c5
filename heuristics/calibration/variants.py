"""The base schedulers of GIMBAL's end-to-end runs (section 7.1) with the local objective each
is judged by, and the calibration variants run on top of them (:mod:`packgap.heuristics.calibration.online`);
apart from the runs so that the CLI declares ``simulate``'s choices without importing them."""

from __future__ import annotations

BASES = {"lucid": "jct", "gandiva": "deadline", "gavel": "makespan"}
VARIANTS = ("baseline", "unequal", "liss", "aggressive", "gimbal", "exact")
#: Variants that pack aggressively (any pair down to ``aggressive`` pair speed).
AGGRESSIVE = ("aggressive", "gimbal", "exact")
