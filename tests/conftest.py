"""Shared fixtures, the run's live-sample seed, the order in which test files start, and which
tests are slow."""
import os
import time
from pathlib import Path

import compile_log
import pytest

from reference_pool import open_pool

# The order in which the files start (scripts/test: two xdist workers, a file each at a time, in
# this order: --dist loadfile --no-loadscope-reorder). Most of a cold-cache run is numba compiling
# the kernels, single-threaded, and a kernel compiled by one worker is loaded from the disk cache
# by the other afterwards; so the files that compile the big kernels start first, on both workers,
# and the report and tips tests, which use nearly every kernel, start when those are compiled.
FIRST = ("test_cli.py",              # hands_block, the Bezique and Piquet deals/games blocks (~100 s)
         "test_ecarte_search.py",    # the search blocks, hand_outcomes, elder_block (~40 s)
         "test_ecarte_strategy.py",  # the table kernels (~10 s)
         "test_piquet_discards.py",  # options_block (~15 s), once test_cli.py has compiled play_dealt
         "test_ecarte_equilibrium.py",  # the branch kernels, the equilibrium solver
         "test_report_and_tips.py",  # every study: ~130 s, little of it compiling by then
         "test_conformance.py")      # the compare blocks
# The others longest first (seconds in a cold-cache run of two workers, compilation included;
# files not listed count 2 s), the notebooks after the files that compile their kernels.
SECONDS = {"test_ecarte_watching.py": 40, "test_store.py": 28, "ecarte.ipynb": 25, "test_dask.py": 21, "test_runner_ranges.py": 13,
           "test_bezique_differential.py": 12, "piquet.ipynb": 26, "test_ecarte_differential.py": 9,
           "test_piquet_differential.py": 8, "test_bezique_tips.py": 7, "bezique.ipynb": 33,
           "test_bezique_reference.py": 6, "test_ecarte_solver.py": 6, "test_ecarte_kernel_decisions.py": 4,
           "test_compare.py": 3, "test_review_fixes.py": 3, "test_interrupts_and_input.py": 20,
           "test_kernel_cache.py": 30, "test_parallel_blocks.py": 20,
           "review.ipynb": 10, "test_review.py": 25}

