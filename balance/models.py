"""Balance search and deck tuning jobs and the blocks of games they have played.

A deck tuning is a job of kind ``tuning`` (``rules.lab.deck_tuning``): the same row, lease, reaper,
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
- Only ``balance.runner``, ``balance.pieces`` and ``balance.search.services`` write these rows,
  and the one work protocol (``work``: ``protocol``, ``fair``, ``reaper``) their lease columns
  (``work.models.LeasedWork``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from common.language import frozen_deck_name, frozen_deck_names
from simulations.models import new_uid
from work.models import ACTIVE_WORK_STATUSES, LeasedWork, WorkStatus


class JobKind(models.TextChoices):
    BALANCE = "balance", gettext_lazy("Balance search")
    TUNING = "tuning", gettext_lazy("Deck tuning")
    FORECAST = "forecast", gettext_lazy("Meta forecast")


# A job's title, of its decks' names: stored in the submitter's language as ``label``, shown in
# the reader's as ``title``.
SEARCH_LABEL = gettext_lazy("Balance search: {names}")
TUNING_LABEL = gettext_lazy("Deck tuning: {deck} against {names}")
FORECAST_LABEL = gettext_lazy("Meta forecast: {names}")
LABEL_LENGTH = 300


def job_label(kind: str, names: list[str]) -> str:
    """A job's title from its decks' names (a tuning's first deck is the tuned one)."""
    if kind == JobKind.TUNING:
        text = TUNING_LABEL.format(deck=names[0], names=", ".join(names[1:]))
    elif kind == JobKind.FORECAST:
        text = FORECAST_LABEL.format(names=", ".join(names))
    else:
        text = SEARCH_LABEL.format(names=", ".join(names))
    return str(text)[:LABEL_LENGTH]


class Objective(models.TextChoices):
    META = "meta", gettext_lazy("A healthy meta")
    BAND = "band", gettext_lazy("Every matchup in a band")
    ADAPTED = "adapted", gettext_lazy("A healthy meta after players adapt")


class BalanceJob(LeasedWork):
    uid = models.CharField(_("uid"), max_length=16, unique=True, default=new_uid, editable=False)
    kind = models.CharField(_("kind"), max_length=10, choices=JobKind.choices,
                            default=JobKind.BALANCE,
                            help_text=_("A balance search, or a deck tuning (``tuning``)."))
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("owner"),
                              on_delete=models.CASCADE, null=True,
                              blank=True, related_name="balance_jobs")
    label = models.CharField(_("label"), max_length=300)
    is_public = models.BooleanField(_("is public"), default=False)
    # What it searches, frozen at submission.
    decks = models.JSONField(_("decks"),
                             help_text=_("[{name, hero, cards: {code: n}, uid, version}]"))
    cards = models.JSONField(_("cards"),
                             help_text=_("{code: card data} of every card the decks use"))
    card_data_version = models.CharField(_("card data version"), max_length=64)
    agent = models.CharField(_("agent"), max_length=20)
    further_agents = models.JSONField(
        _("further agents"), default=list, blank=True,
        help_text=_("Meta: agents every target must also hold under, checked with their own "
                    "games (the agent above screens and races)."))
    strong_budget_games = models.PositiveIntegerField(_("further agents' budget games"),
                                                      default=0)
    strong_verify_games = models.PositiveIntegerField(_("further agents' verify games"),
                                                      default=600)
    band_low = models.FloatField(_("band low"), default=0.45)
    band_high = models.FloatField(_("band high"), default=0.55)
    objective = models.CharField(_("objective"),
        max_length=8, choices=Objective.choices, default=Objective.BAND,
        help_text=_("band: every matchup in the band; meta: every deck's field win rate in the "
                  "field band, every matchup in the matchup band, every deck at least "
                  "min_share of the ε-equilibrium; adapted: the meta's targets on the lists "
                  "players adapt to the patch (a meta forecast)."))
    field_band_low = models.FloatField(_("field band low"), default=0.47)
    field_band_high = models.FloatField(_("field band high"), default=0.53)
    matchup_band_low = models.FloatField(_("matchup band low"), default=0.30)
    matchup_band_high = models.FloatField(_("matchup band high"), default=0.70)
    epsilon = models.FloatField(_("epsilon"), default=0.005,
                                help_text=_("Win rate a deck may give up in the "
                                                         "ε-equilibrium (a share)."))
    min_share = models.FloatField(_("min share"), default=0.05,
                                  help_text=_("Each deck's smallest share of the "
                                                          "ε-equilibrium (meta)."))
    max_changes = models.PositiveSmallIntegerField(_("max changes"), default=6)
    fields = models.JSONField(_("fields"), default=list,
                              help_text=_('Fields that may change: ["cost", …]'))
    allowed_cards = models.JSONField(_("allowed cards"), null=True, blank=True,
                                     help_text=_("Codes that may change (empty: every card)."))
    spread = models.PositiveSmallIntegerField(_("spread"), default=2)
    budget_games = models.PositiveIntegerField(_("budget games"))
    verify_games = models.PositiveIntegerField(_("verify games"), default=2000)
    seed = models.BigIntegerField(_("seed"))
    live_patch = models.JSONField(
        _("live patch"), null=True, blank=True,
        help_text=_("A search's starting patch, already live: {name, changes, diff, "
                    "unpatched}; the search may extend it, change it or take it back."))
    max_edits = models.PositiveSmallIntegerField(
        _("max edits"), null=True, blank=True,
        help_text=_("At most this many edits of the patch a search starts from (a change "
                    "added, taken back or given another value); empty: no cap."))
    tuning = models.JSONField(_("tuning"),
        null=True, blank=True,
        help_text=_("A deck tuning's input: {format, set_of, pool, keep, heroes, max_swaps, "
                  "source}; decks[0] is the deck tuned, the others its field."))
    # Where it is.
    status = models.CharField(_("status"), max_length=10, choices=WorkStatus.choices,
                              default=WorkStatus.QUEUED)
    error = models.TextField(_("error"), blank=True)
    progress = models.JSONField(_("progress"), default=dict, blank=True,
                                help_text=_("The search's last progress report."))
    result = models.JSONField(_("result"), null=True, blank=True,
                              help_text=_("rules.lab.balance_search.SearchResult.to_dict"))
    games_played = models.PositiveBigIntegerField(_("games played"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = gettext_lazy("balance search or tuning")
        verbose_name_plural = gettext_lazy("balance searches and tunings")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "status"]),
                   models.Index(fields=["kind", "-created_at"]),
                   models.Index(fields=["status", "lease_until"]),
                   models.Index(fields=["is_public", "-created_at"])]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        if self.kind == JobKind.TUNING:
            return reverse("balance:tune-detail", args=[self.uid])
        if self.kind == JobKind.FORECAST:
            return reverse("balance:forecast-detail", args=[self.uid])
        return reverse("balance:detail", args=[self.uid])

    @property
    def title(self) -> str:
        """The job's title in the reader's language (``label`` keeps the submitter's)."""
        return job_label(self.kind, frozen_deck_names(self.decks)) if self.decks else self.label

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE_WORK_STATUSES

    @property
    def is_meta(self) -> bool:
        return self.objective == Objective.META

    @property
    def deck_names(self) -> list[str]:
        """The frozen decks' names in the page's language."""
        return [frozen_deck_name(d, i + 1) for i, d in enumerate(self.decks)]

    @property
    def deck_renames(self) -> dict[str, str]:
        """Each deck's name as a worker wrote it in the result (the site's default language:
        a worker serves no reader) → its name in the page's language."""
        with translation.override(settings.LANGUAGE_CODE):
            stored = self.deck_names
        return dict(zip(stored, self.deck_names, strict=True))


