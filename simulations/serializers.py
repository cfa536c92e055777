"""Output shapes of the simulation API (they document the OpenAPI schema too)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from simulations.models import SimulationRun
from simulations.selectors import run_progress


class RateSerializer(serializers.Serializer):
    rate = serializers.FloatField(allow_null=True, help_text="Null when no game counted.")
    low = serializers.FloatField(help_text="Wilson 95 % interval, lower end.")
    high = serializers.FloatField(help_text="Wilson 95 % interval, upper end.")
    games = serializers.IntegerField(help_text="Games counted (engine errors never are).")


class SideRateSerializer(RateSerializer):
    wins = serializers.IntegerField()


class ProgressSerializer(serializers.Serializer):
    games_done = serializers.IntegerField()
    games_total = serializers.IntegerField()
    fraction = serializers.FloatField()
    chunks_done = serializers.IntegerField()
    chunks_total = serializers.IntegerField()
    chunks_running = serializers.IntegerField()
    interim_win_rate = RateSerializer(help_text="Deck A's win rate in the first pairing so far.")


class FrozenDeckSerializer(serializers.Serializer):
    name = serializers.CharField()
    hero = serializers.CharField()
    cards = serializers.DictField(child=serializers.IntegerField(), help_text="{code: copies}")
    uid = serializers.CharField(allow_null=True, help_text="The saved deck it was copied from.")
    version = serializers.IntegerField(allow_null=True)


class RunSerializer(serializers.Serializer):
    uid = serializers.CharField()
    url = serializers.CharField(source="get_absolute_url", help_text="The run's page.")
    kind = serializers.CharField()
    label = serializers.CharField()
    status = serializers.ChoiceField(choices=["queued", "running", "done", "failed",
                                              "cancelled"])
    error = serializers.CharField()
    owner = serializers.CharField(source="owner.username", allow_null=True, default=None)
    public = serializers.BooleanField(source="is_public")
    decks = FrozenDeckSerializer(many=True, help_text="Frozen at submission; deck A first.")
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
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    progress = serializers.SerializerMethodField()

    @extend_schema_field(ProgressSerializer)
    def get_progress(self, run: SimulationRun) -> dict:
        return run_progress(run).as_dict()


class RunListSerializer(serializers.Serializer):
    uid = serializers.CharField()
    url = serializers.CharField(source="get_absolute_url")
    kind = serializers.CharField()
    label = serializers.CharField()
    status = serializers.CharField()
    owner = serializers.CharField(source="owner.username", allow_null=True, default=None)
    public = serializers.BooleanField(source="is_public")
    games_total = serializers.IntegerField()
    games_done = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class CardFigureSerializer(serializers.Serializer):
    code = serializers.CharField()
    name = serializers.CharField()
    kind = serializers.CharField()
    games_played_in = serializers.IntegerField()
    times_played = serializers.IntegerField()
    times_awakened = serializers.IntegerField()
    wins_when_played = serializers.IntegerField()
    win_rate_when_played = serializers.FloatField(allow_null=True)
    low = serializers.FloatField()
    high = serializers.FloatField()


class MatchupResultSerializer(serializers.Serializer):
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
    errors = serializers.IntegerField(help_text="Engine errors: never counted as losses.")
    win_rate = RateSerializer()
    going_first = RateSerializer()
    going_second = RateSerializer()
    average_turns = serializers.FloatField(allow_null=True)
    average_actions = serializers.FloatField(allow_null=True)
    lengths = serializers.DictField(child=serializers.IntegerField(),
                                    help_text="{turns: games}")
    error_samples = serializers.ListField(child=serializers.DictField())
    cards_a = CardFigureSerializer(many=True)
    cards_b = CardFigureSerializer(many=True)
    outcomes = serializers.CharField(help_text="Per game, from A's side: a, b, d(raw), "
                                               "e(rror), - (not played).")


class RankingSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    deck = serializers.IntegerField()
    name = serializers.CharField()
    wins = serializers.IntegerField()
    games = serializers.IntegerField()
    rate = serializers.FloatField(allow_null=True)
    low = serializers.FloatField()
    high = serializers.FloatField()
    mean_pairing_rate = serializers.FloatField(allow_null=True)
    pairings = serializers.IntegerField()


class FlipsSerializer(serializers.Serializer):
    same = serializers.IntegerField()
    lost_to_won = serializers.IntegerField()
    won_to_lost = serializers.IntegerField()
    other = serializers.IntegerField()


class WhatIfPairingSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    opponent = serializers.CharField()
    before = SideRateSerializer()
    after = SideRateSerializer()
    change = serializers.FloatField(allow_null=True)
    change_low = serializers.FloatField()
    change_high = serializers.FloatField()
    flips = FlipsSerializer(help_text="Game by game on the same seeds.")


class WhatIfSerializer(serializers.Serializer):
    base_uid = serializers.CharField()
    base_label = serializers.CharField()
    deck = serializers.IntegerField()
    deck_name = serializers.CharField()
    card_out = serializers.CharField()
    card_in = serializers.CharField()
    card_out_name = serializers.CharField()
    card_in_name = serializers.CharField()
    pairings = WhatIfPairingSerializer(many=True)


class ResultsSerializer(serializers.Serializer):
    final = serializers.BooleanField(help_text="False while the run is still playing.")
    matchups = MatchupResultSerializer(many=True)
    matrix = serializers.ListField(
        child=serializers.ListField(child=SideRateSerializer(allow_null=True)), required=False,
        help_text="Gauntlet and round-robin: matrix[i][j] is deck i's win rate against deck j.")
    ranking = RankingSerializer(many=True, required=False)
    what_if = WhatIfSerializer(allow_null=True)


class SampleSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="1-based, for /replays/<number>/.")
    matchup = serializers.IntegerField(source="matchup.index")
    game_index = serializers.IntegerField()
    seed = serializers.IntegerField()
    a_first = serializers.BooleanField()
    winner = serializers.CharField(help_text="a, b, or empty for a draw.")
    turns = serializers.IntegerField()


class SampleDetailSerializer(SampleSerializer):
    log = serializers.DictField(help_text="The engine's event log (rules.engine.replay).")
