"""``salon bezique advise``: one Bezique decision answered for one hand, by rollouts.

Given my hand and table, the trump suit, the cards already played (``seen``), the opponent's table,
the stock left (the turn-up counted) and, when I follow, the card led: for each distinct card I may
play, my expected net points (mine minus the opponent's, from now to the end of the deal) over
``samples`` layouts of the unseen cards. A layout deals the opponent's hidden hand, the stock's
order and the turn-up (a trump, unless given) uniformly from the cards not accounted for; played
cards not listed in ``seen`` are drawn among them too. Every candidate meets the same layouts (common
random numbers); both players then play ``tuned-exact`` (tuned's parameters, meld_chance 5 and the
exact end game) in the compiled trick loop (``players.trick_loop.play_on``, the search player's rollout machinery). The
meld question: after the best card, where I win the trick with a meld to lay, the best meld laid at
once against none this turn, on the same layouts. Layout ``i`` comes from ``Stream(seed, i)``.

Speed (measured on the busy 2-core machine, kernels cached): ``salon bezique advise`` answers in 1.7
to 2.6 s end to end at the default 500 samples, about 1.5 s of it starting Python and loading the
compiled kernels and about 0.4 s the rollouts (500 layouts x 8 cards and the meld comparison at
stock 40). The first run after an install, or after an edit of a kernel's source, compiles the
trick loop first: about 30 s.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from analysis.bezique.reference.melds import legal_melds, table_order
from analysis.bezique.rules import BeziqueRules, name_of
from analysis.bezique.studies.melds import PUBLIC_NAMES, parse_suit
from analysis.bezique.studies.melds import read_position as read_table
from analysis.bezique.studies.solve import card_codes, mask
from analysis.cards import SUITS
from analysis.errors import InputError
from analysis.results import Result, options_frame
from analysis.rng import Stream

DEFAULT_SAMPLES = 500
POLICY = "tuned-exact"
POLICY_WORDS = ("tuned-exact (the tuned heuristic counting the chance of completing melds, with the exact "
                "end game)")
FULL_STOCK = 48  # 47 cards and the turn-up (BZ-DEAL)


@dataclass
class Position:
    """A position read from the command's text: physical codes, who plays, what is unseen."""

    trump: int
    stock: int
    trick: int
    hand: list[int]
    table: dict[int, frozenset]
    opp_table: dict[int, frozenset]
    seen: list[int]
    led: int | None
    turn_up: int | None
    opp_hidden: int
    pool: list[int]  # the unseen codes: the opponent's hidden hand, the stock, unlisted played cards


def _remap_opponent(opp: dict[int, frozenset], mine: dict[int, frozenset]) -> dict[int, frozenset]:
    """The opponent's table codes moved to the copies my table leaves free."""
    out = {}
    for f in {c & 31 for c in opp}:
        his = sorted(c for c in opp if c & 31 == f)
        free = [c for c in (f, f + 32) if c not in mine]
        if len(his) > len(free):
            raise InputError(f"a third {name_of(f)} on the two tables (the pack has two)")
        out.update({new: opp[old] for old, new in zip(his, free, strict=False)})
    return out


def _table(text: str | None, trump: int, what: str, rules: BeziqueRules) -> dict[int, frozenset]:
    """A player's table cards and the meld kinds each was used in, read as ``salon bezique melds`` does."""
    if not text:
        return {}
    try:
        return read_table("", trump, text, None, rules)[1]
    except InputError as e:
        raise InputError(f"{what}: {e}") from None


