"""Django's Redis cache, safe to share a Redis database with the Celery broker.

Django's ``RedisCache.clear()`` empties the whole Redis database (FLUSHDB), which would also
drop the broker's queued messages when the cache lives beside them. This one deletes only the
keys under its own prefix.
"""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache


class SharedRedisCache(RedisCache):
    def clear(self) -> bool:
        client = self._cache.get_client(None, write=True)
        pattern = self.make_key("*")
        keys = list(client.scan_iter(match=pattern, count=1000))
        for start in range(0, len(keys), 1000):
            client.delete(*keys[start:start + 1000])
        return True
