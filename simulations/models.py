"""Simulation runs, their pairings, their chunks of games and what the chunks found.

Invariants:
- A run is frozen at submission: its deck lists (``decks``), the card data they use
  (``cards``, the catalogue's data form by code, with the run's balance ``patch`` already made),
  agents, seed and ruleset are plain JSON on the row, so later edits of decks or cards never
  change what it plays or reports. The FK to a
  home deck is only for "run history per deck" (SET_NULL).
- A run has one ``Matchup`` per pairing (one for a match; one per opponent for a gauntlet; one
  per pair of decks for a round-robin). Matchup ``m`` plays games ``0 … games-1``; its chunk
  ``i`` plays games ``i·k … i·k+k−1`` with seeds derived from the run seed and the game index
  (``rules.match.game_seed``), so any split into chunks plays exactly the same games.
- ``Chunk`` rows are the work and its lease; ``ChunkResult`` rows are what finished chunks
  found, at most one per (run, chunk index) — a database constraint, so a chunk delivered or
  executed twice counts once. The run's figures are derived from ChunkResults only.
- Only ``simulations.execution`` and ``simulations.services`` write these rows.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy


def new_uid() -> str:
    """A 12-character URL-safe token (72 random bits): a run's address cannot be guessed."""
    return secrets.token_urlsafe(9)


class RunKind(models.TextChoices):
    MATCH = "match", gettext_lazy("Match (deck A against deck B)")
    GAUNTLET = "gauntlet", gettext_lazy("Gauntlet (one deck against several)")
    ROUND_ROBIN = "round_robin", gettext_lazy("Round-robin (every deck against every other)")


class RunStatus(models.TextChoices):
    QUEUED = "queued", gettext_lazy("Queued")
    RUNNING = "running", gettext_lazy("Running")
    DONE = "done", gettext_lazy("Done")
    FAILED = "failed", gettext_lazy("Failed")
    CANCELLED = "cancelled", gettext_lazy("Cancelled")


ACTIVE_STATUSES = (RunStatus.QUEUED, RunStatus.RUNNING)


class ChunkState(models.TextChoices):
    PENDING = "pending", "Pending"      # sent to the broker, not started (or to be re-sent)
    RUNNING = "running", "Running"      # a worker holds it until lease_until
    DONE = "done", "Done"
    FAILED = "failed", "Failed"         # attempts exhausted
    SKIPPED = "skipped", "Skipped"      # cancelled, or not needed after an early stop


TERMINAL_CHUNK_STATES = (ChunkState.DONE, ChunkState.FAILED, ChunkState.SKIPPED)


