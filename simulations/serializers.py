"""Output shapes of the simulation API (they document the OpenAPI schema too)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from rules.lab.intervals import RATE_METHODS
from simulations.comparison import METHODS as COMPARISON_METHODS
from simulations.models import SampleGame, SimulationRun
from simulations.selectors import run_decks_shown, run_progress, run_time_left


class ListFilterSerializer(serializers.Serializer[Mapping[str, Any]]):
    """The query of a list of runs or searches: refused with a 400 when a value is not one the
    list understands (``?mine=maybe``), rather than read as "no filter"."""

    mine = serializers.BooleanField(required=False, default=False,
                                    help_text="Only your own (true/false, 1/0).")


class RunListFilterSerializer(ListFilterSerializer):
    deck = serializers.CharField(required=False, max_length=32,
                                 help_text="One deck's history: the deck's id.")


class RateSerializer(serializers.Serializer[Mapping[str, Any]]):
    rate = serializers.FloatField(allow_null=True, help_text="Wins over games counted (draws "
                                                             "count as not won); null when none.")
    low = serializers.FloatField(help_text="95 % interval, lower end.")
    high = serializers.FloatField(help_text="95 % interval, upper end.")
    games = serializers.IntegerField(help_text="Games counted (engine errors never are).")


class PairRateSerializer(RateSerializer):
    pairs = serializers.IntegerField(
        allow_null=True, help_text="Independent units the interval is computed on: seat-swapped "
                                   "pairs (a deck's field rate: seeds); null for method games.")
    effective_games = serializers.FloatField(
        help_text="Games the pairs are worth once their correlation is accounted for.")
    method = serializers.ChoiceField(
        choices=RATE_METHODS,
        help_text="pairs: Wilson on the effective games of the cluster-robust variance over "
                  "pairs; games: plain Wilson (results kept without pair sums).")


class SideRateSerializer(PairRateSerializer):
    wins = serializers.IntegerField()


class TimeLeftSerializer(serializers.Serializer[Mapping[str, Any]]):
    low = serializers.FloatField(help_text="Seconds left at the pace measured on this "
                                           "deployment (the low end).")
    high = serializers.FloatField(help_text="Seconds left with the machine's load stretching "
                                            "that pace (the high end): what the page says.")
    is_range = serializers.BooleanField(help_text="true: the machine is busy enough for the "
                                                  "time to be a range; false: one figure "
                                                  "(low equals high), e.g. at the job's own "
                                                  "pace once it has one.")


TIME_LEFT_HELP = ("The estimated time left as a range (null: queued, finishing, or no "
                  "estimate yet).")


class ProgressSerializer(serializers.Serializer[Mapping[str, Any]]):
    games_done = serializers.IntegerField()
    games_total = serializers.IntegerField()
    fraction = serializers.FloatField()
    chunks_done = serializers.IntegerField()
    chunks_total = serializers.IntegerField()
    chunks_running = serializers.IntegerField()
    interim_win_rate = RateSerializer(help_text="Deck A's win rate in the first pairing so far.")
    seconds_left = serializers.FloatField(
        allow_null=True, help_text="The estimated seconds left, as the run's page says them "
                                   "(time_left's high end; null when time_left is).")
    time_left = TimeLeftSerializer(allow_null=True, help_text=TIME_LEFT_HELP)


# Given one frozen deck, or (many=True) the list of them.
class FrozenDeckSerializer(serializers.Serializer[Mapping[str, Any] | Iterable[Mapping[str, Any]]]):
    name = serializers.CharField()
    hero = serializers.CharField()
    cards = serializers.DictField(child=serializers.IntegerField(), help_text="{code: copies}")
    uid = serializers.CharField(allow_null=True, help_text="The saved deck it was copied from.")
    version = serializers.IntegerField(allow_null=True)


class PatchDiffSerializer(serializers.Serializer[Mapping[str, Any]]):
    card = serializers.CharField()
    name = serializers.CharField(help_text="The card's name.")
    field = serializers.CharField()
    old = serializers.JSONField(allow_null=True, help_text="The printed value (null: none).")
    new = serializers.JSONField(allow_null=True)
    text = serializers.CharField(help_text='e.g. "Blazing Charger: attack 3 → 4".')


class PatchChangeOutSerializer(serializers.Serializer[Mapping[str, Any]]):
    card = serializers.CharField()
    field = serializers.CharField()
    value = serializers.JSONField(allow_null=True)


class RunPatchSerializer(serializers.Serializer[Mapping[str, Any]]):
    name = serializers.CharField()
    changes = PatchChangeOutSerializer(many=True)
    diff = PatchDiffSerializer(many=True)


class RunSerializer(serializers.Serializer[SimulationRun]):
    uid = serializers.CharField()
    url = serializers.CharField(source="get_absolute_url", help_text="The run's page.")
    kind = serializers.CharField()
    # DRF declares fields by class attribute: this one shadows Field.label in the stubs only.
    label = serializers.CharField()  # type: ignore[assignment]
    status = serializers.ChoiceField(choices=["queued", "running", "done", "failed",
                                              "cancelled"])
    error = serializers.CharField()
    owner = serializers.CharField(source="owner.username", allow_null=True, default=None)
    public = serializers.BooleanField(source="is_public")
    decks = serializers.SerializerMethodField(
        help_text="Frozen at submission; deck A first. A deck's uid is null where you may not "
                  "open that deck (now private).")
    agent_a = serializers.CharField()
    agent_b = serializers.CharField()
    seed = serializers.IntegerField()
    games = serializers.IntegerField(help_text="Games per pairing.")
    games_total = serializers.IntegerField()
    chunk_size = serializers.IntegerField()
    ruleset = serializers.DictField()
    stop_width = serializers.FloatField(allow_null=True)
    card_data_version = serializers.CharField()
    base_run = serializers.CharField(source="base_run.uid", allow_null=True, default=None)
    swap = serializers.DictField(allow_null=True)
    patch = RunPatchSerializer(allow_null=True, help_text="The balance patch the run plays "
                                                           "(null: none).")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    progress = serializers.SerializerMethodField()

    @extend_schema_field(ProgressSerializer)
    def get_progress(self, run: SimulationRun) -> dict[str, Any]:
        progress = run_progress(run)
        left = run_time_left(run, progress)
        return {**progress.as_dict(), "seconds_left": None if left is None else left.high,
                "time_left": None if left is None else left.as_dict()}

    @extend_schema_field(FrozenDeckSerializer(many=True))
    def get_decks(self, run: SimulationRun) -> list[dict[str, Any]]:
        request = self.context.get("request")
        decks = run_decks_shown(run, getattr(request, "user", None))
        # many=True makes DRF's list serializer, whose data the stubs type as one item's
        return cast(list[dict[str, Any]], FrozenDeckSerializer(decks, many=True).data)


class RunListSerializer(serializers.Serializer[SimulationRun]):
    uid = serializers.CharField()
    url = serializers.CharField(source="get_absolute_url")
    kind = serializers.CharField()
    # DRF declares fields by class attribute: this one shadows Field.label in the stubs only.
    label = serializers.CharField()  # type: ignore[assignment]
    status = serializers.CharField()
    owner = serializers.CharField(source="owner.username", allow_null=True, default=None)
    public = serializers.BooleanField(source="is_public")
    games_total = serializers.IntegerField()
    games_done = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class CardConditionSerializer(serializers.Serializer[Mapping[str, Any]]):
    games = serializers.IntegerField(help_text="Games in which it happened to the card.")
    wins = serializers.IntegerField(help_text="Of those, games its deck won.")
    rate = serializers.FloatField(allow_null=True, help_text="Draws count as not won.")
    low = serializers.FloatField()
    high = serializers.FloatField()
    pairs = serializers.IntegerField(allow_null=True, help_text="Seat-swapped pairs.")
    method = serializers.ChoiceField(choices=RATE_METHODS)


class CardConditionsSerializer(serializers.Serializer[Mapping[str, Any]]):
    drawn = CardConditionSerializer(help_text="Drawn from the deck (opening hand included).")
    opening = CardConditionSerializer(help_text="In the hand kept after the mulligan.")
    played = CardConditionSerializer()
    awakened = CardConditionSerializer()


class CardFigureSerializer(serializers.Serializer[Mapping[str, Any]]):
    code = serializers.CharField()
    name = serializers.CharField()
    kind = serializers.CharField()
    games_played_in = serializers.IntegerField()
    times_drawn = serializers.IntegerField()
    times_played = serializers.IntegerField()
    times_awakened = serializers.IntegerField()
    when = CardConditionsSerializer(help_text="The deck's win rate in the games where the card "
                                              "was drawn, in the opening hand, played, "
                                              "awakened, each with a 95 % interval on pairs.")
    wins_when_played = serializers.IntegerField()
    win_rate_when_played = serializers.FloatField(allow_null=True)
    low = serializers.FloatField()
    high = serializers.FloatField()
    pairs = serializers.IntegerField(allow_null=True, help_text="Pairs it was played in.")
    method = serializers.ChoiceField(choices=RATE_METHODS)


class MatchupResultSerializer(serializers.Serializer[Mapping[str, Any]]):
    index = serializers.IntegerField()
    a = serializers.IntegerField(help_text="Index of deck A in the run's decks.")
    b = serializers.IntegerField()
    deck_a = serializers.CharField()
    deck_b = serializers.CharField()
    games = serializers.IntegerField(help_text="Games played, engine errors included.")
    planned_games = serializers.IntegerField()
    stopped_after_chunks = serializers.IntegerField(allow_null=True,
                                                    help_text="Set when it stopped early.")
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    # a declared field, shadowing Serializer.errors in the stubs only (DRF reads it from
    # _declared_fields, the instance's errors stay the validation errors)
    errors = serializers.IntegerField(  # type: ignore[assignment]
        help_text="Engine errors: never counted as losses.")
    draws_count_as = serializers.CharField(help_text='Always "not won": a draw is a game '
                                                     "counted and not won.")
    win_rate = PairRateSerializer(help_text="Deck A's win rate.")
    win_rate_b = PairRateSerializer(help_text="Deck B's win rate.")
    going_first = PairRateSerializer(help_text="Deck A's games in the first seat (one per "
                                               "pair).")
    going_second = PairRateSerializer()
    average_turns = serializers.FloatField(allow_null=True)
    average_actions = serializers.FloatField(allow_null=True)
    lengths = serializers.DictField(child=serializers.IntegerField(),
                                    help_text="{turns: games}")
    error_samples = serializers.ListField(child=serializers.DictField())
    cards_a = CardFigureSerializer(many=True)
    cards_b = CardFigureSerializer(many=True)
    outcomes = serializers.CharField(help_text="Per game, from A's side: a, b, d(raw), "
                                               "e(rror), - (not played).")


class RankingSerializer(PairRateSerializer):
    place = serializers.IntegerField(allow_null=True, help_text="Only decks that played the "
                                                                "whole field are ranked.")
    deck = serializers.IntegerField()
    name = serializers.CharField()
    wins = serializers.IntegerField()
    mean_pairing_rate = serializers.FloatField(allow_null=True)
    pairings = serializers.IntegerField()
    whole_field = serializers.BooleanField(help_text="It played every other deck of the run.")


class BalanceSerializer(serializers.Serializer[Mapping[str, Any]]):
    max_distance = serializers.FloatField(help_text="Largest |win rate − 50 %| of any matchup.")
    rms_distance = serializers.FloatField(help_text="Root mean square of |win rate − 50 %|.")
    matchups = serializers.IntegerField()


class FlipsSerializer(serializers.Serializer[Mapping[str, Any]]):
    same = serializers.IntegerField()
    lost_to_won = serializers.IntegerField()
    won_to_lost = serializers.IntegerField()
    other = serializers.IntegerField()


class ChangeSerializer(serializers.Serializer[Mapping[str, Any]]):
    index = serializers.IntegerField(help_text="The pairing (matchup index).")
    deck = serializers.IntegerField(help_text="The deck whose win rate is compared.")
    deck_name = serializers.CharField()
    opponent_index = serializers.IntegerField()
    opponent = serializers.CharField()
    before = SideRateSerializer()
    after = SideRateSerializer()
    change = serializers.FloatField(allow_null=True, help_text="After − before.")
    change_low = serializers.FloatField(help_text="95 % interval of the change, lower end.")
    change_high = serializers.FloatField()
    games = serializers.IntegerField(help_text="Paired: games counted in both runs.")
    pairs = serializers.IntegerField(allow_null=True, help_text="Paired: pairs of games.")
    method = serializers.ChoiceField(choices=COMPARISON_METHODS)
    gained = serializers.IntegerField(required=False, help_text="Paired: not won → won.")
    lost = serializers.IntegerField(required=False, help_text="Paired: won → not won.")
    p_value = serializers.FloatField(allow_null=True,
                                     help_text="Exact McNemar p-value (paired); null unpaired.")
    flips = FlipsSerializer(allow_null=True, help_text="Game by game on the same seeds "
                                                       "(paired); null unpaired.")


class WhatIfSerializer(serializers.Serializer[Mapping[str, Any]]):
    base_uid = serializers.CharField()
    base_label = serializers.CharField()
    deck = serializers.IntegerField()
    deck_name = serializers.CharField()
    card_out = serializers.CharField()
    card_in = serializers.CharField()
    card_out_name = serializers.CharField()
    card_in_name = serializers.CharField()
    method = serializers.ChoiceField(choices=COMPARISON_METHODS)
    problems = serializers.ListField(child=serializers.CharField())
    pairings = ChangeSerializer(many=True)


class RunRefSerializer(serializers.Serializer[Mapping[str, Any]]):
    uid = serializers.CharField()
    # DRF declares fields by class attribute: this one shadows Field.label in the stubs only.
    label = serializers.CharField()  # type: ignore[assignment]


class ComparisonSerializer(serializers.Serializer[Mapping[str, Any]]):
    before = RunRefSerializer()
    after = RunRefSerializer()
    method = serializers.ChoiceField(
        choices=COMPARISON_METHODS,
        help_text="paired: same seeds, games and deck roles, compared game by game; unpaired: "
                  "the runs cannot be paired (see problems), each run's interval combined by "
                  "Newcombe's method.")
    problems = serializers.ListField(child=serializers.CharField(),
                                     help_text="Why the runs cannot be paired.")
    rows = ChangeSerializer(many=True)


@extend_schema_field({"type": "array", "items": {
    "allOf": [{"$ref": "#/components/schemas/SideRate"}], "nullable": True,
    "description": "Null on the diagonal and where the pairing has no counted game."}})
class MatrixRowField(serializers.ListField):
    """One row of the matchup matrix: a deck's win rate against each deck, or null."""

    child = SideRateSerializer(allow_null=True)


