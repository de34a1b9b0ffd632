"""Learning pauses Python's cyclic collector while it fits (forest.learning.induce._collector_paused), and
leaves it as it found it: running or not, whether the fit learns a wrapper or fails."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from forest.errors import LearnError
from forest.learning import induce
from forest.learning.induce import Inducer, _collector_paused
from forest.model import Page

ARTICLE = (
    "<html><head><title>{title}</title></head><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
    "<div class='story'><h1>{title}</h1><p>{body} The river rose over the old stone bridge at dawn, and the town's"
    " engineers closed the road.</p><p>Residents said the water reached {body} the market square by noon.</p></div>"
    "<footer>Copyright the Example Times</footer></body></html>"
)
PAGES = [Page(ARTICLE.format(title=f"Flood story {i}", body=f"Topic{i} storm{i} levee{i}."), url=f"https://example.com/{i}")
         for i in range(3)]


@pytest.fixture
def collector() -> Iterator[None]:
    was = gc.isenabled()
    yield
    gc.enable() if was else gc.disable()


def test_a_fit_runs_without_the_collector_and_resumes_it(collector: None, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []
    score = induce._score

    def spying(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return score(*args, **kwargs)

    monkeypatch.setattr(induce, "_score", spying)
    gc.enable()
    Inducer().fit(PAGES, site="example.com")
    assert seen == [False]
    assert gc.isenabled()


def test_a_failed_fit_resumes_the_collector(collector: None) -> None:
    gc.enable()
    with pytest.raises(LearnError):
        Inducer().fit([Page("<html><body></body></html>", url="https://example.com/empty")], site="example.com")
    assert gc.isenabled()


def test_a_collector_off_before_the_fit_stays_off(collector: None) -> None:
    gc.disable()
    Inducer().fit(PAGES, site="example.com")
    assert not gc.isenabled()


def test_overlapping_fits_resume_the_collector_when_the_last_ends(collector: None) -> None:
    gc.enable()
    first_in, second_done, states = threading.Event(), threading.Event(), []

    def first() -> None:
        with _collector_paused():
            first_in.set()
            second_done.wait(5)
            states.append(("first, after the second", gc.isenabled()))

    thread = threading.Thread(target=first)
    thread.start()
    first_in.wait(5)
    with _collector_paused():
        pass
    second_done.set()
    thread.join(5)
    assert states == [("first, after the second", False)]
    assert gc.isenabled()
