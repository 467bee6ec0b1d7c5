"""One style for every reproduction's figure: a matplotlib ``Figure`` outside pyplot (no display,
no global state, nothing to close) with constrained layout, saved as PNG and PDF.

* Colours: the Okabe-Ito palette (Okabe and Ito 2008, safe for the common colour-vision
  deficiencies), one colour per policy or method name in every figure (:func:`color`); the
  paper's values are black markers (:func:`paper_marker`), bounds and optima black or grey lines.
* Panels from :func:`panels` cycle through the palette in a fixed order.
* Legends go outside the axes or into the free corner (:func:`legend`), log axes carry the
  real values (:func:`log_axis`), spread over seeds is an error bar only where there are
  >= 3 seeds (:func:`seed_bars`).
* :func:`save_figure` checks the drawn figure (:func:`problems`): a legend over data or
  outside the figure, an axis with ticks but no label, a variable name or a power of ten as a
  label; each is a :class:`FigureWarning` (the figure test turns them into failures).

matplotlib is imported when a figure is made, never when a kit is imported (the CLI starts
without it).
"""

from __future__ import annotations

import math
import re
import statistics
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: Resolution of the PNG files (the PDF files are vector graphics).
DPI = 150
#: Okabe-Ito: orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple, black.
ORANGE, SKY, GREEN, YELLOW, BLUE, RED, PURPLE, BLACK = (
    "#E69F00",
    "#56B4E9",
    "#009E73",
    "#F0E442",
    "#0072B2",
    "#D55E00",
    "#CC79A7",
    "#000000",
)
GREY = "#999999"
#: The cycle of :func:`panels` (yellow last: weak on white).
CYCLE = (BLUE, RED, GREEN, ORANGE, SKY, PURPLE, GREY, YELLOW)
#: One colour per policy / method / variant name (lower case), the same in every figure: the
#: papers' own methods vermillion, their main baselines blue / orange, exact answers black.
COLORS = {
    **dict.fromkeys(("cuckoo", "dab", "mchp", "pal", "sjf-bsbf", "gimbal"), RED),
    **dict.fromkeys(("muri-p", "pm-first", "sjf-ffs", "aggressive"), ORANGE),
    **dict.fromkeys(("muri", "packed-sticky", "tiresias", "liss"), BLUE),
    **dict.fromkeys(("blossom", "packed-non-sticky", "gandiva"), PURPLE),
    **dict.fromkeys(("fifo", "random-non-sticky", "unequal"), SKY),
    **dict.fromkeys(("edf", "sjf", "random-sticky", "early exit"), GREEN),
    **dict.fromkeys(("none", "baseline", "full search"), GREY),
    **dict.fromkeys(("muri (released)", "muri-s", "muri-l"), YELLOW),
    **dict.fromkeys(("exact", "optimum", "exact grid optimum", "bound"), BLACK),
}
#: Narrowest gap band a title may promise, as a share of its y axis' span: thinner ones do not show.
VISIBLE = 0.01
#: A label that is a variable name (``duration_median_s``), not words.
VARIABLE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


class FigureWarning(UserWarning):
    """A figure that would not read well in a paper (see :func:`problems`)."""


def color(name: str) -> str:
    """The colour of a policy / method / variant in every figure (grey when unknown)."""
    return COLORS.get(name.lower(), GREY)


def new_figure(width: float, height: float) -> Any:
    """An empty figure of ``width`` x ``height`` inches; axes come from :func:`panels`."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def panels(fig: Any, rows: int = 1, columns: int = 1, **options: Any) -> Any:
    """``fig.subplots(rows, columns, squeeze=False, ...)`` flattened, each axes cycling through
    :data:`CYCLE` with a light grid behind the data."""
    from cycler import cycler

    axes = fig.subplots(rows, columns, squeeze=False, subplot_kw={"prop_cycle": cycler(color=CYCLE)}, **options)
    for ax in axes.ravel():
        ax.grid(alpha=0.3)
        ax.set_axisbelow(True)
    return axes.ravel()


def legend(ax: Any, *, outside: bool = False, **options: Any) -> Any:
    """The axes' legend in the corner that covers no data, or to the right of the axes when no
    corner is free (or ``outside``). Call it after everything is drawn and the limits are set."""
    kwargs = {"fontsize": 8, **options}
    if not outside:
        fig = ax.get_figure()
        fig.canvas.draw()
        for loc in ("upper right", "upper left", "lower right", "lower left", "center right", "center left"):
            found = ax.legend(loc=loc, **kwargs)
            fig.canvas.draw()
            if not _covers_data(found, fig.canvas.get_renderer(), [ax]):
                return found
    return ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **kwargs)


def figure_legend(fig: Any, ax: Any, columns: int = 4) -> Any:
    """One legend for all panels (``ax``'s entries), below them and inside the figure."""
    return fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncols=columns, fontsize=8)


