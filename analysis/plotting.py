"""How every reproduction draws and saves a figure: a matplotlib ``Figure`` outside pyplot (no
display, no global state, nothing to close) with constrained layout, saved as PNG and PDF.

matplotlib is imported when a figure is made, never when a kit is imported (the CLI starts
without it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: Resolution of the PNG files (the PDF files are vector graphics).
DPI = 150


def new_figure(width: float, height: float) -> Any:
    """An empty figure of ``width`` x ``height`` inches; axes come from its ``subplots``."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def save_figure(fig: Any, out_dir: Path, stem: str) -> list[Path]:
    """``out_dir/stem.png`` and ``out_dir/stem.pdf`` (``out_dir`` made when missing)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / f"{stem}.{suffix}" for suffix in ("png", "pdf")]
    for path in paths:
        fig.savefig(path, dpi=DPI)
    return paths
