"""The golden-vector machinery of the differential tests (tests/reference_pool.py): a kernel that
differs is named by deal and field, a digest that no longer matches the reference is called stale,
and the vectors depend on the reference's own sources."""
import numpy as np
import pytest

import reference_pool as RP

# A small Écarté case (the reference plays thousands of hands a second): 5,000 hands, five blocks.
CASE = next(c for c in RP.cases("ecarte") if c.group == "forced/0" and c.a == "random")


def test_every_case_has_vectors_and_counts_as_many_deals_as_the_tests():
    if any(RP.count_overridden(g) for g in RP.GAMES):
        pytest.skip("a deal count is set by its environment variable")
    for game in RP.GAMES:
        vec = RP.load_vectors(game)
        assert vec["block"] == RP.BLOCK
        for case in RP.cases(game):
            rec = vec["cases"][case.id]
            assert rec["n"] == case.n and len(rec["digests"]) == len(RP.blocks(case.n))
    deals = {game: sum(c.n for c in RP.cases(game) if c.kind == "deals") for game in RP.GAMES}
    # piquet: 18,000 learned; bezique: 2,800 exact end game, 4,000 meld-aware; ecarte: 36,000 learned leads,
    # 24,000 reading leads
    assert deals == {"bezique": 112_800, "ecarte": 332_000, "piquet": 328_000}


def test_a_differing_kernel_row_names_the_deal_and_the_field(monkeypatch):
    real = RP.kernel_rows

    def broken(case, start=0, n=None):
        rows = real(case, start, n).copy()
        rows[1234 - start, 2] += 1  # deal 1234's elder tricks
        return rows

    monkeypatch.setattr(RP, "kernel_rows", broken)
    with pytest.raises(AssertionError, match=r"deal 1234 \(ecarte .*\): differs at \['elder_tricks'\]"):
        RP.check_case(CASE)


def test_a_digest_the_reference_no_longer_gives_is_stale(monkeypatch):
    vec = RP.load_vectors("ecarte")
    rec = vec["cases"][CASE.id]
    monkeypatch.setitem(vec["cases"], CASE.id, {**rec, "digests": ["0" * RP.DIGEST_HEX] + rec["digests"][1:]})
    with pytest.raises(AssertionError, match="golden vectors stale: run scripts/make_vectors.py"):
        RP.check_case(CASE)
    with pytest.raises(AssertionError, match="golden vectors stale: run scripts/make_vectors.py"):
        RP.check_live_block(CASE, 0, seed=1)


def test_a_changed_source_makes_the_vectors_stale(monkeypatch):
    vec = RP.load_vectors("ecarte")
    monkeypatch.setitem(vec, "sources", {**vec["sources"], "analysis/ecarte/reference/hand.py": "0" * 64})
    assert RP.stale_message("ecarte") == ("golden vectors stale: run scripts/make_vectors.py "
                                          "(the reference's sources changed: analysis/ecarte/reference/hand.py)")


def test_the_sources_are_the_references_own():
    for game in RP.GAMES:
        files = {p.as_posix() for p in RP.source_files(game)}
        deal = "hand" if game == "ecarte" else "deal"
        assert {f"analysis/{game}/{m}.py" for m in (f"reference/{deal}", "rules", "policies")} | {"analysis/rng.py"} <= files
        assert not any(part in f for f in files for part in ("/play/", "/players/heuristic", "/engine/layout"))


def test_digests_see_every_value_and_the_shape():
    rows = np.arange(12, dtype=np.int64).reshape(3, 4)
    assert RP.digest(rows) == RP.digest(rows.copy()) != RP.digest(rows.reshape(4, 3))
    changed = rows.copy()
    changed[2, 3] += 1
    assert RP.digest(changed) != RP.digest(rows)


def test_the_live_sample_is_reproducible_from_its_seed():
    a, b = RP.live_sample("bezique", 7, 2), RP.live_sample("bezique", 7, 2)
    assert [(c.id, k) for c, k in a] == [(c.id, k) for c, k in b] and len(a) == 2
    seeds = {tuple((c.id, k) for c, k in RP.live_sample("piquet", s, 3)) for s in range(20)}
    assert len(seeds) > 1
