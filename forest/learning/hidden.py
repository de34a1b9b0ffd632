"""Parts of a site's article region that a browser does not render, as exclusions.

Text inside an element with the ``hidden`` attribute or an inline ``display: none`` /
``visibility: hidden`` style is not what a reader sees: a gallery's captions written once per
photo and shown one at a time, a sign-up form, a collapsed menu.  Cold extraction drops the
blocks such an element owns (forest.classifier.blocks.invisible); a wrapper's region holds them
all the same, so learning names them in the wrapper's exclusions, and extraction skips them as
it skips the site's other boilerplate, inline ones (a ``<cite>`` in a photo's ``<div>``)
included.  A site whose sample regions hide no text gets no such step, and pays nothing for it.
Learning names them only on sites where it trusts the classifier (forest.learning.induce says why).
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from forest.classifier.blocks import NOT_RENDERED

__all__ = ["hidden_parts"]

# The elements that can hide text: the attribute, or a style the pattern may match; text-less
# ones (an icon, a spacer) are no exclusion's business.
_CANDIDATES = etree.XPath(".//*[@hidden or @style][normalize-space()]")


def hidden_parts(regions: Sequence[Sequence[etree._Element]]) -> list[str]:
    """Exclusions (single steps, as forest.region.cut reads them) for the text-holding elements the
    sample pages' regions hide: ``//*[@hidden]``, and one ``contains(@style, ...)`` step per way
    of writing the hiding style the sample uses ("display:none", "display: none", ...).

    :param regions: each sample page's region, its top elements.
    """
    steps: list[str] = []
    for region in regions:
        for node in region:
            for element in _CANDIDATES(node):
                if element.get("hidden") is not None:
                    step = "//*[@hidden]"
                else:
                    found = NOT_RENDERED.search(element.get("style") or "")
                    if found is None:
                        continue
                    # The match is letters, a colon and spaces: an XPath string as it is.
                    step = f"//*[contains(@style, '{found.group(0)}')]"
                if step not in steps:
                    steps.append(step)
    return steps
