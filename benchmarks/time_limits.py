"""Is ``--time-limit`` kept? Wall time over limit for every method of every family (issue 17).

The wall time is the whole :func:`packgap.analysis.run.solve` call as a caller sees it: model
building, solving, validation and scoring. The promise is ``wall <= 1.05 x limit + 0.5 s``.

    python -m benchmarks.time_limits --limits 5,20 [--families placement,sharing]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from packgap.analysis import registry
from packgap.analysis.run import solve
from packgap.solvers.outcome import SolveOptions

#: Mid-size instances of issue 17: (family, generator options).
CASES: tuple[tuple[str, Mapping[str, Any]], ...] = (
    ("planning", {"groups": 32, "seed": 1}),
    ("packing", {"jobs": 20, "seed": 3}),
    ("packing", {"jobs": 40, "seed": 3}),
    ("placement", {"gpus": 256, "jobs": 50, "seed": 1}),
    ("sharing", {"jobs": 10, "seed": 1, "nodes": 4, "hours": 0.5, "workload": "physical"}),
    ("calibration", {"jobs": 8, "seed": 3}),
)


def promise(limit: float) -> float:
    """The most wall time a run under ``limit`` may take."""
    return 1.05 * limit + 0.5


@dataclass(frozen=True)
class Timing:
    family: str
    size: str
    method: str
    limit: float
    wall: float
    status: str

    @property
    def kept(self) -> bool:
        return self.wall <= promise(self.limit)


def instance(family: str, options: Mapping[str, Any]) -> Any:
    return registry.generator(family).build(options)


def timed(family: str, options: Mapping[str, Any], method: str, limit: float) -> Timing:
    inst = instance(family, options)
    start = time.perf_counter()
    options_ = SolveOptions(time_limit=limit)
    result = solve(registry.family(family), inst, registry.method(family, method), options=options_)
    wall = time.perf_counter() - start
    size = ",".join(f"{k}={v}" for k, v in options.items() if k != "seed")
    return Timing(family, size, method, limit, wall, str(result.status))


def every_run(limits: list[float], families: list[str] | None = None) -> Iterator[Timing]:
    for limit in limits:
        for family, options in CASES:
            if families is None or family in families:
                for method in registry.methods(family):
                    yield timed(family, options, method, limit)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limits", default="5,20", help="comma-separated time limits in seconds")
    parser.add_argument("--families", default=None, help="comma-separated families (default: all)")
    args = parser.parse_args()
    worst: Timing | None = None
    families = args.families.split(",") if args.families else None
    for t in every_run([float(x) for x in args.limits.split(",")], families):
        flag = "" if t.kept else "  OVER"
        line = f"{t.family:12} {t.size:18} {t.method:20} {t.limit:5g} s  wall {t.wall:7.2f} s  {t.status}{flag}"
        print(line, flush=True)
        if worst is None or t.wall - promise(t.limit) > worst.wall - promise(worst.limit):
            worst = t
    if worst is not None:
        print(f"worst: {worst.family} {worst.method} {worst.wall:.2f} s at {worst.limit:g} s")


if __name__ == "__main__":
    main()
