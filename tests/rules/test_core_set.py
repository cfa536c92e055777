"""The Core Set (``rules/data/core.yaml``): it loads, it covers the vocabulary, its starter
decks are legal under R5, and every card and every ability of it works in real games.

Plain pytest, no Django. The smoke proof plays a few thousand fixed-seed games (random and
greedy agents mixed) between the starter decks and one deck per faction and hero built here
from the set, and checks from the event log that every card was played and every
(card, trigger) ability resolved at least once, with no engine error.
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from collections.abc import Iterator

import pytest

from rules.ai.agents import make_agent
from rules.decks.cardset import CORE_SET, CardSet, load_card_set
from rules.engine import ATTRIBUTES, KEYWORDS, RARITIES, DeckList, Game
from rules.engine.ability_language import EFFECTS, PICKS, TRIGGERS
from rules.engine.filters import card_matches

HERO_PASSIVES = ("aura", "turn_start", "turn_end", "ally_dies")
ENERGY_CAP = 5
DECK_SIZE = 30
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def core() -> CardSet:
    return load_card_set(CORE_SET)


def of_kind(core: CardSet, kind: str) -> list:
    return [c for c in core.cards.values() if c.kind == kind]


def walk(effects) -> Iterator[dict]:
    """Every effect of a list, the ones nested in skip_combat and choose included."""
    for effect in effects:
        yield effect
        if effect["do"] == "skip_combat":
            yield from walk(effect["effects"])
        elif effect["do"] == "choose":
            for option in effect["options"]:
                yield from walk(option)


def abilities(card) -> Iterator[dict]:
    for group in card.by_trigger.values():
        yield from group


def cards_where(core: CardSet, test) -> set[str]:
    """Codes of the cards with at least one effect for which ``test(ability, effect)``."""
    return {card.code for card in core.cards.values() for ability in abilities(card)
            for effect in walk(ability["effects"]) if test(ability, effect)}


# ---------------------------------------------------------------- the data


def test_the_set_loads_with_zero_problems(core):
    # load_card_set raises CardSetError listing every problem; reaching here means none.
    assert core.code == "CORE" and core.name_en and CJK.search(core.name_zh)


def test_card_counts_per_kind(core):
    assert len(of_kind(core, "hero")) >= 12
    assert len(of_kind(core, "minion")) >= 120
    assert len(of_kind(core, "item")) >= 30


def test_codes_follow_the_scheme(core):
    pattern = {"hero": r"H\d\d", "minion": r"C\d\d\d", "item": r"I\d\d"}
    for card in core.cards.values():
        assert re.fullmatch(pattern[card.kind], card.code), card.code


def test_every_attribute_is_well_represented(core):
    minions = Counter(c.attribute for c in of_kind(core, "minion"))
    heroes = Counter(c.attribute for c in of_kind(core, "hero"))
    for attribute in ATTRIBUTES:
        assert minions[attribute] >= 15, (attribute, minions)
        assert heroes[attribute] >= 2, (attribute, heroes)


def test_factions_and_races_are_declared_named_and_used(core):
    assert len(core.factions) >= 4 and len(core.races) >= 6
    for item in [*core.factions.values(), *core.races.values()]:
        assert item.get("name_en") and CJK.search(item.get("name_zh", "")), item
    fighters = of_kind(core, "minion") + of_kind(core, "hero")
    factions = Counter(c.faction for c in fighters)
    races = Counter(c.race for c in fighters)
    for code in core.factions:
        assert factions[code] >= 15, (code, factions)
        assert any(h.faction == code for h in of_kind(core, "hero")), code
    for code in core.races:
        assert races[code] >= 3, (code, races)


def test_rarity_curve(core):
    counts = Counter(c.rarity for c in core.cards.values())
    assert set(counts) == set(RARITIES)
    assert counts["N"] > counts["SR"] and counts["R"] > counts["SR"]
    assert counts["SR"] > counts["UR"] and counts["SSR"] > counts["UR"]
    assert 1 <= counts["UR"] <= 10, counts
    assert counts["N"] + counts["R"] >= 0.5 * len(core.cards)


def test_every_keyword_is_printed_on_several_cards(core):
    printed = Counter(k for c in core.cards.values() for k in c.keywords)
    granted = cards_where(core, lambda a, e: e["do"] == "grant_keyword")
    for keyword in KEYWORDS:
        assert printed[keyword] >= 3, (keyword, printed)
        assert any(keyword == e["keyword"] for c in granted for a in
                   abilities(core.cards[c]) for e in walk(a["effects"])
                   if e["do"] == "grant_keyword"), keyword


def test_every_trigger_is_used_by_several_cards(core):
    users = defaultdict(set)
    for card in core.cards.values():
        for trigger in card.by_trigger:
            users[card.kind, trigger].add(card.code)
    for trigger, term in TRIGGERS.items():
        total = sum(len(users[kind, trigger]) for kind in term.kinds)
        assert total >= 3, (trigger, total)
    assert len(users["hero", "active"]) >= 3
    for passive in HERO_PASSIVES:
        assert len(users["hero", passive]) >= 2, passive


def test_every_effect_term_is_used_by_at_least_two_cards(core):
    for name in EFFECTS:
        users = cards_where(core, lambda a, e, name=name: e["do"] == name)
        assert len(users) >= 2, (name, users)
    for source in ("hand", "deck"):
        users = cards_where(core, lambda a, e, s=source: e["do"] == "summon" and e["from"] == s)
        assert len(users) >= 2, (source, users)


def test_every_target_pick_is_used(core):
    for pick in PICKS:
        users = cards_where(core, lambda a, e, p=pick: e.get("target", {}).get("pick") == p)
        assert len(users) >= 2, (pick, users)


def test_conditions_and_count_based_amounts_are_used(core):
    def uses_count(effect) -> bool:
        return any(isinstance(effect.get(k), dict) for k in ("amount", "count"))

    conditions = Counter("count" if "count" in a["if"] else "hero_hp"
                         for c in core.cards.values() for a in abilities(c) if a["if"])
    assert conditions["count"] >= 2 and conditions["hero_hp"] >= 2, conditions
    assert len(cards_where(core, lambda a, e: uses_count(e))) >= 3
    assert len({c.code for c in core.cards.values() for a in abilities(c)
                if a["sleeping"]}) >= 2
    whose = {a.get("whose") for c in core.cards.values() for a in abilities(c)}
    assert {"own", "enemy"} <= whose


def test_costs_stay_within_the_energy_cap(core):
    for card in core.cards.values():
        if card.kind != "hero":
            assert 0 <= card.cost <= ENERGY_CAP, card.code
        for ability in card.by_trigger.get("active", ()):
            assert 0 <= ability["cost"] <= ENERGY_CAP, card.code
    costs = Counter(c.cost for c in core.cards.values() if c.kind == "minion")
    assert all(costs[n] for n in range(ENERGY_CAP + 1)), costs


def test_every_card_has_an_english_and_a_chinese_name(core):
    english, chinese = set(), set()
    for card in core.cards.values():
        assert card.name_en and card.name_en != card.code, card.code
        assert CJK.search(card.name_zh), card.code
        english.add(card.name_en)
        chinese.add(card.name_zh)
    assert len(english) == len(chinese) == len(core.cards)     # no two cards share a name


# ---------------------------------------------------------------- starter decks (R5)


def r5_problems(core: CardSet, deck: DeckList) -> list[str]:
    """Why a deck breaks the standard format (R5.1–R5.3); [] when it is legal."""
    problems = []
    hero = core.cards.get(deck.hero)
    if hero is None or hero.kind != "hero":                                    # R5.1
        problems.append(f"hero {deck.hero!r} is not a hero card")
    if len(deck.cards) != DECK_SIZE:                                            # R5.2
        problems.append(f"{len(deck.cards)} cards, not {DECK_SIZE}")
    by_name = Counter(core.cards[code].name_en for code in deck.cards)
    for code, count in deck.counts().items():
        card = core.cards[code]
        if card.kind not in ("minion", "item"):                                 # R5.2
            problems.append(f"{code} is a {card.kind}")
        limit = 1 if card.rarity == "UR" else 3                                 # R5.3
        if by_name[card.name_en] > limit:
            problems.append(f"{code} x{count} (max {limit})")
    return problems


def test_r5_check_refuses_illegal_decks(core):
    """Rule: R5.1, R5.2, R5.3 — the check below is the one the starter decks must pass."""
    ur = next(c.code for c in of_kind(core, "minion") if c.rarity == "UR")
    n = next(c.code for c in of_kind(core, "minion") if c.rarity == "N")
    fillers = [c.code for c in of_kind(core, "minion") if c.rarity != "UR"]
    legal = DeckList.from_counts("H01", {code: 3 for code in fillers[:10]})
    assert r5_problems(core, legal) == []
    assert r5_problems(core, DeckList("C001", legal.cards))                      # no hero
    assert r5_problems(core, DeckList("H01", legal.cards[:-1]))                  # 29 cards
    assert r5_problems(core, DeckList("H01", legal.cards[:-1] + ("H02",)))       # hero in deck
    assert r5_problems(core, DeckList("H01", legal.cards[:-2] + (ur, ur)))       # 2 UR
    assert r5_problems(core, DeckList("H01", legal.cards[:-1] + (fillers[0],)))  # 4 copies
    assert n in fillers


def test_starter_decks_are_legal_and_distinct(core):
    assert len(core.decks) >= 6
    heroes = set()
    for name, deck in core.decks.items():
        assert re.fullmatch(r"[A-Za-z][A-Za-z ]+", name), name
        assert r5_problems(core, deck) == [], name
        heroes.add(deck.hero)
    assert len(heroes) == len(core.decks)                   # every starter has its own hero
    factions = {Counter(core.cards[c].faction for c in deck.cards).most_common(1)[0][0]
                for deck in core.decks.values()}
    assert factions == set(core.factions)                   # one starter per faction


# ---------------------------------------------------------------- smoke proof

GAMES = 3000
MAX_ACTIONS = 20_000
AGENT_MIX = (("random", "random"), ("random", "greedy"), ("greedy", "random"),
             ("random", "random"))


def faction_decks(core: CardSet) -> list[DeckList]:
    """One deck per hero: every minion of the hero's faction once, topped up with items
    (spread over the decks in turn) to 30 cards. Together they hold every card of the set."""
    items = sorted(c.code for c in of_kind(core, "item"))
    decks, next_item = [], 0
    for hero in sorted(of_kind(core, "hero"), key=lambda c: c.code):
        minions = sorted(c.code for c in of_kind(core, "minion") if c.faction == hero.faction)
        cards = list(minions[:DECK_SIZE])
        while len(cards) < DECK_SIZE:
            cards.append(items[next_item % len(items)])
            next_item += 1
        decks.append(DeckList(hero.code, tuple(cards), name=f"{hero.faction} {hero.code}"))
    return decks


def aura_holds(game: Game, player: int, ability: dict) -> bool:
    """Does an aura's condition hold now? (Auras resolve no event: they simply apply.)"""
    condition = ability["if"]
    if condition is None:
        return True
    if "hero_hp" in condition:
        who = player if condition["hero_hp"] == "own" else 1 - player
        value = game.players[who].hp
    else:
        count = condition["count"]
        sides = {"ally": (player,), "enemy": (1 - player,), "any": (0, 1)}[count["side"]]
        value = 0
        for side in sides:
            zone = getattr(game.players[side], count["zone"])
            cards = [m.card for m in zone if m is not None] if count["zone"] == "minions" \
                else zone
            value += sum(1 for card in cards if card_matches(card, count["filter"]))
    low, high = condition.get("min"), condition.get("max")
    return (low is None or value >= low) and (high is None or value <= high)


