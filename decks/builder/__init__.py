"""The deck builder: its page (``views``), its card panel (``panel``) and a deck code pasted into
it (``paste``); its drafts live in the session (``decks.session``, ``decks.drafts``)."""
