"""The plot functions of the Python API return matplotlib figures (or draw into a given axes)
without writing files; the file-writing functions the report and the CLI call still write the same
files, through the one ``save_figure``. Small synthetic tables with the studies' columns and attrs,
and the shipped Écarté equilibrium tables."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.image as mpimg  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from analysis.plots import save_figure  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _interval_rows(names, variants, rng, low=0.1, high=0.9) -> list[dict]:
    rows = []
    for name in names:
        r = {"statistic": name}
        for v in variants:
            x = float(rng.uniform(low, high))
            r.update({v: x, f"{v}_lo": x - 0.05, f"{v}_hi": x + 0.05})
        rows.append(r)
    return rows


def _png_size(path) -> tuple[int, int]:
    """(width, height) in pixels of a written PNG."""
    h, w = mpimg.imread(str(path)).shape[:2]
    return w, h


def _files(tmp_path) -> set[str]:
    return {p.name for p in tmp_path.iterdir()}


def _bars(ax) -> list:
    """The axes' bar groups (one per variant), each with its interval bars."""
    from matplotlib.container import BarContainer

    return [c for c in ax.containers if isinstance(c, BarContainer)]


# ------------------------------------------------------------------------------ the saver
def test_save_figure_writes_each_extension_and_closes_the_figure(tmp_path):
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [1, 0])
    assert plt.fignum_exists(fig.number)
    stem = str(tmp_path / "fig")
    paths = save_figure(fig, stem, exts=("png", "svg", "pdf"), dpi=50)
    assert paths == [stem + ".png", stem + ".svg", stem + ".pdf"]
    assert _files(tmp_path) == {"fig.png", "fig.svg", "fig.pdf"}
    assert all((tmp_path / f).stat().st_size > 500 for f in ("fig.png", "fig.svg", "fig.pdf"))
    assert _png_size(tmp_path / "fig.png") == (200, 150)  # 4 x 3 inches at 50 dpi
    assert (tmp_path / "fig.svg").read_text().lstrip().startswith("<?xml")
    assert not plt.fignum_exists(fig.number)


def test_save_figure_closes_the_figure_when_saving_fails(tmp_path):
    fig, ax = plt.subplots()
    ax.plot([0, 1])
    with pytest.raises(ValueError):
        save_figure(fig, str(tmp_path / "fig"), exts=("png", "no-such-format"))
    assert (tmp_path / "fig.png").exists()
    assert not plt.fignum_exists(fig.number)


def test_titles_that_would_run_off_the_figure_are_wrapped_inside_it_and_short_ones_left_alone():
    from analysis.plots import fit_titles

    fig, (left, right) = plt.subplots(1, 2, figsize=(5, 3), layout="tight")
    long = "Écarté elder: propose or play, by hand class, heuristic discards, heuristic trick play, seed-de"
    left.set_title(long)
    right.set_title("short")
    fig.suptitle("A suptitle far too long for a figure five inches wide: " + long)
    assert fit_titles(fig)
    assert "\n" in left.get_title() and left.get_title().replace("\n", " ") == long
    assert right.get_title() == "short"
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for t in (left.title, right.title, fig._suptitle):
        box = t.get_window_extent(renderer)
        assert 0 <= box.x0 and box.x1 <= fig.bbox.width and box.y1 <= fig.bbox.height
    assert not fit_titles(fig)  # wrapped once, they fit


# ------------------------------------------------------------------------------ Bezique
@pytest.fixture
def bezique_table():
    from analysis.bezique.studies.simulate import OVERVIEW_STATS

    names = [*OVERVIEW_STATS["meld"], "points_per_deal_elder", "points_per_deal_dealer", "seven_points",
             "elder_minus_dealer"]
    t = pd.DataFrame(_interval_rows(names, ["seed-de", "classic"], np.random.default_rng(1)))
    t.attrs.update({"variants": ["seed-de", "classic"], "deals": 1234})
    return t


