"""Every ``packgap`` command line of the README and of the documentation's pages names commands
and options that exist (issues 12 and 20), and the instance files their examples write load back."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import typer

from packgap.analysis.cli import add_dynamic_commands, app, instances_app
from packgap.analysis.registry import load_instance, to_document
from packgap.instances.packing.generator import generate as generate_packing
from tests.readme.quotes import ROOT

#: The README and every page of the documentation, each as written.
PAGES = [(ROOT / "README.md").read_text(encoding="utf-8")]
PAGES += [page.read_text(encoding="utf-8") for page in sorted((ROOT / "docs").rglob("*.md"))]


def _commands() -> list[list[str]]:
    """Every ``packgap ...`` line of the README's and the documentation's code blocks,
    continuation lines joined."""
    text = "\n".join(PAGES).replace("\\\n", " ")
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
    command: Any = root
    words = list(args)
    root_options = {flag for p in root.params for flag in (*p.opts, *p.secondary_opts)}
    while len(words) > 1 and words[0] in root_options and words[0] != "--version":
        del words[:2]  # ``packgap --plugin FILE COMMAND ...``: a root option and its value
    while hasattr(command, "commands") and words and words[0] in command.commands:
        command = command.commands[words.pop(0)]
    starts_with_option = bool(words) and words[0].startswith("-")
    assert not hasattr(command, "commands") or starts_with_option, f"{' '.join(args)}: no such command"
    known = {flag for p in command.params for flag in (*p.opts, *p.secondary_opts)}
    for word in words:
        if word.startswith("-"):
            assert word in known, f"{' '.join(args)}: unknown option {word}"


@pytest.mark.parametrize("line", re.findall(r"python -m packgap\.paper_figures ([^`\n]*)", "\n".join(PAGES)))
def test_paper_figures_commands_name_reproductions_and_options(root: typer.main.TyperGroup, line: str) -> None:
    """``python -m packgap.paper_figures NAME...`` is ``packgap figures NAME...``: every name a
    reproduction (or the placeholder NAME), every option one of that command's."""
    from packgap.analysis.figures import reproductions

    words = shlex.split(line)
    known = {flag for p in root.commands["figures"].params for flag in (*p.opts, *p.secondary_opts)}
    names = [w for w in words if not w.startswith("-") and w.strip("[].") not in {"NAME", "DIR", "N"}]
    assert set(names) <= set(reproductions()), line
    assert [w for w in words if w.startswith("-") and w.strip("[]") not in known] == [], line


def test_readme_instances_round_trip(tmp_path: Path) -> None:
    from packgap import jsonio

    path = tmp_path / "pk.json"
    jsonio.write(to_document("packing", generate_packing(8, seed=3)), path)
    assert load_instance(path)[1].name == "packing-n8-s3"
