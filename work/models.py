"""The lease columns every kind of work shares, defined once.

A row of work (a simulation chunk, a balance job, one of a job's pieces) is claimed by one
execution at a time and handed back when its worker or its message is lost; the protocol
(``work.protocol``), the dispatcher (``work.fair``), the reaper (``work.reaper``) and the cap
(``work.quota``) read and write these columns alone, whatever the kind. Each kind keeps its own
state field (its values differ: a job's ``status`` is shown to people) and the indexes its
queries need on it.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class WorkStatus(models.TextChoices):
    """Where a piece of work a person asked for stands (a simulation run, a balance job): one
    set of values and words for every kind, so pages, the API and the admin say them alike."""

    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")
    CANCELLED = "cancelled", _("Cancelled")


ACTIVE_WORK_STATUSES = (WorkStatus.QUEUED, WorkStatus.RUNNING)


class LeasedWork(models.Model):
    claim = models.CharField(_("claim"), max_length=200, blank=True,
                             help_text=_("Task id of the holder."))
    worker = models.CharField(_("worker"), max_length=200, blank=True,
                              help_text=_("The worker (its node name) that last claimed it."))
    lease_until = models.DateTimeField(
        _("lease until"), null=True, blank=True,
        help_text=_("Running: held until then unless renewed. Sent: its message is sent again "
                    "after then. Handed back after an error: waits until then."))
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0,
                                                help_text=_("Times a worker started it."))
    sends = models.PositiveSmallIntegerField(_("sends"), default=0,
                                             help_text=_("Times its message was sent."))
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True,
                                   help_text=_("When its message was sent; empty while it waits "
                                             "its turn in the database."))
    # The reaper's sign of life: no row of any kind touched for a while while messages wait
    # means the queue was lost (``work.reaper``), a query over every row of every kind.
    touched_at = models.DateTimeField(_("touched at"), null=True, blank=True, db_index=True,
                                      help_text=_("Last claim, heartbeat, hand-back or finish."))
    cpu_seconds = models.FloatField(
        _("cpu seconds"), default=0.0,
        help_text=_("Estimated CPU seconds of its games, counted by the per-user cap (a job's "
                    "pieces count none: the job counts the whole job)."))
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)

    class Meta:
        abstract = True
