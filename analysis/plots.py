"""Figures, shared by the games: where a plot function gets its axes, and the one place a figure
is written to files.

Each study's ``plot_...`` function draws and returns a ``matplotlib.figure.Figure`` (for a
notebook, or to restyle and save elsewhere); its file-writing twin (``overview_figures``,
``plot_top``, ...) calls it and saves through ``save_figure``, in the Agg backend (``headless``)
since it runs without a display."""
from __future__ import annotations

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


def save_figure(fig: Figure, stem: str, exts: tuple[str, ...] = ("png", "svg"),
                dpi: float | None = None) -> list[str]:
    """Write ``fig`` as ``stem.EXT`` for each extension (at ``dpi``, or matplotlib's default),
    close it, and return the paths in the order written."""
    import matplotlib.pyplot as plt

    paths = []
    try:
        for ext in exts:
            path = f"{stem}.{ext}"
            fig.savefig(path, dpi=dpi)
            paths.append(path)
    finally:
        plt.close(fig)
    return paths
