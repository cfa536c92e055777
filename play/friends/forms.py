"""The forms of games between people: a challenge, and the deck to accept one with."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from decks.models import Format
from play.forms import _grouped
from simulations.sources import DeckChoice


def format_choices() -> list[tuple[str, str]]:
    """The active formats of the game the engine plays, named in the reader's language."""
    rows = Format.objects.filter(is_active=True).select_related("game").order_by("pk")
    return [(f.code, f.display_name) for f in rows if f.simulated]


class ChallengeForm(forms.Form):
    opponent = forms.CharField(
        label=_("Player to challenge"), required=False, max_length=150,
        help_text=_("Their user name. Empty: an open link that anyone signed in may accept."))
    deck = forms.ChoiceField(label=_("Your deck"),
                             help_text=_("Hidden from the other player until it is played."))
    format = forms.ChoiceField(label=_("Format"),
                               help_text=_("Both decks must be legal in it."))
    first = forms.ChoiceField(label=_("Who goes first"), initial="random",
                              choices=[("random", _("Random")), ("me", _("I do")),
                                       ("them", _("The other player"))])
    spectators = forms.BooleanField(
        label=_("Let anyone signed in watch the game"), required=False,
        help_text=_("Only if the other player allows it too. Spectators see neither hand nor "
                    "any face-down minion; either of you may stop it during the game."))

    def __init__(self, *args: Any, decks: list[DeckChoice], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["deck"]).choices = _grouped(decks)
        cast(forms.ChoiceField, self.fields["format"]).choices = format_choices()


class AcceptForm(forms.Form):
    # The deck last: from it, Tab reaches the accept button.
    spectators = forms.BooleanField(
        label=_("Let anyone signed in watch the game"), required=False,
        help_text=_("Only if the other player allows it too. Spectators see neither hand nor "
                    "any face-down minion; either of you may stop it during the game."))
    deck = forms.ChoiceField(label=_("Your deck"),
                             help_text=_("Checked against the challenge's format."))

    def __init__(self, *args: Any, decks: list[DeckChoice], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["deck"]).choices = _grouped(decks)
