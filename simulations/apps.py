from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SimulationsConfig(AppConfig):
    name = "simulations"
    verbose_name = _("Simulations")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from simulations import signals  # noqa: F401  (the worker's start-up pace measurement)
        from simulations.execution import CHUNK_WORK
        from work import protocol

        protocol.register(CHUNK_WORK)
