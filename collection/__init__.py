"""A player's collection: how many copies of each card they own, what their decks still need,
and where their active decks claim the same cards. It sits above ``decks`` and ``cards``
(it may import them; nothing below imports it: ``cards.ownership`` is how they ask)."""
