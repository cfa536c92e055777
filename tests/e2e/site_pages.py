"""Every kind of page a user can reach, with something on it: the test set in the catalogue, a
saved deck with two versions, a played match, a round-robin (its meta view), a patched run, a
sweep, a finished balance search (band and meta objectives), a finished deck tuning and a
staff account for the admin — all played in this process by the services a worker calls.

``site_pages(base)`` returns (name, address, needs a log-in) for each page; the crawling
browser tests visit them all.
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


def populate(settings) -> list[SitePage]:
    """Fill the database and list the pages (paths from the site's root)."""
    from django.contrib.auth import get_user_model

    from balance.search.services import balance_job_request
    from balance.tuning.services import tuning_job_request
    from cards.models import Card
    from cards.services import card_set_import
    from decks.drafts import Draft
    from decks.services import deck_create, deck_save
    from rules.decks.cardset import TEST_SET
    from simulations.services import simulation_request
    from simulations.sweeps import sweep_submit

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
    tuning = _finished(tuning_job_request(user=ada, deck_spec=deck.uid, field_specs=[DUSK],
                                          agent="greedy", max_swaps=1, budget_games=2_000,
                                          verify_games=100, seed=7, is_public=True))
    card = Card.objects.get(code="T-M01")
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
        SitePage("log-in", "/accounts/login/"), SitePage("sign-up", "/accounts/signup/"),
        SitePage("password reset", "/accounts/password/reset/"),
        SitePage("password change", "/accounts/password/change/", login=True),
        SitePage("profile", "/accounts/profile/", login=True),
        SitePage("not found", "/cards/NO-SUCH-CARD/"),
        SitePage("admin", "/admin/", login=True),
        SitePage("admin cards", "/admin/cards/card/", login=True),
        SitePage("admin card", f"/admin/cards/card/{card.pk}/change/", login=True),
        SitePage("admin balance jobs", "/admin/balance/balancejob/", login=True),
    ]
    return pages
