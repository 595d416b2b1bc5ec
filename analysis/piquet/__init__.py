"""Piquet: rules, reference, kernel, policies, studies and records (docs/piquet-engine.md)."""
from analysis.game import Game, Lazy, Mode

_API = "analysis.piquet.api:"

GAME = Game(
    name="piquet", title="Piquet", seats=("elder", "younger"), unit="deal",
    variants=Lazy("analysis.piquet.rules:VARIANTS"),
    get_rules=Lazy("analysis.piquet.rules:get_rules"),
    policies=("heuristic", "random", "learned", "learned-ordering", "dd", "search"), get_policy=Lazy("analysis.piquet.policies:get_policy"),
    modes=(Mode("deals", None, Lazy(_API + "simulate_deals")),
           Mode("parties", "--partie", Lazy(_API + "simulate_parties"))),
    record=Lazy(_API + "record"), save_records=Lazy("analysis.piquet.reference.records:save_records"),
    replay=Lazy("analysis.piquet.reference.records:replay"), replay_text=Lazy(_API + "replay_text"),
    replay_net=Lazy(_API + "replay_net"), net=Lazy(_API + "net"),
    explain=Lazy(_API + "explain"), compare=Lazy(_API + "compare"), invariants=Lazy(_API + "invariants"),
    tips=Lazy("analysis.piquet.studies.tips"), tip_policy=Lazy(_API + "tip_policy"),
    bench=Lazy("analysis.piquet.bench:run"), bench_text=Lazy("analysis.piquet.bench:text"), commands=Lazy("analysis.piquet.commands:group"),
    report=Lazy("analysis.piquet.report"),
    studies=Lazy("analysis.piquet.commands:study"),
    playing_rules=Lazy("analysis.piquet.studies.playing_rules:rule_answer"),
    rule_ladders=Lazy("analysis.piquet.studies.rule_ladder:ladders_answer"),
    notation=Lazy("analysis.piquet.record_text"), review=Lazy("analysis.piquet.review"),
)
