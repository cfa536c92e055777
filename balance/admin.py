from django.contrib import admin
from django.utils.translation import gettext_lazy

from balance.models import BalanceJob
from work.models import LeasedWork

LEASE_COLUMNS = [f.name for f in LeasedWork._meta.fields]


@admin.register(BalanceJob)
class BalanceJobAdmin(admin.ModelAdmin[BalanceJob]):
    list_display = ("title", "kind", "owner", "status", "games_played", "created_at")
    list_filter = ("kind", "status")
    # The job first, then its lease (inherited, the model lists those columns first).
    readonly_fields = [f.name for f in BalanceJob._meta.fields
                       if f.name not in LEASE_COLUMNS] + LEASE_COLUMNS

    @admin.display(description=gettext_lazy("title"), ordering="label")
    def title(self, job: BalanceJob) -> str:
        """The job's title in the reader's language (``label`` keeps the submitter's)."""
        return str(job)
