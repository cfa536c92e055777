"""Every kind of page a user can reach, with something on it: the test set in the catalogue
and another game's (Sorcery: its avatars, sites and rarities), a saved deck with two versions,
a played match, a round-robin (its meta view), a patched run, a sweep, a finished balance
search of each objective (a band; a healthy meta of three decks), a finished deck tuning, a
collection, and a staff account for the admin and its forms — all played in this process by
the services a worker calls.

``populate(settings)`` returns (name, address, needs a log-in) for each page; the crawling
browser tests visit them all, signed in and (those that need no log-in) signed out.
``ERROR_PAGES`` are the error pages a browser reaches by a form post gone wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

PASSWORD = "a-Long-and-unusual-passphrase-42"
STAFF = "ada"
LEGAL_CARDS = {code: 3 for code in ("T-M01", "T-M02", "T-M03", "T-M04", "T-M05", "T-M06",
                                    "T-M07", "T-I01", "T-I02", "T-I03")}
# A long deck name in the round-robin: the charts must fit it too.
LONG_NAME = "Ada's Endless Crusade of the Burning Dusk Above the Sea"
DECK_NAMES = ("Ada's Dawn", LONG_NAME)   # typed by a user: any language may appear in them
DAWN = "starter:Dawn Test"
DUSK = "starter:Dusk Test"


@dataclass(frozen=True)
class SitePage:
    name: str
    path: str
    login: bool = False


def _played(run):
    from tests.simulations.helpers import play_all

    play_all(run)
    return run


def _finished(job):
    from balance import runner

    assert runner.job_execute(job_id=job.pk, claim="pages", worker="pages@host") == "done"
    job.refresh_from_db()
    return job


@dataclass(frozen=True)
class ErrorPage:
    """An error page reached by posting ``body`` (bytes of that many) to a form at ``path``,
    from a page of the site; ``token``: with the form's CSRF token (else the post is
    refused as a cross-site request, 403)."""

    name: str
    path: str
    status: int
    token: bool = True
    body: int = 0


ERROR_PAGES = [
    ErrorPage("forbidden (CSRF)", "/decks/import/", 403, token=False),
    ErrorPage("too large", "/decks/import/", 413, body=2 * 1024 * 1024),
]


def _other_game() -> None:
    """Sorcery's rule book: its game, sample set and formats (avatars, sites, tiers)."""
    import io
    from pathlib import Path

    from django.core.management import call_command

    games = Path(__file__).resolve().parents[2] / "rules" / "data" / "games"
    call_command("load_formats", str(games / "sorcery.yaml"), stdout=io.StringIO())


def _played_by_a_person(user, deck):
    """A game waiting on the person's first decision against greedy, and one they conceded."""
    from play.services import play_concede, play_start
    from simulations.sources import resolve_spec

    mine, _row = resolve_spec(deck.uid, user=user)
    theirs, _row = resolve_spec(DUSK, user=user)
    game = play_start(owner=user, deck=mine, opponent_deck=theirs, opponent="greedy",
                      first="me", seed=8)
    finished = play_start(owner=user, deck=mine, opponent_deck=theirs, opponent="greedy",
                          first="me", seed=9)
    finished = play_concede(record=finished, seat=0, version=finished.version)
    return game, finished


def _against_a_person(user):
    """A challenge to ``user`` from another player, one of ``user``'s waiting for an answer, one
    the other declined, a game between them in progress (``user`` plays P1) and one the other
    conceded (its board's end, its replay as ``user`` may know it)."""
    from django.contrib.auth import get_user_model

    from play.friends.services import challenge_accept, challenge_create, challenge_decline
    from play.services import play_concede
    from simulations.sources import resolve_spec

    # A name in Chinese: the Chinese pages' check reads Latin words as untranslated English.
    other = get_user_model().objects.create_user("小博", password=PASSWORD)
    dawn, _row = resolve_spec(DAWN, user=user)
    dusk, _row = resolve_spec(DUSK, user=other)
    to_me = challenge_create(challenger=other, deck=dusk, opponent=user.get_username())
    mine = challenge_create(challenger=user, deck=dawn, opponent=other.get_username())
    played = challenge_create(challenger=user, deck=dawn, opponent=other.get_username(),
                              first="me")
    game = challenge_accept(challenge=played, by=other, deck=dusk, seed=3)
    declined = challenge_decline(
        challenge=challenge_create(challenger=user, deck=dawn, opponent=other.get_username()),
        by=other)
    ended = challenge_accept(challenge=challenge_create(challenger=user, deck=dawn,
                                                        opponent=other.get_username()),
                             by=other, deck=dusk, seed=4)
    ended = play_concede(record=ended, seat=1, version=ended.version, by=other)
    return to_me, mine, game, declined, ended