def test_bezique_meld_rates_figure(bezique_table):
    from analysis.bezique.studies.simulate import OVERVIEW_STATS, plot_meld_rates

    fig = plot_meld_rates(bezique_table)
    assert isinstance(fig, Figure) and plt.fignum_exists(fig.number)
    (ax,) = fig.axes
    melds = OVERVIEW_STATS["meld"]
    assert len(ax.patches) == 2 * len(melds)  # a bar per meld and variant
    assert len(_bars(ax)) == 2 and all(c.errorbar is not None for c in _bars(ax))
    assert [t.get_text() for t in ax.get_yticklabels()] == [m.replace("_", " ") for m in melds]
    assert ax.get_xlim() == (0, 1) and "1,234 deals" in ax.get_title()
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["seed-de", "classic"]


def test_bezique_meld_rates_into_given_axes(bezique_table):
    from analysis.bezique.studies.simulate import OVERVIEW_STATS, plot_meld_rates

    fig, (left, right) = plt.subplots(1, 2)
    assert plot_meld_rates(bezique_table, ax=right) is fig
    assert len(right.patches) == 2 * len(OVERVIEW_STATS["meld"]) and not left.patches
    assert len(fig.axes) == 2


def test_bezique_points_figure(bezique_table):
    from analysis.bezique.studies.simulate import plot_points

    fig = plot_points(bezique_table)
    points, edge = fig.axes
    assert len(points.patches) == 3 * 2 and len(edge.patches) == 2
    assert points.get_ylabel() == edge.get_ylabel() == "points per deal"
    assert [t.get_text() for t in edge.get_xticklabels()] == ["elder − dealer"]
    assert any(list(line.get_ydata()) == [0, 0] for line in edge.lines)  # the zero line


def test_bezique_overview_figures_write_the_same_files(bezique_table, tmp_path):
    from analysis.bezique.studies.simulate import overview_figures

    stem = str(tmp_path / "bezique_overview")
    before = set(plt.get_fignums())
    paths = overview_figures(bezique_table, stem)
    assert paths == [f"{stem}_{n}.{e}" for n in ("melds", "points") for e in ("png", "svg")]
    assert _files(tmp_path) == {f"bezique_overview_{n}.{e}" for n in ("melds", "points")
                                for e in ("png", "svg")}
    assert _png_size(f"{stem}_melds.png") == (800, 450) and _png_size(f"{stem}_points.png") == (1000, 400)
    assert set(plt.get_fignums()) == before  # closed


# ------------------------------------------------------------------------------ Piquet overview
VARIANTS = ["seed-de", "seed-no", "cavendish"]


@pytest.fixture
def piquet_overview():
    from analysis.piquet.studies.simulate import SCORE_BINS

    rng = np.random.default_rng(2)
    table = pd.DataFrame(_interval_rows(("elder_minus_younger", "elder_edge_declarations", "elder_edge_play"),
                                        VARIANTS, rng, -3, 8))
    dist = pd.DataFrame({"bin": list(SCORE_BINS),
                         **{f"{v}_{s}": rng.dirichlet(np.ones(len(SCORE_BINS))) for v in VARIANTS
                            for s in ("elder", "younger")}})
    for d in (table, dist):
        d.attrs.update({"variants": VARIANTS, "deals": 1000})
    return table, dist


def test_piquet_score_distribution_figure(piquet_overview):
    from analysis.piquet.studies.simulate import SCORE_BINS, plot_score_distribution

    _, dist = piquet_overview
    fig = plot_score_distribution(dist)
    elder, younger = fig.axes
    for ax, seat in ((elder, "elder"), (younger, "younger")):
        assert len(ax.patches) == len(SCORE_BINS) * len(VARIANTS)
        assert ax.get_title() == f"{seat}'s score per deal" and ax.get_xlabel() == "points in the deal"
        heights = [p.get_height() for p in ax.patches[:len(SCORE_BINS)]]
        assert heights == pytest.approx(dist[f"seed-de_{seat}"].tolist())
    assert elder.get_ylabel() == "share of deals"
    # the variants may be given (the overview's table's)
    fig2 = plot_score_distribution(dist, ["cavendish"])
    assert len(fig2.axes[0].patches) == len(SCORE_BINS)
    assert [p.get_height() for p in fig2.axes[0].patches] == pytest.approx(dist["cavendish_elder"].tolist())


