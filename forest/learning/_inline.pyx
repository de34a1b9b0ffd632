# cython: language_level=3, boundscheck=False, wraparound=False
"""The inline children of a block's owner and their text, in C: what learning's ``_holder``
(forest/learning/induce.py) reads of every element that holds a classified block.

``inline_children(owner, block_tags)`` gives, for each child element of ``owner`` whose tag is
not in ``block_tags``, in document order, the child's XPath ``string()`` (all its text nodes
joined in document order, as libxml2's ``xmlNodeGetContent`` joins them) and the child.  Its reference is the
Python loop it replaces (``isinstance(child.tag, str) and child.tag not in block_tags``, then
``etree.XPath("string()")(child)``): tests/learning/test_native_inline.py asserts they are
equal on the shared datasets' pages.  Evaluating an XPath per child cost a context and a
result object each; on big9's batch that loop was 7% of the whole command's time.

It reads lxml's and libxml2's structs as forest.classifier._walk does, and is built by the same
setup.py against the same lxml: importing that module first refuses a mismatched lxml version.
"""

from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, strcmp, strlen

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlAttr, xmlNode

from lxml import etree

from forest.classifier._walk cimport _after_subtree, _next_element, _text_or_skip

from forest.classifier._walk import BUILT_AGAINST  # noqa: F401  (its import checks lxml's version)

cetree.import_lxml__etree()

# libxml2's own string(): for a subtree holding what the walk below does not join (an entity
# reference, which an HTML parse resolves and so never leaves).
_STRING = etree.XPath("string()")


cdef class _Buffer:
    cdef char* data
    cdef size_t size, capacity

    def __cinit__(self):
        self.capacity = 256
        self.size = 0
        self.data = <char*>malloc(self.capacity)
        if self.data is NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.data)

    cdef int add(self, const char* text) except -1:
        cdef size_t n = strlen(text)
        cdef char* grown
        if self.size + n > self.capacity:
            while self.size + n > self.capacity:
                self.capacity *= 2
            grown = <char*>realloc(self.data, self.capacity)
            if grown is NULL:
                raise MemoryError()
            self.data = grown
        memcpy(self.data + self.size, text, n)
        self.size += n
        return 0


cdef int _join(xmlNode* top, _Buffer buffer) except -1:
    """Append the text and CDATA nodes under ``top`` to ``buffer`` in document order, as libxml2's
    xmlNodeGetContent joins them: 1, or 0 for a subtree with an entity reference (not joined)."""
    cdef xmlNode* c_node = top.children
    while c_node is not NULL and c_node is not top:
        if c_node.type == tree.XML_TEXT_NODE or c_node.type == tree.XML_CDATA_SECTION_NODE:
            if c_node.content is not NULL:
                buffer.add(<const char*>c_node.content)
        elif c_node.type == tree.XML_ENTITY_REF_NODE:
            return 0
        if c_node.type == tree.XML_ELEMENT_NODE and c_node.children is not NULL:
            c_node = c_node.children
            continue
        while c_node is not top and c_node.next is NULL:
            c_node = c_node.parent
        if c_node is top:
            break
        c_node = c_node.next
    return 1


def inline_children(owner, frozenset block_tags):
    """``[(string(child), child)]`` for each child element of ``owner`` whose tag is not in ``block_tags``."""
    cdef cetree._Element parent = <cetree._Element?>owner
    cdef cetree._Document doc = parent._doc
    cdef xmlNode* c_node = parent._c_node.children
    cdef _Buffer buffer = _Buffer()
    cdef list found = []
    while c_node is not NULL:
        if c_node.type == tree.XML_ELEMENT_NODE and cetree.namespacedName(c_node) not in block_tags:
            child = cetree.elementFactory(doc, c_node)
            buffer.size = 0
            if _join(c_node, buffer):
                text = PyUnicode_DecodeUTF8(buffer.data, buffer.size, NULL)
            else:
                text = str(_STRING(child))
            found.append((text, child))
        c_node = c_node.next
    return found


