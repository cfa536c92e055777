"""The balance search: what may change, how candidates are played and remembered, and that a
small search improves its objective and repeats itself for the same seed."""

from __future__ import annotations

import math

import pytest

from rules.decks.cardset import CORE_SET, load_card_set
from rules.lab.balance_search import (
    Field,
    LocalEvaluator,
    Move,
    Problem,
    SearchSpace,
    SpaceError,
    Tally,
    balance_search,
    space_moves,
)
from rules.lab.balance_search.evaluate import (
    EvalTask,
    logit,
    matchup_seed,
    play_task,
    smoothed_rate,
)
from rules.lab.balance_search.memo import Evaluations
from rules.lab.balance_search.model import Model
from rules.lab.balance_search.result import pareto, scored_of
from rules.lab.balance_search.search import _rescreen, _screen, _State, scaled
from rules.lab.balance_search.space import (
    NO_MOVES,
    UNKNOWN_FIELD,
    candidate_patch,
    edits_between,
    key_cards,
    patch_candidate,
    screened_moves,
)
from rules.lab.intervals import Moments, cluster_rate, wilson_interval
from rules.lab.match import run_match
from rules.lab.patches import Change, Patch, patch_card_defs

CORE = load_card_set(CORE_SET)
THREE = tuple(CORE.deck(n) for n in ("Ember Rush", "Tidewall", "Gravecallers"))
FIELD = Field(cards=CORE.cards, decks=THREE, agent="greedy")


def tiny_problem(seed: int = 3) -> Problem:
    space = SearchSpace.for_decks(THREE, CORE.cards, fields=("cost", "attack"))
    return Problem(field=FIELD, space=space, max_changes=3, seed=seed, budget_games=3_000,
                   verify_games=100, rounds=2, rungs=(1, 2), base_blocks=2, proposals=3,
                   screen_cards=2)


def test_numbers_move_within_the_spread_and_only_fields_a_card_has():
    space = SearchSpace.for_decks(THREE, CORE.cards, only=["H01", "C005"])
    moves = space_moves(space, CORE.cards)
    hero = [m for m in moves if m.card == "H01"]
    printed = CORE.cards["H01"].hp
    assert [(m.field, m.value) for m in hero] == [("hp", printed + d) for d in (-2, -1, 1, 2)]
    assert {m.field for m in moves if m.card == "C005"} == {"cost", "attack"}   # no minion HP
    assert all(m.size == abs(m.step) for m in moves)


def test_keywords_toggle_and_impossible_values_are_never_offered():
    space = SearchSpace.for_decks(THREE, CORE.cards, only=["C002"], fields=("cost", "keywords"))
    moves = space_moves(space, CORE.cards)
    assert all(m.value >= 0 for m in moves if m.field == "cost")
    assert len([m for m in moves if m.field == "keywords"]) == 3


def test_a_space_says_what_is_wrong_with_it():
    with pytest.raises(SpaceError, match="'colour' cannot be searched"):
        SearchSpace.for_decks(THREE, CORE.cards, fields=("colour",))
    assert "cannot be searched" in UNKNOWN_FIELD
    space = SearchSpace.for_decks(THREE, CORE.cards, only=["H01"], fields=("cost",))
    with pytest.raises(SpaceError, match=NO_MOVES):
        space_moves(space, CORE.cards)


def test_nearer_steps_share_the_farthest_steps_screening():
    space = SearchSpace.for_decks(THREE, CORE.cards, only=["H01"], fields=("hp",))
    plan = screened_moves(space_moves(space, CORE.cards))
    shares = sorted((m.step, far.step, share) for m, (far, share) in plan.items())
    assert shares == [(-2, -2, 1.0), (-1, -2, 0.5), (1, 2, 0.5), (2, 2, 1.0)]


def test_key_cards_are_each_decks_hero_and_its_most_copied_cards():
    keys = key_cards(THREE[:1], CORE.cards, 3)
    counts = THREE[0].counts()
    assert keys[0] == "H01" and len(keys) == 4
    assert all(counts[code] == max(counts.values()) for code in keys[1:])


def test_cards_an_adapted_list_rides_on_take_turns_with_its_most_copied_ones():
    """An adapted Tidewall rides on its one Abyssal Tidelord: screened at two cards a deck
    though eleven of its cards have more copies; Ghoul, which it does not play, is no key."""
    tidewall = THREE[1]
    counts = tidewall.counts()
    assert counts["C039"] == 1 and "C045" not in counts
    keys = key_cards([tidewall], CORE.cards, 2, [("C045", "C039")])
    assert keys == ["H04", key_cards([tidewall], CORE.cards, 1)[1], "C039"]
    assert "C039" not in key_cards([tidewall], CORE.cards, 2)