def test_piquet_elder_edge_figure_and_given_axes(piquet_overview):
    from analysis.piquet.studies.simulate import plot_elder_edge

    table, _ = piquet_overview
    fig = plot_elder_edge(table)
    (ax,) = fig.axes
    assert len(ax.patches) == 3 * len(VARIANTS) and len(_bars(ax)) == len(VARIANTS)
    assert all(c.errorbar is not None for c in _bars(ax))
    assert [t.get_text() for t in ax.get_xticklabels()] == ["total", "declarations", "play"]
    assert ax.patches[0].get_height() == pytest.approx(table.loc[0, "seed-de"])
    fig2, ax2 = plt.subplots()
    assert plot_elder_edge(table, ax=ax2) is fig2 and len(ax2.patches) == 3 * len(VARIANTS)


def test_piquet_overview_figures_write_the_same_files(piquet_overview, tmp_path):
    from analysis.piquet.studies.simulate import overview_figures

    table, dist = piquet_overview
    stem = str(tmp_path / "piquet_overview")
    paths = overview_figures(table, dist, stem)
    assert paths == [f"{stem}_{n}.{e}" for n in ("scores", "edge") for e in ("png", "svg")]
    assert _files(tmp_path) == {f"piquet_overview_{n}.{e}" for n in ("scores", "edge")
                                for e in ("png", "svg")}
    assert _png_size(f"{stem}_scores.png") == (1100, 400) and _png_size(f"{stem}_edge.png") == (700, 400)
    assert not plt.get_fignums()


# ------------------------------------------------------------------------------ Piquet discards
@pytest.fixture
def discard_study_df():
    from analysis.piquet.studies.discards.study import FEATURES, RULES_OF_THUMB

    rng = np.random.default_rng(3)
    n = 12
    cols = {"best_takes": [1, 2, 3, 3, 2, 3, 3, 1, 3, 2, 3, 3], "random_cost": rng.uniform(2, 6, n),
            "take_all_cost": rng.uniform(0, 3, n), "dealt_declarations": rng.integers(0, 20, n),
            "declaring_minus_tricks": rng.normal(0, 2, n), "sequence_minus_point": rng.normal(0, 2, n)}
    cols.update({f"best_{k}": rng.integers(0, 2, n).astype(bool) for k in FEATURES})
    for name in list(RULES_OF_THUMB)[:3]:  # a study need not measure every rule
        cols.update({f"{name}_cost": rng.uniform(0, 2, n),
                     f"{name}_is_best": rng.integers(0, 2, n).astype(bool)})
    for label in ("repique", "declaring", "tricks", "point", "sequence"):
        cols.update({f"max_{label}_differs": rng.integers(0, 2, n).astype(bool),
                     f"max_{label}_cost": rng.uniform(0, 2, n)})
    df = pd.DataFrame(cols)
    df.attrs.update({"seat": "younger", "rules": "seed-de"})
    return df


def test_piquet_discard_study_figure(discard_study_df):
    from analysis.piquet.studies.discards.study import RULES_OF_THUMB, plot_discard_study

    fig = plot_discard_study(discard_study_df)
    takes, costs = fig.axes
    assert [p.get_height() for p in takes.patches] == pytest.approx([2 / 12, 3 / 12, 7 / 12])
    assert takes.get_title() == "younger, seed-de: 12 hands"
    names = [*list(RULES_OF_THUMB)[:3], "take_all", "random"]
    assert [t.get_text() for t in costs.get_yticklabels()] == names
    assert len(costs.patches) == len(names) and _bars(costs)[0].errorbar is not None
    assert costs.patches[-2].get_width() == pytest.approx(discard_study_df["take_all_cost"].mean(), abs=0.01)


