"""Decks as the rule book sees them: legality, formats as data, piles and card sets."""
