"""Simulation runs in the admin: read-only (the service is the only writer), with their chunks,
so an operator can see who played what, how often, and what went wrong."""

from django.contrib import admin

from simulations.models import Chunk, SimulationRun


class ChunkInline(admin.TabularInline):
    model = Chunk
    fields = ("index", "matchup", "start", "stop", "state", "attempts", "sends", "worker",
              "lease_until", "games_done", "error")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(SimulationRun)
class SimulationRunAdmin(admin.ModelAdmin):
    list_display = ("label", "uid", "owner", "kind", "status", "games_done", "games_total",
                    "created_at", "finished_at")
    list_filter = ("status", "kind", "is_public")
    search_fields = ("uid", "label", "owner__username")
    inlines = [ChunkInline]

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
