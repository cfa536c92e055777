from django.apps import AppConfig


class CardsConfig(AppConfig):
    name = "cards"
    verbose_name = "Card catalogue"
    default_auto_field = "django.db.models.BigAutoField"
