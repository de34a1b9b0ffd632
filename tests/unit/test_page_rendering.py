"""Rendering a small local page in the system Chromium gives each block's expected box and style."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from eval.classifier.render import Renderer, render_page, unavailable
from eval.classifier.visual import VISUAL_COLUMNS, block_features

REASON = unavailable()

# Every size fixed by the page's own <style> (which forest's parse drops and the renderer puts
# back) and inline styles, so the boxes are known without a browser.
PAGE = """<html><head><style>
body { margin: 0; font-family: sans-serif; }
h1 { margin: 0; height: 60px; font-size: 40px; }
.story { position: absolute; left: 100px; top: 200px; width: 600px; }
.story p { margin: 0; height: 30px; font-size: 20px; font-weight: 700; text-align: center; }
</style><script>document.title = 'scripts run'</script></head>
<body><h1>Headline</h1><div class="story"><p>First paragraph.</p><p>Second paragraph.</p></div>
<div style="display:none">Hidden text.</div><img src="https://example.com/pixel.png"></body></html>"""


@pytest.fixture(scope="module")
def renderer() -> Iterator[Renderer]:
    if REASON is not None:
        pytest.skip(f"rendering needs Playwright and Chromium: {REASON}")
    with Renderer() as r:
        yield r


def test_blocks_get_the_boxes_the_styles_give(renderer: Renderer) -> None:
    tree, rendered = render_page(renderer, PAGE)
    texts = [b.text for b in tree.blocks]
    assert texts == ["Headline", "First paragraph.", "Second paragraph.", "Hidden text."]
    boxes = [rendered.boxes[o] for o in tree.owner.tolist()]
    h1, first, second, hidden = boxes
    assert (h1.left, h1.top, h1.width, h1.height) == (0, 0, 1280, 60)
    assert (h1.font_size, h1.font_weight) == (40, 700)
    assert (first.left, first.top, first.width, first.height) == (100, 200, 600, 30)
    assert (second.left, second.top) == (100, 230)
    assert (second.font_size, second.font_weight, second.text_align) == (20, 700, "center")
    assert first.visible and not hidden.visible and hidden.width == 0


def test_scripts_are_off_and_nothing_leaves_the_machine(renderer: Renderer) -> None:
    before = renderer.blocked
    render_page(renderer, PAGE)
    assert renderer.blocked == before + 1  # the remote image, aborted
    assert renderer._page.title() != "scripts run"


def test_visual_features_of_the_blocks(renderer: Renderer) -> None:
    tree, rendered = render_page(renderer, PAGE)
    rows = block_features(tree, rendered)
    column = {name: k for k, name in enumerate(VISUAL_COLUMNS)}
    assert rows.shape == (4, len(VISUAL_COLUMNS))
    assert rows[:, column["visible"]].tolist() == [1, 1, 1, 0]
    assert rows[1, column["font_size"]] == 20 and rows[1, column["align=center"]] == 1
    # The first paragraph's centre is at x = 400 of a 1280-pixel page: 0.3125 from the left edge.
    assert rows[1, column["rel_x"]] == pytest.approx(400 / 1280)
    assert np.all(rows[3, : column["visible"]] == 0)


def test_the_visual_system_is_refused_with_the_reason_when_it_cannot_render(monkeypatch: pytest.MonkeyPatch) -> None:
    from eval import suite
    from eval.classifier import render

    monkeypatch.setattr(render, "unavailable", lambda: "Playwright is not installed: pip install 'forest-extract[render]'")
    with pytest.raises(ValueError, match=r"'visual' cannot run: Playwright is not installed"):
        suite.select_systems("classifier,visual")


def test_a_renderer_without_its_browser_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    from eval.classifier import render

    monkeypatch.setattr(render, "unavailable", lambda: "no Chromium at /nowhere")
    with pytest.raises(RuntimeError, match="no Chromium"), Renderer():
        pass
