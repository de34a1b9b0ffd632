"""Learn a site's Wrapper from sample pages (FOREST, Oita & Senellart 2015)."""

from __future__ import annotations

import gc
import math
import statistics
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from collections.abc import Sequence

from lxml import etree
from lxml.html import HtmlElement

from forest.classifier.blocks import NOT_ARTICLE_ROLES, NOT_ARTICLE_TAGS
from forest.classifier.predictor import BlockPredictor
from forest.classifier.page import load_default
from forest.config import Settings
from forest.errors import LearnError, ParseError
from forest.html import meta_content, page_title, parse_shown
from forest.learning.boxes import template_boxes, template_nodes, without_nodes
from forest.learning.comments import COMMENT_SECTIONS, CommentNamed, comments_named_so, inside_regions, learn_comments
from forest.learning.page_fields import site_fields
from forest.learning.span import learn_span
from forest.learning.containers import paragraph_containers
from forest.learning.hidden import hidden_parts
from forest.learning.index import page_index
from forest.learning.lead import dense_prose, learn_lead
from forest.learning._inline import inline_children
from forest.learning._name import in_landmarks
from forest.learning.consensus import (
    MIN_ITEM_SHARE, PageLabels, SampleParts, agreeing_choice, boilerplate_texts, classifier_agrees, consensus_exclusions,
)
from forest.limits import classifiable
from forest.model import Page
from forest.region import MIN_SAMPLE_PAGES, clean, part_keys, words
from forest.region import outermost as region_outermost
from forest.titles import learn_affixes
from forest.wrapper import Wrapper
from keywords.meta import metadata_keywords
from keywords.model import Metadata
from keywords.tfidf import tfidf_terms
from keywords.tokenize import tokenize
from patterns.choose import Choice, choose, disagreements
from patterns.ranking import Ranked, ScoredPage, matches, rank, rank_paper, score_page
from patterns.model import Pattern
from patterns.refine import KEPT_TAGS, boilerplate_subpatterns, core_step
from patterns.dom import PageIndex
from patterns.text import BLOCK_TAGS, Block, prose_share, text_blocks


# A region is article-like when, on one of the sample pages it explains at least, this share
# of its words sits in sentence-like blocks (patterns.text.Block.is_prose): a menu or a
# dropdown has none, an article page's region well over half.
MIN_PROSE_SHARE = 0.2
# Candidates refused before learning stops looking and keeps the patterns of its choice that pass.
MAX_REFUSED = 20
# A part the site's cleanup would cut is a code listing, and kept, when at least this share of its
# letters sits in <pre> or <code> on a sample page: a listing's frame (a figure, a table) holds little
# else, and a comment or a sidebar that quotes some code is mostly prose.
# (Re-measure: `forest eval --split dev --systems forest`.)
MIN_CODE_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class LearnReport:
    """What learning a site did: the sample pages used and skipped, what it noticed, and where it stored the wrapper.

    :param used: the sample pages learned from (URLs, or ``page N``).
    :param skipped: ``(page, why)`` for each page not used: fetch failures, unreadable pages, pages without keywords.
    :param notes: what learning noticed (a mixed template, a small sample, a stored wrapper kept).
    :param site: the site key.
    :param version: the stored version in force, or None without a store.
    :param feed_url: the feed the pages came from, when learned from one.
    """

    used: tuple[str, ...]
    skipped: tuple[tuple[str, str], ...]
    notes: tuple[str, ...]
    site: str = ""
    version: int | None = None
    feed_url: str | None = None