cdef inline bint _iterated(xmlNode* c_node) noexcept nogil:
    # lxml's _isElement: the nodes iterating an element gives (an element, a comment, an entity reference, a PI).
    return (c_node.type == tree.XML_ELEMENT_NODE or c_node.type == tree.XML_COMMENT_NODE
            or c_node.type == tree.XML_ENTITY_REF_NODE or c_node.type == tree.XML_PI_NODE)


cdef int64_t _chars(xmlNode* c_node) noexcept nogil:
    """The characters of the .text or .tail that starts at ``c_node`` (lxml's _collectText), but
    spaces, newlines, tabs and carriage returns: UTF-8's lead bytes, continuation bytes aside."""
    cdef int64_t n = 0
    cdef const unsigned char* s
    cdef unsigned char b
    c_node = _text_or_skip(c_node)
    while c_node is not NULL:
        s = <const unsigned char*>c_node.content
        if s is not NULL:
            while s[0] != 0:
                b = s[0]
                if (b & 0xC0) != 0x80 and b != 32 and b != 10 and b != 9 and b != 13:
                    n += 1
                s += 1
        c_node = _text_or_skip(c_node.next)
    return n


def text_sizes(top):
    """Each element's characters of text in ``top``'s subtree, ``top`` first, in document order (its
    ``iter(etree.Element)``'s): its .text, its child elements' sizes and every child's .tail (a comment's
    and a processing instruction's, not their content), spaces, newlines, tabs and carriage returns
    aside.  Its reference is forest.fields._Body.short's Python loop (tests/learning/test_native_inline.py)."""
    cdef cetree._Element element = <cetree._Element?>top
    cdef xmlNode* c_top = element._c_node
    cdef xmlNode* c_node
    cdef list sizes = []
    cdef Py_ssize_t cap = 64, d = 0
    cdef int64_t size
    cdef int64_t* index
    cdef int64_t* acc
    cdef xmlNode** open_
    cdef void* grown
    if c_top.type != tree.XML_ELEMENT_NODE:
        raise TypeError("text_sizes() needs an element")
    index = <int64_t*>malloc(cap * sizeof(int64_t))
    acc = <int64_t*>malloc(cap * sizeof(int64_t))
    open_ = <xmlNode**>malloc(cap * sizeof(xmlNode*))
    try:
        if index is NULL or acc is NULL or open_ is NULL:
            raise MemoryError()
        # Enter the top element: its index, its .text's characters, its children next.
        index[0] = 0
        acc[0] = _chars(c_top.children)
        open_[0] = c_top
        sizes.append(0)
        c_node = c_top.children
        while True:
            while c_node is not NULL:
                if c_node.type == tree.XML_ELEMENT_NODE:
                    d += 1
                    if d >= cap:
                        cap *= 2
                        grown = realloc(index, cap * sizeof(int64_t))
                        if grown is NULL:
                            raise MemoryError()
                        index = <int64_t*>grown
                        grown = realloc(acc, cap * sizeof(int64_t))
                        if grown is NULL:
                            raise MemoryError()
                        acc = <int64_t*>grown
                        grown = realloc(open_, cap * sizeof(xmlNode*))
                        if grown is NULL:
                            raise MemoryError()
                        open_ = <xmlNode**>grown
                    index[d] = len(sizes)
                    acc[d] = _chars(c_node.children)
                    open_[d] = c_node
                    sizes.append(0)
                    c_node = c_node.children
                    continue
                if _iterated(c_node):
                    acc[d] += _chars(c_node.next)
                c_node = c_node.next
            # Leave the innermost open element: its size is its parent's, with its tail.
            size = acc[d]
            sizes[index[d]] = size
            if d == 0:
                break
            c_node = open_[d]
            d -= 1
            acc[d] += size + _chars(c_node.next)
            c_node = c_node.next
    finally:
        free(index)
        free(acc)
        free(open_)
    return sizes


