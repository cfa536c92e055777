from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class WorkConfig(AppConfig):
    name = "work"
    verbose_name = gettext_lazy("Leased work")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from work import signals  # noqa: F401  (the worker's reaper: at start-up, then a thread)
