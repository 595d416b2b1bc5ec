"""scripts/fit_exchange.py's sampling: chunks that a stopped run resumes from, merged in hand order,
and the held-out fifth of newly sampled data chosen by a hash unrelated to elder's take."""
import importlib.util
import pathlib

import numpy as np

from analysis.piquet.fit.exchange import Samples, is_held_out_mix
from analysis.piquet.rules import get_rules

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "scripts" / "fit_exchange.py"


def _script():
    spec = importlib.util.spec_from_file_location("fit_exchange", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_sampling_resumes_from_chunks_and_merges_in_order(tmp_path, monkeypatch):
    fx = _script()
    monkeypatch.setattr(fx, "CHUNK", 2)
    fx.sample("seed-de", "younger", 3, 2, tmp_path, 1)
    chunks = sorted((tmp_path / "seed-de-younger").glob("*.npz"))
    assert [c.name for c in chunks] == ["hands-000000-000002-deals-2.npz", "hands-000002-000003-deals-2.npz"]
    first = chunks[0].stat().st_mtime_ns
    merged = np.load(tmp_path / "seed-de-younger.npz")
    again = fx.sample_hands("seed-de", "younger", range(3), 2, 1)
    assert np.array_equal(merged["hand"], again["hand"]) and np.array_equal(merged["took"], again["took"])
    for key in (k for k in again if k.startswith(("values_", "checks_"))):
        assert np.array_equal(merged[key], again[key])
    assert list(merged["took"]) == [1, 5, 5]  # hand 0 follows an elder who took one card
    fx.sample("seed-de", "younger", 3, 2, tmp_path, 1)  # finished chunks are read, not sampled again
    assert chunks[0].stat().st_mtime_ns == first
    s = Samples(tmp_path / "seed-de-younger.npz", get_rules("seed-de"))
    assert s.held_out is is_held_out_mix and s.deals == 2


def test_the_new_held_out_fifth_ignores_how_many_cards_elder_took():
    h = np.arange(50_000)
    held = np.array([is_held_out_mix(int(x)) for x in h])
    assert abs(held.mean() - 0.2) < 0.01
    assert abs(held[h % 5 == 0].mean() - 0.2) < 0.015  # younger's hands after a short take: one in five too


def test_study_cost_reproduces_the_discard_study_learned_cost(tmp_path):
    from analysis.piquet.studies.discards.study import study_hands

    fx = _script()
    for seat in ("elder", "younger"):
        df = study_hands(3, seat, get_rules("seed-de"), samples=200, seed=0)
        df.to_csv(tmp_path / f"{seat}.csv", index=False)
        new, study, costs = fx.study_cost(str(tmp_path / f"{seat}.csv"), seat, samples=200, threads=1)
        assert np.allclose(costs, df["learned_cost"].to_numpy(), atol=1e-9)
        assert new.value == study.value and new.n == 3
