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
             "check": f"round {event.get('round')}: the check, tuning "
                      f"{event.get('archetype')} once more against the settled mix",
             "exploit": f"exploitability: tuning {event.get('archetype')} once more",
             "done": "done"}
    games, expected = event["games"], event.get("expected") or event["budget"]
    left = (f", about {elapsed * (expected - games) / games / 60:.0f} min left"
            if games and elapsed > 1 and expected > games else "")
    return (f"[{elapsed:6.0f} s] {event['phase']:<9} {where.get(event['phase'], '')} | "
            f"{games:,} of about {expected:,} games{left}")


def left_out_text(left_out: Mapping[str, Any] | None) -> str:
    """How many games an engine error left out of the figures, by phase, and the first
    one's error and how to play it again."""
    if not left_out or not left_out["games"]:
        return "No game was left out: the engine finished every game."
    phases = ", ".join(f"{n} in {phase or 'the rounds'}"
                       for phase, n in left_out["by_phase"].items())
    text = (f"Left out of every figure: {left_out['games']:,} game(s) the engine could not "
            f"finish ({phases}).")
    for row in left_out["examples"]:
        text += (f"\n  {row['phase']}: {row['deck']['name'] or row['deck']['hero']} against "
                 f"{row['rival']['name'] or row['rival']['hero']}, run seed {row['seed']}, "
                 f"game {row['game']} ({row['agent']}): {row['error'] or 'did not fail again'}")
    return text


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
             f"{elapsed:.0f} s; {data.get('games_reused', 0):,} more read from earlier "
             f"rounds, not played again.", left_out_text(data.get("left_out"))]
    for step in data["rounds"]:
        kind = (" (patch day)" if not step["round"] else
                " (the check: one more tuning of every list against the settled mix)"
                if step.get("check") else "")
        lines += ["", f"Round {step['round']}{kind}"]
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


def replay_text(out: Mapping[str, Any]) -> str:
    """``meta_forecast --replay``: each figure, the forecast's beside its replay."""
    lines = [f"The forecast (seed {out['forecast_seed']}) replayed on seed {out['seed']} "
             f"({out['agent']} agent, {out['games_each']:,} games a matchup):"]
    for row in out["figures"]:
        mark = "inside" if row["inside"] else ("consistent" if row["consistent"] else "OUTSIDE")
        lines.append(f"  {row['figure']:<40} forecast {_pct(row['forecast'])}  "
                     f"replayed {_pct(row['replayed'])}  {mark}")
    lines.append(f"{out['inside']} of {out['count']} replayed figures fall inside the "
                 f"forecast's 95 % interval (about 83 % expected of honest figures replayed "
                 f"at the same size); {out['consistent']} of {out['count']} are consistent "
                 f"with it (the difference within the two intervals' combined margin: about "
                 f"95 % expected).")
    return "\n".join(lines)


def paths_text(out: Mapping[str, Any], cards: Mapping[str, CardDef]) -> str:
    """``meta_forecast --seeds N`` / ``--compare``: each archetype's settled field win rate on
    each seed, whether the seeds' forecasts agree, and what their lists share."""
    seeds = [str(s) for s in out["seeds"]]
    lines = [f"The same forecast on {len(seeds)} seeds ({', '.join(seeds)}): each archetype's "
             "settled field win rate on each seed"]
    lines.append(f"  {'archetype':<16}" + "".join(f"{'seed ' + s:>24}" for s in seeds)
                 + f"{'spread':>9}  agree")
    for row in out["archetypes"]:
        cells = "".join(f"{_pct(f):>24}" for f in row["field"])
        spread = "—" if row["spread"] is None else f"{row['spread'] * 100:.1f}"
        lines.append(f"  {row['name']:<16}{cells}{spread:>9}  "
                     + ("yes" if row["consistent"] else "NO"))
    for path in out["paths"]:
        exploit = path.get("exploitability")
        lines.append(f"  seed {path['seed']}: {path['stopped']} after {path['rounds']} "
                     f"round(s), {path['games']:,} games; exploitability "
                     + (_pct(exploit) if exploit else "—"))
    if out["agree"]:
        lines.append("The seeds agree: every archetype's figures are consistent across them "
                     "(each two within their intervals' combined 95 % margin).")
    else:
        apart = [r["name"] for r in out["archetypes"] if not r["consistent"]]
        lines.append(f"The seeds DISAGREE on {', '.join(apart)}: the forecasts followed "
                     "different paths to different metas, and each one's figures are its "
                     "path's. Read the spread as how far apart the metas players may reach "
                     "are.")
    lines.extend(shared_lists_text(out, cards))
    return "\n".join(lines)


def shared_lists_text(out: Mapping[str, Any], cards: Mapping[str, CardDef]) -> list[str]:
    """The changes from print every seed's settled list made, archetype by archetype."""
    if out.get("lists") is None:
        return []
    each = " and ".join(str(n) for n in out["lists"]["brought_in"])
    lines = [f"What the seeds' lists share: of the copies each seed's lists brought in "
             f"({each}), {out['lists']['shared']} came in on every seed. The changes from "
             "print every seed made, by archetype:"]
    for row in out["archetypes"]:
        shared = row["lists"]
        if shared is None:
            continue
        lines.append(f"  {row['name']:<16}{shared['shared']} in common of "
                     + " and ".join(str(n) for n in shared["brought_in"]) + " brought in: "
                     + (diff_text(cards, shared["common"]) if shared["common"] else "none"))
    return lines
