"""The serverless default broker: kombu's filesystem transport, safe with several processes.

kombu 5.7's filesystem transport creates a message's file, then locks and writes it, while its
consumers move and read files without the lock: a consumer can read a file that is still empty
and raise ``JSONDecodeError`` out of the worker's loop — the worker dies ("Unrecoverable error")
and the message, already removed, is lost (kombu issue #1551). The exchange tables in the
control folder are created the same way. This transport keeps kombu's folders, options and file
names (``data_folder_in``/``_out``, ``processed_folder``, ``store_processed``,
``control_folder``) and changes how files change hands:

- a producer writes each message under a temporary name that no consumer picks up
  (``<name>.msg.tmp``) and renames it into place: a message file is complete from the moment
  it has its name;
- a consumer claims a file by renaming it (``<name>.msg.<claim>.claimed``, atomic on one
  filesystem): of two consumers racing for a file, the one whose rename wins owns it and the
  other moves on, so a message is delivered once;
- a claimed file that does not parse (a writer without the rename may still be writing it) is
  renamed back and tried again later — never raised into the worker. One that nobody has
  written to for ``UNREADABLE_AFTER`` seconds and still does not parse is set aside as
  ``<name>.msg.unreadable`` with an error in the log;
- an exchange table is rewritten whole under a temporary name and renamed into place, its
  writers taking turns on a lock file beside it, so a reader never sees half a table.

Settings select it for ``CELERY_BROKER_URL=filesystem://`` (``CELERY_BROKER_TRANSPORT``);
``python -m tools.broker_stress`` races producers and consumers on it beside a CPU hog.
"""

from __future__ import annotations

import logging
import os
import shutil
import time
import uuid
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from queue import Empty
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem, virtual
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

logger = logging.getLogger(__name__)

TRANSPORT = "config.broker:Transport"   # the class path settings give Celery
TEMPORARY = ".tmp"
CLAIMED = ".claimed"
UNREADABLE = ".unreadable"
LOCK = ".lock"
UNREADABLE_AFTER = 30.0   # seconds without a write before an unparseable file is set aside

CANNOT_WRITE = "Cannot add file {path!r} to the queue folder"
SET_ASIDE = ("Broker message %s does not parse and nobody has written to it for %.0f s: "
             "set aside as %s")


