"""REPRODUCTION.md: every reproduced number beside the paper's, whether it agrees, and why not.

The file has two parts. The record, above :data:`RUN_MARKER`, is a function of the stored
rows and the code only: the same command gives the same bytes (issue 19.5). It lists each
number with its reproduction's size, the paper's direction, the computed agreement and the
note, then the figures and the coverage of every numbered result of the four papers. The run
part, below the marker, is what differs from run to run: which rows this run computed and
which it reused (from which version), their seconds, and the wall-clock numbers (timings).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from packgap.analysis.agreement import (
    NO,
    NONE,
    YES,
    agrees,
    counted,
    magnitude,
    note,
    tolerance_text,
    uncaused,
    unexplained,
)
from packgap.analysis.coverage import coverage_markdown
from packgap.analysis.figures import Reproduced
from packgap.analysis.kit import PaperValue
from packgap.analysis.store import source_digest

RUN_MARKER = "## This run (measured: differs from run to run, not part of the record)"


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.4g}"


def _text(text: str) -> str:
    return text.replace("|", "/").replace("\n", " ")


def size_text(size: Mapping[str, Any]) -> str:
    """A reproduction's size as printed beside its rows: ``jobs 240, seeds 1``."""
    return ", ".join(f"{k} {v}" for k, v in size.items()) or "fixed"


def at_full_size(d: Reproduced, v: PaperValue) -> str:
    """Whether the paper-sized run agrees on ``v`` (a quick run's column): ``not run`` when the
    store holds no full-size rows of this code."""
    if d.full_values is None:
        return "not run"
    same = next((f for f in d.full_values if f.quantity == v.quantity and f.item == v.item), None)
    return NONE if same is None else agrees(same, d.full_values)


def grade(v: PaperValue) -> str:
    """The magnitude cell: ``yes`` or ``no`` with the tolerance used, ``by construction``, ``-``."""
    if v.by_construction:
        return "by construction"
    graded = magnitude(v)
    return graded if graded == NONE else f"{graded} ({tolerance_text(v)})"


def record(d: Reproduced) -> list[str]:
    """The rows of one reproduction's values (timings excluded)."""
    size = size_text(d.reproduction.size(d.quick))
    lines = []
    for v in d.values:
        if v.measured:
            continue
        ratio = "-" if v.ratio is None else f"{v.ratio:.3f}"
        unit = f" {v.unit}" if v.unit else ""
        claim = "-" if v.direction is None else v.direction.text
        full = f" {at_full_size(d, v)} |" if d.quick else ""
        direction = "by construction" if v.by_construction else agrees(v, d.values)
        lines.append(
            f"| {d.reproduction.paper} | {v.item} | {_text(v.quantity)}{unit} | {size} | {_cell(v.paper)} | "
            f"{_cell(v.ours)} | {ratio} | {_text(claim)} | {direction} | {grade(v)} |{full} "
            f"{_text(note(v, d.values))} |"
        )
    return lines


def summary(done: Sequence[Reproduced]) -> list[str]:
    graded = [(v, d.values) for d in done for v in d.values if counted(v)]
    directions = [agrees(v, values) for v, values in graded]
    magnitudes = [magnitude(v) for v, _ in graded]
    yes, no = directions.count(YES), directions.count(NO)
    close, far = magnitudes.count(YES), magnitudes.count(NO)
    built = sum(v.by_construction for d in done for v in d.values if not v.measured)
    missing = [(d.reproduction.name, v.quantity) for d in done for v in unexplained(d.values)]
    no_cause = [(d.reproduction.name, v.quantity) for d in done for v in uncaused(d.values)]
    differ = [
        (d.reproduction.name, v.quantity)
        for d in done
        for v in d.values
        if d.quick and counted(v) and at_full_size(d, v) in (YES, NO) and at_full_size(d, v) != agrees(v, d.values)
    ]
    lines = [
        f"Direction: {yes + no} numbers are compared with a direction the paper states, {yes} agree, {no} do not "
        "(the note gives the measured cause). `paper says` is the claim checked: ours below (<) or above (>) "
        "a number or another quantity of the same item, or equal to the paper's value (=).",
        "",
        f"Magnitude: {close + far} numbers have a paper value to compare with, {close} lie within the stated "
        f"tolerance of it, {far} do not; `magnitude` names the tolerance: the paper's own error bar where it prints "
        "one, the tolerance of an `=` claim, else 25 % relative. "
        f"{len(no_cause)} numbers agree in direction but not in magnitude without a measured cause yet"
        + (" (listed below)." if no_cause else "."),
        "",
        f"{built} values equal the paper's by construction (a system normalised by itself) and are counted in "
        "neither grade; timings and numbers cut by a wall-clock limit are in the run part below.",
    ]
    if any(d.quick for d in done):
        lines += [
            "",
            "`at full size` is the direction of the paper-sized run (`packgap figures` without `--quick`) of the "
            "same code, where the store holds one; "
            + (
                f"{len(differ)} numbers run in a different direction at the two sizes:"
                if differ
                else "no number runs in a different direction at the two sizes that were both run."
            ),
        ]
        lines += [f"* {name}: {quantity}" for name, quantity in differ]
    if missing:
        lines += ["", "**Disagreements without a cause:**"]
        lines += [f"* {name}: {quantity}" for name, quantity in missing]
    if no_cause:
        lines += ["", "**Off in magnitude, no measured cause yet:**"]
        lines += [f"* {name}: {quantity}" for name, quantity in no_cause]
    return lines


