"""Bezique: rules, reference, kernel, policies, studies and records (docs/bezique-engine.md)."""
from analysis.game import Game, Lazy, Mode

_API = "analysis.bezique.api:"

GAME = Game(
    name="bezique", title="Bezique", seats=("elder", "dealer"), unit="deal",
    variants=Lazy("analysis.bezique.rules:VARIANTS"),
    get_rules=Lazy("analysis.bezique.rules:get_rules"),
    policies=("heuristic", "random", "tuned", "tuned-exact", "search"),
    get_policy=Lazy("analysis.bezique.policies:get_policy"),
    modes=(Mode("deals", None, Lazy(_API + "simulate_deals")), Mode("games", "--game", Lazy(_API + "simulate_games"))),
    record=Lazy(_API + "record"), save_records=Lazy("analysis.bezique.reference.records:save_records"),
    replay=Lazy("analysis.bezique.reference.records:replay"), replay_text=Lazy(_API + "replay_text"),
    replay_net=Lazy(_API + "replay_net"), net=Lazy(_API + "net"),
    explain=Lazy(_API + "explain"), compare=Lazy(_API + "compare"), invariants=Lazy(_API + "invariants"),
    tips=Lazy("analysis.bezique.studies.tips"), tip_policy=Lazy(_API + "tip_policy"),
    bench=Lazy("analysis.bezique.bench:run"), bench_text=Lazy("analysis.bezique.bench:text"), commands=Lazy("analysis.bezique.commands:group"),
    report=Lazy("analysis.bezique.report"), studies=Lazy("analysis.bezique.commands:study"),
    playing_rules=Lazy("analysis.bezique.studies.playing_rules:rule_answer"),
    rule_ladders=Lazy("analysis.bezique.studies.rule_ladder:ladders_answer"),
    notation=Lazy("analysis.bezique.record_text"), review=Lazy("analysis.bezique.review"),
)
