"""Balance search and deck tuning jobs and the blocks of games they have played.

A deck tuning is a job of kind ``tuning`` (``rules.deck_tuning``): the same row, lease, reaper,
task and stored blocks as a balance search; ``decks[0]`` is the deck tuned, the other decks its
field, and ``tuning`` holds what only a tuning needs (format, pool, kept cards, heroes).

Invariants:
- A job is frozen at submission like a simulation run: its decks, the card data they use, the
  agent, band, limits, budget and seed are plain JSON on the row; it never reads the catalogue
  again.
- The database is the source of truth. A job is held by one execution at a time through a
  lease (``claim``, ``lease_until``), renewed as it plays; a job whose lease expired is sent
  again by the reaper. ``JobBlock`` rows hold every block of games a job has played, at most one
  per (job, key, index) — a database constraint — so a resumed execution replays the search
  (deterministic for its seed and game budget) and plays only the blocks that are missing.
- Only ``balance.runner`` and ``balance.services`` write these rows, and the one work
  protocol of ``simulations`` (``work``, ``fair``, ``reaper``) their lease columns.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy

from simulations.models import new_uid


class JobStatus(models.TextChoices):
    QUEUED = "queued", gettext_lazy("Queued")
    RUNNING = "running", gettext_lazy("Running")
    DONE = "done", gettext_lazy("Done")
    FAILED = "failed", gettext_lazy("Failed")
    CANCELLED = "cancelled", gettext_lazy("Cancelled")


ACTIVE_JOB_STATUSES = (JobStatus.QUEUED, JobStatus.RUNNING)


class JobKind(models.TextChoices):
    BALANCE = "balance", gettext_lazy("Balance search")
    TUNING = "tuning", gettext_lazy("Deck tuning")


class Objective(models.TextChoices):
    META = "meta", gettext_lazy("A healthy meta")
    BAND = "band", gettext_lazy("Every matchup in a band")


class BalanceJob(models.Model):
    uid = models.CharField(max_length=16, unique=True, default=new_uid, editable=False)
    kind = models.CharField(max_length=10, choices=JobKind.choices, default=JobKind.BALANCE,
                            help_text="A balance search, or a deck tuning (``tuning``).")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True,
                              blank=True, related_name="balance_jobs")
    label = models.CharField(max_length=300)
    is_public = models.BooleanField(default=False)
    # What it searches, frozen at submission.
    decks = models.JSONField(help_text="[{name, hero, cards: {code: n}, uid, version}]")
    cards = models.JSONField(help_text="{code: card data} of every card the decks use")
    card_data_version = models.CharField(max_length=64)
    agent = models.CharField(max_length=20)
    band_low = models.FloatField(default=0.45)
    band_high = models.FloatField(default=0.55)
    objective = models.CharField(
        max_length=8, choices=Objective.choices, default=Objective.BAND,
        help_text="band: every matchup in the band; meta: every deck's field win rate in the "
                  "field band, every matchup in the matchup band, every deck at least "
                  "min_share of the ε-equilibrium.")
    field_band_low = models.FloatField(default=0.47)
    field_band_high = models.FloatField(default=0.53)
    matchup_band_low = models.FloatField(default=0.30)
    matchup_band_high = models.FloatField(default=0.70)
    epsilon = models.FloatField(default=0.005, help_text="Win rate a deck may give up in the "
                                                         "ε-equilibrium (a share).")
    min_share = models.FloatField(default=0.05, help_text="Each deck's smallest share of the "
                                                          "ε-equilibrium (meta).")
    max_changes = models.PositiveSmallIntegerField(default=6)
    fields = models.JSONField(default=list, help_text='Fields that may change: ["cost", …]')
    allowed_cards = models.JSONField(null=True, blank=True,
                                     help_text="Codes that may change (empty: every card).")
    spread = models.PositiveSmallIntegerField(default=2)
    budget_games = models.PositiveIntegerField()
    verify_games = models.PositiveIntegerField(default=2000)
    seed = models.BigIntegerField()
    tuning = models.JSONField(
        null=True, blank=True,
        help_text="A deck tuning's input: {format, set_of, pool, keep, heroes, max_swaps, "
                  "source}; decks[0] is the deck tuned, the others its field.")
    # Where it is.
    status = models.CharField(max_length=10, choices=JobStatus.choices,
                              default=JobStatus.QUEUED)
    error = models.TextField(blank=True)
    progress = models.JSONField(default=dict, blank=True,
                                help_text="The search's last progress report.")
    result = models.JSONField(null=True, blank=True,
                              help_text="rules.balance_search.SearchResult.to_dict")
    games_played = models.PositiveBigIntegerField(default=0)
    cpu_seconds = models.FloatField(
        default=0.0, help_text="Estimated CPU seconds of the whole job (simulations.quota).")
    claim = models.CharField(max_length=64, blank=True, help_text="Task id of the holder.")
    worker = models.CharField(max_length=200, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    sends = models.PositiveSmallIntegerField(default=0)
    sent_at = models.DateTimeField(null=True, blank=True,
                                   help_text="When its message was sent; empty while it waits "
                                             "its turn in the database.")
    touched_at = models.DateTimeField(null=True, blank=True,
                                      help_text="Last claim or lease renewal.")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "status"]),
                   models.Index(fields=["kind", "-created_at"]),
                   models.Index(fields=["status", "lease_until"]),
                   models.Index(fields=["is_public", "-created_at"])]

    def __str__(self) -> str:
        return self.label

    def get_absolute_url(self) -> str:
        if self.kind == JobKind.TUNING:
            return reverse("balance:tune-detail", args=[self.uid])
        return reverse("balance:detail", args=[self.uid])

    @property
    def is_tuning(self) -> bool:
        return self.kind == JobKind.TUNING

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE_JOB_STATUSES

    @property
    def is_meta(self) -> bool:
        return self.objective == Objective.META

    @property
    def deck_names(self) -> list[str]:
        return [d.get("name") or f"Deck {i + 1}" for i, d in enumerate(self.decks)]


class JobBlock(models.Model):
    """One block of games a job played: ``key`` names the candidate's relevant moves, the
    matchup and its seed; ``tally`` is ``Tally.to_list()``."""

    job = models.ForeignKey(BalanceJob, on_delete=models.CASCADE, related_name="blocks")
    key = models.CharField(max_length=64)
    index = models.PositiveIntegerField()
    tally = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["job", "key", "index"],
                                               name="job_block_unique")]

    def __str__(self) -> str:
        return f"job {self.job_id} block {self.key[:8]}/{self.index}"