def short_texts(list elements, list sizes, double limit, dict raw):
    """The elements of ``elements`` (a subtree's in document order, ``sizes`` their :func:`text_sizes`) with
    some text but at most ``limit`` characters of it, in document order; and, in document order, those of
    at most ``limit`` characters whose text this cannot join (an entity reference under them, which an
    HTML parse resolves and so never leaves).

    Every other element of at most ``limit`` characters that ``raw`` lacks gains its text there: its
    .text, its child elements' texts and every child's .tail joined (a comment's and a processing
    instruction's tail, not their content), as forest.fields._Body.short joins them (its reference,
    tests/learning/test_native_inline.py).
    """
    cdef Py_ssize_t i, n = len(elements)
    cdef int64_t size
    cdef _Buffer buffer = _Buffer()
    cdef list short = [], unjoined = []
    cdef cetree._Element element
    if len(sizes) != n:
        raise ValueError("short_texts() needs a size for each element")
    for i in range(n):
        size = <int64_t>sizes[i]
        if size > limit:
            continue
        element = <cetree._Element?>elements[i]
        if size > 0:
            short.append(element)
        if element in raw:
            continue
        buffer.size = 0
        if _join(element._c_node, buffer):
            raw[element] = PyUnicode_DecodeUTF8(buffer.data, buffer.size, NULL)
        else:
            unjoined.append(element)
    return short, unjoined


# What forest.learning.comments._COMMENTISH finds in an id or a class, lower-cased ASCII ("respon": its
# "respond" and "response"); a value with a non-ASCII character is always kept, as IGNORECASE matches
# some of them to ASCII letters ("\u017f" to "s").
cdef const char* _COMMENT_WORDS[6]
_COMMENT_WORDS[0] = b"comment"
_COMMENT_WORDS[1] = b"disqus"
_COMMENT_WORDS[2] = b"discussion"
_COMMENT_WORDS[3] = b"respon"
_COMMENT_WORDS[4] = b"replies"
_COMMENT_WORDS[5] = b"reactions"


cdef bint _may_name_comments(const unsigned char* s) noexcept nogil:
    cdef Py_ssize_t i, k, w
    cdef const unsigned char* word
    cdef unsigned char b
    i = 0
    while s[i] != 0:
        if s[i] >= 0x80:
            return True
        i += 1
    i = 0
    while s[i] != 0:
        for w in range(6):
            word = <const unsigned char*>_COMMENT_WORDS[w]
            k = 0
            while word[k] != 0:
                b = s[i + k]
                if b >= 65 and b <= 90:
                    b += 32
                if b != word[k]:  # a value's end (0) differs from every letter
                    break
                k += 1
            if word[k] == 0:
                return True
        i += 1
    return False


cdef bint _attribute_may_name(xmlNode* c_node, const char* name) noexcept nogil:
    # The first attribute of that name in no namespace (element.get's), its value's text nodes checked;
    # any other node in the value (an entity reference) keeps the element.
    cdef xmlAttr* c_attr = c_node.properties
    cdef xmlNode* c_text
    while c_attr is not NULL:
        if c_attr.ns is NULL and strcmp(<const char*>c_attr.name, name) == 0:
            c_text = c_attr.children
            while c_text is not NULL:
                if c_text.type != tree.XML_TEXT_NODE:
                    return True
                if c_text.content is not NULL and _may_name_comments(<const unsigned char*>c_text.content):
                    return True
                c_text = c_text.next
            return False
        c_attr = c_attr.next
    return False


