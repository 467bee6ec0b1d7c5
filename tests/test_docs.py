"""The documentation site (issue 20, item 3): it builds with warnings as errors, and the parts
generated from the code (CLI reference, kit tables, tutorial page) cover every family."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from packgap.analysis import registry

ROOT = Path(__file__).resolve().parent.parent


def _hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("packgap_docs_hooks", ROOT / "docs" / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hooks = _hooks()


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},  # Material's banner about MkDocs 2
    )
    assert done.returncode == 0, done.stderr[-3000:]
    cli = (tmp_path / "site" / "cli" / "index.html").read_text(encoding="utf-8")
    for command in ("packgap compare", "packgap demo", "packgap instances generate packing", "packgap sweep planning"):
        assert command in cli
    for kit in registry.kits().values():
        page = (tmp_path / "site" / "families" / kit.name / "index.html").read_text(encoding="utf-8")
        assert "packgap:" not in page, f"{kit.name}: a placeholder was left"
        for method in kit.methods:
            assert f"<code>{method.name}</code>" in page, f"{kit.name}: {method.name} not listed"


@pytest.mark.parametrize("family", list(registry.kits()))
def test_every_family_has_a_page_with_its_tables(family: str) -> None:
    page = ROOT / "docs" / "families" / f"{family}.md"
    assert page.is_file(), f"docs/families/{family}.md is missing"
    text = page.read_text(encoding="utf-8")
    for table in ("methods", "heuristics", "models", "generators", "demo", "instance-fields", "solution-fields"):
        assert f"<!-- packgap:{table} {family} -->" in text
    paper = {"planning": "gaps", "packing": "cuckoo", "placement": "pal", "calibration": "gimbal"}
    assert f"<!-- packgap:reproductions {paper.get(family, 'sjf-bsbf')} -->" in text
    assert f"families/{family}.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_a_papers_reproductions_expand_with_their_modules() -> None:
    table = hooks.expand("<!-- packgap:reproductions sjf-bsbf -->")
    assert "| `sjf-bsbf-table3` | Table III |" in table
    assert "`packgap.paper_figures.sjf_bsbf.table3_table4`" in table


def test_a_placeholder_expands_to_the_kit_and_an_unknown_one_fails() -> None:
    table = hooks.expand("<!-- packgap:methods planning -->")
    assert "| `exact-flow` | exact" in table and "| `mchp` | heuristic" in table
    with pytest.raises(ValueError, match="unknown packgap table 'nosuch'"):
        hooks.expand("<!-- packgap:nosuch planning -->")


def test_a_percent_script_becomes_markdown() -> None:
    source = "# ---\n# jupyter:\n#   x: 1\n# ---\n\n# %% [markdown]\n# # Title\n#\n# Text.\n\n# %%\nx = 1\nx\n"
    assert hooks.percent_to_markdown(source) == "# Title\n\nText.\n\n```python\nx = 1\nx\n```\n"


def test_sphinx_roles_lose_the_role() -> None:
    html = "see :func:<code>~packgap.analysis.api.solve</code> and :class:<code>packgap.result.SolveResult</code>"
    assert hooks.on_page_content(html, None, None, None) == (
        "see <code>solve</code> and <code>packgap.result.SolveResult</code>"
    )
