"""Deck validation without a page (``services``) and the API's tools that need no saved deck:
validate, import, export, compare, formats (``apis``)."""
