"""The game engine's door: a stored game back into the engine (``adapter``: its replay, kept
per version, with a snapshot per step), an action read strictly from a client (``action_input``)
and the decks a game may be started with (``deck_sources``)."""
