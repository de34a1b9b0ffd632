"""Extract an article from one page: execute a site's compiled Wrapper, or classify a page no wrapper fits.

Extraction with a fitting wrapper is parse (of the part of the page the site's articles sit
in, where learning found one), the wrapper's XPaths, its exclusions, set lookups and text:
everything clever was spent once, at learning.  The per-block
classifier runs only where no pattern fits (drift, another template), on pages of
sites with no wrapper, and on a region that holds a box the sample's regions never had (a
slideshow, an embedded post, a widget of one page), which it judges.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from lxml import etree

from forest import region
from forest.article import structure
from forest.article.render import with_structure
from forest.classifier.predictor import BlockPrediction, BlockPredictor
from forest.extraction.copies import without_copies
from forest.extraction.models import declares_viewport, modern_non_article, shipped_model
from forest.extraction.reviews import declares_product, without_reviews
from forest.config import Settings
from forest.errors import ParseError
from forest.extraction import span
from forest.bylines import PageTexts
from forest.fields import extract_fields, folded_words, placed, read_field
from forest.html import page_title, parse_html, script_shell
from forest.learning.index import page_index
from forest.limits import classifiable
from forest.model import GUESS_CONFIDENCE, Article
from forest.page import ParsedPage
from forest.titles import headline_of, strip_affixes
from forest.wrapper import Wrapper
from forest.xpaths import compiled
from keywords.tfidf import tfidf_terms
from patterns.model import Pattern
from patterns.ranking import candidate_nodes, region_score, score_page
from patterns.text import MAX_LINK_SHARE, PROSE_WORDS, Block, text_blocks, text_lengths

# A line of the region's start this long, in words and in share of the page's title, that is
# part of the title is the headline (_states_headline): a site's name alone is shorter.
MIN_HEADLINE_WORDS = 3
MIN_HEADLINE_SHARE = 0.4
# Fewer content words than this from the classifier alone is "found nothing".
MIN_CLASSIFIED_WORDS = 20
# The article model misread a page when it keeps under this share of the page's prose (its words in
# sentence-like blocks, patterns.text.Block.is_prose) and leaves out more than MIN_MISSED_PROSE words
# of it: a roundup, a health guide or a shop's buying advice that calls itself an article, whose
# paragraphs sit among "Shop now" links the model learned as commerce.  The modern model reads the
# page again.  A news article keeps most of its prose; its comments or teasers are seldom four times
# its text.  A larger share re-read more of wcxb_dev's articles to their gain, and scrapinghub's news
# articles to their loss (from 0.3 on); dragnet's dev sites' cold path loses a little at 0.2.
# Re-measure with `python -m eval.classifier.modern` (wcxb_dev by page type) and
# `python -m eval.classifier.modern --dataset scrapinghub` (and cleaneval).
MIN_PROSE_KEPT = 0.2
MIN_MISSED_PROSE = 200


def extract(
    wrapper: Wrapper | None,
    data: bytes | str | ParsedPage,
    *,
    url: str | None = None,
    settings: Settings | None = None,
    declared_charset: str | None = None,
    classifier: BlockPredictor | None = None,
) -> Article:
    """Extract the article of ``data``, a page of ``wrapper.site`` (or of a site with no wrapper: ``None``).

    The wrapper's patterns are tried in order; the first whose region is plausible
    (its size within the pattern's learned statistics) wins (``method="wrapper"``): its
    exclusions are cut out and its template and navigation blocks dropped.  When none
    fits, or there is no wrapper, the per-block classifier extracts the page
    (``method="classifier"``), unless it would reject most of a region FOREST finds on
    the page alone and the site's statistics find plausible: that region is the
    article then (``method="page"``), as it is when the classifier finds nothing or is
    off (``Settings(classifier=False)``).  A note says why the wrapper was not used.

    A wrapper that learned its site's span (forest.extraction.span) first reads the page's
    head and that part of its source alone, with the main pattern (:func:`extract_span`);
    the whole page is parsed only when the span or the pattern does not fit there.

    forest runs no script: a page its scripts fill (:func:`forest.html.script_shell`) whose
    article comes out with next to no words is read again as a browser without scripts shows it.

    With ``settings.html`` the article also carries its structure and clean HTML
    (``Article.document``, ``Article.html``); without it, ``Article.html`` is empty.

    :param data: the page: its bytes, its text, or a :class:`forest.page.ParsedPage` (whose text and
        tree are then reused, and whose tree the extraction takes: it may cut parts out of it).
    :param classifier: the per-block classifier for pages no pattern fits; by default
        the shipped model when ``settings.classifier`` is on.
    :raises ParseError: when ``data`` is not a readable HTML page.
    """
    settings = settings or Settings()
    page = data if isinstance(data, ParsedPage) else \
        ParsedPage(data, url=url, charset=declared_charset, max_bytes=settings.max_page_bytes)
    # A comment thread sits past the article, out of the span; a page over the size limit is refused as before.
    if wrapper is not None and any(wrapper.span) and not settings.comments and page.size <= settings.max_page_bytes:
        # The part of the source the site's article sits in (forest.extraction.span); a page
        # whose main pattern does not fit there is read whole, as every other page is.
        article = extract_span(wrapper, page.text, url=url, settings=settings)
        if article is not None:
            return article
    root = page.take_tree()
    return _extract_whole(root, wrapper, page.text, None, url, settings, classifier)


def extract_parsed(wrapper: Wrapper | None, root: etree._Element, data: bytes | str, *, settings: Settings | None = None) -> Article:
    """:func:`extract` of the whole page ``data``, given the tree :func:`forest.html.parse_html` made of it.

    For a caller that parsed the page already (learning checks its sample pages' articles): the
    tree is the extraction's to change (it may cut the site's exclusions and thread out of it).
    """
    return _extract_whole(root, wrapper, data, None, None, settings or Settings(), None)


def _extract_whole(
    root: etree._Element, wrapper: Wrapper | None, data: bytes | str, declared_charset: str | None, url: str | None,
    settings: Settings, classifier: BlockPredictor | None,
) -> Article:
    """The article of the whole page ``data``, parsed as ``root``; a page its scripts fill is read again without them."""
    article = _extract_tree(root, wrapper, data, declared_charset, url, settings, classifier)
    if len(article.text.split(None, MIN_CLASSIFIED_WORDS)) < MIN_CLASSIFIED_WORDS and script_shell(root, data):
        # A page its scripts fill shows its content only inside <noscript> (forest.html.script_shell).
        root = parse_html(data, declared_charset=declared_charset, max_bytes=settings.max_page_bytes, source=url, noscript=True)
        shown = _extract_tree(root, wrapper, data, declared_charset, url, settings, classifier, noscript=True)
        if len(shown.text) > len(article.text):
            return shown
    return article


def _extract_tree(
    root: etree._Element, wrapper: Wrapper | None, data: bytes | str, declared_charset: str | None, url: str | None,
    settings: Settings, classifier: BlockPredictor | None, *, noscript: bool = False,
) -> Article:
    """The article of the page ``root`` was parsed from (``data``): the wrapper's patterns, else cold."""
    title, found = _fields(root, data, wrapper, url=url)
    # Read before the region's exclusions (the thread among them) are cut from the tree.
    comments = _comments(root, wrapper, url) if settings.comments else None
    notes: tuple[str, ...] = ()
    short: list[Article] = []  # the main pattern's region, where shorter than the sample's (_wrapped)
    if wrapper is not None:
        lead = read_field(root, wrapper.fields, "lead")  # read before the region's exclusions are cut from the tree
        article = _wrapped(root, data, wrapper, wrapper.patterns, title, found, comments, settings, url, short=short,
                           classifier=classifier)
        if article is not None:
            return _headed(article, lead)
        notes = ("no wrapper pattern fit this page: none matched within the site's learned region sizes, "
                 "or most of its region was boxes the sample pages never had",)
        if wrapper.exclusions or wrapper.comments:
            # The patterns may have cut their exclusions and the thread out of the tree
            # (forest.region.select): the fallbacks read the page as served.
            root = parse_html(data, declared_charset=declared_charset, max_bytes=settings.max_page_bytes, source=url,
                              noscript=noscript)
    article = _cold(root, data, wrapper, settings, classifier, settings.html, url, reread_empty=not short)
    if wrapper is not None and short and article.method != "classifier":
        # The main pattern found the site's article, shorter than the pattern's regions were (a
        # note of a few lines), and the classifier finds no article either: the site's region is
        # a surer guess than FOREST's region of this page alone, which is then its longest text
        # (an about box, a footer).  It is as much a guess, with that guess's confidence.
        # Re-measure: `forest eval --split dev --systems forest`.
        note = "the region holds fewer words than the site's learned regions; the classifier found no article"
        return _headed(replace(short[0], confidence=GUESS_CONFIDENCE, notes=(note,)), lead)
    return replace(article, url=url, site=wrapper.site if wrapper else None, title=title, author=found["author"],
                   date=found["date"], notes=notes, comments=comments)


def extract_span(wrapper: Wrapper, text: str, *, url: str | None = None, settings: Settings | None = None) -> Article | None:
    """The article of ``text`` read from the part of its source the wrapper's span bounds (with
    the page's head), by the main pattern; None when the span or the pattern does not fit the page."""
    settings = settings or Settings()
    cut = span.cut(text, wrapper.span)
    if cut is None:
        return None
    part, used = cut
    try:
        root = parse_html(part, max_bytes=settings.max_page_bytes, source=url)
    except ParseError:
        return None
    nodes = region.outermost(compiled(wrapper.main.xpath)(root))
    if not span.holds(root, nodes, used):
        return None
    # The headline outside the span would be searched for in the part parsed, and not found.
    headline = read_field(root, wrapper.fields, "title")
    if "title" in wrapper.fields and not headline:
        return None
    title, found = _fields(root, text, wrapper, headline, url=url)
    # So would a date whose learned place is not in the part parsed and that the search does not find there
    # (a page of another template, its date printed by a headline outside the part): the whole page is
    # searched.  A place found there that states no day ("Jan 4", a site that prints no year) is the
    # site's template all the same.  Not an author's: a site's pages name one on some pages only, and each
    # page without would be parsed twice.
    if "date" in wrapper.fields and not found["date"] and not placed(root, wrapper.fields, "date"):
        return None
    lead = read_field(root, wrapper.fields, "lead")
    article = _wrapped(root, text, wrapper, wrapper.patterns[:1], title, found, None, settings, url, matched=nodes)
    return _headed(article, lead) if article is not None else None


def _headed(article: Article, lead: str | None = None) -> Article:
    """``article`` with its headline as the first line of its text (and of its structure) where its
    region did not start so: an article's text is its headline and its body, whichever elements
    of the page hold them (a site whose pattern is its paragraphs leaves its ``<h1>`` out).  The
    site's standfirst (``lead``, its learned place's text: forest.learning.lead) follows the
    headline there, unless the region holds it.

    Only for a wrapper's region: the classifier labels the headline's block itself, and a page
    extracted cold keeps it or not on that label (prepending the title anyway scores lower on
    pages whose gold has no headline: ``python -m eval.cold``).
    """
    title = " ".join(article.title.split())
    if not title or not article.text or _states_headline(article.text, title):
        return article
    lead = " ".join(lead.split()) if lead else ""
    if lead and lead.casefold() in " ".join(article.text.split()).casefold():
        lead = ""
    head = [title, lead] if lead else [title]
    headed = replace(article, text="\n".join([*head, article.text]))
    if article.document is None:
        return headed
    leaves = [structure.Leaf(title, (structure.Span(title),), heading=1)]
    if lead:
        leaves.append(structure.Leaf(lead, (structure.Span(lead),)))
    return with_structure(headed, structure.Document((*leaves, *article.document.leaves)))


def _states_headline(text: str, title: str) -> bool:
    """Whether the start of ``text`` holds the page's headline: the whole title, or a line that is
    a good part of it.  A title's decoration varies by section on some sites ("... | Special
    reports | Guardian Unlimited", "... | News | Guardian Unlimited Football"), and is then not
    learned (forest.titles): the region's own headline line is the headline still.  A line's words
    are compared, not their punctuation: a site's ``<title>`` prints "Isn't" where its headline
    prints "Isn’t" (Kotaku), and the headline was printed twice."""
    head = text[: len(title) + 200]
    if title.casefold() in " ".join(head.split()).casefold():
        return True
    words = _words(title)
    lines = (" ".join(line.split()) for line in head.split("\n"))
    return any(len(line) >= MIN_HEADLINE_SHARE * len(title) and len(line.split()) >= MIN_HEADLINE_WORDS
               and _words(line) in words for line in lines)


def _words(text: str) -> str:
    """``text``'s words (forest.fields.folded_words), each between spaces: one text holds another's
    words in order when it holds this string of them."""
    return f" {' '.join(folded_words(text))} "


def _fields(
    root: etree._Element, html: bytes | str, wrapper: Wrapper | None, headline: str | None = None, *, url: str | None = None
) -> tuple[str, dict[str, str | None]]:
    """The page's title, and its author and date (forest.fields).

    :param headline: the learned headline element's text, where the caller read it (else it is read here).
    :param url: where the page was read from (its path's date is the last one searched).
    """
    # Title, author and date: the wrapper's learned field XPaths, else meta tags and JSON-LD (forest.fields).
    # A wrapper's learned places stand in for the searches of the page (microdata, <time>, the headline's text).
    fields = {name: xpath for name, xpath in wrapper.fields.items() if name != "title"} if wrapper else {}
    # The body's texts, read by the search of what the page prints (when it runs) and then by the headline's.
    page = PageTexts(root)
    found = extract_fields(root, fields, html=html, statements=wrapper is None, url=url, page=page)
    # The learned headline element; else the page's own title without the site's decoration (forest.titles).
    title = headline or (read_field(root, wrapper.fields, "title") if wrapper is not None else None)
    if not title:
        title = strip_affixes(found["title"] or page_title(root), wrapper.title_affixes if wrapper else ("", ""))
        # The page's own statement of its headline, searched only where no learned place says it: no
        # wrapper, or one whose headline element is missing here (a site whose <title> is its headline has none).
        if wrapper is None or "title" in wrapper.fields:
            title = headline_of(root, title, page.read)
    return title, found


def _wrapped(
    root: etree._Element, data: bytes | str, wrapper: Wrapper, patterns: Sequence[Pattern], title: str, found: dict[str, str | None],
    comments: structure.Document | None, settings: Settings, url: str | None, matched: list[etree._Element] | None = None,
    short: list[Article] | None = None, classifier: BlockPredictor | None = None,
) -> Article | None:
    """The article of the first of ``patterns`` whose region is plausible (its size within the
    pattern's learned statistics), or None.

    :param matched: the first pattern's outermost matches on ``root``, where the caller read them (the span's check).
    :param short: where given, receives the first pattern's region when it holds text but fewer
        words than plausible (region.MIN_REGION_SHARE).
    :param classifier: what judges the region's boxes the sample never showed (_Judge); None: the
        shipped model the page calls for.
    """
    judge = _Judge(root, data, wrapper, settings, classifier)
    for rank, pattern in enumerate(patterns):
        xpath = _widened(root, pattern.xpath)
        nodes, blocks = region.select(root, wrapper, xpath, cut_tree=settings.html,
                                      matched=matched if rank == 0 and xpath == pattern.xpath else None)
        rejected = judge.rejected(nodes)
        if rejected is None:
            continue  # most of the region is boxes the sample never showed: another template's page
        if rejected:
            blocks = _without(blocks, rejected)
        n_words = region.words(blocks)
        plausible = region.plausible(n_words, pattern.terms)
        if nodes and (plausible or (short is not None and rank == 0 and blocks and not region.oversized(n_words, pattern.terms))):
            confidence = region.confidence(blocks, n_words, pattern, wrapper, rank)
            article = Article(text=region.to_text(blocks), method="wrapper", confidence=confidence, url=url, site=wrapper.site,
                              title=title, pattern=pattern.xpath, author=found["author"], date=found["date"], comments=comments)
            if settings.html:  # the structure costs a walk in Python: only for callers that print it
                article = with_structure(article, structure.build(nodes, wrapper.template_blocks | rejected.keys(), base_url=url))
            if plausible:
                return article
            assert short is not None
            short.append(article)
    return None


# Unseen boxes holding less than this share of their region's text are left to the wrapper: the
# classifier's run costs a page more than its parse, and such boxes (a caption, a byline's card) move
# its F1 by less.  A twentieth kept nearly all of the dev split's gain (0.0003 at most lost) and judged
# a third as many pages; a tenth lost l3s_gn1's.  Re-measure: `forest eval --split dev --systems
# forest`, and `forest bench` for the time.
MIN_JUDGED_SHARE = 0.05


class _Judge:
    """The classifier's verdict on the boxes of a region that no sample region held (Wrapper.parts):
    learning saw nothing of them, so the wrapper says nothing of them either.  The page is
    classified once, on the first region that has such a box."""

    def __init__(self, root: etree._Element, data: bytes | str, wrapper: Wrapper, settings: Settings,
                 classifier: BlockPredictor | None) -> None:  # fmt: skip
        self.root, self.data, self.wrapper, self.settings, self.classifier = root, data, wrapper, settings, classifier
        self.predictions: list[BlockPrediction] | None = None

    def rejected(self, nodes: Sequence[etree._Element]) -> Counter[str] | None:
        """The texts of the blocks inside ``nodes``' unseen boxes that the classifier labels boilerplate,
        with their counts (none asked for when they hold under MIN_JUDGED_SHARE of the region's text);
        None when they hold most of it (the page is not the sample's template, and the pattern does
        not fit it)."""
        seen = self.wrapper.parts
        if seen is None or not self.settings.classifier or not nodes:
            return Counter()
        boxes = region.unseen_parts(nodes, seen)
        if not boxes:
            return Counter()
        unseen, total = sum(text_lengths(box)[1] for box in boxes), sum(text_lengths(node)[1] for node in nodes)
        if 2 * unseen > total:
            return None
        if unseen < MIN_JUDGED_SHARE * total:
            return Counter()
        if self.predictions is None:
            # The model the page calls for, as on the cold path (forest.extraction.models).
            model = self.classifier or shipped_model(modern=modern_non_article(self.root, self.data))
            self.predictions = model.predict_blocks(self.root) if classifiable(self.root) else []
        inside = {element for box in boxes for element in box.iter()}
        return Counter(p.block.text for p in self.predictions if not p.is_content and p.element in inside)


def _without(blocks: Sequence[Block], rejected: Counter[str]) -> list[Block]:
    """``blocks`` without as many of each rejected text as were rejected."""
    left = Counter(rejected)
    kept = []
    for block in blocks:
        if left[block.text] > 0:
            left[block.text] -= 1
        else:
            kept.append(block)
    return kept


# A predicate learning appends to a pattern to leave a box out of its region's sibling nodes
# (forest.learning.boxes.without_nodes: ``[not(self::div[@class='playlist'])]``).
_LEFT_OUT = re.compile(r"\[not\(self::[^()]*\)\]$")


def _widened(root: etree._Element, xpath: str) -> str:
    """``xpath``, or ``xpath`` without the sibling nodes it leaves out when, on this page, those hold most
    of the region's text: the same name there marks the article's column (a blog's two-column layout
    puts its posts in the ``div#beta`` that is a sidebar on its three-column pages), and an exclusion
    that would take most of a region is left alone as well (forest.region.cut)."""
    wide = xpath
    while match := _LEFT_OUT.search(wide):
        wide = wide[: match.start()]
    if wide == xpath:
        return xpath
    kept = sum(text_lengths(node)[1] for node in region.outermost(compiled(xpath)(root)))
    whole = sum(text_lengths(node)[1] for node in region.outermost(compiled(wide)(root)))
    return wide if 2 * kept < whole else xpath


def _comments(root: etree._Element, wrapper: Wrapper | None, url: str | None) -> structure.Document:
    """The site's learned comment thread on this page (empty when none is learned or found)."""
    if wrapper is None or not wrapper.comments:
        return structure.Document()
    return structure.build(region.outermost(root.xpath(wrapper.comments)), base_url=url)


def _cold(
    root: etree._Element, data: bytes | str, wrapper: Wrapper | None, settings: Settings, classifier: BlockPredictor | None,
    with_html: bool, url: str | None = None, *, reread_empty: bool = True,
) -> Article:
    """A page no learned pattern fits, read as a page of a site forest has not learned: the classifier's
    content blocks, or FOREST's region of the page alone when the classifier finds too little.

    A learned site's page that no pattern fits gets no weaker method than an unknown site's page:
    its statistics say nothing trustworthy about a page its patterns do not explain.  That holds on a
    site where learning found the classifier contradicting J x U (``Wrapper.classifier_agrees``: a
    shop's, a reference site's) too: its pages that no pattern fits are another template's (a search
    page of a shop whose sample was product pages), where the classifier does better than FOREST's
    region of the page alone (re-measure: `forest eval --split dev --systems forest`, wceb2026).  With
    the classifier off (``Settings(classifier=False)``, FOREST's variants) the page is that region,
    cleaned as the site's pages are.

    Without a ``classifier`` given, the page picks one of the shipped models (forest.extraction.models).
    Where the article model misread the page (:func:`_prose_missed`) or found nothing in it, the modern
    model reads it again; with ``reread_empty`` off, not where it found nothing: the caller holds a
    surer guess than the modern model's (a learned site's region, shorter than its sample's).
    """
    modern: bool | None = None  # which shipped model the page calls for; None: the caller's classifier reads it
    if classifier is None and settings.classifier:
        modern = modern_non_article(root, data)
        classifier = shipped_model(modern=modern)
    # A page too large for the classifier's features is extracted without it (forest.limits).
    predictions = classifier.predict_blocks(root) if classifier is not None and classifiable(root) else None
    if predictions is None:
        nodes, blocks = _single_page(root, settings, wrapper)
    else:
        content = [p for p in predictions if p.is_content]
        if declares_product(root, data):
            content = without_reviews(root, content)
        # Each content block's words, counted once for the test and for the confidence.
        counts = [p.block.text.count(" ") + 1 for p in content]  # Block.words inlined: a page keeps dozens of blocks
        found_nothing = sum(counts) < MIN_CLASSIFIED_WORDS
        if modern is False and (reread_empty if found_nothing else _prose_missed(predictions, content, counts)):
            # The article model misread the page (MIN_PROSE_KEPT) or found nothing in it (a page of today's
            # web, mostly, that calls itself an article: a guide, a listing, a docs page): the modern model
            # reads it again.  Re-measure: `python -m eval.classifier.modern` (wcxb_dev), `--dataset
            # scrapinghub`, and `forest eval --split dev` (dragnet's and wceb2026's cold path).
            reread = shipped_model(modern=True).predict_blocks(root)
            found = [p for p in reread if p.is_content]
            words = [p.block.words for p in found]
            if sum(words) >= MIN_CLASSIFIED_WORDS:
                predictions, content, counts = reread, found, words
        if sum(counts) >= MIN_CLASSIFIED_WORDS:
            kept = _site_cleaned(content, wrapper) or content
            if modern or declares_viewport(root):  # the modern model reads only pages with a viewport
                # A page sized for phones may print a box once per screen size (forest.extraction.copies);
                # one without a viewport is laid out at a desktop's width, once.
                kept = without_copies(kept)
            # The site's cleanup and the copies' only drop blocks: as many kept as content are the same blocks.
            return _classified(kept, kept_probability(kept, counts if len(kept) == len(content) else None), with_html)
        nodes, blocks = _single_page(root, settings)
        if region.words(blocks) < MIN_CLASSIFIED_WORDS:
            # Neither found an article's worth of words (a page whose article is loose text beside
            # a share bar, p = 0.16, and whose region of the page alone is a heading): the
            # classifier's likeliest prose, by its expected content words, is the better guess.
            prose = [p for p in predictions if p.block.is_prose]
            likeliest = max(prose, key=lambda p: p.probability * p.block.words, default=None)
            content = [p for p in predictions if p.is_content or p is likeliest]
            if likeliest is not None and region.words([p.block for p in content]) > region.words(blocks):
                return _classified(content, GUESS_CONFIDENCE, with_html)
    if not nodes:
        article = Article(text="", method="none", confidence=0.0)
        return with_structure(article, structure.Document()) if with_html else article
    article = Article(text=region.to_text(blocks), method="page", confidence=GUESS_CONFIDENCE)
    return with_structure(article, structure.build(nodes, base_url=url)) if with_html else article


def _prose_missed(predictions: Sequence[BlockPrediction], content: Sequence[BlockPrediction], words: Sequence[int]) -> bool:
    """Whether the ``content`` blocks (of ``words`` words each) hold under MIN_PROSE_KEPT of the page's
    prose, and the rest holds more than MIN_MISSED_PROSE words (see MIN_PROSE_KEPT); counted until
    the answer is known."""
    kept = sum(n for p, n in zip(content, words)
               if n >= PROSE_WORDS and not p.block.link_chars > MAX_LINK_SHARE * len(p.block.text))
    missed = 0
    needed = max(MIN_MISSED_PROSE, kept * (1 - MIN_PROSE_KEPT) / MIN_PROSE_KEPT)
    # Block.words and Block.is_prose inlined, as in patterns.text.prose_share: every article page
    # the article model reads passes here, most of its blocks boilerplate.
    for p in predictions:
        if p.is_content:
            continue
        text = p.block.text
        n = text.count(" ") + 1
        if n >= PROSE_WORDS and not p.block.link_chars > MAX_LINK_SHARE * len(text):
            missed += n
            if missed > needed:
                return True
    return False


def _site_cleaned(content: Sequence[BlockPrediction], wrapper: Wrapper | None) -> list[BlockPrediction]:
    """The classifier's content blocks of a learned site's page without the site's template text.

    A page no pattern fits (a one-line note, where the site's regions hold hundreds of words) is
    still a page of the site: the lines its template writes around every article
    (``Wrapper.template_blocks``: an author bio, a newsletter box's pitch, a licence line) are not
    its article, though the classifier, reading one page, may keep them.  The site's exclusions
    are not applied here: searched over the whole page they also cut a related story's puff that
    some gold keeps (dragnet's bbc.co.uk, dev split; re-measure: `forest eval --split dev --systems forest`).
    """
    if wrapper is None or not wrapper.template_blocks:
        return list(content)
    return [p for p in content if p.block.text not in wrapper.template_blocks]


def kept_probability(content: Sequence[BlockPrediction], words: Sequence[int] | None = None) -> float:
    """The classifier's probability that the text it kept is content, averaged over the kept words:
    a cold record's confidence.  Where the classifier is sure of every block it keeps, its text is
    the article; blocks kept at a probability near the threshold (kept for their container, or
    barely over the line) are where its extractions go wrong.  On cold pages it ranks records as
    their F1 does better than any other signal tried (re-measure: `forest eval --page-level`
    prints the Spearman correlation).

    :param words: each block's ``Block.words``, where the caller counted them.
    """
    counts = words if words is not None else [p.block.words for p in content]
    total = sum(counts)
    if not total:
        return 0.0
    return round(sum(p.probability * w for p, w in zip(content, counts)) / total, 3)


def _classified(content: Sequence[BlockPrediction], confidence: float, with_html: bool) -> Article:
    """The article of the classifier's content blocks."""
    article = Article(text=region.to_text([p.block for p in content]), method="classifier", confidence=confidence)
    return with_structure(article, structure.from_owned((p.block, p.element) for p in content)) if with_html else article


def _single_page(
    root: etree._Element, settings: Settings, wrapper: Wrapper | None = None
) -> tuple[list[etree._Element], list[Block]]:
    """FOREST's region of the page alone and its text blocks, navigation blocks dropped, and
    the site's learned boilerplate too when it has a wrapper."""
    nodes = _best_single_page_region(root, settings)
    if not nodes:
        return [], []
    blocks = region.clean(text_blocks(nodes), frozenset())
    # A page of the site keeps being one when no pattern fits it: the site's cleanup is cut
    # from the region before it is weighed against the classifier (a layout table that
    # holds the article and the site's menus no longer loses to it for their sake), unless
    # the region is another template's whole-page container (the drift bound) or learning
    # found the classifier contradicting J x U: there the cleanup (its template blocks above
    # all) is the main pattern's alone, and on another template it names content (a product
    # site's).  (Re-measure: `forest eval --split dev --systems forest`.)
    if wrapper is None or not wrapper.classifier_agrees or not wrapper.patterns or \
            region.oversized(region.words(blocks), wrapper.main.terms):
        return nodes, blocks
    return nodes, region.cleaned(nodes, wrapper)


def _best_single_page_region(root: etree._Element, settings: Settings) -> list[etree._Element]:
    """FOREST on one page: the node with the highest J x U for the page's most frequent
    content words (tf-idf over a one-page sample degrades to term frequency).

    The page's title and description are not used as keywords here: their few terms
    sit densely in the headline, and J x U then picks the headline alone.
    """
    body = root.find("body")
    if body is None:
        return []
    # Learning's native walk (index_page's fields, tested equal to it): the Python walk, one
    # attribute read and one tokenize call per text, was about half of this fallback's time.
    index = page_index(body, with_keys=False)
    page = score_page(index, tfidf_terms([index.page_terms()], k=settings.n_keywords)[0])
    candidates = candidate_nodes(page)
    if not candidates:
        return []
    best = max(candidates, key=lambda i: (region_score(page, [i]), -i))
    return [index.elements[best]]
