from django.apps import AppConfig


class BalanceConfig(AppConfig):
    name = "balance"
    verbose_name = "Balance search"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from balance import signals  # noqa: F401  (the worker's job reaper)