def read_position(hand: str, trump: str, *, seen: str | None, stock: int, led: str | None, table: str | None,
                  opp_table: str | None, turn_up: str | None, rules: BeziqueRules) -> Position:
    """The inputs checked (cards, copies, counts, stock) and resolved into physical codes."""
    t = parse_suit(trump)
    if not (stock == 0 or (2 <= stock <= FULL_STOCK and stock % 2 == 0)):
        raise InputError(f"--stock must be 0 (the end phase) or an even number from 2 to {FULL_STOCK} "
                         f"(the turn-up counted), not {stock}")
    mine, his = _table(table, t, "--table", rules), _table(opp_table, t, "--opp-table", rules)
    if stock == 0 and (mine or his or turn_up):
        raise InputError("with the stock exhausted (--stock 0) the tables are back in the hands and the turn-up "
                         "taken: give no --table, --opp-table or --turn-up (BZ-END)")
    his = _remap_opponent(his, mine)
    faces = {what: [c & 31 for c in card_codes(text or "", what)]
             for what, text in (("hand", hand), ("--seen", seen), ("--led", led), ("--turn-up", turn_up))}
    for what in ("--led", "--turn-up"):
        if len(faces[what]) > 1:
            raise InputError(f"{what} is one card, not {len(faces[what])}")
    if not 1 <= len(faces["hand"]) <= 8:
        raise InputError(f"the hand must hold 1 to 8 cards, not {len(faces['hand'])}")
    if faces["--turn-up"] and faces["--turn-up"][0] >> 3 != t:
        raise InputError(f"--turn-up {name_of(faces['--turn-up'][0])} is not a trump: the turn-up names the trump suit")
    counts = Counter([c & 31 for c in (*mine, *his)] + [f for v in faces.values() for f in v])
    over = sorted(name_of(f) for f, k in counts.items() if k > 2)
    if over:
        raise InputError(f"more than two of {', '.join(over)} among the hand, the tables, --seen, --led and "
                         f"--turn-up (the pack has two of each card)")
    taken = set(mine) | set(his)
    resolved = {}
    for what, fs in faces.items():
        resolved[what] = [c for c in ((f if f not in taken else f + 32) for f in fs) if not taken.add(c)]
    is_led = bool(resolved["--led"])
    held = len(resolved["hand"]) + len(mine)
    if stock > 0 and held != 8:
        raise InputError(f"in the stock phase you hold 8 cards, hand and table together, not {held}")
    trick = (FULL_STOCK - stock) // 2 + 1 if stock else 33 - held
    opp_hidden = (8 - len(his) if stock else held) - is_led
    if opp_hidden < 0:
        raise InputError(f"--opp-table holds {len(his)} cards, more than the opponent's {8 - is_led}")
    played = 2 * (trick - 1)
    if len(resolved["--seen"]) > played:
        raise InputError(f"--seen lists {len(resolved['--seen'])} cards, but only {played} were played before "
                         f"trick {trick} (stock {stock})")
    pool = sorted(set(range(64)) - taken)
    if stock and not resolved["--turn-up"] and not any(c >> 3 & 3 == t for c in pool):
        raise InputError("the turn-up is a trump, but every trump is accounted for: check --seen")
    return Position(t, stock, trick, resolved["hand"], mine, his, resolved["--seen"],
                    (resolved["--led"] or [None])[0], (resolved["--turn-up"] or [None])[0], opp_hidden, pool)


def candidates(pos: Position, rules: BeziqueRules) -> list[int]:
    """My distinct legal cards (per face the lowest hand copy and the first table copy; in the end
    phase, the legal follows to the card led)."""
    by_face: dict[tuple, int] = {}
    for c in sorted(pos.hand) + table_order(pos.table):
        by_face.setdefault((c & 31, c in pos.table), c)
    opts = sorted(by_face.values())
    if pos.stock == 0 and pos.led is not None:
        from analysis.bezique.reference.solver import end_legal_follows
        opts = end_legal_follows(opts, pos.led, pos.trump, rules.end_must_win)
    return opts


def layout(pos: Position, seed: int, i: int) -> tuple[list[int], list[int], int | None, list[int]]:
    """Layout ``i``: (the opponent's hidden hand, the stock in drawing order, the turn-up, the played
    cards not listed), drawn from ``Stream(seed, i)``; the turn-up uniform among the unseen trumps."""
    rng = Stream(seed, i, 0)
    pool = list(pos.pool)
    tu = pos.turn_up
    if pos.stock and tu is None:
        trumps = [c for c in pool if c >> 3 & 3 == pos.trump]
        tu = trumps[rng.below(len(trumps))]
        pool.remove(tu)
    for k in range(len(pool) - 1):  # Fisher-Yates
        j = k + rng.below(len(pool) - k)
        pool[k], pool[j] = pool[j], pool[k]
    h, s = pos.opp_hidden, max(pos.stock - 1, 0)
    return pool[:h], pool[h:h + s], tu, pool[h + s:]