# Tests taking more than about 2 s with numba's cache warm: `scripts/test -m "not slow"` leaves
# them (and the notebooks) out; CI runs everything.
SLOW = (
    "notebooks/",
    "tests/test_playing_rules.py::test_always_proposing_costs_what_the_tables_say_and_the_britannica_what_classical_says",
    "tests/test_playing_rules.py::test_exploitability_is_zero_for_the_solution_and_for_a_rule_that_leaves_no_answer_and_clear_for_a_bad_rule",
    "tests/test_playing_rules.py::test_the_command_line_contract",
    "tests/test_bezique_playing_rules.py::test_the_players_own_choice_written_as_a_rule_costs_exactly_zero",
    "tests/test_bezique_playing_rules.py::test_the_shipped_ladders_choose_on_one_seed_and_cost_on_another_with_the_books_beside",
    "tests/test_report_and_tips.py::test_report_is_written_with_exact_values_and_verdicts",
    "tests/test_report_and_tips.py::test_report_reads_in_a_browser",
    "tests/test_report_and_tips.py::test_tip_verdicts_are_real_or_not_yet_studied",
    "tests/test_report_and_tips.py::test_piquet_tip_verdicts_are_real",
    "tests/test_report_and_tips.py::test_the_quick_budget_runs_its_few_tips_leaves_the_search_parts_out_and_says_so",
    "tests/test_ecarte_strategy.py::test_strategy_command_writes_tables_and_propose_reads_them",
    "tests/test_ecarte_equilibrium.py::test_strategy_cli_quick_equilibrium_contract",
    "tests/test_ecarte_strategy.py::test_the_score_chain_matches_simulated_games_under_the_heuristic",
    "tests/test_store.py::test_a_run_killed_with_kill_9_resumes_with_identical_numbers",
    "tests/test_store.py::test_a_discard_study_stopped_by_ctrl_c_or_kill_9_resumes_identically",
    "tests/test_store.py::test_discard_study_is_identical_with_and_without_the_store",
    "tests/test_store.py::test_two_processes_running_the_same_study_at_once_leave_one_consistent_entry",
    "tests/test_kernel_cache.py::test_an_edit_to_a_constant_a_kernel_reads_compiles_it_again",
    "tests/test_dask.py::test_the_discard_study_on_dask_equals_the_local_one",
    "tests/test_conformance.py::test_records_through_the_command_line_replay",
    "tests/test_runner_ranges.py::test_the_propose_table_is_read_back_from_the_store_and_extended",
    "tests/test_ecarte_solver.py::test_solver_equals_brute_force_on_random_positions",
    "tests/test_bezique_differential.py::test_live_reference_sample",
    "tests/test_interrupts_and_input.py::test_ctrl_c_stops_at_once_says_what_was_kept_and_exits_130",
    "tests/test_report_and_tips.py::test_every_bezique_tip_has_well_formed_verdicts",
    "tests/test_piquet_learned_refine.py::test_the_fit_kept_is_the_cheapest_on_validation_and_beats_the_zero_scorer",
    "tests/test_piquet_learned_refine.py::test_the_softmax_fit_uses_each_groups_first_hands_up_to_its_cap",
    "tests/test_piquet_learned_exchange.py::test_fit_recovers_a_planted_model_on_held_out_hands",
    "tests/test_piquet_learned_exchange.py::test_kernel_choice_equals_the_reference_and_no_move_improves_it",
    "tests/test_piquet_learned_exchange.py::test_scorer_fit_learns_a_kept_hand_effect_the_ordering_cannot",
    "tests/test_piquet_learned_exchange.py::test_kernel_and_reference_learned_players_agree_deal_by_deal",
    "tests/test_ecarte_watching.py::test_reading_the_exchange_draws_the_exact_posterior[3-1-True]",
    "tests/test_piquet_partie_reference.py::test_parties_played_for_the_margin_are_well_formed_and_play_differently[search",
    "tests/test_dask.py::test_the_discard_study_on_dask_fills_the_store",
    "tests/test_piquet_differential.py::test_live_reference_sample",
    "tests/test_piquet_strong_reference.py::test_kernel_and_reference_strong_players_agree_deal_by_deal[cavendish-search",
    "tests/test_ecarte_watching.py::test_reading_the_exchange_draws_the_exact_posterior[2-2-",
    "tests/test_report_refresh.py::test_refresh_ecarte_equilibrium_reads_the_shipped_tables",
    "tests/test_piquet_strong_discard_study.py::test_refresh_players_replaces_only_the_players_table",
    "tests/test_ecarte_kernel_decisions.py::test_follow_matches_reference",
    "tests/test_piquet_strong_discard_study.py::test_the_study_resumes_from_the_store_identically",
    "tests/test_bezique_search.py::test_search_beats_the_heuristic_it_rolls_out_with_and_keeps_the_invariants",
    "tests/test_conformance.py::test_malformed_input_exits_2_with_one_line",
    "tests/test_ecarte_discard_rules.py::test_the_shipped_discard_ladders_cost_what_salon_rule_measures",
    "tests/test_ecarte_discard_rules.py::test_the_command_line_contract",
    "tests/test_review_fixes.py::test_melds_command_reads_the_mark_and_rejects_bad_marks",
    "tests/test_rule_ladder.py::test_refit_searches_the_same_ladder_again",
    "tests/test_rule_ladder.py::test_the_shipped_rungs_cost_what_salon_rule_says_on_the_held_out_deals",
    "tests/test_piquet_playing_rules.py::test_the_books_rules_in_the_syntax_throw_what_the_discard_study_throws[elder",
    "tests/test_piquet_playing_rules.py::test_the_cost_is_held_out_and_paired_with_the_books_rules_on_the_same_hands",
    "tests/test_review.py::test_ecarte_open_hands_losses_add_up_to_the_value_at_the_first_lead_minus_the_result",
    "tests/test_review.py::test_ecarte_hands_played_by_open_hands_review_at_no_loss_and_a_planted_card_is_the_largest_error",
    "tests/test_review.py::test_ecarte_later_rounds_proposals_and_answers_are_rated_on_layouts",
    "tests/test_review.py::test_review_page_reads_in_a_browser",
    "tests/test_review.py::test_piquet_deals_played_by_open_hands_review_at_no_card_loss_and_the_losses_add_up",
    "tests/test_review.py::test_bezique_seven_exchange_is_rated_wherever_the_winner_could_exchange",
    "tests/test_review.py::test_bezique_stock_phase_is_rated_on_layouts_of_the_hidden_cards_reproducibly",
    "tests/test_dask.py::test_dask_tallies_equal_the_local_ones",
    "tests/test_piquet_partie_play.py::test_playing_for_the_margin_changes_some_parties_and_only_their_deciding_deals",
    "tests/test_piquet_rule_ladder.py::test_the_search_finds_a_planted_rule",
    "tests/test_piquet_rule_ladder.py::test_strong_costs_pair_every_rule_on_the_same_hands",
    "tests/test_piquet_strong.py::test_playing_for_the_pique_changes_play_and_is_worth_points_to_elder",
    "tests/test_compare.py::test_same_policy_on_the_command_line_is_zero",
    "tests/test_piquet_playing_rules.py::test_the_books_rules_in_the_syntax_throw_what_the_discard_study_throws[younger",
    "tests/test_piquet_learned_exchange.py::test_hands_shorter_than_twelve_cards_are_ordered_as_the_reference_orders_them",
    "tests/test_bezique_endgame.py::test_kernel_plays_the_exact_end_game_as_the_reference_does[seed-de]",
    "tests/test_piquet_partie_play.py::test_kernel_and_reference_parties_agree[cavendish-search-margin]",
    "tests/test_piquet_partie_play.py::test_kernel_and_reference_parties_agree[seed-de-search-margin]",
    "tests/test_piquet_partie_play.py::test_kernel_and_reference_parties_agree[seed-no-search-margin]",
    "tests/test_dask.py::test_a_killed_worker_costs_only_its_batch",
    "tests/test_compare.py::test_the_command_line_contract",
    "tests/test_ecarte_differential.py::test_golden_vectors_are_fresh",
    "tests/test_ecarte_kernel_decisions.py::test_lead_and_weakest_match_reference",
    "tests/test_piquet_learned_exchange.py::test_with_an_additive_scorer_the_choice_is_the_best_legal_exchange",
    "tests/test_piquet_strong_reference.py::test_kernel_and_reference_strong_players_agree_deal_by_deal[seed-de-search",
    "tests/test_report_refresh.py::test_refresh_one_tip_replaces_only_its_verdicts",
)


