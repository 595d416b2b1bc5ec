"""Écarté: rules, reference, kernel, policies, studies and records (docs/ecarte-engine.md)."""
from analysis.game import Game, Lazy, Mode

_API = "analysis.ecarte.api:"

GAME = Game(
    name="ecarte", title="Écarté", seats=("elder", "dealer"), unit="hand",
    variants=Lazy("analysis.ecarte.rules:VARIANTS"),
    get_rules=Lazy("analysis.ecarte.rules:get_rules"),
    policies=("heuristic", "random"), get_policy=Lazy("analysis.ecarte.policies:get_policy"),
    modes=(Mode("hands", None, Lazy(_API + "simulate_hands")), Mode("games", "--game", Lazy(_API + "simulate_games"))),
    record=Lazy(_API + "record"), save_records=Lazy("analysis.ecarte.reference.records:save_records"),
    replay=Lazy("analysis.ecarte.reference.records:replay"), replay_text=Lazy(_API + "replay_text"),
    replay_net=Lazy(_API + "replay_net"), net=Lazy(_API + "net"),
    explain=Lazy(_API + "explain"), compare=Lazy(_API + "compare"), invariants=Lazy(_API + "invariants"),
    tips=Lazy("analysis.ecarte.studies.tips"), tip_policy=Lazy(_API + "tip_policy"),
    bench=Lazy("analysis.ecarte.bench:run"), bench_text=Lazy("analysis.ecarte.bench:text"), commands=Lazy("analysis.ecarte.commands:group"),
    report=Lazy("analysis.ecarte.report"),
    playing_rules=Lazy("analysis.ecarte.studies.playing_rules:rule_answer"),
    rule_ladders=Lazy("analysis.ecarte.studies.rule_ladder:ladders_answer"),
    studies=Lazy("analysis.ecarte.commands:study"),
    notation=Lazy("analysis.ecarte.record_text"), review=Lazy("analysis.ecarte.review"),
)
