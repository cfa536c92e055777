"""The profile page: your decks, your runs, your games played, your e-mail address (for
password resets) and a way to change your password. It sits on the top floor because it shows
decks, simulations and games."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language, gettext_lazy
from django.views.decorators.http import require_http_methods

from accounts.services import user_email_set
from accounts.users import request_user
from common.forms import RefuseNulForm
from decks.selectors import deck_rows
from play.friends.services import player_settings_save
from play.selectors import challenges_emailed, plays_listed, spectators_default
from simulations.selectors import runs_listed, runs_with_rates

EMAIL_SAVED = gettext_lazy("Your e-mail address is saved: password resets go to {email}.")
EMAIL_REMOVED = gettext_lazy("Your e-mail address is removed: without one, a forgotten "
                             "password cannot be reset.")
SETTINGS_SAVED = gettext_lazy("Your settings are saved.")
SHOWN = 10


class EmailForm(RefuseNulForm):
    email = forms.EmailField(required=False, label=gettext_lazy("E-mail address"),
                             help_text=gettext_lazy("For password resets and, if you ask "
                                                    "for them below, challenges; never shown "
                                                    "to anyone."))
    email_challenges = forms.BooleanField(
        required=False, label=gettext_lazy("E-mail me when someone challenges me to a game"),
        help_text=gettext_lazy("Challenges also wait on your Play page. E-mails are written "
                               "in the language you read this page in when you save."))
    allow_spectators = forms.BooleanField(
        required=False, label=gettext_lazy("Let anyone signed in watch my games against people"),
        help_text=gettext_lazy("The choice each challenge starts with; you may change it for a "
                               "game, and stop it during one. A game is watched only if both "
                               "players allow it, and spectators see neither hand."))


def _saved_message(*, had_email: bool, email: str) -> str:
    """What the page says after a save: where password resets go, or that the address was
    removed only when there was one (a player without an address who only switched
    spectators on is not told an address was removed)."""
    if email:
        return str(EMAIL_SAVED).format(email=email)
    return str(EMAIL_REMOVED) if had_email else str(SETTINGS_SAVED)


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    user = request_user(request)
    form = EmailForm(request.POST or None, initial={
        "email": user.email, "email_challenges": challenges_emailed(user),
        "allow_spectators": spectators_default(user)})
    if request.method == "POST":
        if form.is_valid():
            had_email = bool(user.email)
            user_email_set(user=user, email=form.cleaned_data["email"])
            player_settings_save(user=user, email_challenges=form.cleaned_data["email_challenges"],
                                 language=get_language() or "",
                                 allow_spectators=form.cleaned_data["allow_spectators"])
            messages.success(request, _saved_message(had_email=had_email, email=user.email))
            return redirect("profile")
    decks = deck_rows().filter(owner=user)
    runs = runs_listed(user, mine=True)
    games = plays_listed(user)
    return render(request, "profile.html", {
        "form": form, "decks": decks[:SHOWN], "deck_count": decks.count(),
        "runs": runs_with_rates(runs[:SHOWN]), "run_count": runs.count(),
        "games": games[:SHOWN], "game_count": games.count()},
        status=400 if form.errors else 200)