class SimulationRun(models.Model):
    uid = models.CharField(max_length=16, unique=True, default=new_uid, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True,
                              blank=True, related_name="simulation_runs",
                              help_text="Empty for runs submitted from the command line.")
    deck = models.ForeignKey("decks.Deck", on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="simulation_runs",
                             help_text="The deck whose history lists this run (deck A).")
    kind = models.CharField(max_length=12, choices=RunKind.choices, default=RunKind.MATCH)
    label = models.CharField(max_length=300)
    is_public = models.BooleanField(default=False)
    # What it plays, frozen at submission.
    decks = models.JSONField(help_text="[{name, hero, cards: {code: n}, uid, version}]")
    cards = models.JSONField(help_text="{code: card data} of every card the decks use")
    card_data_version = models.CharField(max_length=64)
    agent_a = models.CharField(max_length=20)
    agent_b = models.CharField(max_length=20)
    seed = models.BigIntegerField()
    games = models.PositiveIntegerField(help_text="Games per pairing (whole seat-swapped pairs).")
    chunk_size = models.PositiveIntegerField()
    ruleset = models.JSONField(default=dict)
    stop_width = models.FloatField(null=True, blank=True,
                                   help_text="Stop a pairing early when its 95 % interval is "
                                             "narrower than this.")
    replays = models.PositiveSmallIntegerField(default=2, help_text="Games kept per pairing.")
    base_run = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="what_ifs")
    swap = models.JSONField(null=True, blank=True,
                            help_text='A what-if: {"deck": 0, "out": code, "in": code}')
    patch = models.JSONField(
        null=True, blank=True,
        help_text='A balance patch played on both sides: {"name", "changes": [{"card", '
                  '"field", "value"}], "diff": [{"card", "name", "field", "old", "new", '
                  '"text"}]}; ``cards`` holds the patched data.')
    sweep = models.ForeignKey("Sweep", on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="runs")
    sweep_value = models.IntegerField(null=True, blank=True,
                                      help_text="The swept field's value this run plays.")
    # Where it is.
    status = models.CharField(max_length=10, choices=RunStatus.choices,
                              default=RunStatus.QUEUED)
    error = models.TextField(blank=True)
    games_total = models.PositiveIntegerField()
    games_done = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = gettext_lazy("simulation run")
        verbose_name_plural = gettext_lazy("simulation runs")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "status"]),
                   models.Index(fields=["deck", "-created_at"]),
                   models.Index(fields=["is_public", "-created_at"])]
        constraints = [
            models.CheckConstraint(condition=Q(games_done__lte=models.F("games_total")),
                                   name="simulation_run_done_within_total"),
        ]

    def __str__(self) -> str:
        return self.label

    def get_absolute_url(self) -> str:
        return reverse("simulations:detail", args=[self.uid])

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE_STATUSES

    @property
    def duration_seconds(self) -> float | None:
        """Submission to finish, in seconds (None while it runs)."""
        if self.finished_at is None:
            return None
        return (self.finished_at - self.created_at).total_seconds()

    def deck_name(self, index: int) -> str:
        return self.decks[index].get("name") or _("Deck {number}").format(number=index + 1)

    @property
    def home_deck_name(self) -> str:
        """The home deck's name as frozen at submission. Pages show this, never the live deck's
        name: the deck may since have been renamed and made private."""
        return self.deck_name(0)


class Sweep(models.Model):
    """A family of runs on one seed over a range of one numeric field of one card: the
    unpatched baseline and a patched run per other value (``SimulationRun.sweep``)."""

    uid = models.CharField(max_length=16, unique=True, default=new_uid, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True,
                              blank=True, related_name="sweeps")
    kind = models.CharField(max_length=12, choices=RunKind.choices, default=RunKind.MATCH)
    label = models.CharField(max_length=300)
    card = models.CharField(max_length=32, help_text="The code of the card varied.")
    card_name = models.CharField(max_length=200)
    field = models.CharField(max_length=16, help_text="cost, attack or hp")
    values = models.JSONField(help_text="The values tried, ascending.")
    baseline_value = models.IntegerField(help_text="The card's value when the sweep began.")
    baseline = models.ForeignKey("SimulationRun", on_delete=models.SET_NULL, null=True,
                                 blank=True, related_name="+")
    is_public = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.label

    def get_absolute_url(self) -> str:
        return reverse("simulations:sweep", args=[self.uid])


class Matchup(models.Model):
    """One pairing of a run: deck ``a`` against deck ``b`` (indices into ``run.decks``)."""

    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="matchups")
    index = models.PositiveSmallIntegerField()
    a = models.PositiveSmallIntegerField()
    b = models.PositiveSmallIntegerField()
    games = models.PositiveIntegerField()
    result = models.JSONField(null=True, blank=True,
                              help_text="Merged counts (rules.stats) and per-game outcomes.")
    stopped_after = models.PositiveIntegerField(
        null=True, blank=True, help_text="Early stop: the chunks (from the first) it counts.")

    class Meta:
        verbose_name = gettext_lazy("matchup")
        verbose_name_plural = gettext_lazy("matchups")
        ordering = ["run", "index"]
        constraints = [
            models.UniqueConstraint(fields=["run", "index"], name="matchup_unique_index"),
        ]

    def __str__(self) -> str:
        return f"{self.run_id}/{self.index}: {self.a} vs {self.b}"