def _rank(item) -> tuple:
    name = Path(str(item.path)).name
    if name in FIRST:
        return (0, FIRST.index(name))
    return (1, -SECONDS.get(name, 2), name)


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(config, items):
    """Files in the order above (tests inside a file keep theirs); the slow tests marked."""
    position = {id(item): k for k, item in enumerate(items)}
    items.sort(key=lambda item: (_rank(item), position[id(item)]))
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)


def pytest_configure(config):
    """One seed per run for the golden vectors' live sample, shared with the xdist workers (they
    inherit the environment) and printed in the header so that a failing sample can be repeated."""
    if not hasattr(config, "workerinput") and not os.environ.get("SALON_VECTOR_SEED"):
        os.environ["SALON_VECTOR_SEED"] = str(int(time.time()) % 1_000_000)
    if os.environ.get("SALON_COMPILE_LOG"):
        compile_log.install(os.environ["SALON_COMPILE_LOG"])


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """The compile log (tests/compile_log.py) names the test that compiled."""
    compile_log.CURRENT[0] = item.nodeid
    yield


def pytest_report_header(config):
    return (f"golden vectors: live reference sample seed {os.environ.get('SALON_VECTOR_SEED')} "
            "(SALON_VECTOR_SEED=N repeats it)")


@pytest.fixture(scope="session")
def reference_pool():
    """Worker processes for the plain-Python references, one per core the test workers leave free
    (only for deal counts that have no golden vectors)."""
    with open_pool() as pool:
        yield pool


@pytest.fixture(autouse=True)
def no_result_store(monkeypatch, request):
    """Tests compute their numbers: the result store is off unless a test turns it on."""
    if "uses_store" not in request.keywords:
        monkeypatch.setenv("SALON_RESULTS", "off")


@pytest.fixture
def salon(capsys):
    """``salon(args)`` runs the command line in-process: (exit code, stdout, stderr)."""
    from analysis.cli import main

    def run(args):
        try:
            main(args)
            code = 0
        except SystemExit as e:
            code = e.code
        out = capsys.readouterr()
        return code, out.out, out.err

    return run