def test_a_block_plays_the_games_a_run_with_the_same_seed_plays():
    """Common random numbers: a task's games are a run's games, patch included."""
    move = Move("H01", "hp", CORE.cards["H01"].hp + 2, 2, 2)
    task = EvalTask((move,), 0, 1, matchup_seed(5, 0, 1), 0, 2)
    total = sum(play_task(FIELD, task), Tally())
    patched = patch_card_defs(CORE.cards, candidate_patch((move,), "Ignara +2"))
    stats = run_match(patched, THREE[0], THREE[1], games=100, seed=task.seed,
                      agent_a="greedy", agent_b="greedy")
    assert (total.wins, total.losses, total.draws) == (stats.wins, stats.losses, stats.draws)
    assert sum(total.pairs) * 2 + total.errors <= 100


class CountingEvaluator:
    def __init__(self):
        self.tasks: list[EvalTask] = []

    def evaluate(self, tasks):
        self.tasks.extend(tasks)
        return [[Tally(wins=t.a + 1, losses=1)] * t.blocks for t in tasks]


def test_matchups_a_move_cannot_touch_are_shared_with_the_unpatched_field():
    counting = CountingEvaluator()
    memo = Evaluations(counting, THREE, lambda a, b: a * 10 + b)
    memo.ensure([()], 2)
    tidewall_hero = Move("H04", "hp", 30, 1, 1)
    memo.ensure([(tidewall_hero,)], 2)
    # Ember Rush against Gravecallers does not hold Tidewall's hero: not played again.
    assert [(t.a, t.b) for t in counting.tasks[3:]] == [(0, 1), (1, 2)]
    memo.ensure([(tidewall_hero,)], 3)
    assert all(t.first == 2 and t.blocks == 1 for t in counting.tasks[5:])


def test_the_pareto_front_keeps_what_no_fewer_changes_beat():
    a, b, c = (Move("H01", "hp", v, 1, 1) for v in (1, 2, 3))
    d = Move("H04", "hp", 5, 1, 1)

    def scored(moves, wins):
        return scored_of(moves, {(0, 1): Tally(wins=wins, losses=100 - wins)}, (0.45, 0.55))

    front = pareto([scored((), 70), scored((a,), 60), scored((b,), 58),
                    scored((c, d), 59), scored((a, d), 52)])
    assert [(len(s.moves), round(s.worst, 2)) for s in front] == [(2, 0.02), (1, 0.08),
                                                                    (0, 0.2)]


def test_the_model_adds_effects_in_log_odds_and_proposes_fixes():
    up = Move("H01", "hp", 40, 2, 2)
    down = Move("H04", "hp", 28, 2, -2)
    model = Model([(0, 1)], {up: {(0, 1): -0.4}, down: {(0, 1): -0.4}}, [up, down])
    picks = model.propose((), [0.8], max_changes=2)
    assert picks[0].moves == (up, down) and picks[0].worst == pytest.approx(0.0, abs=1e-9)


@pytest.fixture(scope="module")
def searched():
    with LocalEvaluator(FIELD, processes=1) as evaluator:
        return balance_search(tiny_problem(), evaluator)


def test_a_small_search_improves_its_objective(searched):
    """Measured on the same seeds and games, the best candidate beats the unpatched field."""
    unpatched = next(s for s in searched.searched if not s.moves)
    best = searched.searched[0]
    assert best.games == unpatched.games == 100
    assert best.moves and best.worst < unpatched.worst
    assert searched.front and searched.front[0].games == 100      # verified on fresh seeds
    assert searched.baseline.moves == () and searched.games_verified > 0


def test_the_same_seed_gives_the_same_search(searched):
    with LocalEvaluator(FIELD, processes=2) as evaluator:
        again = balance_search(tiny_problem(), evaluator)
    names = [d.name for d in THREE]
    assert again.to_dict(names) == searched.to_dict(names)


def test_a_verified_matchup_interval_is_computed_on_its_seat_swapped_pairs():
    # 40 pairs split 1-1, 30 won twice, 30 lost twice, and two games whose partner errored.
    tally = Tally(wins=40 + 60 + 1, losses=40 + 60 + 1, draws=0, errors=2, pairs=(30, 40, 30))
    clusters = [(0, 2)] * 30 + [(1, 2)] * 40 + [(2, 2)] * 30 + [(1, 1), (0, 1)]
    assert tally.moments() == Moments.of(clusters)
    paired = cluster_rate(tally.moments())
    assert paired["games"] == 202 and paired["pairs"] == 102
    # Pairs that mostly agree carry less than their games: the interval is wider than Wilson's.
    low, high = wilson_interval(101, 202)
    assert paired["high"] - paired["low"] > high - low