class Rollouts:
    """The compiled trick loop set up at the position; plays a layout with my first card forced."""

    def __init__(self, pos: Position, rules: BeziqueRules):
        from analysis.bezique.engine import layout as L
        from analysis.bezique.players import trick_loop as TL
        from analysis.bezique.players.heuristic import set_keep_values
        from analysis.bezique.policies import get_policy

        self.L, self.TL, self.pos = L, TL, pos
        self.rules, self.policy = rules.to_array(), get_policy(POLICY).to_array()
        self.scr = TL.new_scratch()
        S = np.zeros(L.N_STATE, dtype=np.int64)
        opp_led = [pos.led] if pos.led is not None else []
        S[L.S_HAND] = mask(pos.hand)
        for seat, tab in ((0, pos.table), (1, pos.opp_table)):
            S[L.S_TABLE + seat] = mask(list(tab))
            for c, kinds in tab.items():
                S[L.S_KINDS + c] = sum(1 << L.KIND_NAMES.index(k) for k in kinds)
        for k, name in enumerate(L.KIND_NAMES):
            S[L.S_USED + k] = mask([c for tab in (pos.table, pos.opp_table) for c, ks in tab.items() if name in ks])
        for seat in (0, 1):
            set_keep_values(S, seat, pos.trump, self.policy)
        self.S, self.played = S, pos.seen + opp_led
        out = np.zeros(L.N_OUT, dtype=np.int64)
        out[L.O_PLAYED:L.O_PLAYED + 64] = -1
        out[L.O_MELD_AT:L.O_MELD_AT + 24] = -1
        self.out = out
        p = np.zeros(TL.N_POS, dtype=np.int64)
        p[[TL.Q_TRICK, TL.Q_LEADER, TL.Q_DRAWN, TL.Q_NPLAYED, TL.Q_GW]] = (
            pos.trick, int(pos.led is not None), 47 if pos.stock == 0 else FULL_STOCK - pos.stock,
            2 * (pos.trick - 1) + len(opp_led), -1)
        p[TL.Q_PHASE], p[TL.Q_LED] = (TL.PH_FOLLOW, pos.led) if pos.led is not None else (TL.PH_LEAD, -1)
        self.pos0 = p

    def deal(self, opp_hand: list[int], stock: list[int], turn_up: int | None, unlisted: list[int]) -> None:
        """Load a layout into the scratch arrays (the state every candidate starts from)."""
        L, TL, scr = self.L, self.TL, self.scr
        scr.S[:] = self.S
        scr.S[L.S_HAND + 1] = mask(opp_hand)
        scr.S[L.S_PLAYED] = mask(self.played + unlisted)
        scr.deck[:] = 0
        scr.deck[64 - len(stock):] = stock
        tu = 8 * self.pos.trump if turn_up is None else turn_up
        self.base = (scr.S.copy(), self.out.copy(), self.pos0.copy())
        self.base[1][L.O_TURN_UP] = tu
        self.base[2][TL.Q_TURNUP] = tu

    def play(self, first: int, stop_at_meld: bool = False) -> int:
        """My net points to the end of the deal with ``first`` forced; with ``stop_at_meld`` stop at
        my next decision instead (returns None; the caller resumes)."""
        scr, TL = self.scr, self.TL
        scr.S[:], scr.out[:], scr.pos[:] = self.base
        scr.pos[TL.Q_FORCED] = first
        return self.resume(1 if stop_at_meld else 0)

    def resume(self, stop_mask: int = 0, forced: int = -1):
        """Play on from the scratch position; my net points, or None when paused."""
        from analysis.bezique.engine.cards import NO_TARGET

        scr, L = self.scr, self.L
        if forced >= 0:
            scr.pos[self.TL.Q_FORCED] = forced
        _, gw = self.TL.play_on(scr, np.uint64(0), self.rules, self.policy, self.policy, 0, 0, NO_TARGET, stop_mask)
        if gw == self.TL.PAUSE:
            return None
        return int(scr.out[L.O_TOTAL] - scr.out[L.O_TOTAL + 1])


