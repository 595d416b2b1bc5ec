"""What to throw, by hand shape: the discard study's best exchanges grouped by the dealt hand's
longest suit, as shares of hands (a table to act on at the table, and its heat map)."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

SHAPES = ("4 or fewer", "5", "6 or more")
"""The groups of hands: the number of cards in the dealt hand's longest suit."""

PATTERNS = {"takes_all": "takes every card it may", "throws_whole_suit": "throws a whole suit",
            "throws_only_shortest": "throws only from the shortest suits",
            "keeps_point_suit": "keeps the point's suit whole", "keeps_sequences": "keeps every sequence",
            "keeps_sets": "keeps every set (three or four of a rank)", "keeps_guards": "keeps the guards"}
"""What a best exchange may do (the study's ``best_<key>`` columns), in words."""

MOST_TAKEN = {"elder": 5, "younger": 3}
"""The cards a seat may take when elder took all five (the study's setting)."""


def shape_of(cards: str) -> str:
    """The group (SHAPES) of a hand written as card names (``AH 8D 10D ...``: the suit is the last letter)."""
    names = cards.split()
    longest = max(sum(1 for c in names if c[-1] == s) for s in {c[-1] for c in names})
    return SHAPES[min(max(longest, 4), 6) - 4]


def patterns_by_shape(df: pd.DataFrame, seat: str) -> pd.DataFrame:
    """Rows PATTERNS' words, columns SHAPES present: the share of the study's hands (``study_hands``'
    table, one seat) whose best exchange does each; ``attrs["hands"]`` counts the hands per shape."""
    import pandas as pd

    shape = df["cards"].map(shape_of)
    flags = pd.DataFrame({"takes_all": df["best_takes"].astype(int) >= MOST_TAKEN[seat],
                          **{k: df[f"best_{k}"].astype(bool) for k in PATTERNS if k != "takes_all"}})
    shares = flags.groupby(shape).mean().T.rename(index=PATTERNS)
    shares = shares[[s for s in SHAPES if s in shares.columns]]
    shares.attrs["hands"] = {s: int((shape == s).sum()) for s in shares.columns}
    shares.attrs["seat"] = seat
    return shares


def shape_record(t: pd.DataFrame) -> dict:
    """A ``patterns_by_shape`` table as JSON (the report's context keeps it)."""
    return {"seat": t.attrs["seat"], "hands": t.attrs["hands"], "patterns": list(t.index),
            "shapes": list(t.columns), "shares": t.to_numpy(dtype=float).tolist()}


def shape_table(record: dict) -> pd.DataFrame:
    """The table a ``shape_record`` holds."""
    import pandas as pd

    t = pd.DataFrame(record["shares"], index=record["patterns"], columns=record["shapes"])
    t.attrs.update({"seat": record["seat"], "hands": record["hands"]})
    return t


def plot_patterns_by_shape(tables: list[pd.DataFrame], caption: str = "") -> Figure:
    """One heat map per seat (``patterns_by_shape`` tables) on a shared 0–100% scale with a colour bar."""
    import matplotlib.pyplot as plt
    import numpy as np

    fig, axes = plt.subplots(1, len(tables), figsize=(5.2 * len(tables) + 1.2, 3.9), squeeze=False,
                             constrained_layout=True)
    image = None
    for ax, t in zip(axes[0], tables, strict=True):
        image = ax.imshow(100 * t.to_numpy(dtype=float), vmin=0, vmax=100, cmap="Blues", aspect="auto")
        for (i, j), v in np.ndenumerate(t.to_numpy(dtype=float)):
            ax.text(j, i, f"{100 * v:.0f}%", ha="center", va="center", fontsize=8,
                    color="white" if v > 0.6 else "black")
        ax.set_xticks(range(t.shape[1]), [f"{s}\n({t.attrs['hands'][s]} hands)" for s in t.columns], fontsize=8)
        ax.set_yticks(range(t.shape[0]), t.index if ax is axes[0][0] else [""] * t.shape[0], fontsize=8)
        ax.set_xlabel("cards in the dealt hand's longest suit")
        ax.set_title(f"{t.attrs['seat']}: what the best exchange does", fontsize=10)
    fig.colorbar(image, ax=axes[0].tolist(), label="share of hands (%)", shrink=0.9)
    if caption:
        fig.suptitle(caption, fontsize=9)
    return fig
