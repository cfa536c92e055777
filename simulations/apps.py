from django.apps import AppConfig


class SimulationsConfig(AppConfig):
    name = "simulations"
    verbose_name = "Simulations"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from simulations import signals  # noqa: F401  (the worker's start-up reaper)
