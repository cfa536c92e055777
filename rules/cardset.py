"""Card sets' old address, kept for tools outside the project that import it (the shared
instruction counter, ``instr_per_game``, imports ``rules.match`` and ``rules.cardset``). Card
sets live in ``rules.decks.cardset``; the project imports them from there."""

from rules.decks.cardset import CORE_SET, TEST_SET, load_card_set

__all__ = ["CORE_SET", "TEST_SET", "load_card_set"]
