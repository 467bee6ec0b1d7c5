"""MkDocs hooks: the parts of the site that are generated from the code at build time.

* ``cli.md``: the CLI reference, walked from the click command tree the ``packgap`` command
  builds (every generated sub-command of every kit included).
* ``tutorial.md`` and ``own-heuristic.md``: ``docs/tutorial.py`` and ``docs/own_heuristic.py``
  (jupytext percent format) as pages, markdown cells as text and code cells as code; the tests
  execute the same files.
* ``<!-- packgap:WHAT FAMILY -->`` in a page: a table read from the family's kit (``methods``,
  ``generators``, ``trace-builders``, ``demo``), from its readers (``instance-fields``,
  ``solution-fields``: the JSON Schema of ``packgap schema``) or from the docstrings of its modules
  (``heuristics``, ``models``); ``<!-- packgap:reproductions PAPER -->``: the reproductions of
  ``paper_figures/PAPER`` (``cuckoo``, ``sjf-bsbf``, ``pal``, ``gimbal``, ``gaps``) with their modules.
* Sphinx roles left in docstrings (``:func:`~a.b``) lose the role in the rendered HTML.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
PLACEHOLDER = re.compile(r"<!-- packgap:([a-z-]+) ([a-z-]+) -->")
ROLE = re.compile(r":(?:func|class|meth|data|mod|attr|exc|obj):<code>~?([^<]*?)</code>")


def cell(value: Any) -> str:
    """A value as a markdown table cell (pipes escaped, no line breaks)."""
    return " ".join(str(value).split()).replace("|", "\\|")


def table(header: tuple[str, ...], rows: list[tuple[Any, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


# ---- the CLI reference ----------------------------------------------------------------------


def _commands(command: Any, ctx: Any) -> Iterator[tuple[Any, Any]]:
    """Every command under ``command``, depth first, each with its context (for its usage line).

    Typed loosely: typer builds on its own copy of click, so the classes are not click's."""
    yield command, ctx
    if hasattr(command, "list_commands"):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from _commands(sub, sub.context_class(sub, info_name=name, parent=ctx))


@functools.cache
def cli_reference() -> str:
    """The whole command tree of ``packgap`` as markdown, one section per command."""
    import typer.main

    from packgap.analysis.cli import add_dynamic_commands, app, instances_app

    add_dynamic_commands(app, instances_app)
    root = typer.main.get_command(app)
    parts = [
        "# CLI reference\n",
        "Generated from the `packgap` command itself when the site is built: every command, "
        "including those each family's kit adds. `packgap COMMAND --help` prints the same.\n",
    ]
    for command, ctx in _commands(root, root.context_class(root, info_name="packgap")):
        path = ctx.command_path
        depth = path.count(" ")
        # typer writes required arguments as {name}; --help shows them as NAME.
        pieces = [re.sub(r"\{(\w+)\}", lambda m: m.group(1).upper(), p) for p in command.collect_usage_pieces(ctx)]
        usage = " ".join([path, *pieces])
        parts.append(f"{'#' * min(depth + 2, 4)} `{path}`\n")
        parts.append((command.help or "").strip().split("\n\n")[0] + "\n")
        parts.append(f"```\n{usage}\n```\n")
        # What ``--help`` prints for each parameter: its name and type, its help and default.
        records = [p.get_help_record(ctx) for p in command.params if not getattr(p, "hidden", False)]
        rows = [(f"`{name}`", help_text) for name, help_text in (r for r in records if r is not None)]
        if rows:
            parts.append(table(("parameter", "help"), rows))
    return "\n".join(parts)


# ---- the tutorial -----------------------------------------------------------------------------


def percent_to_markdown(source: str) -> str:
    """A jupytext percent-format script as markdown: ``# %% [markdown]`` cells as text (their
    ``# `` prefixes removed), ``# %%`` cells as python code; the jupytext header is dropped."""
    source = re.sub(r"\A# ---\n(?:#.*\n)*?# ---\n", "", source)
    blocks = []
    for chunk in re.split(r"^# %%", source, flags=re.MULTILINE)[1:]:
        head, _, body = chunk.partition("\n")
        body = body.strip("\n")
        if "[markdown]" in head:
            blocks.append("\n".join(re.sub(r"^# ?", "", line) for line in body.splitlines()))
        elif body:
            blocks.append(f"```python\n{body}\n```")
    return "\n\n".join(blocks) + "\n"


# ---- tables read from the kits ----------------------------------------------------------------


def _methods(kit: Any) -> str:
    rows = []
    for m in kit.methods:
        kind = f"exact ({m.default_time_limit:g} s default limit)" if m.exact else "heuristic"
        params = ", ".join(f"`{k}={v!r}`" for k, v in m.defaults.items()) or "-"
        rows.append((f"`{m.name}`", kind, m.description, params))
    return table(("method", "kind", "what it does", "parameters (defaults)"), rows)


