"""The site's path converter for numbers in addresses: ``<dbint:number>``.

Django's ``<int:…>`` matches any run of digits, so ``/replays/99999999999999999999/`` reached a
query and failed in the database (``bigint out of range`` on PostgreSQL: a 500). Every number in
an address names a row counted in an integer column (a deck's version, a run's sample game, a
search's candidate), so a number above the column's range names nothing: the address does not
match, and the answer is the site's 404. Importing this module registers the converter; every
``urls.py`` that uses it imports it (``tests/test_hostile_input.py`` checks that no ``<int:``
is left).
"""

from __future__ import annotations

from django.urls import register_converter
from django.urls.converters import IntConverter

# PostgreSQL's ``integer`` (PositiveIntegerField and friends); SQLite's is wider.
DB_INT_MAX = 2**31 - 1
NAME = "dbint"


class DatabaseIntConverter(IntConverter):
    """A whole number from 0 to ``DB_INT_MAX``; anything larger does not match."""

    def to_python(self, value: str) -> int:
        number = int(value)    # ValueError past Python's digit limit: no match either
        if number > DB_INT_MAX:
            raise ValueError(f"{value[:20]}… is above {DB_INT_MAX}")
        return number


register_converter(DatabaseIntConverter, NAME)
