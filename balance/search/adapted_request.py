"""What a balance search with the adapted objective freezes beyond a meta search's field: the
format the lists adapt in, the cards that may come in (``balance.tuning.services.tuning_pool``)
and the forecast's options, each checked (``BalanceInputError`` names the input)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy

from balance.forecast.services import SIZES as FORECAST_SIZES
from balance.search.adapted import MAX_ANSWER_CHECK, adapted_options
from balance.services import MIN_BUDGET, BalanceInputError
from balance.tuning.problem import format_to_dict
from balance.tuning.services import tuning_pool
from decks.adapters import format_to_rules
from decks.selectors import format_get
from rules.decks import legality
from rules.engine.cards import CardDef, DeckList
from rules.lab.balance_search.adapted import MAX_FORECAST_SEEDS

BAD_LIST_CHANGES = gettext_lazy("Let an adapted list differ in 1 to 15 cards.")
BAD_ITERATIONS = gettext_lazy("Search from 1 to 6 patches.")
BAD_ROUNDS = gettext_lazy("Allow from 1 to 20 rounds.")
BAD_EXPLOIT = gettext_lazy("Give the highest exploitability from 50 to 100 %.")
BAD_FORECAST_SEEDS = gettext_lazy("Forecast each patch on 1 to 4 seeds.")
BAD_ANSWER_CHECK = gettext_lazy(
    "Price 0 to {most} of each search's best patches against the lists' first answer (0 or 1: "
    "none, the search's own pick).")
BAD_FORECAST_BUDGET = gettext_lazy("Each forecast may play from {low:,} to {high:,} games.")
BAD_SIZE = gettext_lazy("Give a whole number from {low:,} to {high:,}.")
NOT_LEGAL = gettext_lazy("{name} is not legal in the standard format, so it cannot adapt.")
UNKNOWN_OPTION = gettext_lazy("Unknown option {name}: give any of {known}.")
FORECAST_BUDGET_CAP = 3_000_000
KNOWN = ("list_changes", "iterations", "exploit_limit", "forecast_budget_games", "max_rounds",
         "forecast_seeds", "answer_check", *FORECAST_SIZES)


def adapted_spec(options: Mapping[str, Any]) -> dict[str, Any]:
    """The forecast's frozen input for an adapted search: format, pool and checked options."""
    for name in options:
        if name not in KNOWN:
            raise BalanceInputError(UNKNOWN_OPTION.format(name=name, known=", ".join(KNOWN)),
                                    "adapted")
    o = adapted_options(dict(options))
    checks: list[tuple[str, float, float, Any]] = [
              ("list_changes", 1, 15, BAD_LIST_CHANGES), ("iterations", 1, 6, BAD_ITERATIONS),
              ("exploit_limit", 0.5, 1.0, BAD_EXPLOIT), ("max_rounds", 1, 20, BAD_ROUNDS),
              ("forecast_seeds", 1, MAX_FORECAST_SEEDS, BAD_FORECAST_SEEDS),
              ("answer_check", 0, MAX_ANSWER_CHECK, BAD_ANSWER_CHECK.format(
                  most=MAX_ANSWER_CHECK)),
              ("forecast_budget_games", MIN_BUDGET, FORECAST_BUDGET_CAP,
               BAD_FORECAST_BUDGET.format(low=MIN_BUDGET, high=FORECAST_BUDGET_CAP))]
    checks += [(name, low, high, BAD_SIZE.format(low=low, high=high))
               for name, (low, high) in FORECAST_SIZES.items() if name in o]
    for name, low, high, message in checks:
        # JSON's numbers only: a string or true would not compare (a 500), 2.5 seeds no count
        kind = float | int if name == "exploit_limit" else int
        if isinstance(o[name], bool) or not isinstance(o[name], kind) \
                or not low <= o[name] <= high:
            raise BalanceInputError(message, name)
    fmt_rules = format_to_rules(format_get(None))
    pool, set_of = tuning_pool(fmt_rules)
    return {"format": format_to_dict(fmt_rules), "set_of": set_of, "pool": pool, "options": o}


def adapted_legal_check(spec: Mapping[str, Any], cards: Mapping[str, CardDef],
                        decks: Sequence[DeckList]) -> None:
    """Every printed list legal in the format it adapts in."""
    from balance.tuning.problem import format_from_dict

    fmt = format_from_dict(spec["format"])
    for deck in decks:
        if legality.check_deck(legality.Deck.of(deck.hero, deck.counts()), cards, fmt):
            raise BalanceInputError(NOT_LEGAL.format(name=deck.name), "decks")