class EquilibriumSerializer(serializers.Serializer[Mapping[str, Any]]):
    shares = serializers.ListField(child=serializers.FloatField(),
                                   help_text="Each deck's share of the mix (they sum to 1).")
    entropy_ratio = serializers.FloatField(
        help_text="Entropy of the mix ÷ log n: 1 when every deck is played equally, 0 for one.")
    played = serializers.ListField(
        child=serializers.FloatField(),
        help_text="Per deck: the share of the resamples in which the equilibrium gives it at "
                  "least played_share; between 0.05 and 0.95 the games cannot decide.")
    entropy_low = serializers.FloatField(help_text="95 % interval of entropy_ratio over the "
                                                   "resamples, lower end.")
    entropy_high = serializers.FloatField()


class MetaSerializer(serializers.Serializer[Mapping[str, Any]]):
    decks = serializers.ListField(child=serializers.CharField(), help_text="The field, in the "
                                                                           "run's order.")
    field_rates = PairRateSerializer(
        many=True, help_text="Each deck's win rate against the rest of the field; the "
                             "interval counts every game on one seed as one unit (pairs: seeds).")
    nash = EquilibriumSerializer(help_text="The Nash equilibrium of the deck choice (payoff: "
                                           "matchup score − ½), the most even where several.")
    relaxed = EquilibriumSerializer(help_text="The maximum-entropy ε-equilibrium: no deck does "
                                              "more than epsilon better than even against it.")
    epsilon = serializers.FloatField(help_text="ε as a share of win rate (0.005 = half a point; "
                                               "the query parameter is in points).")
    resamples = serializers.IntegerField(help_text="Resamples of the seat-swapped pairs.")
    played_share = serializers.FloatField(help_text="A deck counts as played from this share.")
    matchup_half_width = serializers.FloatField(
        help_text="Median half-width of a matchup's 95 % interval: what the games can resolve.")
    sentence = serializers.CharField(help_text="The reading in plain words, in the language of "
                                               "Accept-Language.")


