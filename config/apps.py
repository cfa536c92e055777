from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The site as an app of its own: what belongs to no floor below it (the shared cache's
    table, created by a migration; the system check on collected static files)."""

    name = "config"
    verbose_name = "Cardlab"

    def ready(self) -> None:
        from config import checks  # noqa: F401  (registers the checks)
