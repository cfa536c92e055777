from django.apps import AppConfig


class BalanceConfig(AppConfig):
    name = "balance"
    verbose_name = "Balance search"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Jobs are one kind of the simulations' work: the same dispatcher, claim and reaper.
        from balance.runner import JOB_WORK
        from simulations import work

        work.register(JOB_WORK)
