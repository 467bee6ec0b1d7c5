"""Certified gaps of the best policy (issue 18.2): best of FIFO, SJF, Tiresias, SJF-FFS and
SJF-BSBF against the cheap bound and the rate LP bound, or with ``--bound milp`` the rate
LP with completion-slot binaries (all valid with and without preemption). Gap = (best -
bound) / best on the average JCT.

    python -m packgap.analysis.sharing.certified --jobs 6 8 --seeds 1-10 [--bound milp]
    python -m packgap.analysis.sharing.certified --jobs 240 --seeds 1-5 --generated
    python -m packgap.analysis.sharing.certified --pollux --seeds 1-8
    python -m packgap.analysis.sharing.certified --jobs 6 8 --seeds 1-10 --optimum
    python -m packgap.analysis.sharing.certified --jobs 10 12 --seeds 1-10 --class-floor

Small instances are the README's (:func:`packgap.analysis.sharing.exact_scaling.instance`);
``--generated`` uses the section VI-A generator at its defaults (64 GPUs); ``--pollux`` Pollux's
published 1x workloads (``pollux/workloads/workload-SEED.csv`` of the trace folder, 160 jobs on
64 GPUs, xi from Gavel). ``--optimum`` splits the certified gap on the small instances where the
branch and bound proves the non-preemptive optimum: how far the best policy lies above the
optimum, how far the bound lies below it, and how far preemptive schedules (Tiresias, and
the best of :mod:`packgap.analysis.sharing.ceiling`'s) get below it: the certified gap can
never fall below (best policy - least known schedule) / best policy, whatever the valid bound.
``--class-floor`` does the same for the class bound (issue 35) on instances too large to
prove: exact-bb's schedule after ``--time-limit`` seconds is a non-preemptive schedule, so no
class bound can certify the best non-preemptive policy below (best policy - that schedule) /
best policy, and exact-bb's own bound certifies its class gap from above.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import asdict, dataclass

from packgap.analysis.sharing import lp_bound
from packgap.analysis.sharing.ceiling import preemptive_ceiling
from packgap.analysis.sharing.exact_scaling import POLICIES, instance
from packgap.instances.sharing.generator import generate
from packgap.sharing import FAMILY, SharingInstance


@dataclass(frozen=True)
class Gap:
    jobs: int
    seed: int
    best_s: float
    cheap_s: float
    bound_s: float
    seconds: float
    #: The least average JCT of :func:`packgap.analysis.sharing.ceiling.preemptive_ceiling`.
    preemptive_s: float

    @property
    def floor(self) -> float:
        """(best policy - best preemptive schedule) / best policy: no valid bound certifies less."""
        return max(0.0, self.best_s - self.preemptive_s) / self.best_s if self.best_s > 0 else 0.0

    @property
    def cheap_gap(self) -> float:
        return (self.best_s - self.cheap_s) / self.best_s if self.best_s > 0 else 0.0

    @property
    def gap(self) -> float:
        return (self.best_s - self.bound_s) / self.best_s if self.best_s > 0 else 0.0


@dataclass(frozen=True)
class Split:
    """The certified gap of one small instance split at the proven non-preemptive optimum."""

    gap: Gap
    optimum_s: float
    tiresias_s: float

    @property
    def above(self) -> float:
        """(best policy - optimum) / optimum."""
        return self.gap.best_s / self.optimum_s - 1

    @property
    def below(self) -> float:
        """(optimum - bound) / optimum."""
        return 1 - self.gap.bound_s / self.optimum_s

    @property
    def preempted(self) -> float:
        """(optimum - Tiresias) / optimum: > 0 where preemption beats every non-preemptive schedule."""
        return 1 - self.tiresias_s / self.optimum_s

    @property
    def preempted_best(self) -> float:
        """(optimum - the ceiling's best preemptive schedule) / optimum."""
        return 1 - self.gap.preemptive_s / self.optimum_s

    @property
    def floor(self) -> float:
        """(best policy - least known schedule) / best policy: no valid bound certifies less."""
        known = min(self.optimum_s, self.gap.preemptive_s)
        return (self.gap.best_s - known) / self.gap.best_s if self.gap.best_s > 0 else 0.0


def measure_instance(inst: SharingInstance, seed: int, slots: int | None = None, milp: bool = False) -> Gap:
    best = min(FAMILY.evaluate(inst, policy(inst)).objective for policy in POLICIES.values())
    start = time.perf_counter()
    out = lp_bound.solve(inst, slots, milp=milp)
    seconds = time.perf_counter() - start
    n, arrivals = len(inst.jobs), sum(j.arrival for j in inst.jobs)
    cheap, bound = (out.cheap_sum - arrivals) / n, (out.completion_sum - arrivals) / n
    return Gap(n, seed, best, cheap, bound, seconds, preemptive_ceiling(inst))


@dataclass(frozen=True)
class ClassGap:
    """The class gap of one instance (issue 35): the best non-preemptive policy (FIFO, SJF,
    SJF-FFS, SJF-BSBF) against the class bound of :mod:`packgap.models.sharing.run_lp`, never
    below the preemption-valid bound ``bound_s`` (the rate LP or the cheap bound)."""

    jobs: int
    seed: int
    best_s: float
    bound_s: float
    class_s: float
    seconds: float
    status: str

    @property
    def gap(self) -> float:
        return (self.best_s - self.class_s) / self.best_s if self.best_s > 0 else 0.0

    @property
    def bound_gap(self) -> float:
        return (self.best_s - self.bound_s) / self.best_s if self.best_s > 0 else 0.0


def best_class_policy(inst: SharingInstance) -> float:
    """The least average JCT of the non-preemptive policies (FIFO, SJF, SJF-FFS, SJF-BSBF)."""
    return min(FAMILY.evaluate(inst, p(inst)).objective for n, p in POLICIES.items() if n != "Tiresias")


def measure_class(inst: SharingInstance, seed: int, time_limit: float | None = 600.0) -> ClassGap:
    """:class:`ClassGap` of ``inst`` (each LP built and solved within ``time_limit``)."""
    best = best_class_policy(inst)
    n, arrivals = len(inst.jobs), sum(j.arrival for j in inst.jobs)
    rate = lp_bound.solve(inst, None, time_limit)
    start = time.perf_counter()
    runs = lp_bound.solve(inst, None, time_limit, runs=True)
    seconds = time.perf_counter() - start
    valid = (rate.completion_sum - arrivals) / n
    return ClassGap(n, seed, best, valid, max(valid, (runs.completion_sum - arrivals) / n), seconds, runs.status)


@dataclass(frozen=True)
class ClassFloor:
    """The best non-preemptive policy (``best_s``) beside exact-bb's schedule (``schedule_s``)
    and its proven bound (``bound_s``) after a time limit, all average JCTs."""

    jobs: int
    seed: int
    best_s: float
    schedule_s: float
    bound_s: float
    proven: bool

    @property
    def floor(self) -> float:
        """(best policy - exact-bb's schedule) / best policy: no class bound certifies less."""
        return max(0.0, self.best_s - self.schedule_s) / self.best_s if self.best_s > 0 else 0.0

    @property
    def certified(self) -> float:
        """(best policy - exact-bb's bound) / best policy: the class gap it certifies."""
        return (self.best_s - self.bound_s) / self.best_s if self.best_s > 0 else 0.0


def class_floor(inst: SharingInstance, seed: int, time_limit: float = 60.0) -> ClassFloor:
    """:class:`ClassFloor` of ``inst``: exact-bb's schedule validated and scored by the family's
    evaluator, like the policies'."""
    from packgap.models.sharing.branch_bound import solve

    out = solve(inst, None, time_limit=time_limit)
    FAMILY.validate(inst, out.solution)
    n, arrivals = len(inst.jobs), sum(j.arrival for j in inst.jobs)
    schedule = FAMILY.evaluate(inst, out.solution).objective
    return ClassFloor(n, seed, best_class_policy(inst), schedule, (out.lower_bound - arrivals) / n, out.proven)


#: Pollux's published 1x workloads inside the trace folder.
POLLUX = "pollux/workloads/workload-{seed}.csv"
#: Pollux's 240-job (1.5x) workloads, the paper's own sample size (section VI).
POLLUX_240 = "pollux/workloads-1.5/workload-{seed}.csv"


def pollux(seed: int, files: str = POLLUX) -> SharingInstance:
    """Pollux's 1x workload ``workload-SEED.csv`` (trace folder as the loaders find it), or
    another load's with ``files`` (e.g. :data:`POLLUX_240`)."""
    from packgap.instances.sharing.traces import from_pollux
    from packgap.instances.traces import trace_file

    return from_pollux(trace_file(files.format(seed=seed)))


def measure(jobs: int, seed: int, generated: bool = False, slots: int | None = None, milp: bool = False) -> Gap:
    return measure_instance(
        generate(jobs, seed, workload="v1") if generated else instance(jobs, seed), seed, slots, milp
    )


def measure_pollux(seed: int, slots: int | None = None, milp: bool = False) -> Gap:
    return measure_instance(pollux(seed), seed, slots, milp)


def split(jobs: int, seed: int, time_limit: float = 60.0, milp: bool = False) -> Split | None:
    """:class:`Split` of a README instance (None: the optimum is not proven within ``time_limit``)."""
    from packgap.analysis.sharing.exact_scaling import measure as exact

    row = exact(jobs, seed, time_limit)
    if not row.proven:
        return None
    inst = instance(jobs, seed)
    tiresias = FAMILY.evaluate(inst, POLICIES["Tiresias"](inst)).objective
    return Split(measure_instance(inst, seed, milp=milp), row.objective, tiresias)


def _seeds(text: str) -> range:
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def _print(rows: list[Gap], what: str, bound: str) -> None:
    for r in rows:
        print({**asdict(r), "cheap_gap": round(r.cheap_gap, 4), "gap": round(r.gap, 4), "floor": round(r.floor, 4)})
    cheap, lp = statistics.fmean(r.cheap_gap for r in rows), statistics.fmean(r.gap for r in rows)
    seconds, floor = max(r.seconds for r in rows), statistics.fmean(r.floor for r in rows)
    print(
        f"{what}: mean certified gap {cheap:.1%} (cheap bound) -> {lp:.1%} ({bound}, at most {seconds:.1f} s); "
        f"no valid bound below {floor:.1%} (preemptive schedules)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, nargs="+", default=[6])
    parser.add_argument("--seeds", default="1-10")
    parser.add_argument("--slots", type=int, default=None)
    parser.add_argument("--bound", choices=("lp", "milp"), default="lp", help="the rate LP or its completion-slot MILP")
    parser.add_argument("--generated", action="store_true")
    parser.add_argument("--pollux", action="store_true", help="Pollux's 1x workloads, one per seed (1-8)")
    parser.add_argument("--optimum", action="store_true", help="split each gap at the proven optimum")
    parser.add_argument("--class-floor", action="store_true", help="the best class policy beside exact-bb's schedule")
    parser.add_argument("--time-limit", type=float, default=60.0, help="--optimum, --class-floor: seconds per search")
    args = parser.parse_args(argv)
    milp = args.bound == "milp"
    if args.class_floor:
        for jobs in args.jobs:
            floors = [class_floor(instance(jobs, s), s, args.time_limit) for s in _seeds(args.seeds)]
            for f in floors:
                print({**asdict(f), "floor": round(f.floor, 4), "certified": round(f.certified, 4)})
            print(
                f"{jobs} jobs ({sum(f.proven for f in floors)} proven): no class bound certifies the best "
                f"non-preemptive policy below {statistics.fmean(f.floor for f in floors):.1%} on average; "
                f"exact-bb certifies {statistics.fmean(f.certified for f in floors):.1%}"
            )
        return
    if args.pollux:
        _print([measure_pollux(s, args.slots, milp) for s in _seeds(args.seeds)], "Pollux 1x", args.bound)
        return
    for jobs in args.jobs:
        if args.optimum:
            found = (split(jobs, seed, args.time_limit, milp) for seed in _seeds(args.seeds))
            splits = [s for s in found if s is not None]
            for s in splits:
                print(
                    f"seed {s.gap.seed}: best {s.gap.best_s:.0f} s, optimum {s.optimum_s:.0f} s, preemptive "
                    f"{s.gap.preemptive_s:.0f} s, bound {s.gap.bound_s:.0f} s; gap {s.gap.gap:.1%}, floor {s.floor:.1%}"
                )
            above, below = statistics.fmean(s.above for s in splits), statistics.fmean(s.below for s in splits)
            preempted, best = max(s.preempted for s in splits), max(s.preempted_best for s in splits)
            gap, floor = statistics.fmean(s.gap.gap for s in splits), statistics.fmean(s.floor for s in splits)
            print(
                f"{jobs} jobs ({len(splits)} proven): best policy {above:.1%} above the optimum, bound {below:.1%} "
                f"below it; Tiresias at most {preempted:.1%} below it, the ceiling's preemptive schedules "
                f"{best:.1%}; mean certified gap {gap:.1%}, "
                f"no valid bound below {floor:.1%}"
            )
            continue
        rows = [measure(jobs, s, args.generated, args.slots, milp) for s in _seeds(args.seeds)]
        _print(rows, f"{jobs} jobs", args.bound)


if __name__ == "__main__":
    main()
