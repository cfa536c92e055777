"""What players do with decks besides building them: the active mark, tags and favourites
(``services``, ``apis``, ``views``) and the deck image to post (``image``)."""
