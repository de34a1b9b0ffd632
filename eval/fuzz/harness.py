"""The fuzz harness every input kind shares: a worker process that runs cases under a deadline, and the report.

A kind gives the worker a ``setup`` function, run once in each new worker process (after a
case outlived the timeout the process is killed and a new one set up).  ``setup`` returns
the handler of one case's payload; the handler returns ``(status, detail)``.  A ForestError
out of it is the outcome "error" (forest refused the input, as it should), any other
exception a traceback.  The report then counts, per kind, the same things: outcomes,
tracebacks, cases over the timeout, records lost, stored data changed and the worker's
peak memory.
"""

from __future__ import annotations

import ipaddress
import logging
import multiprocessing
import resource
import socket
import statistics
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

# handle(payload) -> (status, detail); status "ok", or one the kind defines ("changed", "lost", "bad output").
Handler = Callable[[Any], tuple[str, str]]
Setup = Callable[[], Handler]

# How long a new worker may take to set up (learning a site, starting a server, opening the app).
SETUP_SECONDS = 120.0


@dataclass
class Outcome:
    """What one case did."""

    status: str  # "ok", "error" (a ForestError), "traceback", "timeout", or a kind's own failure
    seconds: float
    detail: str = ""
    rss_mb: float = 0.0


def loopback_only() -> None:
    """In this (worker) process, look up no name and connect to no address but loopback.

    Mutated feed links and API bodies can name any host; forest's own address policy is
    what some cases test, so it cannot also be what keeps the fuzzer on 127.0.0.1.
    Names are refused without asking a resolver ("localhost" aside) and connections
    to non-loopback addresses fail, as a network outage would.
    """
    real_getaddrinfo, real_connect = socket.getaddrinfo, socket.create_connection

    def is_loopback(host: object) -> bool:
        text = host.decode("ascii", "replace") if isinstance(host, bytes) else str(host)
        if text == "localhost":
            return True
        try:
            return ipaddress.ip_address(text.strip("[]").split("%", 1)[0]).is_loopback
        except ValueError:
            return False

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if not is_loopback(host):
            raise socket.gaierror(socket.EAI_NONAME, "the fuzzer looks up no name but localhost")
        return real_getaddrinfo(host, *args, **kwargs)

    def create_connection(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
        if not is_loopback(address[0]):
            raise ConnectionRefusedError(f"the fuzzer connects to loopback only, not {address[0]}")
        return real_connect(address, *args, **kwargs)

    socket.getaddrinfo = getaddrinfo
    socket.create_connection = create_connection


def _serve(conn: Connection, setup: Setup) -> None:
    """The worker process: set up, say so, then run one case per message until told to stop (None)."""
    from forest.errors import ForestError

    # Forest's warnings (a malformed feed used anyway) are expected by the thousand here.
    logging.disable(logging.WARNING)
    loopback_only()
    handle = setup()
    conn.send("ready")
    while True:
        payload = conn.recv()
        if payload is None:
            return
        started = time.perf_counter()
        try:
            status, detail = handle(payload)
        except ForestError as exc:
            status, detail = "error", type(exc).__name__
        except Exception:  # noqa: BLE001 - a traceback is what this command is here to find
            status, detail = "traceback", traceback.format_exc(limit=-3)
        seconds = time.perf_counter() - started
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        conn.send(Outcome(status, seconds, detail, rss))


class Worker:
    """A worker process that is killed and replaced when a case outlives the timeout.

    :param setup: run in each new worker process; returns the handler of one case.
    """

    def __init__(self, timeout: float, setup: Setup) -> None:
        self.timeout = timeout
        self.peak_mb = 0.0
        self._setup = setup
        self._context = multiprocessing.get_context("fork")
        self._start()

    def _start(self) -> None:
        self._conn, child = self._context.Pipe()
        self._process = self._context.Process(target=_serve, args=(child, self._setup), daemon=True)
        self._process.start()
        child.close()
        try:
            ready = self._conn.poll(SETUP_SECONDS) and self._conn.recv() == "ready"
        except (EOFError, OSError):  # the set-up raised: its traceback is on stderr
            ready = False
        if not ready:
            self._process.kill()
            raise RuntimeError(f"the fuzz worker did not set up within {SETUP_SECONDS:g} s (see its traceback above)")

    def run(self, payload: Any, timeout: float | None = None) -> Outcome:
        self._conn.send(payload)
        limit = self.timeout if timeout is None else timeout
        if self._conn.poll(limit):
            try:
                outcome: Outcome = self._conn.recv()
            except (EOFError, OSError):  # the worker died (killed by the OS for memory, or crashed in C)
                self._restart()
                return Outcome("traceback", limit, "worker process died")
            self.peak_mb = max(self.peak_mb, outcome.rss_mb)
            return outcome
        self._restart()
        return Outcome("timeout", limit, f"over {limit:g} s")

    def _restart(self) -> None:
        self._process.kill()
        self._process.join()
        self._start()

    def close(self) -> None:
        try:
            self._conn.send(None)
        except (BrokenPipeError, OSError):
            pass
        self._process.join(5)
        if self._process.is_alive():
            self._process.kill()


@dataclass
class Report:
    """Counts of one fuzz run of one kind."""

    kind: str = "pages"
    cases: Counter[str] = field(default_factory=Counter)
    statuses: Counter[str] = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)
    tracebacks: list[str] = field(default_factory=list)
    slow: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    lost_records: int = 0
    peak_mb: float = 0.0
    pages: int = 0
    wall_seconds: float = 0.0

    def add(self, label: str, case_kind: str, outcome: Outcome, timeout: float) -> None:
        """Count one case's outcome; ``label`` names it in the lists of failures."""
        self.cases[case_kind] += 1
        self.statuses[outcome.status if outcome.status != "error" else outcome.detail] += 1
        self.seconds.append(outcome.seconds)
        if outcome.status in ("traceback", "bad output"):
            self.tracebacks.append(f"{label}: {outcome.detail.strip()}")
        elif outcome.status == "lost":  # the detail lists the records lost, "; " between them
            self.lost.append(f"{label}: {outcome.detail}")
            self.lost_records += len(outcome.detail.split("; "))
        elif outcome.status == "changed":
            self.changed.append(f"{label}: {outcome.detail}")
        if outcome.status == "timeout" or outcome.seconds > timeout:
            self.slow.append(f"{label}: {outcome.seconds:.1f} s")

    def failed(self, budget_mb: float) -> bool:
        return bool(self.tracebacks or self.slow or self.changed or self.lost) or self.peak_mb > budget_mb

    def lines(self, *, timeout: float, budget_mb: float, examples: int = 10) -> list[str]:
        """The report as printed: one line per count, then up to ``examples`` of each failure."""
        seconds = sorted(self.seconds)
        out = [
            f"{self.kind}: {sum(self.cases.values())} cases ({dict(self.cases)}), {self.wall_seconds:.0f} s",
            f"  outcomes: {dict(self.statuses.most_common())}",
            f"  tracebacks: {len(self.tracebacks)}",
            f"  cases over {timeout:g} s: {len(self.slow)}",
            f"  records lost: {self.lost_records} (in {len(self.lost)} cases)",
            f"  stored data changed: {len(self.changed)}",
        ]
        if seconds:
            out.append(f"  seconds per case: median {statistics.median(seconds):.3f}, "
                       f"p99 {seconds[int(0.99 * (len(seconds) - 1))]:.3f}, max {seconds[-1]:.3f}")
        out.append(f"  peak memory of the worker: {self.peak_mb:.0f} MB (budget {budget_mb:g} MB)")
        for line in self.tracebacks[:examples] + self.slow[:examples] + self.lost[:examples] + self.changed[:examples]:
            out.append("  " + line.replace("\n", "\n    "))
        return out


def run_cases(
    kind: str, cases: Any, setup: Setup, *, timeout: float, progress: Callable[[int], None] | None = None,
) -> Report:
    """Run ``cases`` (``(label, case kind, payload)`` tuples) in a worker set up by ``setup``; the report of ``kind``."""
    report = Report(kind=kind)
    started = time.monotonic()
    worker = Worker(timeout, setup)
    try:
        for number, (label, case_kind, payload) in enumerate(cases, 1):
            report.add(f"{kind} case {number} {label} ({case_kind})", case_kind, worker.run(payload), timeout)
            if progress is not None:
                progress(number)
    finally:
        report.peak_mb = worker.peak_mb
        report.wall_seconds = time.monotonic() - started
        worker.close()
    return report
