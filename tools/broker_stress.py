"""Producers and consumers race on the filesystem broker, beside a CPU hog; the figures printed
say whether every message was delivered exactly once and whether a consumer died.

    .venv/bin/python -m tools.broker_stress [--seconds 60] [--messages 0] [--producers 4]
        [--consumers 2] [--rate 100] [--hog 2] [--poll 0.01] [--transport project|kombu] [--json]

Each producer is a process publishing numbered messages through kombu (``--rate`` a second on
average, in uneven gaps) for ``--seconds`` from its start, and at least ``--messages`` of them;
each consumer is a process draining the queue the way a Celery worker does
(``Connection.drain_events``), writing down every message it is given. A consumer that raises
has died, as a Celery worker dies of an "Unrecoverable error": the death is counted and a new
consumer takes its place, as ``./run.sh`` restarts its worker. ``--hog`` busy-loop processes
keep the cores busy meanwhile (the load under which kombu's transport was seen to fail). After
the producers stop, the consumers drain the queue; then the messages sent, delivered, lost
(sent, never delivered) and duplicated (delivered more than once) are counted, with the files
left in the queue folder.

``--transport project`` (the default) is ``config.broker``, which settings select;
``--transport kombu`` is kombu's own filesystem transport, to see the failure it fixes.
Everything happens in a temporary folder: the site's queue is never touched.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import asdict, dataclass, field
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.synchronize import Event as EventType

    from kombu import Connection, Queue
    from kombu.message import Message

TRANSPORTS = {"project": "config.broker:Transport",
              "kombu": "kombu.transport.filesystem:Transport"}
QUEUE = "stress"
HOG = "while True: pass"
DRAIN_SECONDS = 120     # after the producers stop, how long the consumers get to empty the queue
QUIET_SECONDS = 2.0     # ... and how long the queue must stay empty to count as drained


@dataclass
class Figures:
    transport: str
    seconds: float
    messages: int
    producers: int
    consumers: int
    hog: int
    poll: float
    producing: float = 0.0     # seconds the longest producer published, as measured
    sent: int = 0
    delivered: int = 0
    lost: int = 0
    duplicates: int = 0
    unexpected: int = 0        # delivered, yet no producer finished sending it
    consumer_deaths: int = 0
    producer_deaths: int = 0
    drained: bool = True
    left: dict[str, int] = field(default_factory=dict)   # files left in the queue folder
    errors: list[str] = field(default_factory=list)      # each death's last line

    @property
    def clean(self) -> bool:
        return (self.sent > 0 and not (self.lost or self.duplicates or self.unexpected
                                       or self.consumer_deaths or self.producer_deaths)
                and self.drained and not self.left)

    def report(self) -> str:
        hog = f"beside a CPU hog of {self.hog} busy processes" if self.hog else "without a hog"
        lines = [
            f"broker stress: {self.transport}",
            f"  {self.producers} producers for {self.producing / 60:.2f} minutes "
            f"({self.producing:.1f} s), {self.consumers} consumers polling every "
            f"{self.poll:g} s, {hog}",
            f"  messages sent       {self.sent}",
            f"  delivered           {self.delivered}",
            f"  lost                {self.lost}",
            f"  duplicates          {self.duplicates}",
            f"  unexpected          {self.unexpected}",
            f"  consumer deaths     {self.consumer_deaths}",
            f"  producer deaths     {self.producer_deaths}",
            f"  queue drained       {'yes' if self.drained else 'no'}",
            f"  files left          {dict(self.left) or 'none'}",
        ]
        lines += [f"  death: {error}" for error in self.errors[:10]]
        if len(self.errors) > 10:
            lines.append(f"  ... and {len(self.errors) - 10} more deaths")
        lines.append("  verdict             " + ("every message delivered exactly once, nobody died"
                                                 if self.clean else "FAILED"))
        return "\n".join(lines)


def folders(root: Path) -> dict[str, object]:
    """The transport options settings use, under ``root`` (queue, processed, control)."""
    for sub in ("queue", "processed", "control"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    return {"data_folder_in": str(root / "queue"), "data_folder_out": str(root / "queue"),
            "processed_folder": str(root / "processed"),
            "control_folder": str(root / "control"), "store_processed": False}


def _connection(root: Path, transport: str, poll: float = 0.1) -> Connection:
    from kombu import Connection

    return Connection("filesystem://", transport=transport,
                      transport_options={**folders(root), "polling_interval": poll})


def _queue() -> Queue:
    from kombu import Exchange, Queue

    return Queue(QUEUE, Exchange(QUEUE, "direct"), routing_key=QUEUE)


def _die(path: Path) -> None:
    """Write down why this process dies (the parent counts it), then exit with status 1."""
    path.write_text(traceback.format_exc())
    sys.exit(1)


def produce(root: Path, transport: str, index: int, seconds: float, messages: int,
            rate: float) -> None:
    """Publish numbered messages for ``seconds`` and at least ``messages`` of them, writing down
    each one sent, then how long it took."""
    out = root / f"producer-{index}.sent"
    try:
        rng = random.Random(index)
        queue = _queue()
        with _connection(root, transport) as conn, out.open("w") as log:
            producer = conn.Producer(serializer="json")
            number = 0
            start = time.monotonic()
            while time.monotonic() - start < seconds or number < messages:
                producer.publish({"producer": index, "number": number}, exchange=queue.exchange,
                                 routing_key=QUEUE, declare=[queue], retry=False)
                log.write(f"{number}\n")
                log.flush()
                number += 1
                # Uneven gaps (bursts and pauses) around the mean rate vary the interleaving.
                time.sleep(rng.expovariate(rate))
        (root / f"producer-{index}.took").write_text(str(time.monotonic() - start))
    except Exception:
        _die(root / f"producer-{index}.death")


def consume(root: Path, transport: str, name: str, poll: float, stop: EventType) -> None:
    """Drain the queue as a Celery worker does until ``stop`` is set, writing down each
    message given; an exception ends the process (a death)."""
    out = root / f"consumer-{name}.got"
    try:
        with _connection(root, transport, poll) as conn, out.open("w") as log:
            def got(body: dict[str, Any], message: Message) -> None:
                log.write(f"{body['producer']} {body['number']}\n")
                log.flush()
                message.ack()

            with conn.Consumer([_queue()], callbacks=[got], accept=["json"]) as consumer:
                consumer.qos(prefetch_count=1)
                while not stop.is_set():
                    try:
                        conn.drain_events(timeout=0.5)
                    except TimeoutError:
                        pass
    except Exception:
        _die(root / f"consumer-{name}.death")


def _message_files(queue_dir: Path) -> int:
    return sum(1 for p in queue_dir.iterdir() if p.name.partition(".")[2] == f"{QUEUE}.msg")


def run(*, seconds: float = 60, messages: int = 0, producers: int = 4, consumers: int = 2,
        rate: float = 100, hog: int = 2, poll: float = 0.01, transport: str = "project",
        root: Path | None = None) -> Figures:
    """Race them; returns the figures. ``transport`` is a key of TRANSPORTS or a class path;
    ``poll`` is how long an idle consumer waits before looking again (settings: 0.1 s; shorter
    looks more often, so it meets more files being written)."""
    path = TRANSPORTS.get(transport, transport)
    figures = Figures(transport=path, seconds=seconds, messages=messages, producers=producers,
                      consumers=consumers, hog=hog, poll=poll)
    with tempfile.TemporaryDirectory(prefix="cardlab-broker-stress-", dir=root) as tmp:
        root_dir = Path(tmp)
        folders(root_dir)
        hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(hog)]
        try:
            _race(root_dir, path, figures, rate)
        finally:
            for process in hogs:
                process.kill()
                process.wait()
        _count(root_dir, figures)
    return figures


def _race(root: Path, transport: str, figures: Figures, rate: float) -> None:
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    started = 0

    def start_consumer() -> BaseProcess:
        nonlocal started
        started += 1
        process = ctx.Process(target=consume, daemon=True,
                              args=(root, transport, str(started), figures.poll, stop))
        process.start()
        return process

    live = [start_consumer() for _ in range(figures.consumers)]
    makers = [ctx.Process(target=produce, daemon=True,
                          args=(root, transport, i, figures.seconds, figures.messages, rate))
              for i in range(figures.producers)]
    for process in makers:
        process.start()

    def supervise() -> None:
        for i, process in enumerate(live):
            if process.exitcode is not None:        # died: counted, replaced
                figures.consumer_deaths += 1
                live[i] = start_consumer()

    while any(p.is_alive() for p in makers):
        supervise()
        time.sleep(0.1)
    for process in makers:
        process.join()
    figures.producer_deaths = sum(1 for p in makers if p.exitcode != 0)

    deadline = time.monotonic() + DRAIN_SECONDS
    quiet_since: float | None = None
    while time.monotonic() < deadline:
        supervise()
        if _message_files(root / "queue"):
            quiet_since = None
        elif quiet_since is None:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= QUIET_SECONDS:
            break
        time.sleep(0.1)
    else:
        figures.drained = False
    stop.set()
    for consumer in live:
        consumer.join(timeout=10)
        if consumer.is_alive():
            consumer.kill()
            consumer.join()
        elif consumer.exitcode != 0:
            figures.consumer_deaths += 1


def _count(root: Path, figures: Figures) -> None:
    sent: set[tuple[int, int]] = set()
    for log in root.glob("producer-*.sent"):
        index = int(log.name.split("-")[1].split(".")[0])
        sent.update((index, int(line)) for line in log.read_text().split())
    got: Counter[tuple[int, int]] = Counter()
    for log in root.glob("consumer-*.got"):
        for line in log.read_text().splitlines():
            producer, number = line.split()
            got[(int(producer), int(number))] += 1
    figures.producing = max((float(p.read_text()) for p in root.glob("producer-*.took")),
                            default=0.0)
    figures.sent = len(sent)
    figures.delivered = sum(got.values())
    figures.lost = len(sent - set(got))
    figures.duplicates = sum(n - 1 for n in got.values())
    figures.unexpected = len(set(got) - sent)
    left: Counter[str] = Counter()
    for file in (root / "queue").iterdir():
        left[file.name.rsplit(".", 1)[-1]] += 1
    figures.left = dict(left)
    for death in sorted(root.glob("*.death")):
        lines = death.read_text().strip().splitlines()
        figures.errors.append(f"{death.name.split('.')[0]}: {lines[-1] if lines else '?'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.broker_stress",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60,
                        help="how long each producer publishes")
    parser.add_argument("--messages", type=int, default=0,
                        help="the fewest messages each producer publishes")
    parser.add_argument("--producers", type=int, default=4)
    parser.add_argument("--consumers", type=int, default=2)
    parser.add_argument("--rate", type=float, default=100,
                        help="messages a second from each producer (on average)")
    parser.add_argument("--hog", type=int, default=os.cpu_count() or 2,
                        help="busy-loop processes beside the race (default: one a core)")
    parser.add_argument("--poll", type=float, default=0.01,
                        help="seconds an idle consumer waits before looking again")
    parser.add_argument("--transport", default="project",
                        help="project (config.broker), kombu (kombu's own) or a class path")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = run(seconds=args.seconds, messages=args.messages, producers=args.producers,
                  consumers=args.consumers, rate=args.rate, hog=args.hog, poll=args.poll,
                  transport=args.transport)
    print(json.dumps(asdict(figures)) if args.json else figures.report())
    return 0 if figures.clean else 1


if __name__ == "__main__":
    sys.exit(main())