class Inducer:
    """Learns one site's wrapper from a handful of its pages, without labels.

    Parameters
    ----------
    settings : Settings
        Keyword source, scoring, candidate and ranking variants, limits.
    classifier : BlockPredictor, optional
        The per-block classifier whose labels on the sample pages, summed over the
        site, become the wrapper's exclusions (see forest.learning.consensus); by
        default the shipped model, when ``settings.classifier`` is on.

    Attributes
    ----------
    wrapper_ : Wrapper
        The learned wrapper (after :meth:`fit`).
    ranked_ : list of Ranked
        Every candidate pattern with its per-page scores, best first (forest ranking).
    report_ : LearnReport
        Pages used and skipped, and what learning noticed.
    trees_ : list of HtmlElement or None
        Each page's tree as :func:`forest.html.parse_html` made it (set by :meth:`fit` as soon as the
        pages are read, before it can fail), learning done with it: None for a page that could not be
        read or that was read as a browser without scripts shows it (:func:`forest.html.parse_shown`),
        and for every page once a span is learned (its search extracts from the trees, cutting parts out).
    """

    def __init__(self, settings: Settings | None = None, classifier: BlockPredictor | None = None) -> None:
        self.settings = settings
        self.classifier = classifier

    def fit(self, pages: Sequence[Page], site: str | None = None) -> Inducer:
        """Learn from ``pages`` (all of one site).

        :raises LearnError: when no page is usable or no pattern is found.
        """
        with _collector_paused():
            return self._fit(pages, site)

    def _fit(self, pages: Sequence[Page], site: str | None) -> Inducer:
        settings = self.settings or Settings()
        site = site or next((p.site for p in pages if p.site), None) or "unknown"
        samples, skipped = _read(pages, settings)
        # Each page's tree, for a caller that extracts the sample pages next (a batch), so that it
        # need not parse them again: None for a page not read, or read as a shell (parse_shown).
        # Learning changes no tree it reads until it learns the span (checked on every sample
        # page of big9's and dragnet's sites: each tree serialized the same as a fresh parse).
        self.trees_: list[HtmlElement | None] = [None] * len(pages)
        for sample in samples:
            self.trees_[sample.position] = None if sample.shell else sample.root
        scored, keyed = _score(samples, settings, skipped)
        used = [sample.name for sample, _ in keyed]
        if not scored:
            reasons = "; ".join(f"{n}: {r}" for n, r in skipped) or "no pages given"
            raise LearnError(f"no usable sample page for site {site!r} ({reasons})", site=site)

        notes = [f"skipped {n}: {r}" for n, r in skipped]
        if len(scored) < MIN_SAMPLE_PAGES:
            notes.append(
                f"learned from {len(scored)} usable page{'s' if len(scored) > 1 else ''}: with fewer than "
                f"{MIN_SAMPLE_PAGES} the template cannot be told from the article; its confidence is lowered"
            )
        self.ranked_: list[Ranked] = []
        exclusions: list[str] = []
        comments = ""
        template: frozenset[str] = frozenset()
        agrees = True  # the classifier's labels on the sample, where they are read
        seen_parts: frozenset[str] | None = None  # the boxes the sample's regions hold (Wrapper.parts)
        rejected = 0.0  # the share of the regions' terms it labels boilerplate
        refused = 0
        if settings.ranking == "paper":
            chosen = rank_paper(scored, scoring=settings.scoring, candidates=settings.candidates)
            chosen = chosen[: 1 + settings.max_alternates]
            region_blocks: list[list[Block]] = [[] for _ in scored]  # @dfs patterns are not in the page index
        elif settings.ranking == "forest":
            self.ranked_ = rank(scored, scoring=settings.scoring, candidates=settings.candidates)
            blocks = _RegionBlocks(scored)
            choice, refused = _guarded_choice(self.ranked_, scored, settings.max_alternates, blocks)
            if refused:
                count = f"{refused} candidate region{'s' if refused > 1 else ''}"
                notes.append(f"refused {count}: the whole page, a caption, footer or navigation, or no sentence-like text")
            notes.extend(disagreements(choice, used))
            labels: list[PageLabels] = []
            parts: SampleParts | None = None
            # Each page's comment-named elements, for the threads around the first regions and the final ones.
            named = [CommentNamed.of(page.index.elements[0].getroottree().getroot()) for page in scored]
            if settings.classifier:
                # The classifier's labels on every sample page, once: they choose among the
                # regions J x U finds and teach the site's cleanup (forest.learning.consensus).
                classifier = self.classifier or load_default()
                labels = [_labels(classifier, sample) for sample, _ in keyed]
                first = [scored[k].index.outermost(matches(scored[k].index, choice.patterns[j].pattern.xpath)) if j >= 0 else []
                         for k, j in enumerate(choice.assignment)]
                # A comment thread is cut whatever the classifier says, and it holds the article's
                # keywords densely (readers discuss it): it is no evidence against the classifier.
                threads = learn_comments([(named[k], [scored[k].index.elements[i] for i in region])
                                          for k, region in enumerate(first) if region])
                agrees, rejected, why = classifier_agrees(scored, first, labels, ignore=threads)
                if not agrees:
                    notes.append(why)
                # Where the classifier contradicts J x U on an article's pages (it rejects a blog's
                # keyword-dense article with its sidebar and comment form), its labels still teach
                # the cleanup part by part: consensus cuts a part only where J x U does not find
                # the keywords in it.  Only an item's pages (consensus.MIN_ITEM_SHARE) are cleaned
                # without them.  (Re-measure: `forest eval --split dev --systems forest`.)
                if agrees or rejected < MIN_ITEM_SHARE:
                    parts = SampleParts.of(scored, labels)
                    if agrees:  # the region itself is J x U's where the classifier contradicts it
                        choice, self.agreement_ = agreeing_choice(choice, self.ranked_, scored, parts)
                else:
                    labels = []
            # A run of paragraphs becomes their container when it adds only the article's structure.
            choice = paragraph_containers(choice, scored, settings.scoring)
            chosen, regions, region_blocks = _narrow(choice, scored, blocks)
            explained = [k for k, region in enumerate(regions) if region]
            # Text every sample region repeats is the template's, unless the classifier, not trusted
            # on this site, rejects most of the regions: it is then an item's labels (consensus.MIN_ITEM_SHARE).
            if agrees or rejected < MIN_ITEM_SHARE:
                template = _template_blocks(region_blocks)
            # Where the classifier contradicts J x U (product, reference and Q&A sites), the keywords
            # sit in the item's name and description, and its specifications, tables and filters are
            # keyword-poor and content all the same: the region keeps them (re-measure: `forest eval
            # --split dev --systems forest`).
            if explained and agrees:
                exclusions = boilerplate_subpatterns([scored[k] for k in explained], [regions[k] for k in explained])
            if labels and parts is not None and explained:
                learned = consensus_exclusions(
                    [scored[k] for k in explained], [regions[k] for k in explained], parts.subset(explained)
                )
                exclusions.extend(key for key in learned if key not in exclusions)
                texts = [frozenset(b.text for b in region_blocks[k]) for k in explained]
                template |= boilerplate_texts(texts, [labels[k] for k in explained])
            sample_regions = [[scored[k].index.elements[i] for i in regions[k]] for k in explained]
            if labels and agrees:
                # A box no sample region holds is judged, on the page that has it, by the classifier
                # learning trusted here (forest.extraction.extractor._Judge).
                seen_parts = frozenset(key for nodes in sample_regions for key in part_keys(nodes))
            # Code is never cut (patterns.refine.KEPT_TAGS): neither a part whose text is a listing (a Hexo
            # blog's <figure class="highlight plain"> around its <pre>), nor a line of code that several
            # of the sample's listings repeat ("}", "$ make build"), which is not the template's.
            listed = _with_code(sample_regions)
            exclusions = [xpath for xpath in exclusions if not _cuts_code(xpath, listed)]
            template -= _code_texts(sample_regions)
            # The site's comment containers, cut from the article; its thread is read on request (forest.learning.comments).
            threads = learn_comments([(named[k], region) for k, region in zip(explained, sample_regions)],
                                     [labels[k] for k in explained] if labels else None)
            comments = threads[0] if threads else ""
            exclusions.extend(step for step in threads if step not in exclusions and inside_regions(step, sample_regions))
            # Comment sections by the web's convention, unless the site names parts of its articles so.
            if sample_regions and comments_named_so(sample_regions, exclusions, template):
                exclusions.extend(xpath for xpath in COMMENT_SECTIONS if xpath not in exclusions)
            # Text a browser does not render is not an article's (forest.learning.hidden).  Not where
            # the classifier contradicts J x U: an item page's scripts show its hidden panels (a
            # product's variants, a listing's filters), and the region keeps them as it keeps the
            # item's specifications (re-measure: `forest eval --split dev --systems forest`).
            if agrees:
                exclusions.extend(step for step in hidden_parts(sample_regions) if step not in exclusions)
            # A table's header names its columns: a site whose articles hold the same kind of table
            # repeats it on every page, and it is the table's all the same, not the template's.
            template -= _table_headers(sample_regions)
            if explained:
                # The template's boxes, inside the region and among its sibling nodes (forest.learning.boxes).
                boxes = template_boxes([scored[k] for k in explained], [regions[k] for k in explained], template, exclusions)
                exclusions.extend(boxes)
                chosen, regions = _without_template_nodes(chosen, choice.assignment, scored, regions, template)
        else:  # Settings checked the choice
            raise AssertionError(settings.ranking)
        if not chosen or chosen[0].score <= 0:
            why = "keywords matched no stable region"
            if refused and not chosen:
                why = "every region they matched is the whole page, a caption, footer or navigation, or holds no sentence"
            raise LearnError(f"no pattern found for site {site!r}: {why}", site=site)

        if settings.ranking == "forest":
            chosen = _extracted_sizes(chosen, choice.assignment, scored, regions, exclusions, template, links=not agrees)
        # The site's <title> decoration, then where the headline sits (forest.titles, forest.fields).
        affixes = learn_affixes([page_title(sample.root) for sample in samples])
        # The pages' indexes name their elements by the keys the field search tries (not the ABSPATHS ablation's paths).
        indexes = [sample.index for sample in samples] if settings.candidates != "paths" else None
        fields = site_fields([(sample.root, sample.page.html, sample.page.meta) for sample in samples], affixes, indexes)
        # The standfirst the site prints above its region, under the headline (forest.learning.lead).
        if settings.ranking == "forest":
            # Only where the classifier's labels were read and trusted: they tell a standfirst from a byline.
            # What they label boilerplate but holds the keywords as densely as the region is a standfirst too.
            content = {element for page in labels for element, kept in zip(page.elements, page.content) if kept}
            if content:
                content |= dense_prose(scored, regions)
            lead = learn_lead([(sample.root, page_title(sample.root)) for sample in samples], chosen[0].xpath, content)
            if lead:
                fields = {**fields, "lead": lead}
        self.wrapper_ = Wrapper(
            site=site,
            patterns=tuple(chosen),
            template_blocks=template,
            exclusions=tuple(exclusions),
            variant={
                "keywords": settings.keywords or "tfidf",
                "scoring": settings.scoring,
                "candidates": settings.candidates,
                "ranking": settings.ranking,
            },
            sample=tuple(used),
            notes=tuple(notes),
            learned_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            fields=fields,
            title_affixes=affixes,
            comments=comments,
            classifier_agrees=agrees,
            parts=seen_parts,
        )
        if settings.ranking == "forest" and settings.span:
            # Where the site's articles sit in its pages' source: extraction parses that part alone.
            self.wrapper_ = replace(self.wrapper_, span=learn_span(self.wrapper_, [(s.page.html, s.root, not s.shell) for s in samples], settings))
            # The span's search extracted the pages' articles from these trees, which cut parts out of them.
            self.trees_ = [None] * len(pages)
        self.report_ = LearnReport(tuple(used), tuple(skipped), tuple(notes), site=site)
        return self