def log_axis(
    ax: Any, values: Sequence[float] | None = None, axis: str = "x", scale: str = "log", **options: Any
) -> None:
    """A log (or ``symlog``, with its ``options``) axis labelled with real values: ticks at
    ``values`` (64, 256, 1024), or matplotlib's decades written as plain numbers (0.01, 1, 100)
    when ``values`` is None."""
    from matplotlib.ticker import FuncFormatter, NullFormatter

    getattr(ax, f"set_{axis}scale")(scale, **options)
    which = getattr(ax, f"{axis}axis")
    if values is None:
        which.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    else:
        ticks = sorted(set(values))
        getattr(ax, f"set_{axis}ticks")(ticks, [f"{v:g}" for v in ticks])
    which.set_minor_formatter(NullFormatter())


def _widest(low: Sequence[float], high: Sequence[float]) -> float | None:
    """The widest finite gap between ``high`` and ``low`` (None: no finite one)."""
    return max((h - lo for lo, h in zip(low, high, strict=True) if math.isfinite(h - lo)), default=None)


def band_shows(ax: Any, low: Sequence[float], high: Sequence[float]) -> bool:
    """Whether the band between ``low`` and ``high`` is wide enough to see on ``ax`` as scaled now."""
    widest = _widest(low, high)
    bottom, top = ax.get_ylim()
    return widest is not None and widest >= VISIBLE * abs(top - bottom)


def band_note(low: Sequence[float], high: Sequence[float]) -> str:
    """What a title says of a band too thin to draw: how close the proven bounds are."""
    widest = _widest(low, high) or 0.0
    return f"proven bounds within {widest:.2g} points" if widest > 0 else "every one proven optimal"


def seed_bars(values: Sequence[Sequence[float]]) -> tuple[list[float], list[float] | None]:
    """Means per point and their standard deviations over seeds, or None (no error bar) when
    any point has fewer than 3 seeds: a spread of one or two runs says nothing."""
    means = [statistics.fmean(v) for v in values]
    if min((len(v) for v in values), default=0) < 3:
        return means, None
    return means, [statistics.pstdev(v) for v in values]


def seeds_note(count: int) -> str:
    """How a figure states its sample: "mean +- sd over n seeds", or "n = 1"."""
    if count >= 3:
        return f"mean +- sd over {count} seeds"
    return "n = 1 seed, no spread" if count == 1 else f"n = {count} seeds, no spread shown"


def paper_marker(ax: Any, xs: Any, ys: Any, *, label: str | None = "paper", **kw: Any) -> Any:
    """The paper's values as black diamonds beside ours."""
    style = {"marker": "D", "s": 30, "color": BLACK, "zorder": 4, "label": label, **kw}
    return ax.scatter(list(xs), list(ys), **style)


