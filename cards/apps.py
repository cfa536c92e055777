from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardsConfig(AppConfig):
    name = "cards"
    verbose_name = _("Card catalogue")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from cards.generation import watch_models

        watch_models(self.label)
