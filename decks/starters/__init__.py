"""Starter decks: the ready-made decks a card set ships with (``selectors``) and their pages
(``views``)."""
