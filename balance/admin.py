from django.contrib import admin

from balance.models import BalanceJob


@admin.register(BalanceJob)
class BalanceJobAdmin(admin.ModelAdmin):
    list_display = ("label", "kind", "owner", "status", "games_played", "created_at")
    list_filter = ("kind", "status")
    readonly_fields = [f.name for f in BalanceJob._meta.fields]
