"""Import and export between the catalogue's decks and the pure codecs (``decks.codecs``):
``services``, the import page (``views``), where each format puts pasted cards (``placing``)."""
