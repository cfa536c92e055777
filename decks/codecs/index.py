"""``CardIndex``: find a card by code, English name or Chinese name, forgivingly.

Keys are normalised (Unicode NFKC, so full-width letters and digits match; case-folded; runs
of whitespace collapsed). Lookup order: the exact code, the code ignoring case and width, then
the names (``lookup_code`` and ``lookup_name`` do one step each). A name shared by several
printings of one card resolves to the lowest code; a name shared by different cards is
ambiguous and the caller is told to write the code.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from common.language import localized_texts, localized_value, source_value
from rules.decks.legality import CardLike


def normalise(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


@dataclass(frozen=True)
class Lookup:
    """The result of a lookup: a code, or the candidates that made it ambiguous."""

    code: str | None
    ambiguous: tuple[str, ...] = ()


class CardIndex:
    """An immutable lookup table over some cards (pure: build it from CardDefs or rows)."""

    def __init__(self, cards: Iterable[CardLike]):
        self.cards: dict[str, CardLike] = {}
        self._codes: dict[str, list[str]] = {}
        self._names: dict[str, list[str]] = {}
        self._labels: dict[str, str] = {}  # normalised name -> the name as printed
        for card in cards:
            self.cards[card.code] = card
            self._codes.setdefault(normalise(card.code), []).append(card.code)
            for name in set(localized_texts(card, "name").values()):   # every language
                key = normalise(name or "")
                if key:
                    self._names.setdefault(key, []).append(card.code)
                    self._labels.setdefault(key, " ".join(name.split()))

    def __contains__(self, code: object) -> bool:
        return code in self.cards

    def get(self, code: str) -> CardLike | None:
        return self.cards.get(code)

    def display(self, code: str) -> str:
        """The card's name in the page's language (its code when it has none)."""
        card = self.cards.get(code)
        if card is None:
            return code
        return localized_value(card, "name") or code

    def lookup(self, text: str) -> Lookup:
        """Resolve a code or a name; ``Lookup(None)`` when nothing matches."""
        found = self.lookup_code(text)
        return found if found.code is not None else self.lookup_name(text)

    def lookup_code(self, text: str) -> Lookup:
        """The exact code, else the code ignoring case and width (if that is unique)."""
        raw = text.strip()
        if raw in self.cards:
            return Lookup(raw)
        codes = self._codes.get(normalise(raw), [])
        if len(codes) == 1:
            return Lookup(codes[0])
        return Lookup(None, tuple(sorted(codes)))

    def lookup_name(self, text: str) -> Lookup:
        """An English or Chinese name; printings of one card resolve to the lowest code."""
        codes = self._names.get(normalise(text))
        if not codes:
            return Lookup(None)
        if len(codes) == 1:
            return Lookup(codes[0])
        printings = {normalise(source_value(self.cards[c], "name")) for c in codes}
        if len(printings) == 1:
            return Lookup(min(codes))
        return Lookup(None, tuple(sorted(set(codes))))

    def suggest(self, text: str, n: int = 3, *,
                among: Collection[str] | None = None) -> tuple[str, ...]:
        """Names close to ``text`` ("did you mean"), best first; with ``among``, only names
        of those cards (the list's format's game's)."""
        key = normalise(text)
        if not key:
            return ()
        keys = self._labels.keys() if among is None else [
            name for name in self._labels if any(c in among for c in self._names[name])]
        close = difflib.get_close_matches(key, keys, n=n * 2, cutoff=0.6)
        out: list[str] = []
        for match in close:
            label = self._labels[match]
            if label not in out:
                out.append(label)
        return tuple(out[:n])
