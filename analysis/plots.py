"""Figures, shared by the games: where a plot function gets its axes, and the one place a figure
is written to files.

Each study's ``plot_...`` function draws and returns a ``matplotlib.figure.Figure`` (for a
notebook, or to restyle and save elsewhere); its file-writing twin (``overview_figures``,
``plot_top``, ...) calls it and saves through ``save_figure``, in the Agg backend (``headless``)
since it runs without a display."""
from __future__ import annotations

import contextvars
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def headless() -> None:
    """Draw with the Agg backend (no display): for the functions that only write files."""
    import matplotlib

    matplotlib.use("Agg")


def axes_for(ax: Axes | None, figsize: tuple[float, float]) -> tuple[Figure, Axes, bool]:
    """The axes a one-panel plot draws into: ``ax`` itself, or the single axes of a new figure of
    ``figsize`` inches; with the figure, and whether it is new (and so the plot's to lay out)."""
    if ax is not None:
        return ax.figure, ax, False
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=figsize)
    return fig, ax, True


_FORMATS = contextvars.ContextVar("figure_formats", default=("png", "svg"))


@contextmanager
def figure_formats(exts: tuple[str, ...]):
    """Inside the block, figures saved without explicit formats are written in ``exts`` only (the
    strategy guide shows PNG, so it writes each figure once)."""
    token = _FORMATS.set(tuple(exts))
    try:
        yield
    finally:
        _FORMATS.reset(token)


def save_figure(fig: Figure, stem: str, exts: tuple[str, ...] | None = None,
                dpi: float | None = None) -> list[str]:
    """Write ``fig`` as ``stem.EXT`` for each extension (``exts``, by default PNG and SVG or what
    ``figure_formats`` chose; at ``dpi``, or matplotlib's default), close it, and return the paths
    in the order written."""
    import matplotlib.pyplot as plt

    exts = _FORMATS.get() if exts is None else exts
    paths = []
    try:
        for ext in exts:
            path = f"{stem}.{ext}"
            fig.savefig(path, dpi=dpi)
            paths.append(path)
    finally:
        plt.close(fig)
    return paths
