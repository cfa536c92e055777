"""Games between two people: a challenge (to a named player, or an open link), accepting it with
a deck checked against the challenge's format, declining, withdrawing, expiring, a rematch.

The challenger's deck is frozen in the challenge and shown to nobody but its owner until it is
played. Accepting is a conditional update (pending → accepted), so of two people opening the
same open link, or of an accept and a withdrawal at once, exactly one succeeds. Limits: open
challenges per challenger, games between people in progress per player (``play.conf``).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, override

from common.frozen import FrozenDeck
from decks.drafts import Draft
from decks.models import Format
from decks.selectors import format_default
from decks.validation.services import draft_validate
from play import conf
from play.clock.keep import clock_keep
from play.clock.periods import clock_new
from play.errors import (
    CHALLENGE_CLOSED,
    CHALLENGER_DECK_GONE,
    DECK_NOT_LEGAL,
    NO_PLAYER,
    NO_REMATCH,
    NOT_FOR_YOU,
    NOT_YOURSELF,
    OPEN_NOT_DECLINED,
    OWN_CHALLENGE,
    TOO_MANY_CHALLENGES,
    TOO_MANY_GAMES,
    UNKNOWN_FORMAT,
    DeckProblems,
    PlayError,
)
from play.models import HUMAN, Challenge, ChallengeStatus, PlayerSettings, PlayGame, PlayStatus
from play.selectors import spectators_default
from rules.engine.cards import CardDataError
from simulations.sources import SourceError, cards_freeze

FIRST_CHOICES = ("random", "me", "them")


def deck_problems(deck: Mapping[str, Any], format_code: str) -> list[dict[str, Any]]:
    """Every problem of a frozen deck under the format, as the builder lists them."""
    draft = Draft(name=str(deck.get("name") or ""), hero=deck.get("hero"),
                  cards={str(k): int(v) for k, v in dict(deck.get("cards") or {}).items()},
                  format_code=format_code)
    try:
        validation = draft_validate(draft=draft, format_code=format_code)
    except Format.DoesNotExist:
        known = ", ".join(Format.objects.filter(is_active=True).values_list("code", flat=True))
        raise PlayError(str(UNKNOWN_FORMAT).format(code=format_code, known=known),
                        "format") from None
    return [p.as_dict() for p in validation.problems]


def _check_deck(deck: Mapping[str, Any], format_code: str) -> None:
    problems = deck_problems(deck, format_code)
    if problems:
        fmt = Format.objects.filter(code=format_code).first()
        raise DeckProblems(str(DECK_NOT_LEGAL).format(format=fmt.display_name if fmt
                                                      else format_code),
                           problems)


def friend_games_in_progress(user: Any) -> int:
    """The user's games between people still in progress. Each one's clock is kept first, so a
    game left past its time (lost by timeout, or called off) no longer counts against the
    limit, whether or not anyone has opened it since."""
    playing = PlayGame.objects.filter(Q(owner=user) | Q(guest=user), guest__isnull=False,
                                      status=PlayStatus.PLAYING)
    return sum(1 for record in playing if not clock_keep(record).over)


def _check_games_limit(user: Any) -> None:
    count, limit = friend_games_in_progress(user), conf.max_friend_games()
    if count >= limit:
        raise PlayError(str(TOO_MANY_GAMES).format(who=user.get_username(), count=count,
                                                   limit=limit))


def open_challenges(user: Any) -> int:
    return Challenge.objects.filter(challenger=user, status=ChallengeStatus.PENDING,
                                    expires_at__gt=timezone.now()).count()


def _opponent(name: str | None, challenger: Any) -> Any:
    if not name:
        return None
    found = get_user_model().objects.filter(username=name, is_active=True).first()
    if found is None:
        raise PlayError(str(NO_PLAYER).format(name=name), "opponent")
    if found.pk == challenger.pk:
        raise PlayError(str(NOT_YOURSELF), "opponent")
    return found


@transaction.atomic
def challenge_create(*, challenger: Any, deck: FrozenDeck, opponent: str | None = None,
                     format_code: str | None = None, first: str = "random", seat: int = 0,
                     rematch_of: PlayGame | None = None, site_url: str = "",
                     spectators: bool | None = None) -> Challenge:
    """A challenge from ``challenger`` with their frozen ``deck`` (checked against the format:
    every problem listed), to the player named ``opponent`` or, with none, an open link.
    ``site_url`` (the site's address as the request reached it, ``https://host``) makes the
    e-mail's link one a mail reader can open. ``spectators``: whether the challenger lets
    anyone watch the game (None: their settings' default)."""
    who = _opponent(opponent, challenger)
    format_code = format_code or format_default().code
    _check_deck(deck, format_code)
    count, limit = open_challenges(challenger), conf.max_open_challenges()
    if count >= limit:
        raise PlayError(str(TOO_MANY_CHALLENGES).format(count=count, limit=limit))
    _check_games_limit(challenger)
    if first not in FIRST_CHOICES:
        first = "random"
    challenge = Challenge.objects.create(
        challenger=challenger, opponent=who, format_code=format_code, deck=dict(deck),
        seat=seat, first=first, clock=conf.friend_clock(), rematch_of=rematch_of,
        spectators=spectators_default(challenger) if spectators is None else spectators,
        expires_at=timezone.now() + timedelta(hours=conf.challenge_hours()))
    if who is not None:
        transaction.on_commit(lambda: challenge_email(challenge, site_url=site_url))
    return challenge


def player_settings_save(*, user: Any, email_challenges: bool, language: str,
                         allow_spectators: bool | None = None) -> PlayerSettings:
    """Keep the player's choice about challenge e-mails, and the language they are written in
    (the one the player reads the site in as they choose); and whether their games against
    people may be watched unless they say otherwise for a game (None: unchanged)."""
    defaults: dict[str, Any] = {"email_challenges": email_challenges, "language": language}
    if allow_spectators is not None:
        defaults["allow_spectators"] = allow_spectators
    found, _ = PlayerSettings.objects.update_or_create(user=user, defaults=defaults)
    return found


def challenge_email(challenge: Challenge, *, site_url: str = "") -> bool:
    """Tell the challenged player by e-mail, if they chose so and have an address: in the
    language they read the site in when they chose so (not the challenger's), with a link
    that opens the challenge."""
    who = challenge.opponent
    if who is None or not who.email:
        return False
    choice = PlayerSettings.objects.filter(user=who, email_challenges=True).first()
    if choice is None:
        return False
    with override(choice.language or django_settings.LANGUAGE_CODE):
        subject = gettext("{who} challenges you to a game on Cardlab").format(
            who=challenge.challenger.get_username())
        body = gettext("{who} challenges you to a game ({format}). Pick your deck and accept or "
                       "decline before {expires}: {url}").format(
            who=challenge.challenger.get_username(), format=challenge.format_label,
            expires=challenge.expires_at.strftime("%Y-%m-%d %H:%M UTC"),
            url=site_url.rstrip("/") + challenge.get_absolute_url())
    send_mail(subject, body, None, [who.email], fail_silently=True)
    return True


def _claim(challenge: Challenge, status: str) -> None:
    """Move a pending challenge to ``status``, or say why it is no longer open."""
    if challenge.status == ChallengeStatus.PENDING and challenge.expires_at <= timezone.now():
        Challenge.objects.filter(pk=challenge.pk, status=ChallengeStatus.PENDING).update(
            status=ChallengeStatus.EXPIRED)
        challenge.status = ChallengeStatus.EXPIRED
    changed = Challenge.objects.filter(pk=challenge.pk, status=ChallengeStatus.PENDING,
                                       expires_at__gt=timezone.now()).update(status=status)
    if not changed:
        challenge.refresh_from_db()
        raise PlayError(str(CHALLENGE_CLOSED).format(status=challenge.get_status_display()))
    challenge.status = status


def _may_answer(challenge: Challenge, user: Any) -> None:
    if user.pk == challenge.challenger_id:
        raise PlayError(str(OWN_CHALLENGE))
    if challenge.opponent_id is not None and challenge.opponent_id != user.pk:
        raise PlayError(str(NOT_FOR_YOU))


def _first_seat(challenge: Challenge) -> int | None:
    mine = challenge.seat
    return {"me": mine, "them": 1 - mine}.get(challenge.first)


@transaction.atomic
def challenge_accept(*, challenge: Challenge, by: Any, deck: FrozenDeck,
                     seed: int | None = None, spectators: bool | None = None) -> PlayGame:
    """``by`` accepts with their ``deck`` (checked against the challenge's format): the game
    starts, the challenger in the seat they asked for. It may be watched if both allow it:
    the challenger as the challenge says, ``by`` as ``spectators`` (None: their default)."""
    _may_answer(challenge, by)
    _check_deck(deck, challenge.format_code)
    _check_games_limit(by)
    _check_games_limit(challenge.challenger)
    _claim(challenge, ChallengeStatus.ACCEPTED)
    people = [challenge.challenger, by] if challenge.seat == 0 else [by, challenge.challenger]
    decks = [dict(challenge.deck), dict(deck)] if challenge.seat == 0 \
        else [dict(deck), dict(challenge.deck)]
    try:
        cards = cards_freeze(decks)
    except SourceError as exc:
        raise _unplayable(deck, exc) from None
    seed = secrets.randbits(31) if seed is None else int(seed)
    try:
        record = PlayGame.objects.create(
            owner=people[0], guest=people[1], decks=decks, cards=cards, seats=[HUMAN, HUMAN],
            seed=seed, ruleset={}, first_player=_first_seat(challenge),
            rematch_of=challenge.rematch_of, **clock_new(challenge.clock),
            **_consents(challenge, by, spectators))
    except CardDataError as exc:
        raise _unplayable(deck, exc) from None
    challenge.game = record
    challenge.save(update_fields=["game"])
    return record


def _consents(challenge: Challenge, by: Any, spectators: bool | None) -> dict[str, bool]:
    """Each seat's consent to spectators: the challenger's from the challenge, the one who
    accepts from their answer (or their default)."""
    theirs = spectators_default(by) if spectators is None else spectators
    mine = challenge.spectators
    first, second = (mine, theirs) if challenge.seat == 0 else (theirs, mine)
    return {"watch_p1": first, "watch_p2": second}


def _unplayable(deck: Mapping[str, Any], exc: Exception) -> PlayError:
    """Why the two decks cannot be played: in full when the accepting player's own deck is at
    fault; else the challenger's deck is, whose cards stay hidden until played, so the message
    names none of them."""
    try:
        cards_freeze([dict(deck)])
    except (SourceError, CardDataError):
        return PlayError(str(exc), "deck")
    return PlayError(str(CHALLENGER_DECK_GONE))


def challenge_decline(*, challenge: Challenge, by: Any) -> Challenge:
    """The challenged player says no. An open link names nobody, so nobody declines it (one
    stranger would close it for everyone): its maker withdraws it."""
    _may_answer(challenge, by)
    if challenge.opponent_id is None:
        raise PlayError(str(OPEN_NOT_DECLINED))
    _claim(challenge, ChallengeStatus.DECLINED)
    return challenge


def challenge_cancel(*, challenge: Challenge, by: Any) -> Challenge:
    if by.pk != challenge.challenger_id:
        raise PlayError(str(NOT_FOR_YOU))
    _claim(challenge, ChallengeStatus.CANCELLED)
    return challenge


def challenge_withdraw_or_decline(*, challenge: Challenge, by: Any) -> Challenge:
    """The challenge's "no" button: its challenger withdraws it, the one challenged declines
    it."""
    if by.pk == challenge.challenger_id:
        return challenge_cancel(challenge=challenge, by=by)
    return challenge_decline(challenge=challenge, by=by)


@transaction.atomic
def rematch_offer(*, record: PlayGame, by: Any, site_url: str = "") -> Challenge:
    """A challenge to the other player of a finished game, seats swapped: each keeps the deck
    they played; the other accepts with that deck or another. While an offer of this rematch
    waits — yours, or the other player's to you — asking again is that offer (the game's row
    is locked meanwhile, so two clicks at once make one offer)."""
    seat = record.seat_of(by)
    if seat is None or not record.over:
        raise PlayError(str(NO_REMATCH))
    other = record.guest if seat == 0 else record.owner
    if other is None:
        raise PlayError(str(NO_REMATCH))
    PlayGame.objects.select_for_update().filter(pk=record.pk).first()
    offered = Challenge.objects.filter(rematch_of=record, status=ChallengeStatus.PENDING,
                                       expires_at__gt=timezone.now()).first()
    if offered is not None:
        return offered
    format_code = record.challenge.format_code if hasattr(record, "challenge") \
        else format_default().code
    return challenge_create(challenger=by, deck=record.decks[seat], opponent=other.get_username(),
                            format_code=format_code, seat=1 - seat, rematch_of=record,
                            site_url=site_url, spectators=record.watch_allowed_by(seat))