def comment_named_candidates(top):
    """The elements under ``top`` (not itself), in document order, whose id or class may name a comment
    thread: it holds one of _COMMENT_WORDS in any ASCII case, or a non-ASCII character.  A superset of
    those forest.learning.comments._COMMENTISH finds, which it then checks; the XPath it replaces,
    ``.//*[@id or @class]``, gave every named element to that check (tests/learning/test_native_inline.py)."""
    cdef cetree._Element element = <cetree._Element?>top
    cdef cetree._Document doc = element._doc
    cdef xmlNode* c_top = element._c_node
    cdef xmlNode* c_node
    cdef list found = []
    if c_top.type != tree.XML_ELEMENT_NODE:
        raise TypeError("comment_named_candidates() needs an element")
    c_node = c_top.children
    while c_node is not NULL and c_node is not c_top:
        if c_node.type == tree.XML_ELEMENT_NODE:
            if c_node.properties is not NULL and (_attribute_may_name(c_node, "id") or _attribute_may_name(c_node, "class")):
                found.append(cetree.elementFactory(doc, c_node))
            if c_node.children is not NULL:
                c_node = c_node.children
                continue
        c_node = _after_subtree(c_node, c_top)
    return found


cdef bint _unnamed_class(xmlNode* c_node) noexcept nogil:
    # Whether the element's class (element.get's) may be one patterns.dom names by no step: over 120
    # bytes of UTF-8 (120 characters are at least as many bytes), holding both quotes, or holding a
    # character XML does not allow (patterns.dom._NOT_XML: a C0 control but tab, line feed and carriage
    # return, or U+FFFE or U+FFFF; libxml2 holds no surrogate); any other node in the value (an entity
    # reference) counts as such.
    cdef xmlAttr* c_attr = c_node.properties
    cdef xmlNode* c_text
    cdef const unsigned char* s
    cdef size_t size = 0
    cdef bint single = False, double = False
    while c_attr is not NULL:
        if c_attr.ns is NULL and strcmp(<const char*>c_attr.name, "class") == 0:
            c_text = c_attr.children
            while c_text is not NULL:
                if c_text.type != tree.XML_TEXT_NODE:
                    return True
                s = <const unsigned char*>c_text.content
                if s is not NULL:
                    while s[0] != 0:
                        single = single or s[0] == 39
                        double = double or s[0] == 34
                        if (s[0] < 32 and s[0] != 9 and s[0] != 10 and s[0] != 13) or (
                                s[0] == 0xEF and s[1] == 0xBF and (s[2] == 0xBE or s[2] == 0xBF)):
                            return True
                        size += 1
                        s += 1
                c_text = c_text.next
            return size > 120 or (single and double)
        c_attr = c_attr.next
    return False


def unnamed_classes(top):
    """``top`` and the elements under it, in document order, whose class patterns.dom may name by no step
    (``patterns.dom._steps``: over 120 characters, both quotes, or a character XML does not allow): a superset
    of those ``//*[string-length(@class) > 120 or (contains(@class, "'") and contains(@class, '"'))]`` selects from
    the root, which forest.fields._Selection reads and which cost more than the keys it spared evaluating."""
    cdef cetree._Element element = <cetree._Element?>top
    cdef cetree._Document doc = element._doc
    cdef xmlNode* c_top = element._c_node
    cdef xmlNode* c_node = c_top
    cdef list found = []
    if c_top.type != tree.XML_ELEMENT_NODE:
        raise TypeError("unnamed_classes() needs an element")
    while c_node is not NULL:
        if c_node.type == tree.XML_ELEMENT_NODE:
            if c_node.properties is not NULL and _unnamed_class(c_node):
                found.append(cetree.elementFactory(doc, c_node))
            if c_node.children is not NULL:
                c_node = c_node.children
                continue
        c_node = _after_subtree(c_node, c_top)
    return found


cdef bint _digit_or_wide(xmlNode* c_node) noexcept nogil:
    """Whether the .text or .tail that starts at ``c_node`` holds an ASCII digit or a non-ASCII
    character (which may be a digit of another script: Python's ``\\d`` is Unicode's)."""
    cdef const unsigned char* s
    c_node = _text_or_skip(c_node)
    while c_node is not NULL:
        s = <const unsigned char*>c_node.content
        if s is not NULL:
            while s[0] != 0:
                if s[0] >= 0x80 or (s[0] >= 48 and s[0] <= 57):
                    return True
                s += 1
        c_node = _text_or_skip(c_node.next)
    return False