def report_markdown(done: Sequence[Reproduced], quick: bool) -> str:
    """The whole file: the record, then the run part below :data:`RUN_MARKER`."""
    body = record_markdown(done, quick)
    return body + "\n" + run_markdown(done, body)


def record_markdown(done: Sequence[Reproduced], quick: bool) -> str:
    lines = [
        "# Reproduction of the papers' tables and figures",
        "",
        f"Generated by `packgap figures{' --quick' if quick else ''}` from packgap source "
        f"`{source_digest()[:12]}` (SHA-256 of the package's .py and .json files)"
        + (" on small instances: numbers differ from the papers' sizes." if quick else "."),
        "",
        *summary(done),
        "",
        "| paper | item | quantity | size | paper | ours | ratio | paper says | direction | magnitude |"
        + (" at full size |" if quick else "")
        + " note |",
        "|---|---|---|---|---|---|---|---|---|---|" + ("---|" if quick else "") + "---|",
    ]
    for d in done:
        lines += record(d)
    lines += ["", "## Figures", ""]
    for d in done:
        r = d.reproduction
        lines.append(f"* **{r.name}** ({r.paper} {r.item}; {size_text(r.size(d.quick))}): {r.title}")
        lines += [f"  * `{p.name}`" for p in d.figures]
    lines += ["", *coverage_markdown()]
    return "\n".join(lines) + "\n"


def record_part(text: str) -> str:
    """The part of a REPRODUCTION.md that two runs of one command must give byte for byte."""
    return text.split(RUN_MARKER, 1)[0]


def _measured(d: Reproduced, v: PaperValue) -> str:
    unit = f" {v.unit}" if v.unit else ""
    claim = "-" if v.direction is None else v.direction.text
    return (
        f"| {d.reproduction.name} | {v.item} | {_text(v.quantity)}{unit} | {_cell(v.paper)} | {_cell(v.ours)} | "
        f"{_text(claim)} | {agrees(v, d.values)} | {_text(v.note)} |"
    )


def run_markdown(done: Sequence[Reproduced], body: str) -> str:
    lines = [
        RUN_MARKER,
        "",
        f"SHA-256 of the record above: `{hashlib.sha256(body.encode()).hexdigest()}`.",
        "",
        "| reproduction | rows | computed by | seconds (measured) |",
        "|---|---|---|---|",
    ]
    for d in done:
        s = d.stored
        how = "reused from the store" if d.reused else "computed by this run"
        commit = s.commit[:12] + ("-dirty" if s.commit.endswith("-dirty") else "") if s.commit else "no git checkout"
        made = "this run" if not d.reused else s.created
        lines.append(f"| {d.reproduction.name} | {how} | packgap {s.version}, {commit}, {made} | {s.seconds:.1f} |")
    timed = [(d, v) for d in done for v in d.values if v.measured]
    if timed:
        lines += [
            "",
            "Measured on this machine (timings, and numbers cut by a wall-clock limit):",
            "",
            "| reproduction | item | quantity | paper | ours | paper says | direction | note |",
            "|---|---|---|---|---|---|---|---|",
        ]
        lines += [_measured(d, v) for d, v in timed]
    return "\n".join(lines) + "\n"
