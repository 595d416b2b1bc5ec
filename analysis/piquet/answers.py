"""What the Piquet commands answer: the studies and queries run, their files written, and the
result as a JSON object with its text form (the command line only parses arguments)."""
from __future__ import annotations

import os


def discard_answer(hand: str, seat: str, r, samples: int, target_halfwidth: float | None, top: int, show_all: bool,
                   mine: str | None, elder_took: int, race: bool, plot: str | None, seed: int, lang: str,
                   threads: int | None, quiet: bool = True, play: str = "heuristic") -> tuple[dict, str]:
    """Which cards should ``hand`` throw: every legal exchange on the same deals, best first, under
    heuristic play; then, with ``play`` dd or search (auto: what the budget fits), the leaders under
    that play (strong_discards)."""
    import pandas as pd

    from analysis.piquet.discards import analyse_hand, grade, option_json, plot_top
    from analysis.runner import show_progress

    a = analyse_hand(hand, seat, r, samples=samples, target_halfwidth=target_halfwidth,
                     elder_took=elder_took, seed=seed, race=race, mine=mine, threads=threads,
                     lang=None if lang == "en" else lang, exact=False,
                     progress=show_progress(quiet))
    df = a.table
    shown = df if show_all else df.head(top)
    if mine is not None and not shown["mine"].any():
        shown = pd.concat([shown, df[df["mine"]]])
    shown = a.with_exact(shown)
    res = {**a.spec, "rounds": a.rounds, "options": [option_json(r) for _, r in shown.iterrows()]}
    if mine is not None:
        res["mine"] = grade(df, df[df["mine"]].iloc[0])
    if plot:
        res["figures"] = plot_top(df, plot)
    from analysis.piquet.strong_discards import auto_play, strong_analysis, strong_text

    chosen = auto_play(samples) if play == "auto" else play
    res["play"] = {"asked": play, "used": chosen}
    text = discard_text(res)
    if chosen != "heuristic":
        res["strong"] = strong_analysis(a, r, chosen, seed=seed, threads=threads)
        text += "\n" + strong_text(res["strong"])
    else:
        text += "\n(heuristic play only" + (": the --samples budget is below dd's 2,000)" if play == "auto" else ")")
    return res, text


def discard_text(res: dict) -> str:
    """The discard analyser's answer as text: the top exchanges with their intervals."""
    lines = [f"{res['seat']} holds {res['hand']} · rules {res['rules']} · {res['legal_exchanges']} legal exchanges · "
             f"{res['deals_played']:,} sampled deals (seed {res['seed']})"]
    lines.append("racing: " + "; ".join(f"round {r['round']}: {r['options_played']} played, {r['options_left']} left"
                                        f" after {r['deals']:,} deals" for r in res["rounds"]))
    lines.append(f"  {'#':>4}  {'throw':<22} {'net [95%]':<24} {'vs best [95%]':<24} point  seq   sets  repiq "
                 "cards  exact P(point 6+)")
    for o in res["options"]:
        n, d = o["net_score"], o["diff_to_best"]
        big = sum(p for length, p in o["exact"]["point_length"].items() if int(length) >= 6) if "exact" in o else 0
        lines.append(f"  {o['rank']:>4}  {' '.join(o['discard']):<22} {n['value']:+7.2f} [{n['ci95'][0]:+.2f}, "
                     f"{n['ci95'][1]:+.2f}]  {d['value']:+6.2f} [{d['ci95'][0]:+.2f}, {d['ci95'][1]:+.2f}]  "
                     f"{o['p_point']:.2f}  {o['p_sequences']:.2f}  {o['p_sets']:.2f}  {o['p_repique']:.3f} "
                     f"{o['p_cards']:.2f}  {big:.3f}")
    if "mine" in res:
        m = res["mine"]
        g = m["gives_up"]
        lines.append(f"your discard {' '.join(m['discard'])}: rank {m['rank']} of {m['of']}, gives up "
                     f"{g['value']:.2f} points per deal [{g['ci95'][0]:.2f}, {g['ci95'][1]:.2f}] against the best")
    for f in res.get("figures", []):
        lines.append(f"wrote {f}")
    return "\n".join(lines)


def overview_study(deals: int, seed: int, pol, out: str, threads: int | None, quiet: bool) -> tuple[dict, str]:
    """The three variants side by side (tables and figures written to ``out``)."""
    from analysis.piquet.studies import overview, overview_figures

    table, dist = overview(deals, seed, policy=pol, threads=threads, quiet=quiet)
    os.makedirs(out, exist_ok=True)
    stem = os.path.join(out, "piquet_overview")
    table.to_csv(stem + ".csv", index=False)
    dist.to_csv(stem + "_scores.csv", index=False)
    figs = overview_figures(table, dist, stem)
    variants = table.attrs["variants"]
    text = (f"{table.attrs['caption']} {deals:,} deals per variant, seed {seed}.\n"
            + table[["statistic", *variants]].to_string(index=False, float_format=lambda x: f"{x:.4f}")
            + f"\nwrote {stem}.csv, {stem}_scores.csv, " + ", ".join(figs))
    return ({"rows": table.to_dict(orient="records"), "scores": dist.to_dict(orient="records"),
             "files": [stem + ".csv", stem + "_scores.csv"] + figs, **table.attrs}, text)


def discards_study(hands: int, seat: str, samples: int, elder_took: int, seed: int, r, out: str, threads: int | None,
                   quiet: bool) -> tuple[dict, str]:
    """The best exchange of many random hands and what the rules of thumb cost (written to ``out``)."""
    from analysis.piquet.discard_study import study_figures, study_hands, summary
    from analysis.runner import show_progress

    df = study_hands(hands, seat, r, samples=samples, seed=seed, elder_took=elder_took, threads=threads,
                     progress=show_progress(quiet))
    os.makedirs(out, exist_ok=True)
    stem = os.path.join(out, f"piquet_discards_{seat}_{r.name}")
    df.to_csv(stem + ".csv", index=False)
    figs = study_figures(df, stem)
    s = summary(df)
    lines = [f"Piquet discard study · {seat} · rules {r.name} · {hands} hands · up to {samples:,} deals each · seed {seed}",
             "best exchange takes: " + ", ".join(f"{k} cards {v:.0%}" for k, v in s["best_takes"].items()),
             "best exchange: " + ", ".join(f"{k.replace('_', ' ')} {v:.0%}" for k, v in s["best_exchange"].items())]
    for name, v in s["rules"].items():
        c = v["cost"]
        lines.append(f"  {name:<17} costs {c['value']:6.2f} points/deal [{c['ci95'][0]:.2f}, {c['ci95'][1]:.2f}], "
                     f"is the best exchange in {v['is_best']:.0%} of hands ({v['rule']})")
    for name in ("take_all_cost", "random_cost"):
        c = s[name]
        lines.append(f"  {name[:-5]:<17} costs {c['value']:6.2f} points/deal [{c['ci95'][0]:.2f}, {c['ci95'][1]:.2f}]")
    lines.append(f"wrote {stem}.csv, " + ", ".join(figs))
    return {**df.attrs, "summary": s, "files": [stem + ".csv"] + figs}, "\n".join(lines)