def _watched():
    """A game between two other players who both let anyone watch it: the staff user is a
    spectator of it (its page, and the lobby's list on /play/)."""
    from django.contrib.auth import get_user_model

    from play.friends.services import challenge_accept, challenge_create
    from simulations.sources import resolve_spec

    users = get_user_model().objects
    maker = users.create_user("小卡", password=PASSWORD)
    other = users.get(username="小博")
    dawn, _row = resolve_spec(DAWN, user=maker)
    dusk, _row = resolve_spec(DUSK, user=other)
    made = challenge_create(challenger=maker, deck=dawn, opponent=other.get_username(),
                            spectators=True)
    return challenge_accept(challenge=made, by=other, deck=dusk, seed=5, spectators=True)


def populate(settings) -> list[SitePage]:
    """Fill the database and list the pages (paths from the site's root)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from balance.forecast.services import forecast_job_request
    from balance.search.services import balance_job_request
    from balance.tuning.services import tuning_job_request
    from cards.models import Card
    from cards.services import card_set_import
    from collection.services import collection_set_add
    from decks.drafts import Draft
    from decks.models import Format
    from decks.services import deck_create, deck_save
    from rules.decks.cardset import TEST_SET
    from simulations.services import simulation_request
    from simulations.sweeps.services import sweep_submit

    settings.BALANCE_PIECE_BLOCKS = 2
    card_set_import(source=TEST_SET)
    ada = get_user_model().objects.create_superuser(STAFF, f"{STAFF}@example.com", PASSWORD)
    deck = deck_create(owner=ada, draft=Draft(name="Ada's Dawn", hero="T-H01",
                                              cards=dict(LEGAL_CARDS), visibility="public"))
    second = deck_create(owner=ada, draft=Draft(name=LONG_NAME, hero="T-H02",
                                                cards=dict(LEGAL_CARDS), visibility="public"))
    swapped = dict(LEGAL_CARDS, **{"T-M01": 2, "T-M14": 1})
    deck_save(deck=deck, draft=Draft(name="Ada's Dawn", hero="T-H01", cards=swapped,
                                     visibility="public"), by=ada)
    match = _played(simulation_request(user=ada, kind="match", deck_specs=[deck.uid, DUSK],
                                       games=12, agent_a="greedy", agent_b="random", seed=4,
                                       chunk_size=6, is_public=True))
    robin = _played(simulation_request(user=ada, kind="round_robin",
                                       deck_specs=[second.uid, DAWN, DUSK], games=16,
                                       agent_a="greedy", agent_b="greedy", seed=3,
                                       chunk_size=8, is_public=True, check_cap=False))
    sweep = sweep_submit(user=ada, kind="match", deck_specs=[DAWN, DUSK], games=12,
                         agent_a="greedy", agent_b="random", card="T-M01", field="attack",
                         values=[1, 2, 3], seed=6, is_public=True)
    for run in sweep.runs.all():
        _played(run)
    patched = sweep.runs.exclude(patch=None).first()
    band = _finished(balance_job_request(
        user=ada, deck_specs=[DAWN, DUSK], agent="greedy", max_changes=2, budget_games=2_000,
        verify_games=100, seed=5, allowed_cards=["T-H01", "T-H02", "T-M01", "T-M03"],
        objective="band", is_public=True))
    meta = _finished(balance_job_request(
        user=ada, deck_specs=[DAWN, DUSK, second.uid], agent="random", max_changes=2,
        budget_games=2_000, verify_games=100, seed=5, allowed_cards=["T-H01", "T-H02"],
        fields=["hp"], objective="meta", is_public=True))
    tuning = _finished(tuning_job_request(user=ada, deck_spec=deck.uid, field_specs=[DUSK],
                                          agent="greedy", max_swaps=1, budget_games=2_000,
                                          verify_games=100, seed=7, is_public=True))
    forecast = _finished(forecast_job_request(
        user=ada, deck_specs=[DAWN, DUSK], agent="greedy", max_changes=2, max_rounds=1,
        budget_games=2_000, verify_games=100, tune_games=2_000, round_games=50,
        final_games=100, swaps_per_round=1, exploit_swaps=1, seed=3, is_public=True))
    card = Card.objects.get(code="T-M01")
    collection_set_add(user=ada, set_code="TEST", copies=2)
    _other_game()
    sorcery = Format.objects.get(code="sorcery")
    Group.objects.create(name="playtesters")
    game, finished = _played_by_a_person(ada, deck)
    to_me, mine, person, declined, ended = _against_a_person(ada)
    watched = _watched()
    pages = [
        SitePage("home", "/"), SitePage("rules", "/rules/"),
        SitePage("catalogue", "/cards/"), SitePage("query help", "/cards/help/"),
        SitePage("vocabulary", "/cards/vocabulary/"), SitePage("card", "/cards/T-M01/"),
        SitePage("card search", "/cards/?q=a%3Afire"),
        SitePage("decks", "/decks/"), SitePage("builder", "/decks/build/"),
        SitePage("import", "/decks/import/", login=True),
        SitePage("starter", "/decks/starter/dawn-test/"),
        SitePage("deck", deck.get_absolute_url()),
        SitePage("deck history", f"{deck.get_absolute_url()}history/"),
        SitePage("deck print", f"{deck.get_absolute_url()}print/"),
        SitePage("deck compare", f"/decks/compare/?a={deck.uid}&b={second.uid}"),
        SitePage("simulations", "/simulations/"),
        SitePage("new simulation", "/simulations/new/", login=True),
        SitePage("agents", "/simulations/agents/"),
        SitePage("match", match.get_absolute_url()),
        SitePage("replay", f"{match.get_absolute_url()}replays/1/"),
        SitePage("round-robin", robin.get_absolute_url()),
        SitePage("patched run", patched.get_absolute_url()),
        SitePage("what-if", f"{match.get_absolute_url()}what-if/form/", login=True),
        SitePage("patch page", "/simulations/patch/?card=T-M01", login=True),
        SitePage("sweep", sweep.get_absolute_url()),
        SitePage("balance searches", "/balance/"),
        SitePage("new balance search", "/balance/new/", login=True),
        SitePage("balance search", band.get_absolute_url()),
        SitePage("tunings", "/balance/tune/"),
        SitePage("new tuning", "/balance/tune/new/", login=True),
        SitePage("tuning", tuning.get_absolute_url()),
        SitePage("meta forecasts", "/balance/forecast/"),
        SitePage("new meta forecast", "/balance/forecast/new/", login=True),
        SitePage("meta forecast", forecast.get_absolute_url()),
        SitePage("log-in", "/accounts/login/"), SitePage("sign-up", "/accounts/signup/"),
        SitePage("password reset", "/accounts/password/reset/"),
        SitePage("password change", "/accounts/password/change/", login=True),
        SitePage("profile", "/accounts/profile/", login=True),
        SitePage("not found", "/cards/NO-SUCH-CARD/"),
        SitePage("admin", "/admin/", login=True),
        SitePage("admin cards", "/admin/cards/card/", login=True),
        SitePage("admin card", f"/admin/cards/card/{card.pk}/change/", login=True),
        SitePage("admin balance jobs", "/admin/balance/balancejob/", login=True),
        SitePage("meta balance search", meta.get_absolute_url()),
        SitePage("collection", "/collection/", login=True),
        SitePage("collection sets", "/collection/sets/", login=True),
        SitePage("collection import", "/collection/import/", login=True),
        SitePage("collection card", "/collection/cards/T-M01/", login=True),
        SitePage("missing cards", f"/collection/decks/{deck.uid}/missing/", login=True),
        SitePage("other game's card", "/cards/SC-A01/"),
        SitePage("other game's unique card", "/cards/SC-U01/"),
        SitePage("other game's cards", "/cards/?q=g%3Asorcery"),
        SitePage("admin balance job", f"/admin/balance/balancejob/{meta.pk}/change/",
                 login=True),
        SitePage("admin tuning job", f"/admin/balance/balancejob/{tuning.pk}/change/",
                 login=True),
        SitePage("admin formats", "/admin/decks/format/", login=True),
        SitePage("admin format", f"/admin/decks/format/{sorcery.pk}/change/", login=True),
        SitePage("admin decks", "/admin/decks/deck/", login=True),
        SitePage("admin deck", f"/admin/decks/deck/{deck.pk}/change/", login=True),
        SitePage("admin new card", "/admin/cards/card/add/", login=True),
        SitePage("admin card sets", "/admin/cards/cardset/", login=True),
        SitePage("admin card set", f"/admin/cards/cardset/{card.card_set_id}/change/",
                 login=True),
        SitePage("admin card set import", "/admin/cards/cardset/import/", login=True),
        SitePage("admin games", "/admin/cards/game/", login=True),
        SitePage("admin game", f"/admin/cards/game/{sorcery.game_id}/change/", login=True),
        SitePage("admin runs", "/admin/simulations/simulationrun/", login=True),
        SitePage("admin run", f"/admin/simulations/simulationrun/{match.pk}/change/",
                 login=True),
        SitePage("admin users", "/admin/auth/user/", login=True),
        SitePage("admin user", f"/admin/auth/user/{ada.pk}/change/", login=True),
        SitePage("admin groups", "/admin/auth/group/add/", login=True),
        SitePage("admin password", "/admin/password_change/", login=True),
        SitePage("play", "/play/", login=True),
        SitePage("game in play", game.get_absolute_url(), login=True),
        SitePage("finished game's replay", f"{finished.get_absolute_url()}replay/", login=True),
        SitePage("challenge a player", "/play/challenge/", login=True),
        SitePage("a challenge to you", to_me.get_absolute_url(), login=True),
        SitePage("your challenge waiting", mine.get_absolute_url(), login=True),
        SitePage("game against a person", person.get_absolute_url(), login=True),
        SitePage("a game against a person, over", ended.get_absolute_url(), login=True),
        SitePage("replay of a game against a person", f"{ended.get_absolute_url()}replay/",
                 login=True),
        SitePage("a declined challenge", declined.get_absolute_url(), login=True),
        SitePage("watching a game between two others", f"/play/{watched.uid}/watch/",
                 login=True),
        SitePage("a player's profile", f"/players/{STAFF}/"),
    ]
    return pages
