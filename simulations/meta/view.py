"""The meta view as people read it, in their language: the plain sentences, the table's rows,
the two charts — everything the ``simulations/_meta.html`` include shows.

To show a field's meta on any page::

    from simulations.meta.view import meta_context
    context["meta_view"] = meta_context(report)        # report: MetaReport.to_dict()

    {% include "simulations/_meta.html" with meta=meta_view %}

``meta_context(report, *, names=None, epsilon_form=None, balance_url=None, section_id="meta",
title=None, own_seeds=False, agents=None)``:

- ``report``: ``rules.lab.meta.MetaReport.to_dict()`` (a plain dict, as cached or stored);
- ``names``: the decks' names to show, in the report's order (default ``report["decks"]``);
- ``epsilon_form``: a ``simulations.forms.MetaForm`` bound to ``request.GET`` to let the reader
  choose ε (a GET form that reloads the page with ``?epsilon=<points>``; the page reads it with
  ``simulations.meta.field.epsilon_share``); None: no form;
- ``balance_url``: where the "Balance this field" button leads; None: no button;
- ``section_id`` and ``title``: the section's id (unique on its page, so one page can show
  several fields: a balance search's unpatched field and its best patch) and its heading
  (default "Meta: is this field healthy?");
- ``own_seeds``: each matchup played its own seeds (a balance search's verification), so a
  field win rate's interval counts each seat-swapped pair once, not each seed of the run.

- ``agents``: the agents that played the field (one name, or two when two met): the view says
  which played and what level of play that stands for (``simulations.agents.skill``).

A report that carries ``matchup_range`` (a balance search's) adds a sentence on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from common.numbers import percent
from rules.lab.meta import PLAYED_SHARE
from simulations.agents.skill import played_by
from simulations.meta import charts
from simulations.meta.field import HEALTHY_FIELD_RATE, UNDECIDED

if TYPE_CHECKING:
    from django import forms

# A share the tables show as "0.0 %" (``percent``: one decimal).
SHOWN_AS_ZERO = 0.0005


def _share(share: float) -> str:
    return percent(share, 0)


def _join(items: Sequence[str]) -> str:
    return pgettext("list separator", ", ").join(items)


def _mix(names: Sequence[str], shares: Sequence[float]) -> str:
    order = sorted(range(len(names)), key=lambda d: -shares[d])
    return _join([f"{names[d]} {_share(shares[d])}" for d in order if shares[d] >= PLAYED_SHARE])


def epsilon_words(epsilon: float) -> str:
    """ε (a share) in points: "0.5 points", "1 point"."""
    points = round(epsilon * 100, 1)
    shown = number_format(points, 0 if points == int(points) else 1)
    return ngettext("{points} point", "{points} points",
                    1 if points == 1 else 2).format(points=shown)


def _health(names: Sequence[str], rates: Sequence[Mapping[str, Any]]) -> str | None:
    rated = [d for d, r in enumerate(rates) if r.get("rate") is not None]
    if not rated:
        return None
    best = max(rated, key=lambda d: rates[d]["rate"])
    rate = rates[best]
    words = {"deck": names[best], "rate": percent(rate["rate"], 1), "low": percent(rate["low"], 1),
             "high": percent(rate["high"], 1), "limit": _share(HEALTHY_FIELD_RATE)}
    if rate["rate"] <= HEALTHY_FIELD_RATE:
        return _("No deck wins more than {limit} against the field: the best, {deck}, wins "
                 "{rate} (95 %: {low}–{high}).").format(**words)
    if rate["low"] > HEALTHY_FIELD_RATE:
        return _("{deck} wins {rate} against the field (95 %: {low}–{high}), clearly above the "
                 "{limit} a healthy field allows.").format(**words)
    return _("{deck} wins {rate} against the field (95 %: {low}–{high}), above the {limit} a "
             "healthy field allows, though the games cannot rule out {limit}.").format(**words)


def _unplayed(names: Sequence[str], shares: Sequence[float]) -> tuple[list[str], list[str]]:
    """The decks an equilibrium does not play (under ``PLAYED_SHARE``): those it never plays
    (a share the tables show as 0.0 %) and those it plays less than that, apart, so a
    sentence never says "not played" beside a share of 0.8 %."""
    never = [names[d] for d, s in enumerate(shares) if s < SHOWN_AS_ZERO]
    rarely = [names[d] for d, s in enumerate(shares) if SHOWN_AS_ZERO <= s < PLAYED_SHARE]
    return never, rarely


def _rarely(decks: Sequence[str]) -> str | None:
    if not decks:
        return None
    return _("That field would play {decks} less than {limit} of the time.").format(
        decks=_join(decks), limit=_share(PLAYED_SHARE))


def _nash(names: Sequence[str], shares: Sequence[float]) -> list[str | None]:
    never, rarely = _unplayed(names, shares)
    if never:
        first = _("A field that adapts would play {mix}, and never {unplayed}.").format(
            mix=_mix(names, shares), unplayed=_join(never))
    else:
        first = _("A field that adapts would play {mix}.").format(mix=_mix(names, shares))
    return [first, _rarely(rarely)]


def _relaxed(names: Sequence[str], relaxed: Mapping[str, Any], epsilon: float
             ) -> list[str | None]:
    shares = relaxed["shares"]
    if relaxed["entropy_ratio"] > 0.999:
        return [_("Allowing {epsilon} of win rate, every deck can be played equally.").format(
            epsilon=epsilon_words(epsilon))]
    rarest = min(range(len(names)), key=lambda d: shares[d])
    never, rarely = _unplayed(names, shares)
    if never:
        return [_("Allowing {epsilon} of win rate, the most even field plays {mix}; even so "
                  "{decks} would not be played.").format(
            epsilon=epsilon_words(epsilon), mix=_mix(names, shares), decks=_join(never)),
            _rarely(rarely)]
    if rarely:
        return [_("Allowing {epsilon} of win rate, the most even field plays {mix}; even so "
                  "{decks} would be played less than {limit} of the time.").format(
            epsilon=epsilon_words(epsilon), mix=_mix(names, shares), decks=_join(rarely),
            limit=_share(PLAYED_SHARE))]
    return [_("Allowing {epsilon} of win rate, the most even field plays {mix}; {deck} still "
              "only {share}.").format(epsilon=epsilon_words(epsilon), mix=_mix(names, shares),
                                      deck=names[rarest], share=_share(shares[rarest]))]


def _undecided(names: Sequence[str], report: Mapping[str, Any]) -> str | None:
    if not report["resamples"]:
        return None
    low, high = UNDECIDED
    unsure = [names[d] for d, p in enumerate(report["nash"]["played"]) if low <= p <= high]
    if unsure:
        return _("Over {resamples} resamples of the seat-swapped pairs, the games cannot tell "
                 "whether a field that adapts would play {decks}: each is played in between 5 % "
                 "and 95 % of them.").format(resamples=report["resamples"], decks=_join(unsure))
    return _("Over {resamples} resamples of the seat-swapped pairs, the games tell clearly which "
             "decks a field that adapts plays: each is played in more than 95 % of them or in "
             "fewer than 5 %.").format(resamples=report["resamples"])


def _precision(report: Mapping[str, Any]) -> str | None:
    width = report.get("matchup_half_width")
    if not width:
        return None
    return _("A typical matchup is measured to ±{width} points, the half-width of its "
             "interval at 95 %; differences smaller than that are noise.").format(
        width=number_format(round(width * 100, 1), 1))


def _matchups(report: Mapping[str, Any]) -> str | None:
    span = report.get("matchup_range")
    if not span:
        return None
    return _("Single matchups run from {low} to {high}.").format(low=percent(span[0], 1),
                                                                   high=percent(span[1], 1))


def meta_sentences(report: Mapping[str, Any], names: Sequence[str] | None = None) -> list[str]:
    """The meta in plain sentences: the strongest deck against the field, the matchups' range
    (when the report has it), who a field that adapts would play, what allowing ε changes, what
    the games cannot tell apart, and how precisely a matchup is measured."""
    names = list(names if names is not None else report["decks"])
    found = [_health(names, report["field_rates"]), _matchups(report),
             *_nash(names, report["nash"]["shares"]),
             *_relaxed(names, report["relaxed"], report["epsilon"]),
             _undecided(names, report), _precision(report)]
    return [sentence for sentence in found if sentence]


def meta_sentence(report: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
    return " ".join(meta_sentences(report, names))


def _rows(names: Sequence[str], report: Mapping[str, Any]) -> list[dict[str, Any]]:
    low, high = UNDECIDED
    rows = []
    for d, name in enumerate(names):
        rate = report["field_rates"][d]
        row = {"name": name, "rate": rate,
               "healthy": rate.get("rate") is None or rate["rate"] <= HEALTHY_FIELD_RATE}
        for kind in ("nash", "relaxed"):
            played = report[kind]["played"][d]
            row[kind] = {"share": report[kind]["shares"][d], "played": played,
                         "undecided": low <= played <= high}
        row["equilibria"] = [row["nash"], row["relaxed"]]
        rows.append(row)
    return rows


def meta_context(report: Mapping[str, Any], *, names: Sequence[str] | None = None,
                 epsilon_form: forms.Form | None = None, balance_url: str | None = None,
                 section_id: str = "meta",
                 title: str | None = None, own_seeds: bool = False,
                 agents: str | Sequence[str] | None = None) -> dict[str, Any]:
    """What ``simulations/_meta.html`` shows (see the module's docstring)."""
    names = list(names if names is not None else report["decks"])
    epsilon = report["epsilon"]
    relaxed_label = _("ε-equilibrium (ε = {epsilon})").format(epsilon=epsilon_words(epsilon))
    return {
        "report": report, "names": names, "rows": _rows(names, report),
        "sentences": meta_sentences(report, names), "epsilon_words": epsilon_words(epsilon),
        "relaxed_label": relaxed_label, "healthy_limit": HEALTHY_FIELD_RATE,
        "healthy_band": (1 - HEALTHY_FIELD_RATE, HEALTHY_FIELD_RATE),
        "shares_svg": charts.shares_chart(
            names, report["nash"]["shares"], report["relaxed"]["shares"],
            relaxed_label=relaxed_label, title=_("Who a field that adapts plays")),
        "field_svg": charts.field_chart(
            names, report["field_rates"], band=(1 - HEALTHY_FIELD_RATE, HEALTHY_FIELD_RATE),
            title=_("Win rate against the field")),
        "form": epsilon_form, "balance_url": balance_url, "section_id": section_id,
        "title": title or _("Meta: is this field healthy?"), "own_seeds": own_seeds,
        "played_by": _played(agents),
    }


def _played(agents: str | Sequence[str] | None) -> str | None:
    if not agents:
        return None
    names = [agents] if isinstance(agents, str) else list(agents)
    return _("Played by {players}.").format(players=played_by(names[0], names[-1]))
