"""The README's commands say what they do (issue 12): every ``packgap`` command line in it
names commands and options that exist, and the numbers it quotes for the quick examples are
what those commands produce (the demo table and the generated packing table)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import typer

from analysis.cli import add_dynamic_commands, app, instances_app
from analysis.registry import family, kit, load_instance, method, to_document
from analysis.run import solve
from instances.packing.generator import generate as generate_packing
from instances.planning.generator import generate as generate_planning
from solvers.outcome import SolveOptions

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def _commands() -> list[list[str]]:
    """Every ``packgap ...`` line of the README's code blocks, continuation lines joined."""
    text = README.replace("\\\n", " ")
    lines = [line.split("  #")[0].strip() for line in text.splitlines() if line.startswith("packgap ")]
    return [shlex.split(line.replace("[--json]", "--json"))[1:] for line in lines]


@pytest.fixture(scope="module")
def root() -> typer.main.TyperGroup:
    add_dynamic_commands(app, instances_app)
    group = typer.main.get_command(app)
    assert isinstance(group, typer.main.TyperGroup)
    return group


@pytest.mark.parametrize("args", _commands(), ids=lambda a: " ".join(a[:3]))
def test_readme_commands_exist_with_their_options(root: typer.main.TyperGroup, args: list[str]) -> None:
    command = root
    words = list(args)
    while hasattr(command, "commands") and words and words[0] in command.commands:
        command = command.commands[words.pop(0)]
    starts_with_option = bool(words) and words[0].startswith("-")
    assert not hasattr(command, "commands") or starts_with_option, f"{' '.join(args)}: no such command"
    known = {flag for p in command.params for flag in (*p.opts, *p.secondary_opts)}
    for word in words:
        if word.startswith("-"):
            assert word in known, f"{' '.join(args)}: unknown option {word}"


def _quoted(after: str, count: int) -> list[float]:
    """The first ``count`` numbers (thousands separators allowed) after ``after`` in the README."""
    tail = README[README.index(after) + len(after) :]
    return [float(n.replace(",", "")) for n in re.findall(r"\d[\d,]*\.?\d*", tail)[:count]]


def test_the_demo_table_reads_as_quoted(tmp_path: Path) -> None:
    instance = generate_planning(8, seed=7, gpu_types=(("A800", 1), ("RTX4090", 2)))
    quoted = _quoted("On the demo instance (8 groups, A800 x1 + RTX4090 x2, seed 7) the table reads: MCHP", 12)
    values = {quoted[0]: "mchp", quoted[2]: "fifo", quoted[4]: "edf"}
    fam = family("planning")
    options = SolveOptions(time_limit=30.0)
    for value, name in values.items():
        assert round(solve(fam, instance, method("planning", name), options=options).objective) == value
    for name in ("exact-flow", "exact-cpsat", "exact-milp"):
        exact = solve(fam, instance, method("planning", name), options=options)
        assert exact.status == "optimal" and round(exact.objective) == quoted[6], name


def test_the_generated_packing_table_reads_as_quoted(tmp_path: Path) -> None:
    instance = generate_packing(8, seed=3)
    fam = family("packing")
    rows = re.findall(r"^\| packing-n8-s3 \| (\S+) \| (\w+) \| ([\d.]+) \|", README, flags=re.MULTILINE)
    assert [name for name, _, _ in rows] == [m.name for m in kit("packing").methods]
    for name, status, objective in rows:
        if method("packing", name).exact and status != "optimal":
            continue  # a timed-out row's incumbent depends on the machine; a proven optimum does not
        result = solve(fam, instance, method("packing", name), options=SolveOptions(time_limit=30.0))
        assert f"{result.objective:.6g}" == objective, name


def test_readme_instances_round_trip(tmp_path: Path) -> None:
    from packgap import jsonio

    path = tmp_path / "pk.json"
    jsonio.write(to_document("packing", generate_packing(8, seed=3)), path)
    assert load_instance(path)[1].name == "packing-n8-s3"
