"""The shared cache's backends: counters that keep their expiry, on Redis and in the database.

The throttles (``common/throttles.py``) count hits with ``add(key, 1, window)`` then ``incr``, and
tell a client to come back when the window ends: that is only true if ``incr`` leaves the
counter's expiry where ``add`` put it.

- Django's ``DatabaseCache`` inherits ``BaseCache.incr``, a ``get`` then a ``set`` with the
  cache's default timeout: every hit pushed the counter's expiry to 300 s away, so a client that
  waited the 60 s it was told found itself still refused. ``SharedDatabaseCache.incr`` rewrites
  the value alone, under a lock on its row, and leaves ``expires`` as it was.
- Django's ``RedisCache.incr`` is ``EXISTS`` then ``INCRBY``: a counter that expires between the
  two is re-created by ``INCRBY`` with no expiry at all, and then refuses its client for ever.
  ``SharedRedisCache.incr`` does both in one script, so a counter either counts inside its
  window or is reported missing.

The database keeps expiry times in whole seconds; ``SharedDatabaseCache`` rounds them up rather
than down, and the throttles end their windows on a whole second, so on both backends a counter
is gone by the time its Retry-After says.

``SharedRedisCache.clear()`` deletes only the keys under its own prefix: Django's empties the
whole Redis database (FLUSHDB), which would also drop the broker's queued messages when the cache
lives beside them.
"""

from __future__ import annotations

import base64
import math
import pickle
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache
from django.core.cache.backends.redis import RedisCache
from django.db import connections, router, transaction
from django.utils import timezone

# INCRBY only while the key exists (KEYS[1]; ARGV[1] the step); nil when it does not.
INCR_IF_PRESENT = """
if redis.call('EXISTS', KEYS[1]) == 1 then
    return redis.call('INCRBY', KEYS[1], ARGV[1])
end
return false
"""


class SharedRedisCache(RedisCache):
    def incr(self, key: str, delta: int = 1, version: int | None = None) -> int:
        key = self.make_and_validate_key(key, version=version)
        client = self._cache.get_client(key, write=True)
        value = client.eval(INCR_IF_PRESENT, 1, key, delta)
        if value is None:
            raise ValueError(f"Key '{key}' not found.")
        return int(value)

    # True, as Django's RedisCache.clear answers (the stubs' BaseCache.clear says None).
    def clear(self) -> bool:  # type: ignore[override]
        client = self._cache.get_client(None, write=True)
        pattern = self.make_key("*")
        keys = list(client.scan_iter(match=pattern, count=1000))
        for start in range(0, len(keys), 1000):
            client.delete(*keys[start:start + 1000])
        return True


class SharedDatabaseCache(DatabaseCache):
    # The table's name (DatabaseCache sets it; the stubs leave it out).
    _table: str

    def __init__(self, table: str, params: dict[str, Any]) -> None:
        super().__init__(table, params)
        self._checked_keys: dict[tuple[str, int | None], str] = {}
        self._get_sql: dict[str, str] = {}

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        # One row, its expiry compared by the database. Django's ``get`` goes through
        # ``get_many``, which builds the datetime converters anew on every call: most of what
        # reading the catalogue's generation cost on every stored page (common/page_cache.py).
        # The key's checks and the statement are made once per key and database. An expired
        # row is left for the table's culling, as ``add`` and ``set`` overwrite it.
        key = self._checked_key(key, version)
        db = router.db_for_read(self.cache_model_class)
        connection = connections[db]
        sql = self._get_sql.get(db) or self._make_get_sql(db)
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        with connection.cursor() as cursor:
            cursor.execute(sql, [key, now])
            row = cursor.fetchone()
        if row is None:
            return default
        return pickle.loads(base64.b64decode(connection.ops.process_clob(row[0]).encode()))

    def value_column(self, key: str, *, using: str, version: int | None = None
                     ) -> tuple[str, list[object]] | None:
        """An SQL expression (and its parameters) for another query's select list that reads
        the value stored under ``key`` (NULL when missing or expired; ``decode`` turns it into
        the value): a page that needs a row and a cached value pays one round trip. None when
        the cache is not in database ``using``."""
        db = router.db_for_read(self.cache_model_class)
        if db != using:
            return None
        sql = self._get_sql.get(db) or self._make_get_sql(db)
        now = connections[db].ops.adapt_datetimefield_value(timezone.now())
        return f"({sql})", [self._checked_key(key, version), now]

    def decode(self, stored: Any, *, using: str) -> Any:   # text, or a driver's LOB
        """The value a ``value_column`` read (None for NULL)."""
        if stored is None:
            return None
        stored = connections[using].ops.process_clob(stored)
        return pickle.loads(base64.b64decode(stored.encode()))

    def _checked_key(self, key: str, version: int | None) -> str:
        checked = self._checked_keys.get((key, version))
        if checked is None:
            checked = self.make_and_validate_key(key, version=version)
            if len(self._checked_keys) < 1_000:    # the few keys read on every page
                self._checked_keys[key, version] = checked
        return checked

    def _make_get_sql(self, db: str) -> str:
        quote = connections[db].ops.quote_name
        self._get_sql[db] = (f"SELECT {quote('value')} FROM {quote(self._table)} WHERE "
                             f"{quote('cache_key')} = %s AND {quote('expires')} > %s")
        return self._get_sql[db]

    def get_backend_timeout(self, timeout: float | None = DEFAULT_TIMEOUT) -> float | None:
        # The table keeps whole seconds and Django cuts the fraction off, which ended a
        # two-second window after anything from one to two seconds; rounded up instead, an
        # entry lives at least as long as it was asked to, and at most a second longer.
        expires = super().get_backend_timeout(timeout)
        return None if expires is None else math.ceil(expires)

    def incr(self, key: str, delta: int = 1, version: int | None = None) -> int:
        key = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        quote = connection.ops.quote_name
        table, value_col, key_col = quote(self._table), quote("value"), quote("cache_key")
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        with transaction.atomic(using=db), connection.cursor() as cursor:
            cursor.execute(f"SELECT {value_col} FROM {table} WHERE {key_col} = %s AND "
                           f"{quote('expires')} > %s{lock}", [key, now])
            row = cursor.fetchone()
            if row is None:
                raise ValueError(f"Key '{key}' not found.")
            stored = connection.ops.process_clob(row[0])
            value: int = pickle.loads(base64.b64decode(stored.encode())) + delta
            encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
            cursor.execute(f"UPDATE {table} SET {value_col} = %s WHERE {key_col} = %s",
                           [encoded, key])
        return value
