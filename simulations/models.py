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
  (``rules.lab.match.game_seed``), so any split into chunks plays exactly the same games.
- ``Chunk`` rows are the work and its lease (a kind of the one work protocol, ``work``);
  ``ChunkResult`` rows are what finished chunks found, at most one per (run, chunk index) — a
  database constraint, so a chunk delivered or executed twice counts once. The run's figures
  are derived from ChunkResults only.
- Only ``simulations.execution`` and ``simulations.services`` write these rows.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext_lazy as _

from common.language import frozen_deck_name, reader_language
from work.models import ACTIVE_WORK_STATUSES, LeasedWork, WorkStatus


def new_uid() -> str:
    """A 12-character URL-safe token (72 random bits): a run's address cannot be guessed."""
    return secrets.token_urlsafe(9)


class RunKind(models.TextChoices):
    MATCH = "match", gettext_lazy("Match (deck A against deck B)")
    GAUNTLET = "gauntlet", gettext_lazy("Gauntlet (one deck against several)")
    ROUND_ROBIN = "round_robin", gettext_lazy("Round-robin (every deck against every other)")


class ChunkState(models.TextChoices):
    # The admin shows a run's chunks with their state: the labels are translated.
    PENDING = "pending", gettext_lazy("Pending")   # sent to the broker, not started (or re-sent)
    RUNNING = "running", gettext_lazy("Running")   # a worker holds it until lease_until
    DONE = "done", gettext_lazy("Done")
    FAILED = "failed", gettext_lazy("Failed")      # attempts exhausted
    SKIPPED = "skipped", gettext_lazy("Skipped")   # cancelled, or not needed after an early stop


TERMINAL_CHUNK_STATES = (ChunkState.DONE, ChunkState.FAILED, ChunkState.SKIPPED)


