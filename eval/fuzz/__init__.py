"""Fuzz forest with hostile inputs of four kinds: every input gives a result or a one-line error, in time and memory.

``python -m eval.fuzz`` runs one or more kinds (``--kind``), each in a worker process
(eval.fuzz.harness) and each with the same report: outcomes, tracebacks, cases over the
timeout, records lost, stored data changed and the worker's peak memory.

- ``pages`` (eval.fuzz.pages): mutated pages of the shared datasets through extraction and learning;
- ``feeds`` (eval.fuzz.feeds): mutated feeds through feed parsing, and learns from them over loopback;
- ``warc`` (eval.fuzz.warcs): damaged WARC files through ``forest extract``, counting records lost;
- ``api`` (eval.fuzz.api): hostile bodies posted to the JSON API of ``forest serve``.

Cases are seeded (the same ``--seed`` gives the same inputs) and use loopback only.
"""

from __future__ import annotations

from eval.fuzz.harness import Outcome, Report, Worker, run_cases
from eval.fuzz.pages import HOSTILE_SNIPPETS, cases, mutate, run

__all__ = ["HOSTILE_SNIPPETS", "Outcome", "Report", "Worker", "cases", "mutate", "run", "run_cases"]
