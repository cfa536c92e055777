from django.contrib import admin
from django.utils.translation import gettext_lazy

from balance.models import BalanceJob


@admin.register(BalanceJob)
class BalanceJobAdmin(admin.ModelAdmin):
    list_display = ("title", "kind", "owner", "status", "games_played", "created_at")
    list_filter = ("kind", "status")
    readonly_fields = [f.name for f in BalanceJob._meta.fields]

    @admin.display(description=gettext_lazy("title"), ordering="label")
    def title(self, job: BalanceJob) -> str:
        """The job's title in the reader's language (``label`` keeps the submitter's)."""
        return str(job)