class SimulationRun(models.Model):
    # Not stored: what a list of runs carries, set by selectors.runs_with_rates (deck A's wins
    # and games counted).
    deck_a_wins: int
    deck_a_games: int

    uid = models.CharField(_("uid"), max_length=16, unique=True, default=new_uid, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("owner"),
                              on_delete=models.CASCADE, null=True,
                              blank=True, related_name="simulation_runs",
                              help_text=_("Empty for runs submitted from the command line."))
    deck = models.ForeignKey("decks.Deck", verbose_name=_("deck"), on_delete=models.SET_NULL,
                             null=True, blank=True,
                             related_name="simulation_runs",
                             help_text=_("The deck whose history lists this run (deck A)."))
    kind = models.CharField(_("kind"), max_length=12, choices=RunKind.choices,
                            default=RunKind.MATCH)
    label = models.CharField(_("label"), max_length=300)
    labels = models.JSONField(_("labels"), default=dict, blank=True,
                              help_text=_("{language code: the label in that language}"))
    is_public = models.BooleanField(_("is public"), default=False)
    # What it plays, frozen at submission.
    decks = models.JSONField(_("decks"),
                             help_text=_("[{name, hero, cards: {code: n}, uid, version}]"))
    cards = models.JSONField(_("cards"),
                             help_text=_("{code: card data} of every card the decks use"))
    card_data_version = models.CharField(_("card data version"), max_length=64)
    agent_a = models.CharField(_("agent A"), max_length=20)
    agent_b = models.CharField(_("agent B"), max_length=20)
    seed = models.BigIntegerField(_("seed"))
    games = models.PositiveIntegerField(
        _("games"), help_text=_("Games per pairing (whole seat-swapped pairs)."))
    chunk_size = models.PositiveIntegerField(_("chunk size"))
    ruleset = models.JSONField(_("ruleset"), default=dict)
    stop_width = models.FloatField(_("stop width"), null=True, blank=True,
                                   help_text=_("Stop a pairing early when its interval (95 %) is "
                                             "narrower than this."))
    replays = models.PositiveSmallIntegerField(_("replays"), default=2,
                                               help_text=_("Games kept per pairing."))
    base_run = models.ForeignKey("self", verbose_name=_("base run"), on_delete=models.SET_NULL,
                                 null=True, blank=True,
                                 related_name="what_ifs")
    swap = models.JSONField(_("swap"), null=True, blank=True,
                            help_text=_('A what-if: {"deck": 0, "out": code, "in": code}'))
    patch = models.JSONField(_("patch"),
        null=True, blank=True,
        help_text=_('A balance patch played on both sides: {"name", "changes": [{"card", '
                  '"field", "value"}], "diff": [{"card", "name", "field", "old", "new", '
                  '"text"}]}; ``cards`` holds the patched data.'))
    search_metas = models.JSONField(
        _("balance search metas"), null=True, blank=True,
        help_text=_('A round-robin a balance search opened: the field\'s meta as the search '
                    'verified it, unpatched and patched, per agent: {"before": {agent: meta}, '
                    '"after": {agent: meta}}.'))
    sweep = models.ForeignKey("Sweep", verbose_name=_("sweep"), on_delete=models.SET_NULL,
                              null=True, blank=True,
                              related_name="runs")
    sweep_value = models.IntegerField(_("sweep value"), null=True, blank=True,
                                      help_text=_("The swept field's value this run plays."))
    # Where it is.
    status = models.CharField(_("status"), max_length=10, choices=WorkStatus.choices,
                              default=WorkStatus.QUEUED)
    error = models.TextField(_("error"), blank=True)
    games_total = models.PositiveIntegerField(_("games total"))
    games_done = models.PositiveIntegerField(_("games done"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # What its page shows that costs seconds to work out, computed once by the worker that
    # finished it (simulations.meta.field.run_meta_store).
    meta_report = models.JSONField(
        _("meta report"), null=True, blank=True, editable=False,
        help_text=_("A finished round-robin's meta at the default ε, stored when it finished: "
                    '{"stamp", "report"}.'))

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
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("simulations:detail", args=[self.uid])

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE_WORK_STATUSES

    @property
    def duration_seconds(self) -> float | None:
        """Submission to finish, in seconds (None while it runs)."""
        if self.finished_at is None:
            return None
        return (self.finished_at - self.created_at).total_seconds()

    def deck_name(self, index: int) -> str:
        """The frozen deck's name in the page's language."""
        return frozen_deck_name(self.decks[index], index + 1)

    @property
    def patch_name(self) -> str:
        """The patch's name in the page's language, when it was given one per language."""
        patch = self.patch or {}
        names = patch.get("names") or {}
        return str(names.get(get_language() or "") or patch.get("name", ""))

    @property
    def title(self) -> str:
        """The run's label in the page's language (written in each at submission; ``label``
        keeps the submitter's, the only one of runs made before)."""
        labels = self.labels or {}
        return labels.get(get_language() or "") or labels.get(reader_language()) or self.label

    @property
    def home_deck_name(self) -> str:
        """The home deck's name as frozen at submission. Pages show this, never the live deck's
        name: the deck may since have been renamed and made private."""
        return self.deck_name(0)


class Sweep(models.Model):
    """A family of runs on one seed over a range of one numeric field of one card: the
    unpatched baseline and a patched run per other value (``SimulationRun.sweep``)."""

    uid = models.CharField(_("uid"), max_length=16, unique=True, default=new_uid, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("owner"),
                              on_delete=models.CASCADE, null=True,
                              blank=True, related_name="sweeps")
    kind = models.CharField(_("kind"), max_length=12, choices=RunKind.choices,
                            default=RunKind.MATCH)
    label = models.CharField(_("label"), max_length=300)
    card = models.CharField(_("card"), max_length=32, help_text=_("The code of the card varied."))
    card_name = models.CharField(_("card name"), max_length=200)
    field = models.CharField(_("field"), max_length=16, help_text=_("cost, attack or hp"))
    values = models.JSONField(_("values"), help_text=_("The values tried, ascending."))
    baseline_value = models.IntegerField(_("baseline value"),
                                         help_text=_("The card's value when the sweep began."))
    baseline = models.ForeignKey("SimulationRun", verbose_name=_("baseline"),
                                 on_delete=models.SET_NULL, null=True,
                                 blank=True, related_name="+")
    is_public = models.BooleanField(_("is public"), default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("sweep")
        verbose_name_plural = _("sweeps")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.label

    def get_absolute_url(self) -> str:
        return reverse("simulations:sweep", args=[self.uid])


class Matchup(models.Model):
    """One pairing of a run: deck ``a`` against deck ``b`` (indices into ``run.decks``)."""

    run = models.ForeignKey(SimulationRun, verbose_name=_("run"), on_delete=models.CASCADE,
                            related_name="matchups")
    index = models.PositiveSmallIntegerField(_("index"))
    a = models.PositiveSmallIntegerField(_("a"))
    b = models.PositiveSmallIntegerField(_("b"))
    games = models.PositiveIntegerField(_("games"))
    result = models.JSONField(_("result"), null=True, blank=True,
                              help_text=_("Merged counts (rules.lab.stats) and per-game outcomes."))
    stopped_after = models.PositiveIntegerField(_("stopped after"),
        null=True, blank=True, help_text=_("Early stop: the chunks (from the first) it counts."))

    class Meta:
        verbose_name = gettext_lazy("matchup")
        verbose_name_plural = gettext_lazy("matchups")
        ordering = ["run", "index"]
        constraints = [
            models.UniqueConstraint(fields=["run", "index"], name="matchup_unique_index"),
        ]

    def __str__(self) -> str:
        return f"{self.run_id}/{self.index}: {self.a} vs {self.b}"


class Chunk(LeasedWork):
    """A slice of a matchup's games and its lease (``work.models.LeasedWork``): who is playing
    it, until when."""

    run = models.ForeignKey(SimulationRun, verbose_name=_("run"), on_delete=models.CASCADE,
                            related_name="chunks")
    matchup = models.ForeignKey(Matchup, verbose_name=_("matchup"), on_delete=models.CASCADE,
                                related_name="chunks")
    index = models.PositiveIntegerField(_("index"), help_text=_("Unique in the run."))
    start = models.PositiveIntegerField(_("start"))
    stop = models.PositiveIntegerField(_("stop"))
    state = models.CharField(_("state"), max_length=8, choices=ChunkState.choices,
                             default=ChunkState.PENDING)
    games_done = models.PositiveIntegerField(_("games done"), default=0)
    error = models.TextField(_("error"), blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

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

    run = models.ForeignKey(SimulationRun, verbose_name=_("run"), on_delete=models.CASCADE,
                            related_name="chunk_results")
    matchup = models.ForeignKey(Matchup, verbose_name=_("matchup"), on_delete=models.CASCADE,
                                related_name="chunk_results")
    chunk_index = models.PositiveIntegerField(_("chunk index"))
    games = models.PositiveIntegerField(_("games"))
    # The headline counts again as columns, so progress and early stop never decode JSON.
    wins = models.PositiveIntegerField(_("wins"))
    losses = models.PositiveIntegerField(_("losses"))
    draws = models.PositiveIntegerField(_("draws"))
    errors = models.PositiveIntegerField(_("errors"))
    counts = models.JSONField(_("counts"), help_text=_("rules.lab.stats.MatchStats.counts()"))
    outcomes = models.TextField(_("outcomes"),
                                help_text=_("One letter per game: a, b, d(raw) or e(rror)."))
    worker = models.CharField(_("worker"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

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

    # Not stored: its 1-based place among the run's kept games, set where they are listed
    # (the API's /replays/<number>/).
    number: int

    run = models.ForeignKey(SimulationRun, verbose_name=_("run"), on_delete=models.CASCADE,
                            related_name="samples")
    matchup = models.ForeignKey(Matchup, verbose_name=_("matchup"), on_delete=models.CASCADE,
                                related_name="samples")
    game_index = models.PositiveIntegerField(_("game index"))
    seed = models.BigIntegerField(_("seed"))
    a_first = models.BooleanField(_("deck A first"))
    winner = models.CharField(_("winner"), max_length=1, blank=True,
                              help_text=_("a, b, or empty for a draw"))
    turns = models.PositiveIntegerField(_("turns"))
    log = models.JSONField(_("log"))

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


class PaceCalibration(models.Model):
    """A worker's measurement at start-up of how fast this deployment plays: a moment of the
    cheapest games (the rules' pace: ``factor``), then a few games of each slow agent (its
    decisions' pace: ``agents``), against what the same games cost in the stored AI ladder
    result. The time estimates multiply the ladder's figures by the latest factors
    (``simulations.agents.strength``)."""

    host = models.CharField(gettext_lazy("worker"), max_length=200)
    measured_at = models.DateTimeField(gettext_lazy("measured at"), auto_now_add=True)
    games = models.PositiveIntegerField(gettext_lazy("games played"))
    wall_seconds = models.FloatField(gettext_lazy("wall-clock seconds"))
    cpu_seconds = models.FloatField(gettext_lazy("CPU seconds"))
    ladder_seconds = models.FloatField(
        gettext_lazy("ladder's seconds"),
        help_text=gettext_lazy("What the same games cost on the machine that wrote the ladder."))
    factor = models.FloatField(
        gettext_lazy("factor"),
        help_text=gettext_lazy("Wall-clock seconds here ÷ the ladder's seconds: above 1, this "
                               "deployment plays slower than the ladder's figures say."))
    agents = models.JSONField(
        gettext_lazy("agents"), default=dict, blank=True,
        help_text=gettext_lazy("Each slow agent's own measurement: {agent: {games, "
                               "wall_seconds, ladder_seconds, factor}}, its factor applying "
                               "to its decisions."))

    class Meta:
        verbose_name = gettext_lazy("pace calibration")
        verbose_name_plural = gettext_lazy("pace calibrations")
        ordering = ["-measured_at", "-id"]

    def __str__(self) -> str:
        return f"{self.host} × {self.factor:.2f}"
