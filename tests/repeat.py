"""The test suite run again and again under load: a test that fails once in N is flaky (issue 31).

Each run starts a second copy of the same pytest command beside the first, so the two share
the cores as a loaded CI machine would, and counts both copies' outcomes; it exits 1 unless
every copy of every run passed. Each copy's output is kept in ``--logs``.

    python -m tests.repeat --runs 10                          # the default suite (make test-repeat)
    python -m tests.repeat --runs 2 tests/test_deadline.py    # a subset

Hypothesis stays derandomized (``tests/conftest.py``), so a failure here is the load's, not a
new example's.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: pytest's closing line, e.g. "3 failed, 1581 passed, 61 skipped in 601.2s".
SUMMARY = re.compile(r"^=*\s*((?:\d+ \w+(?:, )?)+) in [\d.]+s")


@dataclass(frozen=True)
class Outcome:
    copy: str
    code: int
    summary: str
    seconds: float

    @property
    def passed(self) -> bool:
        return self.code == 0


def _summary(log: Path) -> str:
    found = [m.group(1) for line in log.read_text(errors="replace").splitlines() if (m := SUMMARY.match(line))]
    return found[-1] if found else "no summary"


def run(index: int, args: list[str], logs: Path) -> list[Outcome]:
    """One run: the main copy and the one beside it, started together."""
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args]
    began = time.perf_counter()
    started = {}
    for copy in ("main", "beside"):
        log = logs / f"run{index:02d}-{copy}.log"
        with log.open("w") as out:
            started[copy] = (subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT), log)
    outcomes = []
    for copy, (process, log) in started.items():
        code = process.wait()
        outcomes.append(Outcome(copy, code, _summary(log), time.perf_counter() - began))
    return outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="how many runs (default 10)")
    parser.add_argument("--logs", type=Path, default=Path("/tmp/packgap-repeat"), help="folder for each copy's output")
    parser.add_argument("pytest_args", nargs="*", help="what pytest runs (default: the default suite)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    args.logs.mkdir(parents=True, exist_ok=True)
    good = 0
    for index in range(1, args.runs + 1):
        outcomes = run(index, args.pytest_args, args.logs)
        for o in outcomes:
            verdict = "ok" if o.passed else f"FAILED (exit {o.code})"
            print(f"run {index:2d} {o.copy:6}  {o.summary}  [{o.seconds:.0f} s]  {verdict}", flush=True)
        good += all(o.passed for o in outcomes)
    print(f"{good}/{args.runs} runs passed in both copies (logs in {args.logs})")
    return 0 if good == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