def _estimate(x: np.ndarray) -> dict:
    """Mean of integer values with its 95% t interval, as JSON."""
    from analysis.stats import mean_from_sums

    x = x.astype(np.int64)
    return mean_from_sums(int(x.sum()), int((x * x).sum()), len(x)).to_dict()


def _excludes_zero(est: dict | None) -> bool:
    """Whether an estimate's interval lies wholly on one side of 0."""
    lo, hi = (est or {}).get("ci95") or (None, None)
    return lo is not None and (lo > 0 or hi < 0)


def _card(c: int, pos: Position) -> str:
    return name_of(c) + (" (table)" if c in pos.table else "")


def _meld_question(pos: Position, ro: Rollouts, layouts: list, first: int) -> dict:
    """After ``first``: on the layouts where I win the trick and may meld, the best meld laid at once
    against none this turn (same layouts, both continued by the rollout policy)."""
    from analysis.bezique.players.search import heuristic_choice

    scr, TL = ro.scr, ro.TL
    now, hold, laid = [], [], Counter()
    for lay in layouts:
        ro.deal(*lay)
        if ro.play(first, stop_at_meld=True) is not None or scr.pos[TL.Q_PHASE] != TL.PH_MELD:
            continue  # no meld to lay after this trick (lost it, or nothing legal)
        k = heuristic_choice(scr, 0, ro.rules, ro.policy)
        if k == TL.NO_MELD:
            continue
        laid[ro.L.KIND_NAMES[scr.ms[0, scr.order[k]]]] += 1
        saved = (scr.S.copy(), scr.out.copy(), scr.pos.copy())
        now.append(ro.resume(0, forced=k))
        scr.S[:], scr.out[:], scr.pos[:] = saved
        hold.append(ro.resume(0, forced=TL.NO_MELD))
    diff = _estimate(np.array(now) - np.array(hold)) if len(now) >= 2 else None
    return {"after": _card(first, pos), "occasions": len(now), "layouts": len(layouts),
            "laid": {PUBLIC_NAMES.get(k, k): n for k, n in laid.most_common()},
            "meld_now_minus_hold": diff, "clear": _excludes_zero(diff)}