class SyntheticEvaluator:
    """Blocks whose win rates follow a known log-odds model with an interaction the screening
    at the unpatched field cannot see: Ember Rush's hero turned to water loses to Tidewall's
    hero turned to fire far more than either change alone says (50 games a block, no noise)."""

    BASE = {(0, 1): 1.2, (0, 2): -0.9, (1, 2): 0.3}

    def __init__(self):
        self.tasks: list[EvalTask] = []

    def truth(self, moves, a, b) -> float:
        x = self.BASE[(a, b)]
        values = {(m.card, m.field): m.value for m in moves}
        for (card, _), value in values.items():
            side = 1 if card == ("H01", "H04", "H05")[a] else -1
            x += side * 0.1 * (len(value) % 3 + 1) if card in ("H01", "H04", "H05") else 0
        if values.get(("H01", "attribute")) == "water" and \
                values.get(("H04", "attribute")) == "fire" and (a, b) == (0, 1):
            x -= 1.0
        return x

    def evaluate(self, tasks):
        self.tasks.extend(tasks)
        out = []
        for t in tasks:
            p = 1 / (1 + math.exp(-self.truth(t.moves, t.a, t.b)))
            wins = round(p * 50)
            out.append([Tally(wins=wins, losses=50 - wins, pairs=(0, 0, 0))] * t.blocks)
        return out


def hero_problem(**extra) -> Problem:
    space = SearchSpace.for_decks(THREE, CORE.cards, only=["H01", "H04", "H05"],
                                  fields=("attribute",))
    return Problem(field=FIELD, space=space, max_changes=3, seed=2, budget_games=200_000,
                   verify_games=100, rungs=(1, 2), base_blocks=2, proposals=4,
                   screen_cards=0, **extra)


def test_a_re_screened_model_predicts_every_single_edit_it_measured():
    """Re-linearised at an anchor, the model's prediction of each edit it played — a move
    dropped, added or swapped in — is what the edit measured, interactions included."""
    problem = scaled(hero_problem())
    synthetic = SyntheticEvaluator()
    memo = Evaluations(synthetic, THREE, lambda a, b: matchup_seed(2, a, b))
    state = _State(problem, memo, space_moves(problem.space, CORE.cards), None, None)
    model, blocks = _screen(state)
    water = next(m for m in model.moves if m.card == "H01" and m.value == "water")
    fire = next(m for m in model.moves if m.card == "H04" and m.value == "fire")
    memo.ensure([(water,)], 2)
    anchor = state.score((water,), 2)
    before = len(synthetic.tasks)
    local = _rescreen(state, model, anchor, blocks)
    assert (water, fire) in {t.moves for t in synthetic.tasks[before:]}   # from the anchor
    edits = [()] + [tuple(sorted({water, m} if m.card != "H01" else {m}))
                    for m in model.moves if m != water]     # the drop, the adds, the swaps
    logits = [logit(smoothed_rate(anchor.tallies[x])) for x in memo.matchups]
    for edit in edits:
        predicted = local.predict(anchor.moves, logits, edit).logits
        measured = [logit(smoothed_rate(memo.tally(edit, x, blocks))) for x in memo.matchups]
        assert predicted == pytest.approx(measured), edit
    # The screened model, which never saw the two changes together, misses the interaction.
    stale = model.predict(anchor.moves, logits, (water, fire)).logits
    assert stale[0] > local.predict(anchor.moves, logits, (water, fire)).logits[0] + 0.5


def test_a_stalled_search_re_screens_its_anchor_once_and_repeats_itself():
    phases = []

    def search():
        return balance_search(hero_problem(), SyntheticEvaluator(),
                              progress=lambda e: phases.append(e["phase"]))

    first = search()
    racing = phases.index("racing")
    assert "screening" in phases[racing:]                    # a re-screening after racing
    names = [d.name for d in THREE]
    assert search().to_dict(names) == first.to_dict(names)


def test_a_search_from_a_live_patch_edits_that_patch():
    """A designer's next patch goes on top of the live one: the search started from a patch
    plays it first, on every matchup, and its round proposes edits of it (a move added,
    swapped or taken back, at most three), not patches a few edits from the printed cards;
    the live patch stays a candidate."""
    moves = space_moves(hero_problem().space, CORE.cards)
    live = tuple(sorted(m for m in moves if (m.card, m.value) in (("H01", "water"),
                                                                 ("H04", "fire"))))

    def searched(**extra):
        return {s.moves: s for s in balance_search(hero_problem(rounds=1, **extra),
                                                   SyntheticEvaluator()).searched}

    from_live, from_print = searched(start=live), searched()
    assert from_live[live].games >= 100                       # the first anchor, measured
    proposed = [m for m in from_live if m not in ((), live)]
    assert proposed and all(edits_between(live, m) <= 3 for m in proposed)
    assert live not in from_print and set(from_print) != set(from_live)