def test_piquet_study_figures_write_the_same_files(discard_study_df, tmp_path):
    from analysis.piquet.studies.discards.study import study_figures

    stem = str(tmp_path / "piquet_discards_younger")
    assert study_figures(discard_study_df, stem) == [stem + ".png", stem + ".svg"]
    assert _files(tmp_path) == {"piquet_discards_younger.png", "piquet_discards_younger.svg"}
    assert _png_size(stem + ".png") == (1100, 400) and not plt.get_fignums()


@pytest.fixture
def discard_table():
    rng = np.random.default_rng(4)
    net = np.sort(rng.normal(0, 5, 20))[::-1]
    t = pd.DataFrame({"discard": [(f"{r}S", "8H", "7D") for r in range(20)], "net": net,
                      "net_lo": net - 1, "net_hi": net + 1.5})
    t.attrs.update({"seat": "elder", "hand": "AS KS QS"})
    return t


def test_piquet_top_options_figure_and_given_axes(discard_table):
    from analysis.piquet.studies.discards.analyser import plot_top_options

    fig = plot_top_options(discard_table, top=5)
    (ax,) = fig.axes
    line = ax.lines[0]
    assert list(line.get_xdata()) == pytest.approx(discard_table["net"][:5][::-1].tolist())  # best at the top
    assert [t.get_text() for t in ax.get_yticklabels()][-1] == "0S 8H 7D"
    assert ax.collections  # the interval bars
    assert tuple(fig.get_size_inches()) == pytest.approx((8, 0.35 * 5 + 1.5))
    assert "elder, AS KS QS" in ax.get_title()
    fig2, ax2 = plt.subplots()
    assert plot_top_options(discard_table, ax=ax2) is fig2
    assert len(ax2.lines[0].get_xdata()) == 15  # the default top


@pytest.mark.parametrize("name,written", [("top.png", ["top.png"]), ("top.svg", ["top.svg"]),
                                          ("top", ["top.png", "top.svg"])])
def test_piquet_plot_top_writes_the_same_files(discard_table, tmp_path, name, written):
    from analysis.piquet.studies.discards.analyser import plot_top

    paths = plot_top(discard_table, str(tmp_path / name), top=4)
    assert paths == [str(tmp_path / w) for w in written]
    assert _files(tmp_path) == set(written) and not plt.get_fignums()
    if "top.png" in written:
        assert _png_size(tmp_path / "top.png") == (800, round(100 * (0.35 * 4 + 1.5)))


# ------------------------------------------------------------------------------ Écarté
@pytest.fixture
def propose_df():
    rows = [("T: -", 0, False, 0, -0.5), ("T: 7", 1, False, 1, -0.2), ("T: K", 1, True, 0, 0.1),
            ("T: K Q", 2, True, 1, 0.4), ("T: A 10", 2, False, 2, 0.3), ("T: K Q J", 3, True, 0, 0.8)]
    df = pd.DataFrame(rows, columns=["class", "trumps", "trump_king", "plain_kings", "propose_minus_play"])
    df["diff_lo"] = df["propose_minus_play"] - 0.15
    df["diff_hi"] = df["propose_minus_play"] + 0.15
    df["better"] = np.where(df["propose_minus_play"] > 0, "propose", "play")
    df.attrs.update({"rules": "seed-de", "caption": "Heuristic play for both players."})
    return df.sample(frac=1, random_state=0)  # the plot sorts it


