"""Certified gaps of the best policy (issue 18.2): best of FIFO, SJF, Tiresias, SJF-FFS and
SJF-BSBF against the cheap bound and the rate LP bound (both valid with and without
preemption). Gap = (best - bound) / best on the average JCT.

    python -m packgap.analysis.sharing.certified --jobs 6 8 --seeds 1-10
    python -m packgap.analysis.sharing.certified --jobs 240 --seeds 1-5 --generated

Small instances are the README's (:func:`packgap.analysis.sharing.exact_scaling.instance`);
``--generated`` uses the section VI-A generator at its defaults (64 GPUs).
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import asdict, dataclass

from packgap.analysis.sharing import lp_bound
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

    @property
    def cheap_gap(self) -> float:
        return (self.best_s - self.cheap_s) / self.best_s if self.best_s > 0 else 0.0

    @property
    def gap(self) -> float:
        return (self.best_s - self.bound_s) / self.best_s if self.best_s > 0 else 0.0


def measure_instance(inst: SharingInstance, seed: int, slots: int | None = None) -> Gap:
    best = min(FAMILY.evaluate(inst, policy(inst)).objective for policy in POLICIES.values())
    start = time.perf_counter()
    out = lp_bound.solve(inst, slots)
    seconds = time.perf_counter() - start
    n, arrivals = len(inst.jobs), sum(j.arrival for j in inst.jobs)
    return Gap(n, seed, best, (out.cheap_sum - arrivals) / n, (out.completion_sum - arrivals) / n, seconds)


def measure(jobs: int, seed: int, generated: bool = False, slots: int | None = None) -> Gap:
    return measure_instance(generate(jobs, seed) if generated else instance(jobs, seed), seed, slots)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, nargs="+", default=[6])
    parser.add_argument("--seeds", default="1-10")
    parser.add_argument("--slots", type=int, default=None)
    parser.add_argument("--generated", action="store_true")
    args = parser.parse_args(argv)
    lo, _, hi = args.seeds.partition("-")
    for jobs in args.jobs:
        rows = [measure(jobs, s, args.generated, args.slots) for s in range(int(lo), int(hi or lo) + 1)]
        for r in rows:
            print({**asdict(r), "cheap_gap": round(r.cheap_gap, 4), "gap": round(r.gap, 4)})
        cheap, lp = statistics.fmean(r.cheap_gap for r in rows), statistics.fmean(r.gap for r in rows)
        print(f"{jobs} jobs: mean certified gap {cheap:.1%} (cheap bound) -> {lp:.1%} (rate LP)")


if __name__ == "__main__":
    main()
