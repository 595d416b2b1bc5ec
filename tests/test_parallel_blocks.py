"""Every kernel block that no other test calls by name runs here on a small input, on one thread and
on two, chunk by chunk: the same rows (the blocks run their chunks on threads, blocks.chunk_rows).
The others are compared across thread counts in tests/test_conformance.py and the studies' own
tests."""
import numpy as np
import pytest

from analysis.blocks import kernel_threads
from analysis.games import GAMES


def _both(block, *args):
    """The block's rows on 1 thread and on 2 threads (6 chunks of 3 deals from deal 5)."""
    starts = np.arange(5, 23, 3, dtype=np.int64)
    counts = np.full(6, 3, dtype=np.int64)
    rows = []
    for threads in (1, 2):
        with kernel_threads(threads):
            rows.append(np.asarray(block(11, starts, counts, *args)))
    return rows


@pytest.mark.parametrize("game", ["ecarte", "piquet", "bezique"])
def test_compare_block(game):
    import importlib

    g = GAMES[game]
    block = importlib.import_module(f"analysis.{game}.play.compare").compare_block
    one, two = _both(block, g.rules().to_array(), g.policy("heuristic").to_array(), g.policy("random").to_array())
    assert np.array_equal(one, two) and one.shape[0] == 6 and one[:, 0].sum() == 18


def test_piquet_parties_block():
    from analysis.piquet.play.partie import parties_block

    g = GAMES["piquet"]
    one, two = _both(parties_block, g.rules().to_array(), g.policy("heuristic").to_array(),
                     g.policy("random").to_array())
    assert np.array_equal(one, two) and one.any()


def test_ecarte_paired_blocks():
    from analysis.ecarte.play.paired import cells_block, fixed_hand_block, pair_block
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.simulate import CLASS_IDS, CLASSES, parse_elder_hand, play_or_propose

    rules, cfg = get_rules().to_array(), play_or_propose(HeuristicPolicy())
    codes, up = parse_elder_hand("KH QH 7S 8D 9C", "10H")
    for block, args in ((pair_block, (rules, cfg)), (fixed_hand_block, (codes, up, rules, cfg)),
                        (cells_block, (CLASS_IDS, len(CLASSES), False, rules, cfg))):
        one, two = _both(block, *args)
        assert np.array_equal(one, two) and one.any(), block


def test_piquet_swings_and_exact_discard_blocks():
    from analysis.cards import parse_cards
    from analysis.piquet.play.deal import deal_outcomes
    from analysis.piquet.policies import get_policy
    from analysis.piquet.rules import get_rules, mask_of
    from analysis.piquet.studies.cards_swing import swings_block
    from analysis.piquet.studies.discards.analyser import exact_table, parse_hand

    rules = get_rules().to_array()
    p = get_policy("dd", ["exchange=learned"]).to_array()
    rows = deal_outcomes(3, 0, 8, rules, p, p)
    hand = parse_hand("AS AH AD 7S 8S 9H 7D 8D 9C 7C 8C 10C")
    options = np.array([mask_of(parse_cards(c)) for c in ("7S 8S 9H 7D 8D", "7S 8S 9H")], dtype=np.int64)
    out = []
    for threads in (1, 2):
        with kernel_threads(threads):
            out.append((swings_block(rows, rules), exact_table(hand, options)))
    assert np.array_equal(out[0][0], out[1][0])
    assert out[0][1] == out[1][1]


def test_the_equilibrium_solver_gives_the_same_strategies_on_one_and_two_threads():
    """side_q and cell_payoffs run inside the solver's iterations."""
    from test_ecarte_equilibrium import random_game

    from analysis.ecarte.studies.equilibrium import solver as S

    elder, dealer, *_ = random_game(3)
    got = []
    for threads in (1, 2):
        with kernel_threads(threads):
            got.append(S.solve(elder, dealer, 200, predictive=True))
    assert all(np.array_equal(a, b) for a, b in zip(got[0], got[1], strict=True))


def test_the_lead_fits_collection_is_the_same_on_one_and_two_threads():
    """fit/lead's collection block (fit/reading_lead's: tests/test_ecarte_reading_leads.py)."""
    from analysis.ecarte.fit import lead as L
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules

    got = []
    for threads in (1, 2):
        with kernel_threads(threads):
            got.append(L.collect(get_rules("classic"), HeuristicPolicy(), 2 * L.CHUNK, 9, samples=1))
    (rec, val), (rec2, val2) = got
    assert len(rec) > 0 and np.array_equal(rec, rec2) and np.array_equal(val, val2, equal_nan=True)