# How many fits run now (threads): the first pauses Python's cyclic collector, the last resumes it.
_PAUSES = 0
_PAUSE_LOCK = threading.Lock()
_RESUME = False  # whether the collector ran when the first fit paused it


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for the block (a fit), resumed as it was.

    A fit holds tens of thousands of containers for its whole run (each sample page's element
    proxies, terms and key lists): they survive the young generations and set off full
    collections, each a walk of the process's every object, and they form no cycle (none
    collected over the 70 dev sites of dragnet and big9).  Learning those sites spent some 7%
    of its CPU time collecting (`python -m eval.learnbench`); reference counting frees
    everything a fit drops as before, and a cycle made meanwhile waits for the next collection.
    """
    global _PAUSES, _RESUME
    with _PAUSE_LOCK:
        if _PAUSES == 0:
            _RESUME = gc.isenabled()
            gc.disable()
        _PAUSES += 1
    try:
        yield
    finally:
        with _PAUSE_LOCK:
            _PAUSES -= 1
            if _PAUSES == 0 and _RESUME:
                gc.enable()


@dataclass(frozen=True, slots=True)
class _Sample:
    name: str
    page: Page
    root: HtmlElement
    index: PageIndex
    meta: Metadata  # the feed item's, else the page's own title and description
    shell: bool  # a page its scripts fill, read as a browser without scripts shows it (forest.html.parse_shown)
    position: int  # its place among the pages given


def _read(pages: Sequence[Page], settings: Settings) -> tuple[list[_Sample], list[tuple[str, str]]]:
    """Parse and index the sample pages; the unreadable ones are skipped with their reason."""
    samples: list[_Sample] = []
    skipped: list[tuple[str, str]] = []
    for i, page in enumerate(pages):
        name = page.url or f"page {i + 1}"
        try:
            root, shell = parse_shown(page.html, max_bytes=settings.max_page_bytes, source=name)
        except ParseError as exc:
            skipped.append((name, str(exc)))
            continue
        meta = page.meta or Metadata(title=page_title(root), summary=meta_content(root, "description", "og:description"))
        index = page_index(root.find("body"), paths=settings.candidates == "paths")
        samples.append(_Sample(name, page, root, index, meta, shell, i))
    return samples, skipped


def _score(
    samples: Sequence[_Sample], settings: Settings, skipped: list[tuple[str, str]]
) -> tuple[list[ScoredPage], list[tuple[_Sample, frozenset[str]]]]:
    """Keywords for every sample, counted in every subtree; pages without any are skipped.

    Returns the scored pages and, for each, its sample and keywords.
    """
    source = settings.keywords or "tfidf"
    if source == "tfidf":
        terms = [sample.index.page_terms() for sample in samples]
        found = tfidf_terms(terms, k=settings.n_keywords) if terms else []
    elif source in ("meta", "feed"):
        found = [metadata_keywords(s.meta, k=settings.n_keywords, source=source) for s in samples]
    else:
        raise AssertionError(source)  # Settings checked the choice
    scored: list[ScoredPage] = []
    keyed: list[tuple[_Sample, frozenset[str]]] = []
    for sample, keywords in zip(samples, found):
        headline = _headline(sample.index, sample.meta) if keywords.source != "tfidf" else frozenset()
        page = score_page(sample.index, keywords, ignore=headline)
        if page.total_x == 0:
            skipped.append((sample.name, "no keyword occurs in the page's text"))
            continue
        scored.append(page)
        keyed.append((sample, frozenset(keywords.terms)))
    return scored, keyed


def _labels(classifier: BlockPredictor, sample: _Sample) -> PageLabels:
    """The classifier's labels on one sample page, as parsed (before any exclusion is cut).

    A page too large for the classifier's features has none (forest.limits).  The labels are not
    confined to the page's article container (forest.classifier.container): that is one page's guess
    at the region, and learning finds the region from all the sample pages, which the labels only help choose.
    Captions, footers and navigation keep the model's labels (no landmark rule), and are marked
    (``PageLabels.landmark``): the consensus cuts them as cold extraction drops them, by the
    innermost part that holds them (a figure's caption, not the figure and its image).
    """
    predictions = classifier.predict_blocks(sample.root, confined=False, landmarks=False, typed=False) if classifiable(sample.root) else []
    inline: dict[etree._Element, dict[str, list[etree._Element]]] = {}
    return PageLabels(
        tuple(p.block.text for p in predictions), tuple(p.element for p in predictions), tuple(p.is_content for p in predictions),
        holders=tuple(_holder(p.element, p.block.text, inline) for p in predictions),
        # Each block's ancestors read in C (forest/learning/_name.pyx; its reference is _Landmarks).
        landmark=tuple(in_landmarks([p.element for p in predictions], _LANDMARK_TAGS, NOT_ARTICLE_ROLES)),
    )


def _holder(owner: etree._Element, text: str, inline: dict[etree._Element, dict[str, list[etree._Element]]] | None = None,
            ) -> etree._Element:
    """The innermost element under ``owner`` (a block's block-level owner) whose text is the
    block's whole text: the ``<time>`` of a dateline in a ``<header>``, so that the consensus
    can name and cut it without the headline beside it.

    :param inline: each element's inline children by their text, filled as it is read (an owner
        holds many blocks: its children are read once).
    """
    inline = {} if inline is None else inline
    wanted: str | None = None  # the block's text as the children's are keyed, joined where a child is looked for
    holder = owner
    while True:
        children = inline.get(holder)
        if children is None:
            children = inline[holder] = {}
            # Its child elements but the block-level ones, with their text (natively: forest/learning/_inline.pyx).
            for raw, child in inline_children(holder, BLOCK_TAGS):
                children.setdefault(" ".join(raw.split()), []).append(child)
        if not children:
            return holder  # most blocks' owners: a paragraph of text alone, a cell
        if wanted is None:
            wanted = " ".join(text.split())
        same = children.get(wanted, ())
        if len(same) != 1:
            return holder
        holder = same[0]


def _guarded_choice(ranked: list[Ranked], scored: Sequence[ScoredPage], max_alternates: int, blocks: _RegionBlocks | None = None,
                    ) -> tuple[Choice, int]:
    """:func:`patterns.choose.choose`, with the regions no article can be refused.

    A pattern whose region is the page's body, lies in a caption, its footer or navigation,
    or holds no sentence-like text on the sample pages it explains (a month dropdown, a menu),
    is dropped from the candidates and the choice made again.  After MAX_REFUSED refusals
    (learning time) the choice keeps only the patterns it has that pass, and the pages the
    others explained go unexplained.  Returns the choice and how many patterns were refused.
    """
    refused = 0
    candidates = list(ranked)
    blocks = blocks or _RegionBlocks(scored)
    # Each choice made again keeps most of the patterns of the last: a pattern's verdict on the same pages is kept.
    verdicts: dict[tuple[str, tuple[int, ...]], bool] = {}

    def article_like(choice: Choice, j: int) -> bool:
        xpath = choice.patterns[j].pattern.xpath
        members = tuple(k for k, a in enumerate(choice.assignment) if a == j)
        verdict = verdicts.get((xpath, members))
        if verdict is None:
            verdict = verdicts[xpath, members] = _article_like(xpath, scored, choice, j, blocks)
        return verdict

    while True:
        choice = choose(candidates, len(scored), max_alternates=max_alternates)
        bad = [j for j in range(len(choice.patterns)) if not article_like(choice, j)]
        if not bad:
            return choice, refused
        if refused >= MAX_REFUSED:
            kept = [j for j in range(len(choice.patterns)) if j not in bad]
            assignment = tuple(kept.index(a) if a in kept else -1 for a in choice.assignment)
            return Choice(tuple(choice.patterns[j] for j in kept), assignment), refused + len(bad)
        drop = {choice.patterns[j].pattern.xpath for j in bad}
        candidates = [r for r in candidates if r.pattern.xpath not in drop]
        refused += len(drop)


def _article_like(xpath: str, scored: Sequence[ScoredPage], choice: Choice, j: int, blocks: _RegionBlocks) -> bool:
    """Whether pattern ``j`` of ``choice`` selects, on the pages it explains, neither the whole body, nor
    a caption, footer or navigation, nor text without a sentence."""
    members = [k for k, a in enumerate(choice.assignment) if a == j]
    prose = 0.0
    for k in members:
        index = scored[k].index
        nodes = index.outermost(matches(index, xpath))
        if 0 in nodes or any(_in_landmark(index.elements[i]) for i in nodes):  # 0: the body itself
            return False
        prose = max(prose, prose_share(blocks.of(k, nodes)))
    return prose >= MIN_PROSE_SHARE


class _RegionBlocks:
    """The text blocks (patterns.text.text_blocks) of regions of the sample pages, each region's kept: choosing
    the patterns (:func:`_article_like`) and narrowing them (:func:`_narrow`) read the same regions' text again,
    and the trees do not change until the span is learned."""

    def __init__(self, scored: Sequence[ScoredPage]) -> None:
        self._scored = scored
        self._known: dict[tuple[int, tuple[int, ...]], list[Block]] = {}

    def of(self, k: int, nodes: Sequence[int]) -> list[Block]:
        """The blocks of the nodes (element indices of page ``k``'s index), a new list."""
        key = (k, tuple(nodes))
        found = self._known.get(key)
        if found is None:
            elements = self._scored[k].index.elements
            found = self._known[key] = text_blocks(elements[i] for i in nodes)
        return list(found)


def _in_landmark(element: etree._Element) -> bool:
    """Whether ``element`` is, or lies inside, a part of the page that is never its article
    (forest.classifier.blocks.NOT_ARTICLE_TAGS and NOT_ARTICLE_ROLES: a caption, a footer, navigation).

    A footer's legal text is sentence-like and the same on every page, so J x U alone can rank it
    first on product pages (wceb2026's apple.com learned //footer[@role='contentinfo']/div).
    """
    for node in (element, *element.iterancestors()):
        if _marks_landmark(node):
            return True
    return False


def _marks_landmark(node: etree._Element) -> bool:
    return node.tag in NOT_ARTICLE_TAGS or node.get("role") in NOT_ARTICLE_ROLES


_LANDMARK_TAGS = tuple(sorted(NOT_ARTICLE_TAGS))


class _Landmarks:
    """:func:`_in_landmark` of many elements of one tree, each element's answer kept: a page's blocks
    share their ancestors, which the test would otherwise read again for every block.  The reference
    of forest.learning._name.in_landmarks, which _labels reads (tests/learning/test_learning_shortcuts.py)."""

    def __init__(self) -> None:
        self._inside: dict[etree._Element, bool] = {}

    def inside(self, element: etree._Element) -> bool:
        known = self._inside
        chain: list[etree._Element] = []
        node: etree._Element | None = element
        while node is not None and node not in known:
            chain.append(node)
            node = node.getparent()
        inside = known[node] if node is not None else False
        # An element is in a landmark when it is one or its parent is in one: from the top down.
        for node in reversed(chain):
            inside = inside or _marks_landmark(node)
            known[node] = inside
        return inside


def _narrow(choice: Choice, scored: Sequence[ScoredPage], blocks: _RegionBlocks) -> tuple[list[Pattern], list[list[int]], list[list[Block]]]:
    """The chosen patterns, each narrowed to its core and with its prose statistic, and each
    sample page's region under the pattern that explains it (empty when none does) and its blocks."""
    regions = [
        scored[k].index.outermost(matches(scored[k].index, choice.patterns[j].pattern.xpath)) if j >= 0 else []
        for k, j in enumerate(choice.assignment)
    ]
    region_blocks = [blocks.of(k, region) for k, region in enumerate(regions)]
    patterns = []
    for j, ranked in enumerate(choice.patterns):
        members = [k for k, a in enumerate(choice.assignment) if a == j]
        pattern = _with_core(ranked.pattern, [scored[k] for k in members], [regions[k] for k in members])
        # The region's share of prose as extraction sees it: navigation blocks dropped.
        shares = [prose_share([b for b in region_blocks[k] if not b.is_navigation]) for k in members if regions[k]]
        patterns.append(replace(pattern, prose=round(statistics.median(shares), 3)) if shares else pattern)
    return patterns, regions, region_blocks


def _without_template_nodes(
    patterns: Sequence[Pattern], assignment: Sequence[int], scored: Sequence[ScoredPage], regions: Sequence[Sequence[int]],
    template: frozenset[str],
) -> tuple[list[Pattern], list[list[int]]]:
    """The patterns whose regions are runs of sibling nodes without the nodes that are the template's boxes
    (forest.learning.boxes.template_nodes), and each sample page's region so narrowed."""
    narrowed, kept = list(patterns), [list(region) for region in regions]
    for j, pattern in enumerate(patterns):
        members = [k for k, a in enumerate(assignment) if a == j and regions[k]]
        keys = template_nodes([scored[k] for k in members], [regions[k] for k in members], template)
        if not keys:
            continue
        narrowed[j] = replace(pattern, xpath=without_nodes(pattern.xpath, keys))
        for k in members:
            dropped = {i for key in keys for i in scored[k].index.keys.get(key, ())}
            kept[k] = [i for i in regions[k] if i not in dropped]
    return narrowed, kept


def _extracted_sizes(
    patterns: Sequence[Pattern], assignment: Sequence[int], scored: Sequence[ScoredPage], regions: Sequence[Sequence[int]],
    exclusions: Sequence[str], template: frozenset[str], *, links: bool = False,
) -> list[Pattern]:
    """The patterns with their region sizes measured as extraction measures a page's region.

    Extraction checks a region's words, once the site's exclusions (its comment thread among
    them), template and navigation blocks are gone (``links``: the navigation is kept, forest.region.clean), against the pattern's median size
    (forest.region.plausible); measured on the raw sample regions instead, a site whose
    comment threads outweigh its articles would have every new page's region taken for a
    wrong match.
    """
    skip = tuple(xpath.removeprefix("//") for xpath in exclusions)
    sized = []
    for j, pattern in enumerate(patterns):
        try:
            sizes = [words(clean(text_blocks((scored[k].index.elements[i] for i in regions[k]), skip), template, links=links))
                     for k, a in enumerate(assignment) if a == j and regions[k]]
        except ValueError:  # an exclusion XSLT cannot match: extraction cuts it from the tree instead
            sizes = []
        size = int(statistics.median(sizes)) if sizes else 0
        sized.append(replace(pattern, terms=size) if size > 0 else pattern)
    return sized


def _headline(index: PageIndex, meta: Metadata | None) -> frozenset[int]:
    """The elements whose own text is (a piece of) the item's title.

    With keywords taken from the title and summary, the headline holds nearly every
    keyword in a handful of terms, and J x U would elect it as the article.  Its
    words are what the keywords were made from, not evidence of where the body is.
    """
    title = set(tokenize(meta.title)) if meta else set()
    if len(title) < 2:
        return frozenset()
    return frozenset(i for i, terms in enumerate(index.terms) if len(terms) >= 2 and title.issuperset(terms))


def _template_blocks(region_blocks: Sequence[Sequence[Block]]) -> frozenset[str]:
    """The text blocks found inside the article region of at least half the
    sample pages (and at least two): text that the template, not the author, wrote.

    :param region_blocks: each sample page's region blocks (none for a page no pattern explains).
    """
    seen: Counter[str] = Counter()
    for blocks in region_blocks:
        # Navigation blocks are dropped at extraction anyway; counting them would make
        # an article's headline "template" when sample pages link to it from a sidebar.
        seen.update({block.text for block in blocks if not block.is_navigation})
    needed = max(2, math.ceil(len(region_blocks) / 2))
    return frozenset(text for text, count in seen.items() if count >= needed)


def _code_texts(regions: Sequence[Sequence[etree._Element]]) -> frozenset[str]:
    """The text blocks of the code and preformatted text inside ``regions``."""
    listings = [element for region in regions for node in region for element in node.iter(*KEPT_TAGS)]
    return frozenset(block.text for block in text_blocks(listings))


def _with_code(regions: Sequence[Sequence[etree._Element]]) -> list[list[etree._Element]]:
    """Each region's nodes that hold a ``<pre>`` or ``<code>``: a part of the others has no code, and
    :func:`_cuts_code` need not look for it there (an article without a listing is most of them)."""
    return [[node for node in region if next(node.iter(*KEPT_TAGS), None) is not None] for region in regions]


def _cuts_code(xpath: str, regions: Sequence[Sequence[etree._Element]]) -> bool:
    """Whether the exclusion ``xpath`` cuts, inside one of the sample ``regions``, a part that is mostly
    code: at least MIN_CODE_SHARE of its letters in ``<pre>`` or ``<code>``."""
    if not any(regions):
        return False
    try:
        find = etree.XPath(f".{xpath}")
    except etree.XPathSyntaxError:
        return False
    for region in regions:
        for node in region:
            for part in find(node):
                if not isinstance(part, etree._Element):
                    continue
                total = _letters(part)
                code = sum(_letters(listing) for listing in region_outermost(list(part.iter(*KEPT_TAGS))))
                if total and code >= MIN_CODE_SHARE * total:
                    return True
    return False


def _letters(element: etree._Element) -> int:
    """The letters in ``element``'s text: a listing's gutter of line numbers has none, and is no code."""
    return sum(char.isalpha() for char in "".join(element.itertext()))


def _table_headers(regions: Sequence[Sequence[etree._Element]]) -> frozenset[str]:
    """The text blocks of the header cells of the tables inside ``regions``."""
    cells = [cell for region in regions for node in region for cell in node.iter("th")]
    cells += [cell for region in regions for node in region for cell in node.xpath(".//thead//td")]
    return frozenset(block.text for block in text_blocks(cells))


def _with_core(pattern: Pattern, pages: Sequence[ScoredPage], regions: Sequence[Sequence[int]]) -> Pattern:
    """``pattern`` narrowed to regions that contain the core it had on its sample pages,
    when the narrowed XPath still selects the same nodes there."""
    core = core_step(pages, regions) if pages else None
    if core is None:
        return pattern
    xpath = f"{pattern.xpath}[{core}]"
    for page, region in zip(pages, regions):
        body = page.index.elements[0]
        found = body.getroottree().xpath(xpath)
        if [page.index.elements[i] for i in region] != list(found):
            return pattern
    return replace(pattern, xpath=xpath)