def test_ecarte_propose_table_figure_and_given_axes(propose_df):
    from matplotlib.colors import to_rgba

    from analysis.ecarte.studies.simulate import plot_propose_table

    fig = plot_propose_table(propose_df)
    (ax,) = fig.axes
    points = ax.collections[-1]
    assert len(points.get_offsets()) == 6
    # sorted by trumps, trump king, plain kings
    assert [t.get_text() for t in ax.get_yticklabels()] == ["T: -", "T: 7", "T: K", "T: A 10", "T: K Q",
                                                            "T: K Q J"]
    colours = [tuple(c) for c in points.get_facecolors()]
    assert colours.count(to_rgba("tab:blue")) == 4 and colours.count(to_rgba("tab:red")) == 2
    assert "(seed-de)" in ax.get_title() and "Heuristic play" in ax.get_title()
    fig2, (a, b) = plt.subplots(2)
    assert plot_propose_table(propose_df, ax=b) is fig2
    assert len(b.collections[-1].get_offsets()) == 6 and not a.collections


def test_ecarte_propose_table_figure_writes_the_same_files(propose_df, tmp_path):
    from analysis.ecarte.studies.simulate import propose_table_figure

    stem = str(tmp_path / "ecarte_propose_seed-de")
    assert propose_table_figure(propose_df, stem) == [stem + ".png", stem + ".svg"]
    assert _files(tmp_path) == {"ecarte_propose_seed-de.png", "ecarte_propose_seed-de.svg"}
    assert _png_size(stem + ".png") == (880, 990)  # 8 x 9 inches at 110 dpi, as before
    assert not plt.get_fignums()


@pytest.fixture(scope="module")
def equilibrium():
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.equilibrium.tables import shipped

    got = shipped(get_rules(), HeuristicPolicy())
    assert got is not None
    return got


def test_ecarte_equilibrium_figure(equilibrium, tmp_path):
    from analysis.ecarte.studies.equilibrium.report import figure, plot_equilibrium

    df, summary = equilibrium
    fig = plot_equilibrium(df, "seed-de", summary)
    panels, bar = fig.axes[:6], fig.axes[6]
    assert len(fig.axes) == 7 and bar.get_ylabel().startswith("share of hands")
    for ax in panels:
        (im,) = ax.images
        grid = np.asarray(im.get_array())
        assert grid.shape == (6, 5) and np.nanmin(grid) >= 0 and np.nanmax(grid) <= 1
        assert np.isfinite(grid).sum() > 10 and len(ax.texts) == np.isfinite(grid).sum()
    assert "rules seed-de" in fig.get_suptitle()
    plt.close(fig)
    stem = str(tmp_path / "ecarte_equilibrium_seed-de")
    assert figure(df, stem, "seed-de", summary) == [stem + ".png", stem + ".svg"]
    assert _files(tmp_path) == {"ecarte_equilibrium_seed-de.png", "ecarte_equilibrium_seed-de.svg"}
    assert _png_size(stem + ".png") == (1300, 750) and not plt.get_fignums()


@pytest.fixture
def strategy_result():
    from analysis.ecarte.studies.strategy.tables import Strategy

    rng = np.random.default_rng(5)

    def side(yes: str, no: str) -> pd.DataFrame:
        rows = [(t, tk, pk) for t in range(6) for tk in ((False, True) if t else (False,))
                for pk in range(min(4, 5 - t) + 1)]
        df = pd.DataFrame(rows, columns=["trumps", "trump_king", "plain_kings"])
        df["weight"] = rng.uniform(0.1, 1, len(df))
        df["decision"] = np.where(rng.uniform(size=len(df)) < df["trumps"] / 5, yes, no)
        return df

    res = Strategy(elder=side("propose", "play"), dealer=side("refuse", "accept"), rounds=[],
                   exploitability={},
                   spec={"rules": "seed-de", "deals_per_hand": 4000, "discards": None},
                   elder_rows=np.zeros(0), dealer_rows=np.zeros(0))
    s = np.arange(5)
    score = pd.DataFrame([(x, y) for x in s for y in s], columns=["elder_score", "dealer_score"])
    score["elder_clear_changed"] = rng.uniform(0, 0.2, len(score))
    score["dealer_clear_changed"] = rng.uniform(0, 0.02, len(score))
    return res, score