def _options(options: tuple[Any, ...]) -> str:
    return ", ".join(f"`{o.flag}`" for o in options) or "-"


def _generators(kit: Any) -> str:
    rows = [(f"`{g.name}`", g.description, g.target, _options(g.options)) for g in kit.generators]
    return table(("generator", "what it builds", "file kind", "options"), rows)


def _trace_builders(kit: Any) -> str:
    rows = [(f"`{b.name}`", b.description, b.target, _options(b.options)) for b in kit.trace_builders]
    return table(("trace builder", "what it reads", "file kind", "options"), rows) if rows else "None.\n"


def reproductions(paper: str) -> str:
    """The reproductions of ``paper_figures/<paper>`` (``-`` read as ``_``), each with the module
    that computes it."""
    import importlib

    package = importlib.import_module(f"packgap.paper_figures.{paper.replace('-', '_')}")
    rows = [(f"`{r.name}`", r.item, r.title, f"`{_module(r)}`") for r in package.REPRODUCTIONS]
    return table(("name", "item", "what", "module"), rows)


def _module(reproduction: Any) -> str:
    compute = reproduction.compute
    target = getattr(compute, "target", None) or getattr(getattr(compute, "func", compute), "__module__", "")
    return str(target).partition(":")[0]


def _demo(kit: Any) -> str:
    demo = kit.demo
    if demo is None:
        return "No demo.\n"
    options = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in demo.options.items())
    return (
        f"`packgap demo {kit.name}`: {demo.title}. The instance is "
        f"`packgap instances generate {demo.generator} {options}`; the methods shown are "
        f"{', '.join(f'`{m}`' for m in demo.methods)} ({demo.time_limit:g} s per exact method).\n"
    )


def _first_paragraph(path: Path) -> str:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return doc.split("\n\n")[0]


def _layer(layer: str) -> Callable[[Any], str]:
    """The modules of ``layer/<family>/`` with the first paragraph of each docstring (where the
    paper's section and equations are cited)."""

    def build(kit: Any) -> str:
        folder = ROOT / layer / kit.name
        rows = [
            (f"`packgap.{layer}.{kit.name}.{path.stem}`", _first_paragraph(path))
            for path in sorted(folder.glob("*.py"))
            if path.stem != "__init__" and _first_paragraph(path)
        ]
        return table(("module", "what it holds"), rows)

    return build


def _fields(part: str) -> Callable[[Any], str]:
    """The fields of the family's instance or solution documents, from the schema the readers
    give (:mod:`packgap.analysis.schema`), with the unit and meaning of each."""

    def build(kit: Any) -> str:
        from packgap.analysis.schema import field_rows, meaning, schema

        rows = []
        for path, kind, needed, suffix_unit in field_rows(schema(kit.name, part)):
            unit, text = meaning(kit.name, path) or (suffix_unit, "")
            rows.append((f"`{path}`", kind, "yes" if needed else "no", unit or suffix_unit or "-", text))
        return table(("field", "type", "required", "unit", "meaning"), rows)

    return build


TABLES: dict[str, Callable[[Any], str]] = {
    "instance-fields": _fields("instance"),
    "solution-fields": _fields("solution"),
    "heuristics": _layer("heuristics"),
    "models": _layer("models"),
    "methods": _methods,
    "generators": _generators,
    "trace-builders": _trace_builders,
    "demo": _demo,
}


def expand(markdown: str) -> str:
    """Every ``<!-- packgap:WHAT FAMILY -->`` replaced by its table; an unknown one fails the build."""
    from packgap.analysis import registry

    def replace(match: re.Match[str]) -> str:
        what, family = match.groups()
        if what == "reproductions":
            return reproductions(family)
        if what not in TABLES:
            raise ValueError(f"unknown packgap table {what!r} (known: {', '.join(TABLES)}, reproductions)")
        return TABLES[what](registry.kit(family))

    return PLACEHOLDER.sub(replace, markdown)


# ---- the hooks --------------------------------------------------------------------------------


def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, "cli.md", content=cli_reference()))
    for script, page in (("tutorial.py", "tutorial.md"), ("own_heuristic.py", "own-heuristic.md")):
        source = (DOCS / script).read_text(encoding="utf-8")
        files.append(File.generated(config, page, content=percent_to_markdown(source)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    return expand(markdown)


def _role(match: re.Match[str]) -> str:
    """``:func:`~a.b.c``` -> ``c``, ``:func:`a.b.c``` -> ``a.b.c`` (Sphinx's reading of ``~``)."""
    target = match.group(1)
    return f"<code>{target.rsplit('.', 1)[-1] if '~' in match.group(0) else target}</code>"


def on_page_content(html: str, page: Any, config: Any, files: Files) -> str:
    return ROLE.sub(_role, html)