class JobBlock(models.Model):
    """One block of games a job played: ``key`` names the candidate's relevant moves, the
    matchup and its seed; ``tally`` is ``Tally.to_list()``."""

    job = models.ForeignKey(BalanceJob, verbose_name=_("job"), on_delete=models.CASCADE,
                            related_name="blocks")
    key = models.CharField(_("key"), max_length=64)
    index = models.PositiveIntegerField(_("index"))
    tally = models.JSONField(_("tally"))

    class Meta:
        verbose_name = gettext_lazy("job block")
        verbose_name_plural = gettext_lazy("job blocks")
        constraints = [models.UniqueConstraint(fields=["job", "key", "index"],
                                               name="job_block_unique")]

    def __str__(self) -> str:
        return f"job {self.job_id} block {self.key[:8]}/{self.index}"


class PieceState(models.TextChoices):
    # The admin shows a job's pieces with their state: the labels are translated (the same
    # words as a run's chunks).
    PENDING = "pending", _("Pending")   # waiting in the database, or its message in the broker
    RUNNING = "running", _("Running")   # a worker (or the job's own execution) holds it
    DONE = "done", _("Done")            # its blocks are stored
    FAILED = "failed", _("Failed")      # started too often without finishing


class JobPiece(LeasedWork):
    """Some of a job's missing blocks, played by any worker process and stored as ``JobBlock``
    rows (``balance.pieces``): ``task`` lists its parts, each a run of consecutive blocks of one
    task of the search (``key``, the codec's JSON of the task, ``first``, ``blocks``); the row's
    ``key`` is the digest of its parts, ``first`` its first part's and ``blocks`` their total. A
    work row of the one protocol (``work``): the same lease columns as a chunk."""

    job = models.ForeignKey(BalanceJob, verbose_name=_("job"), on_delete=models.CASCADE,
                            related_name="pieces")
    key = models.CharField(_("key"), max_length=64)
    first = models.PositiveIntegerField(_("first"))
    blocks = models.PositiveSmallIntegerField(_("blocks"))
    task = models.JSONField(_("task"))
    state = models.CharField(_("state"), max_length=10, choices=PieceState.choices,
                             default=PieceState.PENDING)
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = gettext_lazy("job piece")
        verbose_name_plural = gettext_lazy("job pieces")
        constraints = [models.UniqueConstraint(fields=["job", "key", "first"],
                                               name="job_piece_unique")]
        indexes = [models.Index(fields=["job", "state"]),
                   models.Index(fields=["state", "lease_until"])]

    def __str__(self) -> str:
        return f"job {self.job_id} piece {self.key[:8]}/{self.first}+{self.blocks}"