def day_candidates(top, names, tagged=()):
    """The elements of ``top``'s subtree, itself first, in document order (``iter(etree.Element)``'s),
    that may state a day as forest.fields._Body.day reads one: those with an attribute of one of
    ``names`` (in any namespace), or of one of ``tagged``'s ``(attribute, tag)`` pairs on an element of
    that tag (in any namespace: a ``content`` on a ``<meta>``, a ``title`` on an ``<abbr>``, which _Body.day
    reads on those tags alone), and those whose own text (their .text and their children's tails)
    holds an ASCII digit or a non-ASCII character.  A superset: the caller reads each one's day."""
    cdef cetree._Element element = <cetree._Element?>top
    cdef cetree._Document doc = element._doc
    cdef xmlNode* c_top = element._c_node
    cdef xmlNode* c_node
    cdef xmlNode* child
    cdef xmlAttr* c_attr
    cdef list encoded = [str(name).encode("utf-8") for name in names]
    cdef list pairs = [(str(name).encode("utf-8"), str(tag).encode("utf-8")) for name, tag in tagged]
    cdef Py_ssize_t n = len(encoded), m = len(pairs), k
    cdef const char** wanted
    cdef bint keep
    cdef list found = []
    if c_top.type != tree.XML_ELEMENT_NODE:
        raise TypeError("day_candidates() needs an element")
    wanted = <const char**>malloc((n + 2 * m + 1) * sizeof(const char*))
    if wanted is NULL:
        raise MemoryError()
    try:
        for k in range(n):
            wanted[k] = <bytes>encoded[k]
        for k in range(m):  # each pair's attribute, then its tag
            wanted[n + 2 * k] = <bytes>(<tuple>pairs[k])[0]
            wanted[n + 2 * k + 1] = <bytes>(<tuple>pairs[k])[1]
        c_node = c_top
        while True:
            # c_node is an element: keep it or not, then go to the next element in document order.
            keep = False
            c_attr = c_node.properties
            while c_attr is not NULL and not keep:
                for k in range(n):
                    if strcmp(<const char*>c_attr.name, wanted[k]) == 0:
                        keep = True
                        break
                for k in range(m):
                    if keep:
                        break
                    if (strcmp(<const char*>c_attr.name, wanted[n + 2 * k]) == 0
                            and strcmp(<const char*>c_node.name, wanted[n + 2 * k + 1]) == 0):
                        keep = True
                c_attr = c_attr.next
            if not keep:
                keep = _digit_or_wide(c_node.children)
                child = c_node.children
                while child is not NULL and not keep:
                    if _iterated(child):
                        keep = _digit_or_wide(child.next)
                    child = child.next
            if keep:
                found.append(cetree.elementFactory(doc, c_node))
            child = _next_element(c_node.children)
            if child is not NULL:
                c_node = child
                continue
            while c_node is not c_top:
                child = _next_element(c_node.next)
                if child is not NULL:
                    break
                c_node = c_node.parent
            if c_node is c_top:
                break
            c_node = child
    finally:
        free(wanted)
    return found


# ---- The span's markers: start tags up to their first id or class value (forest.learning.span._MARKER).

from cpython.unicode cimport PyUnicode_DATA, PyUnicode_FindChar, PyUnicode_GET_LENGTH, PyUnicode_KIND, PyUnicode_READ, PyUnicode_Substring

import re as _re

# The ASCII characters _MARKER's classes hold, as its own engine reads them (Unicode str pattern):
# \s holds \x1c-\x1f besides the usual five, \w letters, digits and "_".
cdef bint _SPACE[128]
cdef bint _WORDLIKE[128]  # \w or "-": what the lookbehind before "id" or "class" refuses
cdef bint _TAG_CHAR[128]  # [\w:-]
for _c in range(128):
    _SPACE[_c] = _re.match(r"\s", chr(_c)) is not None
    _WORDLIKE[_c] = _re.match(r"[\w-]", chr(_c)) is not None
    _TAG_CHAR[_c] = _re.match(r"[\w:-]", chr(_c)) is not None


