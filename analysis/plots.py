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


def fit_titles(fig: Figure) -> bool:
    """Wrap each axes title and the figure's suptitle that runs past the figure's left or right
    edge onto more lines (no word is cut; a layout engine the figure has makes room on the next
    draw). Returns whether any was wrapped."""
    import textwrap

    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    width = fig.bbox.width
    texts = [t for ax in fig.axes for t in (ax.title, ax._left_title, ax._right_title)]
    if fig._suptitle is not None:
        texts.append(fig._suptitle)
    wrapped = False
    for t in texts:
        lines = t.get_text().split("\n")
        for _ in range(8):  # narrower until it fits (a line is never narrower than its longest word)
            box = t.get_window_extent(renderer) if t.get_text() else None
            if box is None or (box.x0 >= 0 and box.x1 <= width):
                break
            # The room the text has where it is anchored: centred, it may grow on both sides alike.
            anchor = {"left": box.x0, "right": box.x1}.get(t.get_horizontalalignment(), (box.x0 + box.x1) / 2)
            room = {"left": width - anchor, "right": anchor}.get(t.get_horizontalalignment(),
                                                                 2 * min(anchor, width - anchor))
            longest = max(len(line) for line in t.get_text().split("\n"))
            chars = max(8, min(longest - 1, int(longest * 0.95 * room / box.width)))
            t.set_text("\n".join(textwrap.fill(line, chars) for line in lines))
            wrapped = True
    return wrapped


def save_figure(fig: Figure, stem: str, exts: tuple[str, ...] | None = None,
                dpi: float | None = None) -> list[str]:
    """Write ``fig`` as ``stem.EXT`` for each extension (``exts``, by default PNG and SVG or what
    ``figure_formats`` chose; at ``dpi``, or matplotlib's default), its titles wrapped to fit
    (``fit_titles``), close it, and return the paths in the order written."""
    import matplotlib.pyplot as plt

    exts = _FORMATS.get() if exts is None else exts
    paths = []
    try:
        fit_titles(fig)
        for ext in exts:
            path = f"{stem}.{ext}"
            fig.savefig(path, dpi=dpi)
            paths.append(path)
    finally:
        plt.close(fig)
    return paths