def _write_whole(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that nobody ever sees the file partly written: under a
    temporary name first, then renamed into place (atomic on one filesystem)."""
    temporary = f"{path}.{uuid.uuid4().hex}{TEMPORARY}"
    try:
        with open(temporary, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise


def _is_message(name: str, queue: str) -> bool:
    # kombu's own test: "<time>_<uuid>.<queue>.msg"; temporary, claimed and set-aside files end
    # otherwise, so no consumer (kombu's included) ever takes them for messages.
    return name.partition(".")[2] == f"{queue}.msg"


class Channel(filesystem.Channel):
    """kombu's filesystem channel with whole-file writes and rename-to-claim reads."""

    # kombu's, left out of its stubs: the file of an exchange's table.
    _exchange_file: Callable[[str], Path]

    # The signatures of kombu's filesystem channel, which its stubs declare against the
    # virtual channel's with an ignore of their own: the mismatch is theirs.
    def _put(  # type: ignore[override]
            self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:
        """Put ``payload`` onto ``queue``: complete before it has a message's name."""
        name = f"{round(time.monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        path = os.path.join(self.data_folder_out, name)
        try:
            _write_whole(path, str_to_bytes(dumps(payload)))
        except OSError as exc:
            raise ChannelError(CANNOT_WRITE.format(path=path)) from exc

    def _get(self, queue: str) -> dict[str, Any]:  # type: ignore[override]
        """The oldest message of ``queue`` that this consumer wins; ``Empty`` if none."""
        for name in sorted(os.listdir(self.data_folder_in)):
            if _is_message(name, queue):
                payload = self._claim(name)
                if payload is not None:
                    return payload
        raise Empty()

    def _claim(self, name: str) -> dict[str, Any] | None:
        """Rename the file to a name of this consumer's own; read it if the rename won."""
        path = os.path.join(self.data_folder_in, name)
        claimed = f"{path}.{os.getpid()}-{uuid.uuid4().hex[:12]}{CLAIMED}"
        try:
            os.rename(path, claimed)
        except OSError:        # another consumer won it, or it was purged: not ours
            return None
        try:
            with open(claimed, "rb") as f:
                payload = loads(bytes_to_str(f.read()))
            if not isinstance(payload, dict):
                raise ValueError("a message is a JSON object")
        except (OSError, ValueError):
            self._give_back(claimed, path)
            return None
        self._dispose(claimed, name)
        return payload

    def _give_back(self, claimed: str, path: str) -> None:
        """A file that does not parse goes back under its name for a later try, unless nobody
        has written to it for UNREADABLE_AFTER seconds: then it is set aside, said in the log."""
        try:
            idle = time.time() - os.stat(claimed).st_mtime
            if idle < UNREADABLE_AFTER:
                os.rename(claimed, path)
            else:
                os.rename(claimed, path + UNREADABLE)
                logger.error(SET_ASIDE, path, idle, path + UNREADABLE)
        except OSError:
            logger.exception("Cannot give back broker message %s", path)

    def _dispose(self, claimed: str, name: str) -> None:
        """A delivered message's file: kept in processed_folder (store_processed) or removed.
        The message is delivered whatever happens here; a failure is only logged."""
        try:
            if self.store_processed:
                shutil.move(claimed, os.path.join(self.processed_folder, name))
            else:
                os.remove(claimed)
        except OSError:
            logger.warning("Cannot remove delivered broker message %s", claimed, exc_info=True)

    # --- exchange tables (control folder): rewritten whole, writers taking turns

    def get_table(  # type: ignore[override]  # as kombu's filesystem channel, stubs alike
            self, exchange: str) -> list[filesystem.exchange_queue_t]:
        try:
            return super().get_table(exchange)
        except ValueError:   # a table left half-written by kombu's own writer: rebuilt on bind
            logger.warning("Broker exchange table %s does not parse; read as empty",
                           self._exchange_file(exchange))
            return []

    def _update_table(
            self, exchange: str,
            change: Callable[[list[filesystem.exchange_queue_t]],
                             list[filesystem.exchange_queue_t] | None]) -> None:
        """Apply ``change`` (a function from a list of bindings to a new list, or None for no
        change) to ``exchange``'s table, holding its lock file."""
        file = self._exchange_file(exchange)
        self.control_folder.mkdir(parents=True, exist_ok=True)
        try:
            # Unbuffered (nothing is written to it): a FileIO, as kombu's lock() is typed.
            with open(f"{file}{LOCK}", "ab", buffering=0) as lock_file:
                filesystem.lock(lock_file, filesystem.LOCK_EX)  # type: ignore[attr-defined]
                try:
                    queues = self.get_table(exchange)
                    changed = change(queues)
                    if changed is not None:
                        _write_whole(file, str_to_bytes(dumps(changed)))
                finally:
                    filesystem.unlock(lock_file)
        except OSError as exc:
            raise ChannelError(f"Cannot open {file}") from exc

    def _queue_bind(self, exchange: str, routing_key: str, pattern: str | None,
                    queue: str) -> None:
        binding = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        self._update_table(
            exchange, lambda queues: None if binding in queues else [binding, *queues])

    def _delete(self, queue: str, exchange: str, routing_key: str, pattern: str | None,
                *args: Any, **kwargs: Any) -> None:
        self._purge(queue)      # what kombu's virtual channel does on delete
        binding = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        if not self._exchange_file(exchange).exists():
            return
        self._update_table(
            exchange,
            lambda queues: [q for q in queues if q != binding] if binding in queues else None)


class Transport(filesystem.Transport):
    """kombu's filesystem transport with :class:`Channel`."""

    Channel = Channel
    # Declared exchanges and bindings, per process, as in kombu's filesystem transport.
    global_state = virtual.BrokerState()