def test_ecarte_strategy_frontiers_figure(strategy_result):
    from analysis.ecarte.studies.strategy.tables import plot_frontiers

    res, _ = strategy_result
    fig = plot_frontiers(res)
    assert len(fig.axes) == 3  # two panels and their colour bar
    assert fig.axes[2].get_ylabel().startswith("share of hands")  # added: the bar's label
    e = res.elder
    cell = (e["trumps"] == 2) & (e["plain_kings"] + e["trump_king"].astype(int) == 1)
    w = e.loc[cell, "weight"]
    want = (w * (e.loc[cell, "decision"] == "propose")).sum() / w.sum()
    assert np.asarray(fig.axes[0].images[0].get_array())[2, 1] == pytest.approx(want)
    assert len(fig.axes[1].images) == 1 and fig.axes[1].texts
    assert "4,000 deals per hand class, heuristic discards" in fig.get_suptitle()


def test_ecarte_strategy_by_score_figure(strategy_result):
    from analysis.ecarte.studies.strategy.tables import plot_by_score

    _, score = strategy_result
    fig = plot_by_score(score)
    assert len(fig.axes) == 4  # two panels, each with its colour bar (added)
    elder, dealer = fig.axes[0], fig.axes[1]
    grid = np.asarray(elder.images[0].get_array())
    assert grid.shape == (5, 5) and grid[3, 1] == pytest.approx(
        score.set_index(["elder_score", "dealer_score"]).loc[(3, 1), "elder_clear_changed"])
    assert len(elder.texts) == len(dealer.texts) == 25
    assert dealer.images[0].get_clim() == (0, 0.05)  # the scale floor where nothing much changes
    assert all(cb.get_ylabel() == "share that changes" for cb in fig.axes[2:])


def test_ecarte_strategy_figures_write_the_same_files(strategy_result, tmp_path):
    from analysis.ecarte.studies.strategy.tables import figures

    res, score = strategy_result
    stem = str(tmp_path / "ecarte_strategy_seed-de")
    assert figures(res, score, stem) == [f"{stem}_{n}.{e}" for n in ("frontiers", "by_score")
                                         for e in ("png", "svg")]
    assert _files(tmp_path) == {f"ecarte_strategy_seed-de_{n}.{e}" for n in ("frontiers", "by_score")
                                for e in ("png", "svg")}
    assert _png_size(f"{stem}_frontiers.png") == (1210, 462)  # 11 x 4.2 and 10 x 4.2 inches at 110 dpi
    assert _png_size(f"{stem}_by_score.png") == (1100, 462)
    assert not plt.get_fignums()


# ------------------------------------------------------------------------------ the backend
def test_plot_functions_leave_the_backend_alone_and_the_writers_force_agg(
        monkeypatch, bezique_table, piquet_overview, discard_study_df, discard_table, propose_df,
        strategy_result, tmp_path):
    from analysis.bezique.studies.simulate import plot_meld_rates, plot_points
    from analysis.ecarte.studies.simulate import plot_propose_table, propose_table_figure
    from analysis.ecarte.studies.strategy.tables import plot_by_score, plot_frontiers
    from analysis.piquet.studies.discards.analyser import plot_top_options
    from analysis.piquet.studies.discards.study import plot_discard_study
    from analysis.piquet.studies.simulate import plot_elder_edge, plot_score_distribution

    calls = []
    monkeypatch.setattr(matplotlib, "use", lambda backend, *a, **k: calls.append(backend))
    table, dist = piquet_overview
    res, score = strategy_result
    figs = [plot_meld_rates(bezique_table), plot_points(bezique_table), plot_score_distribution(dist),
            plot_elder_edge(table), plot_discard_study(discard_study_df), plot_top_options(discard_table),
            plot_propose_table(propose_df), plot_frontiers(res), plot_by_score(score)]
    assert all(isinstance(f, Figure) for f in figs) and calls == []
    propose_table_figure(propose_df, str(tmp_path / "p"))
    assert calls == ["Agg"]