def test_a_capped_step_keeps_every_candidate_within_its_edits_of_the_live_patch():
    """``--max-edits 1``: however many rounds the search plays, each patch it races differs
    from the live patch in one place at most — a change added, taken back, or given another
    value — where uncapped rounds wander further."""
    moves = space_moves(hero_problem().space, CORE.cards)
    live = tuple(sorted(m for m in moves if (m.card, m.value) in (("H01", "water"),
                                                                 ("H04", "fire"))))
    swapped = tuple(sorted((live[0], next(m for m in moves if m.slot == live[1].slot
                                          and m != live[1]))))
    assert [edits_between(live, c) for c in (live, live[:1], swapped, ())] == [0, 1, 1, 2]

    def searched(**extra):
        return balance_search(hero_problem(rounds=4, start=live, **extra),
                              SyntheticEvaluator()).searched

    capped, free = searched(max_edits=1), searched()
    assert len(capped) > 2 and max(edits_between(live, s.moves) for s in capped) == 1
    assert max(edits_between(live, s.moves) for s in free) > 1


def test_a_live_patch_file_reads_back_as_the_moves_that_make_it():
    """``--live-patch``: a patch as a designer downloads it (numbers, an ability's number, a
    removal) becomes the moves a search starts from, the same moves the search would make —
    and a change no search makes, or two changes of one slot, say what is wrong."""
    space = SearchSpace.for_decks(THREE, CORE.cards, only=["C005", "H11", "C112"],
                                  fields=("cost", "attack", "abilities"))
    moves = space_moves(space, CORE.cards)
    live = tuple(sorted({m.slot: m for m in moves if m.size == 2 or m.value is None}.values()))
    assert {m.card for m in live} == {"C005", "H11", "C112"}
    assert any(m.value is None for m in live) and any("abilities" in m.field for m in live)
    written = Patch.from_dict(candidate_patch(live, "live").to_dict())
    assert patch_candidate(written, CORE.cards) == live
    attack = CORE.cards["C005"].attack
    with pytest.raises(SpaceError, match="not one a search makes"):
        patch_candidate(Patch("far", (Change("C005", "attack", attack + 6),)), CORE.cards)
    with pytest.raises(SpaceError, match="C005 attack twice"):
        patch_candidate(Patch("twice", (Change("C005", "attack", attack + 1),
                                        Change("C005", "attack", attack + 2))), CORE.cards)
    with pytest.raises(SpaceError, match="no such card"):
        patch_candidate(Patch("gone", (Change("Z999", "cost", 1),)), CORE.cards)


def test_with_nothing_in_the_band_the_best_is_nearest_50_then_fewest_matchups_outside():
    """Two verified patches whose worst matchup is as far from 50 %: the one that leaves fewer
    matchups outside the band is the answer, though it makes more changes."""
    from rules.lab.balance_search.result import Scored, SearchResult

    few = (Move("H01", "attribute", "water", 1, 0),)
    more = few + (Move("H07", "attribute", "grass", 1, 0), Move("C046", "attack", 3, 1, 1))
    baseline = Scored((), 2000, {}, worst=0.175, outside=9)
    three_out = Scored(few, 2000, {}, worst=0.125, outside=6)
    two_out = Scored(more, 2000, {}, worst=0.125, outside=4)
    far = Scored((Move("C046", "attack", 1, 1, -1),), 2000, {}, worst=0.15, outside=1)
    result = SearchResult(band=(0.45, 0.55), baseline=baseline, front=[far, three_out, two_out],
                          searched=[], games_searched=0, games_verified=0, evaluations=0,
                          moves_screened=0)
    assert result.best is two_out


def test_what_every_path_brought_in_leads_a_decks_screening():
    """An adapted Tidewall whose every forecast path brought in its one Abyssal Tidelord:
    at one card a deck the Tidelord is screened ahead of the most-copied card, and at three
    the turns go lead, most-drawn, ridden card."""
    tidewall = THREE[1]
    drawn = key_cards([tidewall], CORE.cards, 2)[1:]
    assert key_cards([tidewall], CORE.cards, 1, (), [("C039",)]) == ["H04", "C039"]
    assert key_cards([tidewall], CORE.cards, 3, [("C030",)], [("C039",)]) == \
        ["H04", "C039", drawn[0], "C030"]