cdef inline bint _ascii_letter(unsigned int c) noexcept nogil:
    return (c >= 65 and c <= 90) or (c >= 97 and c <= 122)


cdef inline unsigned int _lower(unsigned int c) noexcept nogil:
    return c + 32 if c >= 65 and c <= 90 else c


cdef Py_ssize_t _marker_end(int kind, void* data, Py_ssize_t p, Py_ssize_t n) noexcept:
    """Where _MARKER's match at the "<" at ``p`` ends; -1 when it does not match there, -2 when the tag
    holds a non-ASCII character (IGNORECASE matches some to ASCII letters: the regex decides)."""
    cdef Py_ssize_t q = p + 1, w, x, y
    cdef unsigned int c, quote
    # The window the match lies in: up to the next "<" or ">" ([^<>] and the value's classes stop there).
    w = q
    while w < n:
        c = PyUnicode_READ(kind, data, w)
        if c == 60 or c == 62:  # < >
            break
        if c >= 128:
            return -2
        w += 1
    if q >= w or not _ascii_letter(PyUnicode_READ(kind, data, q)):
        return -1
    q += 1
    while q < w and _TAG_CHAR[PyUnicode_READ(kind, data, q)]:
        q += 1
    if q >= w or not _SPACE[PyUnicode_READ(kind, data, q)]:
        return -1
    # [^<>]*? : the first place after the space where the attribute's name, "=" and a quoted value follow.
    x = q + 1
    while x < w:
        if not _WORDLIKE[PyUnicode_READ(kind, data, x - 1)]:
            c = _lower(PyUnicode_READ(kind, data, x))
            y = -1
            if c == 105:  # i
                if x + 1 < w and _lower(PyUnicode_READ(kind, data, x + 1)) == 100:  # d
                    y = x + 2
            elif c == 99:  # c
                if (x + 4 < w and _lower(PyUnicode_READ(kind, data, x + 1)) == 108 and _lower(PyUnicode_READ(kind, data, x + 2)) == 97
                        and _lower(PyUnicode_READ(kind, data, x + 3)) == 115 and _lower(PyUnicode_READ(kind, data, x + 4)) == 115):
                    y = x + 5
            if y >= 0:
                while y < w and _SPACE[PyUnicode_READ(kind, data, y)]:
                    y += 1
                if y < w and PyUnicode_READ(kind, data, y) == 61:  # =
                    y += 1
                    while y < w and _SPACE[PyUnicode_READ(kind, data, y)]:
                        y += 1
                    if y < w:
                        quote = PyUnicode_READ(kind, data, y)
                        if quote == 34 or quote == 39:  # " '
                            y += 1
                            while y < w and PyUnicode_READ(kind, data, y) != quote:
                                y += 1
                            if y < w:
                                return y + 1
        x += 1
    return -1


def start_markers(str text, Py_ssize_t start, pattern):
    """``[(m.group(), m.start()) for m in pattern.finditer(text, start)]`` for forest.learning.span's
    ``_MARKER`` (its reference: tests/learning/test_native_inline.py), scanned in C: only a "<" can
    start a match, and the match lies before the next "<" or ">".  A tag with a non-ASCII character
    is matched by ``pattern`` itself."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text), p, e
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef list found = []
    p = min(max(start, 0), n)
    while p < n:
        p = PyUnicode_FindChar(text, 60, p, n, 1)
        if p < 0:
            break
        e = _marker_end(kind, data, p, n)
        if e == -2:
            match = pattern.match(text, p)
            if match is None:
                p += 1
                continue
            e = match.end()
        elif e < 0:
            p += 1
            continue
        found.append((PyUnicode_Substring(text, p, e), p))
        p = e
    return found
