"""Simulation runs in the admin: read-only (the service is the only writer), with their chunks,
so an operator can see who played what, how often, and what went wrong; the workers' pace
measurements, which the time estimates go by."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy

from simulations.models import Chunk, PaceCalibration, SimulationRun


class ChunkInline(admin.TabularInline[Chunk, SimulationRun]):
    model = Chunk
    fields = ("index", "matchup", "start", "stop", "state", "attempts", "sends", "worker",
              "lease_until", "games_done", "error")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: SimulationRun | None = None
                           ) -> bool:
        return False


@admin.register(SimulationRun)
class SimulationRunAdmin(admin.ModelAdmin[SimulationRun]):
    list_display = ("title", "uid", "owner", "kind", "status", "games_done", "games_total",
                    "created_at", "finished_at")
    list_filter = ("status", "kind", "is_public")
    search_fields = ("uid", "label", "owner__username")
    inlines = [ChunkInline]

    @admin.display(description=gettext_lazy("title"), ordering="label")
    def title(self, run: SimulationRun) -> str:
        return run.title     # in the reader's language (``label`` keeps the submitter's)

    def get_readonly_fields(self, request: HttpRequest, obj: SimulationRun | None = None
                            ) -> list[str]:
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: SimulationRun | None = None
                              ) -> bool:
        return False


@admin.register(PaceCalibration)
class PaceCalibrationAdmin(admin.ModelAdmin[PaceCalibration]):
    list_display = ("measured_at", "host", "games", "wall_seconds", "cpu_seconds",
                    "ladder_seconds", "factor")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False   # workers measure at start-up

    def has_change_permission(self, request: HttpRequest, obj: PaceCalibration | None = None
                              ) -> bool:
        return False
