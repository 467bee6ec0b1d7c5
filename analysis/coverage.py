"""Every numbered table and figure with results in the four papers, and what reproduces it
(issue 19.3): the coverage section of REPRODUCTION.md."""

from __future__ import annotations

#: paper -> (item, status): status names the reproduction(s), or why the item is not reproduced.
COVERAGE: dict[str, tuple[tuple[str, str], ...]] = {}


def coverage_markdown() -> list[str]:
    lines = [
        "## Coverage",
        "",
        "Every numbered table and figure with results in the four papers: the reproduction that covers it, "
        "or why none does.",
        "",
        "| paper | item | reproduced by, or why not |",
        "|---|---|---|",
    ]
    for paper, items in COVERAGE.items():
        lines += [f"| {paper} | {item} | {status} |" for item, status in items]
    return lines