def save_figure(fig: Any, out_dir: Path, stem: str) -> list[Path]:
    """``out_dir/stem.png`` and ``out_dir/stem.pdf`` (``out_dir`` made when missing; the same
    figure gives the same bytes); warns (:class:`FigureWarning`) with every problem
    :func:`problems` finds in the drawn figure."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / f"{stem}.{suffix}" for suffix in ("png", "pdf")]
    fig.savefig(paths[0], dpi=DPI)
    for problem in problems(fig):
        warnings.warn(FigureWarning(f"{stem}: {problem}"), stacklevel=2)
    # Without a creation date one figure gives one PDF byte for byte (issue 19.5).
    fig.savefig(paths[1], dpi=DPI, metadata={"CreationDate": None})
    return paths


def _data(ax: Any) -> tuple[list[tuple[Any, bool]], list[tuple[float, float]]]:
    """The display paths (with whether each is filled) and points of ``ax``'s data artists,
    images and annotations; reference lines and spans, drawn in axes coordinates, are not data."""
    import numpy as np
    from matplotlib.collections import Collection, LineCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.path import Path as DisplayPath

    paths: list[tuple[Any, bool]] = []
    points: list[tuple[float, float]] = []
    data = ax.transData
    for artist in ax.get_children():
        if not artist.get_visible() or artist is ax.patch:
            continue
        transform = artist.get_transform()
        if isinstance(artist, Line2D) and transform == data:
            path = transform.transform_path(artist.get_path())
            if artist.get_linestyle() in ("None", "none", "", " "):
                points += [tuple(v) for v in path.vertices]
            else:
                paths.append((path, False))
        elif isinstance(artist, Patch) and transform.contains_branch(data):
            paths.append((transform.transform_path(artist.get_path()), True))
        elif isinstance(artist, Collection):
            offsets = np.asarray(artist.get_offsets())
            if len(offsets) and artist.get_offset_transform().contains_branch(data):
                points += [tuple(v) for v in artist.get_offset_transform().transform(offsets)]
            elif transform.contains_branch(data):
                filled = not isinstance(artist, LineCollection)
                paths += [(transform.transform_path(p), filled) for p in artist.get_paths()]
    for artist in (*ax.images, *(t for t in ax.texts if t.get_visible() and t.get_text())):
        box = artist.get_window_extent()
        corners = [(box.x0, box.y0), (box.x1, box.y0), (box.x1, box.y1), (box.x0, box.y1)]
        paths.append((DisplayPath(corners), True))
    return paths, points


def _covers_data(found: Any, renderer: Any, axes: Sequence[Any]) -> bool:
    box = found.get_window_extent(renderer)
    for ax in axes:
        paths, points = _data(ax)
        if any(box.x0 <= x <= box.x1 and box.y0 <= y <= box.y1 for x, y in points):
            return True
        if any(len(path.vertices) and path.intersects_bbox(box, filled=filled) for path, filled in paths):
            return True
    return False


def _hidden_bars(ax: Any) -> int:
    """How many bars of ``ax`` a bar of a later series covers whole: a series drawn at another's
    offset hides it (a smaller part drawn over its total, as late over doomed jobs, stays seen)."""
    from matplotlib.container import BarContainer

    containers = (c for c in ax.containers if isinstance(c, BarContainer))
    series = [[b for b in (bar.get_bbox() for bar in c) if b.width and b.height] for c in containers]
    hidden = 0
    for i, bars in enumerate(series):
        for box in bars:
            later = (o for rest in series[i + 1 :] for o in rest)
            if any(o.x0 <= box.x0 and o.x1 >= box.x1 and o.y0 <= box.y0 and o.y1 >= box.y1 for o in later):
                hidden += 1
    return hidden


def problems(fig: Any) -> list[str]:
    """What keeps a drawn figure from reading well in a paper: a legend over any axes' data
    or reaching outside the figure; a title wider than the figure; an axes with tick labels
    but no axis label; a variable name (``a_b``) in a label, tick or legend; a log axis
    ticked in powers of ten; bars of one series drawn over another's."""
    renderer = fig.canvas.get_renderer()
    axes = [ax for ax in fig.axes if ax.get_visible()]
    legends = [ax.get_legend() for ax in axes if ax.get_legend() is not None] + list(fig.legends)
    found = []
    whole = fig.bbox
    for lg in legends:
        box = lg.get_window_extent(renderer)
        if box.x0 < whole.x0 - 1 or box.y0 < whole.y0 - 1 or box.x1 > whole.x1 + 1 or box.y1 > whole.y1 + 1:
            found.append("a legend reaches outside the figure")
        if _covers_data(lg, renderer, axes):
            found.append(f"a legend ({', '.join(t.get_text() for t in lg.get_texts()[:2])}, ...) covers data")
        found += [f"variable name in legend: {t.get_text()!r}" for t in lg.get_texts() if VARIABLE.search(t.get_text())]
    titles = [fig._suptitle, *(ax.title for ax in axes)]
    for title in (t for t in titles if t is not None and t.get_text()):
        box = title.get_window_extent(renderer)
        if box.x0 < whole.x0 - 1 or box.x1 > whole.x1 + 1:
            found.append(f"the title {title.get_text()!r} is wider than the figure")
    for ax in axes:
        if hidden := _hidden_bars(ax):
            found.append(f"{hidden} bars of {ax.get_title()!r} are hidden behind another series' bars")
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            ticks = [t.get_text() for t in axis.get_ticklabels() if t.get_visible() and t.get_text()]
            label = axis.get_label().get_text()
            if ticks and not label:
                found.append(f"{name} axis of {ax.get_title()!r} has no label")
            words = [label, *ticks]
            found += [f"variable name on the {name} axis: {w!r}" for w in words if VARIABLE.search(w)]
            if axis.get_scale() in ("log", "symlog") and any("^" in t for t in ticks):
                found.append(f"log {name} axis of {ax.get_title()!r} ticked in powers of ten")
    return found
