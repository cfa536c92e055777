"""What ``python manage.py meta_forecast`` prints: a progress line per step on stderr, and the
forecast — each round's lists as diffs from their printed lists with field win rates and the
meta's shares, the settled field's matchups and equilibria, the cards it adopts and drops, and
its exploitability. Every figure names its agent, games and 95 % interval (on seat-swapped
pairs).

English only, like every command's output; the pages say the same in both languages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.engine.cards import CardDef


def _name(cards: Mapping[str, CardDef], code: str) -> str:
    card = cards.get(code)
    return card.name_en if card else code


def _pct(figure: Mapping[str, Any]) -> str:
    return (f"{figure['rate'] * 100:.1f} % [{figure['low'] * 100:.1f}, "
            f"{figure['high'] * 100:.1f}]")


def diff_text(cards: Mapping[str, CardDef], diff: Sequence[Mapping[str, Any]]) -> str:
    if not diff:
        return "as printed"
    return ", ".join(f"{row['copies']:+d} {_name(cards, row['card'])}" for row in diff)


def progress_line(elapsed: float, event: Mapping[str, Any]) -> str:
    where = {"patch_day": "the printed lists",
             "tuning": f"round {event.get('round')}: tuning {event.get('archetype')}",
             "round": f"round {event.get('round')} played; meta "
                      + ", ".join(f"{s * 100:.0f} %" for s in event.get("shares", ())),
             "final": "the settled field on fresh seeds",
             "exploit": f"exploitability: tuning {event.get('archetype')} once more",
             "done": "done"}
    return (f"[{elapsed:6.0f} s] {event['phase']:<9} {where.get(event['phase'], '')} | "
            f"{event['games']:,} of {event['budget']:,} games")


def report_text(data: Mapping[str, Any], cards: Mapping[str, CardDef], *,
                elapsed: float) -> str:
    agent = data["agent"]
    final = data["final"]
    names = [d["name"] for d in final["decks"]]
    games = data["games"]
    lines = [f"Meta forecast of {len(names)} archetypes ({agent} agent): "
             f"{len(data['rounds']) - 1} round(s) of adaptation, {data['stopped']}.",
             f"Games: {games['rounds']:,} measuring the rounds, {games['tuning']:,} tuning, "
             f"{games['final']:,} on the settled field; {games['total']:,} in all, "
             f"{elapsed:.0f} s."]
    for step in data["rounds"]:
        lines += ["", f"Round {step['round']}" + (" (patch day)" if not step["round"] else "")]
        for deck, share in zip(step["decks"], step["shares"], strict=True):
            rate = deck["field"]
            figure = (f"{_pct(rate)} on {rate['games']:,} games" if rate else "not played")
            gain = (deck.get("tuning") or {}).get("improvement")
            tuned = (f"; tuning {gain['change'] * 100:+.1f} points "
                     f"[{gain['low'] * 100:+.1f}, {gain['high'] * 100:+.1f}]"
                     f"{' adopted' if deck['tuning']['adopted'] else ''}" if gain else "")
            lines.append(f"  {deck['name']:<16} meta {share * 100:4.1f} %  field {figure}"
                         f"{tuned}\n    {diff_text(cards, deck['diff'])}")
    lines += ["", f"The settled field ({agent} agent, {final['games_each']:,} fresh games a "
                  f"matchup; ε = {final['epsilon']:g}):"]
    for i, deck in enumerate(final["decks"]):
        row = final["matchups"][i]
        versus = "  ".join(f"{row[j]['rate'] * 100:4.1f}" if row[j] else "  — "
                           for j in range(len(names)))
        lines.append(f"  {deck['name']:<16} field {_pct(final['field'][i])}  "
                     f"Nash {final['nash']['shares'][i] * 100:4.1f} %  "
                     f"ε-equilibrium {final['relaxed']['shares'][i] * 100:4.1f} %  "
                     f"meta {final['shares'][i] * 100:4.1f} %  | {versus}")
    for kind in ("adopted", "dropped"):
        rows = data["cards"][kind]
        lines.append(f"Cards {kind}: " + ("; ".join(
            f"{_name(cards, r['card'])} (in {r['archetypes']}, {r['copies']} copies)"
            for r in rows) or "none"))
    low, high = (round(b * 100) for b in data["band"])
    lines.append(f"Verdicts (fine within {low}–{high} %; a nerf if over under any agent, a "
                 f"buff only if under under every agent):")
    for row in data["verdicts"]:
        rates = ", ".join(f"{agent} {_pct(rate)} ({rate['games']:,} games)"
                          for agent, rate in row["agents"].items())
        lines.append(f"  {row['archetype']:<16} {row['verdict']:<5} {rates}")
    exploit = data["exploitability"]
    if exploit:
        swaps = "; ".join(f"-{s['copies']} {_name(cards, s['out'])}, +{s['copies']} "
                          f"{_name(cards, s['into'])}" for s in exploit["swaps"]) or "unchanged"
        lines.append(f"Exploitability: {exploit['archetype']} ({swaps}) "
                     f"{_pct(exploit)} against the settled mix, {exploit['games']:,} fresh "
                     f"games ({agent} agent).")
    return "\n".join(lines)
