"""The exactness contract, checked against an independent brute-force optimum.

Every family's module here enumerates the answers of tiny instances from the family's
definition and scores them with the family's evaluator (never with ``models/``); this module
runs every registered method of the family on the same instance and checks, with
``optimum`` the brute-force optimum:

* every exact method's bound <= optimum <= its objective;
* an exact method's status ``optimal`` means its objective is the optimum (1e-9 relative) and its
  certified gap at most a solver's tolerance (:data:`SOLVER_GAP`: HiGHS and CP-SAT prove
  optimality to their feasibility tolerances);
* an exact method's own objective value of its answer (metric ``internal_objective``) equals
  the evaluator's score to 1e-9 relative, plus the absolute tolerance ``internal_tol`` names
  for a method whose model cannot do better (stated where it is given); only the methods of
  :data:`WITHOUT_INTERNAL_OBJECTIVE` may leave it out;
* every heuristic's objective >= every exact method's bound.

A method may stop with status ``error`` only where ``allowed_errors`` names it (e.g. a model
that refuses an instance it cannot take); a timeout is never accepted on instances this small.
``other_class`` names methods whose answers lie outside the enumerated class (a preemptive
policy beside a non-preemptive optimum): they are held to the bounds only. ``may_time_out``
names methods known to be slow to prove even tiny instances; their bound and answer must
still hold.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import pytest

from packgap.analysis.registry import kits
from packgap.analysis.run import INTERNAL_OBJECTIVE, solve
from packgap.result import SolveResult, Status
from packgap.solvers.outcome import SolveOptions
from tests.solvers.others import within_licence

#: Relative tolerance of "equal" objectives (the issue's 1e-9).
REL = 1e-9
#: Absolute floor of that tolerance, for objectives at or near zero.
ABS = 1e-9
#: Largest certified gap an "optimal" claim of a MILP / CP-SAT solve may carry (tolerances).
SOLVER_GAP = 1e-6
OPTIONS = SolveOptions(time_limit=60.0, seed=0)
#: Exact methods (family, name) whose answer comes without their own objective value, because
#: the answer is not the model's own solution: the best heuristic beside a bound (sharing's
#: bound, bound-lp and class-bound), a replay of a relaxation's completion order (sharing's exact-milp and
#: exact-cpsat), the better of CP-SAT's answer on rounded data and its hint, re-timed
#: (packing's exact-cpsat), LP rounding with a CP-SAT polish (packing's exact-ti), Lagrangian
#: repairs or the pruned MILP (placement's exact-blocks); and Horn's flow, which prices
#: completion times only, when tardiness is weighted (planning's exact-flow).
WITHOUT_INTERNAL_OBJECTIVE: frozenset[tuple[str, str]] = frozenset(
    {
        ("sharing", "bound"),
        ("sharing", "bound-lp"),
        ("sharing", "class-bound"),
        ("sharing", "exact-milp"),
        ("sharing", "exact-cpsat"),
        ("packing", "exact-cpsat"),
        ("packing", "exact-ti"),
        ("placement", "exact-blocks"),
        ("planning", "exact-flow"),
    }
)


def takes_no_solver(family: str) -> tuple[str, ...]:
    """The exact methods of ``family`` that hand no model to an LP / MILP solver: skipped where
    the contract runs on another solver (their answers do not change with it)."""
    return tuple(m.name for m in kits()[family].methods if m.exact and not m.solvers)


def close(a: float, b: float) -> bool:
    return abs(a - b) <= REL * max(abs(a), abs(b)) + ABS


def at_most(a: float, b: float) -> bool:
    return a <= b + REL * max(abs(a), abs(b)) + ABS


def run_all(
    family: str, instance: Any, skip: Collection[str] = (), options: SolveOptions = OPTIONS
) -> dict[str, SolveResult]:
    kit = kits()[family]
    return {m.name: solve(kit.family, instance, m, options=options) for m in kit.methods if m.name not in skip}


def check(
    family: str,
    instance: Any,
    optimum: float,
    allowed_errors: Collection[str] = (),
    skip: Collection[str] = (),
    internal_tol: Mapping[str, float] | None = None,
    other_class: Collection[str] = (),
    may_time_out: Collection[str] = (),
    options: SolveOptions = OPTIONS,
) -> dict[str, SolveResult]:
    """Run every method of ``family`` on ``instance`` and check the contract against ``optimum``."""
    exact = {m.name for m in kits()[family].methods if m.exact}
    with within_licence(options.solver):
        results = run_all(family, instance, skip, options)
    where = f"{family} {getattr(instance, 'name', '')}, brute-force optimum {optimum!r}"
    bounds: list[tuple[str, float]] = []
    for name, r in results.items():
        if r.status == Status.ERROR and name in allowed_errors:
            continue
        allowed = (Status.OPTIMAL, Status.FEASIBLE, *((Status.TIMEOUT,) if name in may_time_out else ()))
        assert r.status in allowed, f"{name}: {r.status} ({r.message}) on {where}"
        assert r.objective is not None, f"{name}: no objective on {where}"
        if name not in other_class:
            assert at_most(optimum, r.objective), f"{name}: objective {r.objective!r} below the optimum on {where}"
        if name not in exact:
            continue
        _check_internal(name, r, (internal_tol or {}).get(name, 0.0), where)
        if r.bound is not None:
            assert at_most(r.bound, optimum), f"{name}: bound {r.bound!r} above the optimum on {where}"
            bounds.append((name, r.bound))
        if r.status == Status.OPTIMAL:
            assert close(r.objective, optimum), f"{name}: 'optimal' {r.objective!r} is not the optimum on {where}"
            # An optimum within a class (sharing's non-preemptive exact-bb) is closed by the class
            # enumeration, not by its bound, which holds for every class (preemptive ones too).
            if not r.scope:
                assert r.bound is not None and r.gap is not None and r.gap <= SOLVER_GAP, (
                    f"{name}: gap {r.gap} on {where}"
                )
    for name, r in results.items():
        if name in exact or r.objective is None:
            continue
        for who, bound in bounds:
            assert at_most(bound, r.objective), f"{name}: {r.objective!r} below {who}'s bound {bound!r} on {where}"
    return results


def _check_internal(name: str, r: SolveResult, tol: float, where: str) -> None:
    own = r.metrics.get(INTERNAL_OBJECTIVE)
    if own is None:
        assert (r.family, name) in WITHOUT_INTERNAL_OBJECTIVE, f"{name}: no internal objective on {where}"
        return
    assert r.objective is not None
    assert abs(own - r.objective) <= REL * max(abs(own), abs(r.objective)) + ABS + tol, (
        f"{name}: own objective {own!r} of its answer differs from the evaluator's {r.objective!r} "
        f"(tolerance {tol:g}) on {where}"
    )


def approx(value: float) -> Any:
    return pytest.approx(value, rel=REL, abs=ABS)