class Chunk(models.Model):
    """A slice of a matchup's games and its lease: who is playing it, until when."""

    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="chunks")
    matchup = models.ForeignKey(Matchup, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField(help_text="Unique in the run.")
    start = models.PositiveIntegerField()
    stop = models.PositiveIntegerField()
    state = models.CharField(max_length=8, choices=ChunkState.choices,
                             default=ChunkState.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0, help_text="Times a worker started it.")
    sends = models.PositiveSmallIntegerField(default=0, help_text="Times it was queued.")
    claim = models.CharField(max_length=64, blank=True, help_text="Task id of the holder.")
    worker = models.CharField(max_length=200, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    touched_at = models.DateTimeField(null=True, blank=True, db_index=True,
                                      help_text="Last start, heartbeat or finish.")
    games_done = models.PositiveIntegerField(default=0)
    cpu_seconds = models.FloatField(
        default=0.0, help_text="Estimated CPU seconds of its games (simulations.quota).")
    error = models.TextField(blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = gettext_lazy("chunk")
        verbose_name_plural = gettext_lazy("chunks")
        ordering = ["run", "index"]
        indexes = [models.Index(fields=["state", "lease_until"]),
                   models.Index(fields=["state", "sent_at"])]
        constraints = [
            models.UniqueConstraint(fields=["run", "index"], name="chunk_unique_index"),
            models.CheckConstraint(condition=Q(start__lt=models.F("stop")),
                                   name="chunk_not_empty"),
        ]

    def __str__(self) -> str:
        return f"run {self.run_id} chunk {self.index} ({self.state})"

    @property
    def size(self) -> int:
        return self.stop - self.start


class ChunkResult(models.Model):
    """What one finished chunk found. At most one per (run, chunk index)."""

    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE,
                            related_name="chunk_results")
    matchup = models.ForeignKey(Matchup, on_delete=models.CASCADE, related_name="chunk_results")
    chunk_index = models.PositiveIntegerField()
    games = models.PositiveIntegerField()
    # The headline counts again as columns, so progress and early stop never decode JSON.
    wins = models.PositiveIntegerField()
    losses = models.PositiveIntegerField()
    draws = models.PositiveIntegerField()
    errors = models.PositiveIntegerField()
    counts = models.JSONField(help_text="rules.stats.MatchStats.counts()")
    outcomes = models.TextField(help_text="One letter per game: a, b, d(raw) or e(rror).")
    worker = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = gettext_lazy("chunk result")
        verbose_name_plural = gettext_lazy("chunk results")
        ordering = ["run", "chunk_index"]
        constraints = [
            models.UniqueConstraint(fields=["run", "chunk_index"],
                                    name="chunk_result_once_per_chunk"),
        ]

    def __str__(self) -> str:
        return f"run {self.run_id} chunk {self.chunk_index}: {self.games} games"


class SampleGame(models.Model):
    """A game kept whole (its event log) to be replayed in the browser."""

    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="samples")
    matchup = models.ForeignKey(Matchup, on_delete=models.CASCADE, related_name="samples")
    game_index = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    a_first = models.BooleanField()
    winner = models.CharField(max_length=1, blank=True, help_text="a, b, or empty for a draw")
    turns = models.PositiveIntegerField()
    log = models.JSONField()

    class Meta:
        verbose_name = gettext_lazy("sample game")
        verbose_name_plural = gettext_lazy("sample games")
        ordering = ["run", "matchup", "game_index"]
        constraints = [
            models.UniqueConstraint(fields=["matchup", "game_index"],
                                    name="sample_game_unique"),
        ]

    def __str__(self) -> str:
        return f"run {self.run_id} game {self.game_index}"
