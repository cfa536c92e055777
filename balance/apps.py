from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class BalanceConfig(AppConfig):
    name = "balance"
    verbose_name = gettext_lazy("Balance lab")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Jobs and their pieces are kinds of the one leased work, as simulation chunks are: the
        # same dispatcher, claim and reaper.
        from balance.pieces import PIECE_WORK
        from balance.runner import JOB_WORK
        from work import protocol

        protocol.register(JOB_WORK)
        protocol.register(PIECE_WORK)