class ResultsSerializer(serializers.Serializer[Mapping[str, Any]]):
    final = serializers.BooleanField(help_text="False while the run is still playing.")
    matchups = MatchupResultSerializer(many=True)
    matrix = serializers.ListField(child=MatrixRowField(), required=False,
        help_text="Gauntlet and round-robin: matrix[i][j] is deck i's win rate against deck j.")
    ranking = RankingSerializer(many=True, required=False)
    balance = BalanceSerializer(required=False, allow_null=True)
    meta = MetaSerializer(allow_null=True, help_text=(
        "The meta of a finished round-robin (null for a match, a gauntlet — no whole field — "
        "or a run still playing): field rates, the Nash and ε-equilibria and their "
        "uncertainty over resampled seat-swapped pairs."))
    what_if = WhatIfSerializer(allow_null=True)


class SampleSerializer(serializers.Serializer[SampleGame]):
    number = serializers.IntegerField(help_text="1-based, for /replays/<number>/.")
    matchup = serializers.IntegerField(source="matchup.index")
    game_index = serializers.IntegerField()
    seed = serializers.IntegerField()
    a_first = serializers.BooleanField()
    winner = serializers.CharField(help_text="a, b, or empty for a draw.")
    turns = serializers.IntegerField()


class SampleDetailSerializer(SampleSerializer):
    log = serializers.DictField(help_text="The engine's event log (rules.engine.replay).")
