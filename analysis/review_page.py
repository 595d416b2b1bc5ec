"""``salon review --html``: a review as one annotated page in the guide's style (offline, no
figure files: the loss per decision is drawn as bars in the table itself)."""
from __future__ import annotations


def page(res: dict) -> str:
    """The review ``res`` (``salon review --json``'s object) as HTML."""
    from analysis.games import GAMES
    from analysis.report.build import template_env
    from analysis.review import PLAYER_WORDS, deal_where, match_words, score_words

    g = GAMES[res["game"]]
    worst = max((d["loss"]["value"] for deal in res["deals"] for d in deal["decisions"]
                 if d["loss"] is not None and not d["forced"]), default=0.0)
    return template_env().get_template("review.html.j2").render(
        res=res, title=g.title, unit=g.unit, reviewer=PLAYER_WORDS[res["reviewer"]["player"]],
        scale=max(worst, 1e-9), match=match_words(res["game"], res["match"]) if res.get("match") else "",
        where=deal_where, in_score=lambda d: score_words(res["game"], d).strip(" ()"))


def write_page(res: dict, path: str) -> None:
    """Write the page to ``path`` (``-``: standard output)."""
    from analysis.record_files import write_text

    write_text(path, page(res) + "\n")