def advise(hand: str, trump: str, *, seen: str | None = None, stock: int = FULL_STOCK, led: str | None = None,
           table: str | None = None, opp_table: str | None = None, turn_up: str | None = None,
           rules: BeziqueRules, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> Result:
    """Each card I may play ranked by expected net points to the end of the deal, with intervals,
    paired differences against the best, and the meld-now-or-hold comparison after the best card."""
    if not 2 <= samples <= 100_000:
        raise InputError(f"--samples must be from 2 to 100000, not {samples}")
    if seed < 0:
        raise InputError(f"--seed must not be negative, not {seed}")
    pos = read_position(hand, trump, seen=seen, stock=stock, led=led, table=table, opp_table=opp_table,
                        turn_up=turn_up, rules=rules)
    cands = candidates(pos, rules)
    ro = Rollouts(pos, rules)
    layouts = [layout(pos, seed, i) for i in range(samples)]
    nets = np.zeros((len(cands), samples), dtype=np.int64)
    for i, lay in enumerate(layouts):
        ro.deal(*lay)
        for k, c in enumerate(cands):
            nets[k, i] = ro.play(c)
    order = sorted(range(len(cands)), key=lambda k: (-int(nets[k].sum()), cands[k]))
    best = order[0]
    rows = [{"card": _card(cands[k], pos), "from_table": cands[k] in pos.table, "net": _estimate(nets[k]),
             "vs_best": _estimate(nets[k] - nets[best])} for k in order]
    runner = rows[1] if len(rows) > 1 else None
    melds = {"legal_now": [{"name": PUBLIC_NAMES.get(m.kind, m.kind), "cards": [name_of(c) for c in m.cards],
                            "points": m.points} for m in legal_melds(pos.hand, pos.table, pos.trump, rules)]}
    if pos.stock:
        melds.update(_meld_question(pos, ro, layouts, cands[best]))
    else:
        melds["note"] = "no melds: the stock is exhausted (BZ-END)"
    res = {"rules": rules.name, "hand": hand, "trump": SUITS[pos.trump], "stock": pos.stock, "trick": pos.trick,
            "you": "follow" if pos.led is not None else "lead",
            "led": None if pos.led is None else name_of(pos.led),
            "turn_up": None if pos.turn_up is None else name_of(pos.turn_up),
            "unseen": len(pos.pool), "unlisted_played": 2 * (pos.trick - 1) - len(pos.seen),
            "opponent": POLICY_WORDS, "rollout": f"{POLICY} for both players to the end of the deal",
            "samples": samples, "seed": seed,
            "method": ("each card is played on the same layouts of the unseen cards (the opponent's hand, the "
                       "stock's order, the turn-up among the unseen trumps unless given, played cards not in "
                       "--seen), drawn uniformly; both players then play the rollout policy; net = your points "
                       "minus the opponent's from now to the end of the deal (game target ignored)"),
            "candidates": rows, "best": rows[0]["card"], "runner_up": runner["card"] if runner else None,
            "clear": runner is None or _excludes_zero(runner["vs_best"]), "melds": melds}
    return Result(res, options_frame(rows), title=f"Bezique: what to play from {hand} (trumps {SUITS[pos.trump]})")


def _num(est: dict | None) -> str:
    """``+12.3 [+8.0, +16.6]``."""
    if not est or est.get("value") is None:
        return "n/a"
    lo, hi = est["ci95"]
    return f"{est['value']:+.1f} [{lo:+.1f}, {hi:+.1f}]" if lo is not None else f"{est['value']:+.1f}"


def _words(name: str) -> str:
    """A meld's name as words: ``royal_marriage`` -> ``royal marriage``."""
    return name.replace("_", " ")


def _typed(name: str, typed: str) -> str:
    """A card name of the JSON (``QH``, ``QH (table)``) in the notation the hand was typed in."""
    from analysis.bezique.rules import CODEC
    from analysis.cards import parse_card
    from analysis.words import cards_as_typed

    face, table = name.removesuffix(" (table)"), name.endswith(" (table)")
    return cards_as_typed([parse_card(face)], typed, CODEC.book_order) + (" from your table" if table else "")


def _group(names: list[str], typed: str) -> str:
    """Several cards of the JSON in the typed notation (book style grouped by suit)."""
    from analysis.bezique.rules import CODEC
    from analysis.cards import parse_card
    from analysis.words import cards_as_typed

    return cards_as_typed([parse_card(n) for n in names], typed, CODEC.book_order)


def advise_answer(res: dict) -> list[str]:
    """The answer in one or two plain lines: the card to play with its worth, and after it
    whether to meld at once or hold, in the hand's own notation."""
    from analysis.words import confidence

    typed = res.get("hand") or ""
    best = _typed(res["best"], typed)
    act = f"Follow {_typed(res['led'], typed)} with {best}" if res["led"] else f"Play {best}"
    net = _num(res["candidates"][0]["net"])
    if res["runner_up"] is None:
        first = f"{act}: your only card, worth {net} points to the end of the deal (yours minus the opponent's)."
    elif res["clear"]:
        gap = res["candidates"][1]["vs_best"]
        lo, hi = gap["ci95"]
        more = _num({"value": -gap["value"], "ci95": [-hi, -lo]})
        first = (f"{act} — {confidence(True)}: worth {net} points to the end of the deal (yours minus the "
                 f"opponent's), {more} more than the next best, {_typed(res['runner_up'], typed)}.")
    else:
        first = (f"{act} — {confidence(False)}: worth {net} points to the end of the deal (yours minus the "
                 f"opponent's); the next best, {_typed(res['runner_up'], typed)}, scores "
                 f"{_num(res['candidates'][1]['vs_best'])} against it.")
    lines = [first]
    m = res["melds"]
    diff = m.get("meld_now_minus_hold")
    if diff and m.get("laid"):
        kind = next(iter(m["laid"]))
        cards = next((x["cards"] for x in m["legal_now"] if x["name"] == kind), None)
        meld = f"the {_words(kind)}" + (f" ({_group(cards, typed)})" if cards else "")
        if m["clear"] and diff["value"] > 0:
            lines.append(f"If you win the trick, lay {meld} at once — {confidence(True)}: {_num(diff)} points over "
                         "holding it this turn.")
        elif m["clear"]:
            flip = {"value": -diff["value"], "ci95": [-diff["ci95"][1], -diff["ci95"][0]]}
            lines.append(f"If you win the trick, hold {meld} this turn — {confidence(True)}: {_num(flip)} points "
                         "over laying it at once.")
        else:
            lines.append(f"If you win the trick, lay {meld} at once or hold it: {confidence(False)} "
                         f"({_num(diff)} points for laying it now).")
    return lines


ADVISE_LEGEND = [("card", "a card you may play (one of each kind)"),
                 ("net points", "your points minus the opponent's from now to the end of the deal, averaged over "
                                "the layouts of the cards you cannot see, both players then playing salon's "
                                "tuned heuristic"),
                 ("vs best", "the card's net points minus the best card's, on the same layouts"),
                 ("[95%]", "the 95% interval: intervals made this way hold the true value 19 times in 20")]


def advise_text(res: dict, verbose: bool = False) -> str:
    """The text form of ``advise``: the answer first, then the table with its legend and the melds
    (``verbose``: the players and the method behind it)."""
    from analysis.words import legend

    who = f"you follow {_typed(res['led'], res.get('hand') or '')}" if res["led"] else "you lead"
    lines = [*advise_answer(res), "",
             f"Bezique · rules {res['rules']} · trumps {res['trump']} · trick {res['trick']}, stock "
             f"{res['stock']} · {who} · {res['samples']} layouts of {res['unseen']} unseen cards (seed {res['seed']})",
             f"  {'card':<12} {'net points [95%]':<26} vs best [95%]"]
    typed = res.get("hand") or ""
    for r in res["candidates"]:
        vs = "best" if r is res["candidates"][0] else _num(r["vs_best"])
        lines.append(f"  {_typed(r['card'], typed):<12} {_num(r['net']):<26} {vs}")
    lines += legend(ADVISE_LEGEND)
    m = res["melds"]
    legal = "; ".join(f"{_words(x['name'])} {_group(x['cards'], typed)} {x['points']}" for x in m["legal_now"])
    lines.append(f"  melds with your cards now: {legal or 'none'}")
    if "occasions" in m:
        lines.append(f"  meld or hold after {_typed(m['after'], typed)}: you win the trick with a meld to lay in {m['occasions']} "
                     f"of {m['layouts']} layouts" + (f" ({', '.join(f'{_words(k)} {n}' for k, n in m['laid'].items())})"
                                                      if m["laid"] else ""))
        if m["meld_now_minus_hold"]:
            lines.append(f"    the best meld laid at once minus none this turn: {_num(m['meld_now_minus_hold'])}")
        else:
            lines.append("    too few such layouts to compare melding with holding")
    else:
        lines.append("  no melds: the stock is exhausted (BZ-END)")
    if verbose:
        lines += [f"  opponent: {res['opponent']}", f"  rollouts: {res['rollout']}", f"  method: {res['method']}",
                  "  decision: " + ("clear" if res["clear"] else "not clear") + " (the paired 95% interval of the "
                  "runner-up minus the best " + ("excludes" if res["clear"] else "includes") + " 0)"]
    return "\n".join(lines)
