"""The pages of games between people: making a challenge, a challenge's page (accept with a
deck, decline, withdraw), a rematch, and a player's public profile with their record."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from play import conf
from play.engine.deck_sources import deck_resolve, play_deck_choices
from play.errors import DeckProblems, PlayError
from play.friends import services as friends
from play.friends.forms import AcceptForm, ChallengeForm
from play.friends.records import player_record
from play.models import Challenge, ChallengeStatus
from play.selectors import challenge_get, game_end_context, play_get, spectators_default
from play.spectators.selectors import lobby_context

NO_PLAYER_PAGE = gettext_lazy("There is no player named {name!r}.")
NOT_OVER = gettext_lazy("This game between two people is not over.")


@require_GET
def challenge_lists(request: HttpRequest) -> HttpResponse:
    """The Play page's challenges and games to watch, so one sent, withdrawn, begun or ended
    shows without a reload: 204 (htmx swaps nothing) while they are still the ones the page
    shows (``?seen=``), and once the session has ended (the log-in page is no list to swap
    in)."""
    if not request.user.is_authenticated:
        return HttpResponse(status=204)
    context = lobby_context(request.user)
    if request.GET.get("seen") == context["challenges_digest"]:
        return HttpResponse(status=204)
    return render(request, "play/_challenge_lists.html", context)


@login_required
@require_GET
def game_end(request: HttpRequest, uid: str) -> HttpResponse:
    """The end of a finished game between people for one of its players (polled by the game's
    page: a rematch the other player offers shows without a reload)."""
    record = play_get(uid=uid, user=request.user)
    if not (record.friendly and record.over):
        raise Http404(str(NOT_OVER))
    return render(request, "play/_game_end.html", game_end_context(record, request.user))


@login_required
@require_http_methods(["GET", "POST"])
def challenge_new(request: HttpRequest) -> HttpResponse:
    decks = play_deck_choices(request, request.GET.get("deck") or request.POST.get("deck"))
    initial = {"opponent": request.GET.get("to"), "deck": request.GET.get("deck"),
               "spectators": spectators_default(request.user)}
    form = ChallengeForm(request.POST or None, decks=decks,
                         initial={k: v for k, v in initial.items() if v})
    problems: list[dict[str, Any]] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            challenge = friends.challenge_create(
                challenger=request.user, deck=deck_resolve(request, data["deck"], "deck"),
                opponent=data["opponent"].strip() or None, format_code=data["format"],
                first=data["first"], site_url=request.build_absolute_uri("/"),
                spectators=data["spectators"])
        except DeckProblems as exc:
            form.add_error("deck", str(exc))
            problems = exc.problems
        except PlayError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        else:
            return redirect(challenge)
    return render(request, "play/challenge_new.html", {
        "form": form, "problems": problems, "limit": conf.max_open_challenges(),
        "games_limit": conf.max_friend_games(), "hours": conf.challenge_hours()},
        status=400 if form.errors else 200)


def _challenge_page(request: HttpRequest, challenge: Challenge, *, form: AcceptForm | None = None,
                    problems: list[dict[str, Any]] | None = None, error: str = "",
                    status: int = 200) -> HttpResponse:
    mine = request.user.pk == challenge.challenger_id
    pending = challenge.status == ChallengeStatus.PENDING
    if form is None and pending and not mine:
        form = AcceptForm(decks=play_deck_choices(request),
                          initial={"spectators": spectators_default(request.user)})
    link = request.build_absolute_uri(challenge.get_absolute_url())
    return render(request, "play/challenge.html", {
        "challenge": challenge, "mine": mine, "pending": pending, "form": form,
        "problems": problems or [], "link": link, "error": error}, status=status)


@login_required
@require_GET
def challenge_page(request: HttpRequest, uid: str) -> HttpResponse:
    challenge = challenge_get(uid=uid, user=request.user)
    if challenge.game is not None and challenge.game.is_player(request.user):
        return redirect(challenge.game)
    return _challenge_page(request, challenge)


@login_required
@require_POST
def challenge_accept(request: HttpRequest, uid: str) -> HttpResponse:
    challenge = challenge_get(uid=uid, user=request.user)
    form = AcceptForm(request.POST, decks=play_deck_choices(request, request.POST.get("deck")))
    if not form.is_valid():
        return _challenge_page(request, challenge, form=form, status=400)
    try:
        game = friends.challenge_accept(
            challenge=challenge, by=request.user,
            deck=deck_resolve(request, form.cleaned_data["deck"], "deck"),
            spectators=form.cleaned_data["spectators"])
    except DeckProblems as exc:
        form.add_error("deck", str(exc))
        return _challenge_page(request, challenge, form=form, problems=exc.problems, status=400)
    except PlayError as exc:
        form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        return _challenge_page(request, challenge, form=form, status=400)
    return redirect(game)


@login_required
@require_POST
def challenge_decline(request: HttpRequest, uid: str) -> HttpResponse:
    challenge = challenge_get(uid=uid, user=request.user)
    try:
        friends.challenge_withdraw_or_decline(challenge=challenge, by=request.user)
    except PlayError as exc:
        return _challenge_page(request, challenge, error=str(exc), status=400)
    return redirect("play:new")


@login_required
@require_POST
def rematch(request: HttpRequest, uid: str) -> HttpResponse:
    record = play_get(uid=uid, user=request.user)
    try:
        challenge = friends.rematch_offer(record=record, by=request.user,
                                          site_url=request.build_absolute_uri("/"))
    except PlayError as exc:
        return render(request, "play/challenge_error.html", {"error": str(exc), "game": record},
                      status=400)
    return redirect(challenge)


@require_GET
def player_page(request: HttpRequest, name: str) -> HttpResponse:
    """A player's public profile: their record against people and against each AI player, and
    their latest games against people (a replay linked when its players shared it)."""
    user = get_user_model().objects.filter(username=name, is_active=True).first()
    if user is None:
        raise Http404(str(NO_PLAYER_PAGE).format(name=name))
    record = player_record(user)
    return render(request, "play/player.html", {
        "player": user, "record": record,
        "is_me": request.user.is_authenticated and request.user.pk == user.pk})
