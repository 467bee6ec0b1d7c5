"""``packgap sharing pair``: Theorem 1 as a researcher's calculator.

Given the running job's remaining solo time P_R, the new job's solo time P_N and their
interference ratios, prints t_seq, t_con, the best insertion time kappa and the decision
(JSON keys ``t_seq``, ``t_con``, ``kappa``, ``share``). A ratio below 1 or a negative time
is a :class:`~packgap.errors.PackgapError` (exit 2, nothing printed on stdout).
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer


def commands() -> typer.Typer:
    app = typer.Typer(no_args_is_help=True, help="SJF-BSBF calculators.")

    @app.command("pair")
    def pair(
        running_remaining: Annotated[
            float, typer.Option("--running-remaining", help="P_R: running job's remaining solo time (s).")
        ],
        new: Annotated[float, typer.Option("--new", help="P_N: new job's solo time (s).")],
        xi_running: Annotated[float, typer.Option("--xi-running", help="xi of the running job when sharing.")],
        xi_new: Annotated[float, typer.Option("--xi-new", help="xi of the new job when sharing.")],
        as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    ) -> None:
        """Theorem 1: share the running job's GPUs now (kappa = 0) or start after it (kappa = P_R)?"""
        from packgap.heuristics.sharing.pair import pair_decision

        d = pair_decision(running_remaining, new, xi_running, xi_new)
        doc = {"t_seq": d.t_seq, "t_con": d.t_con, "kappa": d.kappa, "share": d.share}
        if as_json:
            sys.stdout.write(json.dumps(doc, sort_keys=True) + "\n")
            return
        verdict = "share now (kappa = 0)" if d.share else f"wait for the running job (kappa = {d.kappa:g} s)"
        typer.echo(f"t_seq = {d.t_seq:g} s   t_con = {d.t_con:g} s   ->  {verdict}")

    return app