class Coverage:
    def __init__(self):
        self.played: set[str] = set()
        self.fired: set[tuple[str, str]] = set()
        self.errors: list[str] = []
        self.turns: list[int] = []

    def record(self, game: Game) -> None:
        """Read what happened from the game's event log."""
        last_item = None
        for event in game.events:
            kind = event["t"]
            if kind == "setup":
                self.played.update(event["heroes"])
            elif kind in ("place", "summon"):
                self.played.add(event["card"])
            elif kind == "item":
                self.played.add(event["card"])
                last_item = event["card"]
            elif kind == "ability":
                source = event.get("source")
                if source is None and event["trigger"] == "use":
                    source = last_item              # an item has no minion uid to name
                if source is not None:
                    self.fired.add((source, event["trigger"]))

    def auras(self, game: Game) -> None:
        """An aura counts as working when its source is an awakened minion (or a hero) and
        its condition holds, at a moment a player decides."""
        for index, player in enumerate(game.players):
            sources = [m.card for m in player.minions if m is not None and m.awake]
            for card in [*sources, player.hero]:
                for ability in card.by_trigger.get("aura", ()):
                    if (card.code, "aura") not in self.fired and aura_holds(game, index,
                                                                             ability):
                        self.fired.add((card.code, "aura"))


def play(core: CardSet, decks, seed: int, agents, coverage: Coverage) -> None:
    game = None
    try:
        game = Game(core.cards, list(decks), seed=seed, log=True)
        rngs = (random.Random(seed * 2 + 1), random.Random(seed * 2 + 2))
        for count in range(MAX_ACTIONS + 1):
            if game.decision is None:
                break
            if count == MAX_ACTIONS:
                raise RuntimeError(f"no result after {MAX_ACTIONS} actions")
            seat = game.decision.player
            agent = agents[seat]
            view = game.view(seat) if agent.needs_view else None
            if game.decision.kind == "main":
                coverage.auras(game)
            game.apply(agent.choose(view, game.legal_actions(), rngs[seat]), check=False)
        coverage.turns.append(game.turn)
    except Exception as exc:  # noqa: BLE001 - every engine error is reported with its seed
        names = " vs ".join(d.name for d in decks)
        coverage.errors.append(f"seed {seed} ({names}): {type(exc).__name__}: {exc}")
    if game is not None and game.events is not None:
        coverage.record(game)


@pytest.fixture(scope="module")
def smoke(core) -> Coverage:
    decks = list(core.decks.values()) + faction_decks(core)
    agents = {name: make_agent(name) for name in ("random", "greedy")}
    pairs = [(a, b) for a in range(len(decks)) for b in range(len(decks)) if a != b]
    order = random.Random(2024)
    coverage = Coverage()
    for game_index in range(GAMES):
        a, b = pairs[order.randrange(len(pairs))]
        mix = AGENT_MIX[game_index % len(AGENT_MIX)]
        play(core, (decks[a], decks[b]), 10_000 + game_index,
             (agents[mix[0]], agents[mix[1]]), coverage)
    return coverage


def test_smoke_games_raise_no_engine_error(smoke):
    assert smoke.errors == []
    assert len(smoke.turns) == GAMES


def test_smoke_every_card_is_played(core, smoke):
    assert sorted(set(core.cards) - smoke.played) == []


def test_smoke_every_ability_fires(core, smoke):
    expected = {(card.code, trigger) for card in core.cards.values()
                for trigger in card.by_trigger}
    assert sorted(expected - smoke.fired) == []
