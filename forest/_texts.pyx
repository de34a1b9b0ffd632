# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The body's text nodes in C: what forest.bylines (the printed date and byline search) reads of a page.

``BodyTexts(root)`` lists the text and CDATA nodes under every ``<body>`` of ``root``'s document, in
document order, as plain ``str`` (what the XPath ``//body//text()`` finds), with where each starts in
them joined by spaces; the element that holds text ``i`` (its libxml2 parent: what forest.bylines
read of an lxml smart string, for a text and a tail alike) is made only when asked for.  Its reference
is the XPath and smart-string reading it replaces (tests/unit/test_native_texts.py asserts they are
equal on the shared datasets' pages and on generated ones): the XPath made a string and a parent
proxy for every text of a page, which cost half a parse.

It also lists the names of the body's elements (class, id, itemprop, rel, data-testid: read into one
buffer, decoded and case-folded once) and sifts the texts for the search's tests in Python (a
byline's opening words, a headline's length, a digit): a sieve drops only texts its test would
reject, so the search finds what it found, reading fewer texts.  Words a search looks for in all the
names at once, or in the page's text (a "Posted on" line), are found in one pass over it
(``named_with``, ``occurrences``), where a str.find of each word read it once a word.

The nodes are read when the object is made: it stands for the tree as it was then, and a caller
that changes the tree makes another.

It reads lxml's and libxml2's structs as forest.classifier._walk does, and is built by the same
setup.py against the same lxml: importing that module first refuses a mismatched lxml version.
"""

from cpython.unicode cimport PyUnicode_DecodeUTF8, PyUnicode_GET_LENGTH, PyUnicode_KIND, PyUnicode_DATA, PyUnicode_READ
from cpython.unicode cimport Py_UNICODE_ISDECIMAL, Py_UNICODE_ISSPACE, PyUnicode_READ_CHAR
from cpython.unicode cimport PyUnicode_1BYTE_KIND, PyUnicode_2BYTE_KIND
from libc.stdlib cimport free, realloc
from libc.string cimport memcmp, memcpy, memset, strcmp, strlen
from cpython cimport array
from cpython.ref cimport PyObject, Py_INCREF, Py_XDECREF
from libc.stdint cimport uint8_t, uint16_t, uint32_t

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlNode

from forest.classifier._walk cimport _after_subtree, _attribute, _is_text

import array

from forest.classifier._walk import BUILT_AGAINST  # noqa: F401  (its import checks lxml's version)

cetree.import_lxml__etree()

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object text)

cdef extern from *:
    int __builtin_ctz(unsigned int x) nogil


# The strings of the short texts of spaces alone met last (the indentation between tags, most of a page's
# texts), by a hash of their bytes: one string each, not one per text node.
cdef enum:
    _BLANKS = 64  # strings kept
    _BLANK = 32  # bytes of the longest
cdef char _blank_bytes[_BLANKS][_BLANK]
cdef Py_ssize_t _blank_size[_BLANKS]
cdef PyObject* _blank_text[_BLANKS]
cdef array.array _STARTS = array.array("q")


cdef object _text(const char* content):
    # The str of a text node's UTF-8 content.
    cdef Py_ssize_t size = strlen(content), i
    cdef unsigned int hash = 5381
    cdef unsigned char c
    cdef object text
    if size > _BLANK:
        return PyUnicode_DecodeUTF8(content, size, NULL)
    for i in range(size):
        c = <unsigned char>content[i]
        if not (c == 32 or 9 <= c <= 13):
            return PyUnicode_DecodeUTF8(content, size, NULL)
        hash = hash * 33 + c
    hash %= _BLANKS
    if _blank_text[hash] is not NULL and _blank_size[hash] == size and memcmp(_blank_bytes[hash], content, size) == 0:
        return <object>_blank_text[hash]
    text = PyUnicode_DecodeUTF8(content, size, NULL)
    Py_XDECREF(_blank_text[hash])
    Py_INCREF(text)
    _blank_text[hash] = <PyObject*>text
    _blank_size[hash] = size
    memcpy(_blank_bytes[hash], content, size)
    return text


cdef inline bint _is_body(xmlNode* c_node) noexcept nogil:
    # XPath's name test "body": an element of that name in no namespace.
    return c_node.type == tree.XML_ELEMENT_NODE and c_node.ns is NULL and strcmp(<const char*>c_node.name, "body") == 0


cdef inline bint _is_lxml_element(xmlNode* c_node) noexcept nogil:
    # lxml's _isElement: the nodes it makes proxies of, and after which a text is a tail.
    return (c_node.type == tree.XML_ELEMENT_NODE or c_node.type == tree.XML_COMMENT_NODE
            or c_node.type == tree.XML_ENTITY_REF_NODE or c_node.type == tree.XML_PI_NODE)


cdef inline xmlNode* _following(xmlNode* c_node, xmlNode* top, int* bodies) noexcept nogil:
    # The node after ``c_node``'s subtree in a walk of ``top``'s (NULL past its end), counting the
    # <body> elements it leaves in ``bodies``.
    while c_node.next is NULL:
        c_node = c_node.parent
        if c_node is NULL or c_node is top:
            return NULL
        if _is_body(c_node):
            bodies[0] -= 1
    return c_node.next


cdef inline xmlNode* _step(xmlNode* c_node, xmlNode* top, int* bodies) noexcept nogil:
    # The next node in document order of a walk of ``top``'s subtree (elements' children only, as
    # XPath's descendant axis reads an HTML tree), counting the <body> elements it is inside.
    if c_node.type == tree.XML_ELEMENT_NODE and c_node.children is not NULL:
        if _is_body(c_node):
            bodies[0] += 1
        return c_node.children
    return _following(c_node, top, bodies)


cdef class _Buffer:
    # Bytes appended to, grown as needed.
    cdef char* data
    cdef Py_ssize_t size, capacity

    def __dealloc__(self):
        free(self.data)

    cdef int add(self, const char* text, Py_ssize_t n) except -1:
        cdef char* grown
        if self.size + n > self.capacity:
            self.capacity = max(256, 2 * (self.size + n))
            grown = <char*>realloc(self.data, self.capacity)
            if grown is NULL:
                raise MemoryError()
            self.data = grown
        memcpy(self.data + self.size, text, n)
        self.size += n
        return 0


# The attributes an element's names are read from, in their order.
cdef const char* _NAMES[5]
_NAMES[:] = [b"class", b"id", b"itemprop", b"rel", b"data-testid"]


cdef Py_ssize_t _add_value(_Buffer buffer, xmlNode* c_node, tree.xmlAttr* c_attr, bint first) except -1:
    # Append element.get(name)'s value to ``buffer`` (after a space, unless ``first``) when it is not
    # empty; the bytes appended.  The value is its text children's, as libxml2 joins them; an
    # attribute with another child (an entity reference, in XML) is read by lxml.
    cdef xmlNode* child = c_attr.children
    cdef Py_ssize_t size = buffer.size
    while child is not NULL and _is_text(child):
        child = child.next
    if child is not NULL:
        value = (<str>cetree.attributeValue(c_node, c_attr)).encode("utf-8")
        if value:
            if not first:
                buffer.add(" ", 1)
            buffer.add(<const char*>value, len(value))
        return buffer.size - size
    child = c_attr.children
    while child is not NULL:
        if child.content is not NULL and child.content[0] != 0:
            if buffer.size == size and not first:
                buffer.add(" ", 1)
            buffer.add(<const char*>child.content, strlen(<const char*>child.content))
        child = child.next
    return buffer.size - size


cdef inline bint _has_name(xmlNode* c_node) noexcept nogil:
    # Whether an element has one of the attributes _NAMES names: the XPath's [@class or @id or ...].
    cdef tree.xmlAttr* c_attr = c_node.properties
    cdef const char* name
    while c_attr is not NULL:
        if c_attr.ns is NULL:
            name = <const char*>c_attr.name
            if (strcmp(name, "class") == 0 or strcmp(name, "id") == 0 or strcmp(name, "itemprop") == 0
                    or strcmp(name, "rel") == 0 or strcmp(name, "data-testid") == 0):
                return True
        c_attr = c_attr.next
    return False


cdef inline Py_ssize_t _line_length(str text) noexcept:
    # len(" ".join(text.split())): the text's characters but spaces, and one space between its words.
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text), i, chars = 0, words = 0
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef bint space = True
    for i in range(length):
        if Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
            space = True
        else:
            if space:
                words += 1
            space = False
            chars += 1
    return chars + words - 1 if words else 0


cdef inline uint32_t _lower(uint32_t c) noexcept:
    return c + 32 if 65 <= c <= 90 else c


cdef bint _may_open(str text, tuple starts, const unsigned char* firsts):
    # Whether ``text.lstrip()[:8].casefold()`` may start with one of ``starts`` (ASCII words of at most
    # eight letters): False only where the letters it is compared with are ASCII (whose casefold is
    # their lower case) and differ.  ``firsts`` marks the starts' first letters (all 128 where a start
    # is empty): a text whose first letter is none of them is not compared with each start.
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text), i = 0, j
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef uint32_t c
    cdef str start
    while i < length and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
        i += 1
    if i < length:
        c = PyUnicode_READ(kind, data, i)
        if c < 128 and not firsts[_lower(c)]:
            return False
    for start in starts:
        for j in range(PyUnicode_GET_LENGTH(start)):
            if i + j == length:
                break
            c = PyUnicode_READ(kind, data, i + j)
            if c >= 128:
                return True
            if _lower(c) != PyUnicode_READ_CHAR(start, j):
                break
        else:
            return True
    return False


cdef bint _may_hold_by(str text, str separators) noexcept:
    # Whether ``text`` holds one of ``separators``, spaces, then "by" in any case: what the pattern of
    # a byline after a separator (forest.bylines._INNER_BY) reads first.  No other character than
    # b, B, y and Y matches b or y where case is ignored.
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text), i, j, k
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef uint32_t c
    cdef bint separator
    for i in range(length):
        c = PyUnicode_READ(kind, data, i)
        separator = False
        for k in range(PyUnicode_GET_LENGTH(separators)):
            if PyUnicode_READ_CHAR(separators, k) == c:
                separator = True
                break
        if not separator:
            continue
        j = i + 1
        while j < length and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, j)):
            j += 1
        if j + 1 < length and _lower(PyUnicode_READ(kind, data, j)) == 98 and _lower(PyUnicode_READ(kind, data, j + 1)) == 121:
            return True
    return False


cdef enum:
    _WORDS = 32  # words searched for at once, at most


cdef struct _Needles:
    # Words searched for at once: each one's characters (its str's kind and data) and length, and for
    # each ASCII character the words that open with it, as a bit mask.
    int n
    int kinds[_WORDS]
    void* datas[_WORDS]
    Py_ssize_t lengths[_WORDS]
    uint32_t firsts[128]


cdef int _needles(tuple words, _Needles* needles) except -1:
    # Fill ``needles`` with ``words`` (str, each opening with an ASCII character; the caller keeps them alive).
    cdef str word
    cdef uint32_t c
    if len(words) > _WORDS:
        raise ValueError(f"at most {_WORDS} words are searched for at once")
    memset(needles.firsts, 0, sizeof(needles.firsts))
    needles.n = 0
    for word in words:
        if PyUnicode_GET_LENGTH(word) == 0 or PyUnicode_READ_CHAR(word, 0) >= 128:
            raise ValueError(f"a word searched for must open with an ASCII character: {word!r}")
        needles.kinds[needles.n] = PyUnicode_KIND(word)
        needles.datas[needles.n] = PyUnicode_DATA(word)
        needles.lengths[needles.n] = PyUnicode_GET_LENGTH(word)
        needles.firsts[PyUnicode_READ_CHAR(word, 0)] |= (<uint32_t>1) << needles.n
        needles.n += 1
    return 0


ctypedef fused _Char:
    uint8_t
    uint16_t
    uint32_t


cdef inline bint _needle_at(_Needles* needles, uint32_t mask, const _Char* text, Py_ssize_t length, Py_ssize_t i) noexcept:
    # Whether one of the words of ``mask`` (those opening with the text's character at ``i``) is in
    # ``text`` (``length`` characters) at ``i``.
    cdef int w
    cdef Py_ssize_t j, n
    while mask:
        w = __builtin_ctz(mask)
        mask &= mask - 1
        n = needles.lengths[w]
        if i + n > length:
            continue
        j = 1
        while j < n and text[i + j] == PyUnicode_READ(needles.kinds[w], needles.datas[w], j):
            j += 1
        if j == n:
            return True
    return False


cdef int _scan(_Needles* needles, const _Char* text, Py_ssize_t length, bint by_name, list found) except -1:
    # Append to ``found`` where each word of ``needles`` occurs in ``text`` (``length`` characters), or
    # (``by_name``: ``text`` is names joined by NUL characters) the index of each name that holds one.
    cdef Py_ssize_t i = 0, k = 0
    cdef uint32_t c, mask
    while i < length:
        c = text[i]
        if c < 128:
            mask = needles.firsts[c]
            if mask and _needle_at(needles, mask, text, length, i):
                if not by_name:
                    found.append(i)
                else:
                    found.append(k)
                    # The rest of this name is not read: the next name's, after its NUL.
                    while i < length and text[i] != 0:
                        i += 1
                    continue
            elif c == 0 and by_name:
                k += 1
        i += 1
    return 0


cdef list _search(str text, tuple words, bint by_name):
    # _scan of ``text`` for ``words``, at the width of its characters.
    cdef _Needles needles
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text)
    cdef list found = []
    _needles(words, &needles)
    if kind == PyUnicode_1BYTE_KIND:
        _scan(&needles, <const uint8_t*>data, length, by_name, found)
    elif kind == PyUnicode_2BYTE_KIND:
        _scan(&needles, <const uint16_t*>data, length, by_name, found)
    else:
        _scan(&needles, <const uint32_t*>data, length, by_name, found)
    return found


cdef object _get(xmlNode* c_node, const char* name):
    # element.get(name): the value of its first attribute of that name in no namespace, read by lxml's
    # C API as get() reads it; None without one.
    cdef tree.xmlAttr* c_attr = _attribute(c_node, name)
    return cetree.attributeValue(c_node, c_attr) if c_attr is not NULL else None


cdef inline bint _named(xmlNode* c_node, const char* name) noexcept nogil:
    return c_node.type == tree.XML_ELEMENT_NODE and c_node.ns is NULL and strcmp(<const char*>c_node.name, name) == 0


cdef int _metas(xmlNode* c_top, bint with_top, list found) except -1:
    # (property, name, itemprop, content) of each <meta> of ``c_top``'s subtree (``c_top`` too when
    # ``with_top``), in document order, as root.iter("meta") walks it.
    cdef xmlNode* c_node = c_top if with_top else c_top.children
    while c_node is not NULL:
        if c_node.type == tree.XML_ELEMENT_NODE:
            if _named(c_node, "meta"):
                found.append((_get(c_node, "property"), _get(c_node, "name"), _get(c_node, "itemprop"), _get(c_node, "content")))
            if c_node.children is not NULL:
                # An element's children (an entity reference's are the entity's, never walked).
                c_node = c_node.children
                continue
        if c_node is c_top:
            break
        c_node = _after_subtree(c_node, c_top)
    return 0


def head_metas(root):
    """forest.html.head_metas of the page ``root``: (property, name, itemprop, content) of each ``<meta>``
    of its ``<head>`` (``root.find("head")``), else of the whole page (``root.iter("meta")``), in
    document order, each value as ``element.get`` reads it (None where absent).  Read from libxml2's
    nodes: a proxy and four get() calls for each of a page's dozens of meta tags cost more than the
    rest of its head's reading."""
    cdef cetree._Element top = <cetree._Element?>root
    cdef xmlNode* c_root = top._c_node
    cdef xmlNode* c_head = c_root.children
    cdef list found = []
    while c_head is not NULL and not _named(c_head, "head"):
        c_head = c_head.next
    if c_head is not NULL:
        _metas(c_head, False, found)
    if not found:
        _metas(c_root, True, found)
    return found


def occurrences(str text not None, tuple words not None):
    """Where each occurrence of one of ``words`` (at most 32 str, each opening with an ASCII character)
    starts in ``text``, in order, once a place: every ``text.find(word, at)`` of each word.  One pass over
    the text with a table of the words' first characters, where a str.find of each word read it once a
    word (a page's text is most often a UCS-2 str: a nbsp or a curly quote).  A str.find of one word in a
    page's whole source is faster: it reads many characters at once."""
    return _search(text, words, False)


cdef class BodyTexts:
    """The text nodes under the ``<body>`` elements of ``root``'s document, in document order."""

    cdef cetree._Document doc
    cdef xmlNode* top
    cdef xmlNode** nodes
    cdef Py_ssize_t n, capacity
    cdef readonly list texts
    cdef readonly array.array starts
    # The body's elements with a name (read when first asked for), and their names, apart and joined.
    cdef xmlNode** named_nodes
    cdef Py_ssize_t* name_starts  # where each name starts in the names' UTF-8 bytes
    cdef Py_ssize_t n_named
    cdef bint names_read, names_ascii
    cdef list names
    cdef readonly str names_joined

    def __cinit__(self, root):
        cdef cetree._Element element = <cetree._Element?>root
        cdef xmlNode* top = <xmlNode*>element._doc._c_doc
        cdef xmlNode* c_node = top.children
        cdef int bodies = 0
        cdef Py_ssize_t start = 0, i
        cdef long long* starts
        self.doc = element._doc
        self.top = top
        self.texts = []
        while c_node is not NULL:
            if bodies and _is_text(c_node):
                self._append(c_node)
                self.texts.append(_text(<const char*>c_node.content) if c_node.content is not NULL else "")
            c_node = _step(c_node, top, &bodies)
        # Where each text starts in them joined by spaces, as C integers (a Python int each cost as much as the texts).
        self.starts = array.clone(_STARTS, self.n, zero=False)
        starts = self.starts.data.as_longlongs
        for i in range(self.n):
            starts[i] = start
            start += PyUnicode_GET_LENGTH(<str>self.texts[i]) + 1

    def __dealloc__(self):
        free(self.nodes)
        free(self.named_nodes)
        free(self.name_starts)

    cdef int _append(self, xmlNode* c_node) except -1:
        cdef xmlNode** grown
        if self.n == self.capacity:
            self.capacity = max(64, 2 * self.capacity)
            grown = <xmlNode**>realloc(self.nodes, self.capacity * sizeof(xmlNode*))
            if grown is NULL:
                raise MemoryError()
            self.nodes = grown
        self.nodes[self.n] = c_node
        self.n += 1
        return 0

    cdef Py_ssize_t _index(self, xmlNode* c_node) except -2:
        # The index of a text node of the list; -1 for one that is not in it.
        cdef Py_ssize_t i
        for i in range(self.n):
            if self.nodes[i] is c_node:
                return i
        return -1

    def owner(self, Py_ssize_t i):
        """The element text ``i`` is in (its parent: for a tail too, the element the tail's element is in)."""
        if not 0 <= i < self.n:
            raise IndexError(i)
        return cetree.elementFactory(self.doc, self.nodes[i].parent)

    def first_text(self, element):
        """The index of the first text of the list that ``element`` holds as an element's leading text
        (before any child element, comment or processing instruction: not a tail), of the first such
        of ``element`` and its descendant elements in document order; None for none."""
        cdef cetree._Element top_element = <cetree._Element?>element
        cdef xmlNode* top = top_element._c_node
        cdef xmlNode* c_node = top
        cdef xmlNode* child
        cdef xmlNode* up
        cdef Py_ssize_t i
        while c_node is not NULL:
            if c_node.type == tree.XML_ELEMENT_NODE:
                child = c_node.children
                while child is not NULL and not _is_lxml_element(child):
                    if _is_text(child):
                        up = c_node
                        while up is not NULL and not _is_body(up):
                            up = up.parent
                        if up is NULL:
                            break  # not under a <body>: none of this element's texts is listed
                        i = self._index(child)
                        if i < 0:
                            raise ValueError("the page's tree changed after its texts were listed")
                        return i
                    child = child.next
                if c_node.children is not NULL:
                    c_node = c_node.children
                    continue
            if c_node is top:
                break
            while c_node.next is NULL:
                c_node = c_node.parent
                if c_node is NULL or c_node is top:
                    return None
            c_node = c_node.next
        return None

    def before(self, element):
        """The number of the list's texts before ``element`` in document order: the XPath
        ``count(preceding::text()[ancestor::body])`` of it."""
        cdef xmlNode* target = (<cetree._Element?>element)._c_node
        cdef xmlNode* top = target
        cdef xmlNode* c_node
        cdef int bodies = 0
        cdef Py_ssize_t count = 0
        while top.parent is not NULL:
            top = top.parent
        if top.type != tree.XML_DOCUMENT_NODE and top.type != tree.XML_HTML_DOCUMENT_NODE:
            # A subtree taken out of its document: the walk below starts at its top element.
            if _is_body(top):
                bodies = 1
            c_node = top.children if top is not target else NULL
        else:
            c_node = top.children
        while c_node is not NULL and c_node is not target:
            if bodies and _is_text(c_node):
                count += 1
            c_node = _step(c_node, top, &bodies)
        return count

    def inside(self, element):
        """The number of text nodes ``element`` holds: the XPath ``count(.//text())`` of it."""
        cdef xmlNode* top = (<cetree._Element?>element)._c_node
        cdef xmlNode* c_node = top.children
        cdef int bodies = 0
        cdef Py_ssize_t count = 0
        while c_node is not NULL:
            if _is_text(c_node):
                count += 1
            c_node = _step(c_node, top, &bodies)
        return count

    def __len__(self):
        return self.n

    def named(self):
        """The names of each element under a ``<body>`` with one (the non-empty of its class, id, itemprop,
        rel and data-testid, joined by spaces, case-folded), in document order: the XPath
        ``//body//*[@class or @id or @itemprop or @rel or @data-testid]``'s elements' names.
        ``names_joined`` is them joined by NUL characters, which no attribute holds."""
        self._read_names()
        if self.names is None:
            self.names = self.names_joined.split("\0") if self.n_named else []
        return self.names

    def name(self, Py_ssize_t k):
        """Name ``k`` of :meth:`named`, cut from ``names_joined`` where they are ASCII (most pages'): a search
        reads the names of the few elements it finds, and a string for each of a page's names cost as
        much as finding them."""
        cdef Py_ssize_t end
        self._read_names()
        if not 0 <= k < self.n_named:
            raise IndexError(k)
        if not self.names_ascii:
            return self.named()[k]
        end = self.name_starts[k + 1] - 1 if k + 1 < self.n_named else PyUnicode_GET_LENGTH(self.names_joined)
        return self.names_joined[self.name_starts[k]:end]

    cdef int _read_names(self) except -1:
        cdef xmlNode* c_node
        cdef xmlNode** grown
        cdef Py_ssize_t* grown_starts
        cdef tree.xmlAttr* c_attr
        cdef Py_ssize_t capacity = 0, added
        cdef int bodies = 0, k
        cdef _Buffer buffer
        if self.names_read:
            return 0
        # All the names in one buffer, decoded and case-folded at once (casefold reads a character
        # at a time): a string and a list for each element's values were most of the search's time
        # on pages that name a thousand elements.
        buffer = _Buffer()
        c_node = self.top.children
        while c_node is not NULL:
            if bodies and c_node.type == tree.XML_ELEMENT_NODE and _has_name(c_node):
                if self.n_named == capacity:
                    capacity = max(64, 2 * capacity)
                    grown = <xmlNode**>realloc(self.named_nodes, capacity * sizeof(xmlNode*))
                    if grown is NULL:
                        raise MemoryError()
                    self.named_nodes = grown
                    grown_starts = <Py_ssize_t*>realloc(self.name_starts, capacity * sizeof(Py_ssize_t))
                    if grown_starts is NULL:
                        raise MemoryError()
                    self.name_starts = grown_starts
                if self.n_named:
                    buffer.add("\0", 1)
                self.name_starts[self.n_named] = buffer.size
                self.named_nodes[self.n_named] = c_node
                self.n_named += 1
                added = 0
                for k in range(5):
                    c_attr = _attribute(c_node, _NAMES[k])
                    if c_attr is not NULL:
                        added += _add_value(buffer, c_node, c_attr, added == 0)
            c_node = _step(c_node, self.top, &bodies)
        decoded = PyUnicode_DecodeUTF8(buffer.data, buffer.size, NULL)
        # ASCII bytes: a name's bytes are where its characters are, and casefold keeps their number.
        self.names_ascii = PyUnicode_IS_ASCII(decoded)
        self.names_joined = decoded.casefold()
        self.names_read = True
        return 0

    def named_with(self, tuple words not None):
        """The indexes of the names of :meth:`named` that hold one of ``words`` (at most 32 str, each opening
        with an ASCII character), in order: one pass over ``names_joined`` with a table of the words' first
        characters, where a str.find of each word read them once a word."""
        self._read_names()
        return _search(self.names_joined, words, True)

    def named_element(self, Py_ssize_t k):
        """The element of name ``k`` of :meth:`named`."""
        if not self.names_read or not 0 <= k < self.n_named:
            raise IndexError(k)
        return cetree.elementFactory(self.doc, self.named_nodes[k])

    def lines(self, Py_ssize_t shortest, Py_ssize_t longest, bytes lengths):
        """The indexes of the texts from ``shortest`` to ``longest`` characters long (not included) that, their
        spaces joined to one between words and case-folded, may be as long as one of ``lengths`` says
        (``lengths[n]`` is 1 for a length ``n`` wanted): an ASCII text's casefold is as long as it, any
        other character's one to three characters long."""
        cdef Py_ssize_t i, length, line, n, most = len(lengths) - 1, least = most + 1
        cdef const unsigned char* wanted = lengths
        cdef str text
        for n in range(most + 1):
            if wanted[n]:
                least = n
                break
        found = []
        for i in range(self.n):
            text = <str>self.texts[i]
            length = PyUnicode_GET_LENGTH(text)
            if shortest <= length < longest:
                line = _line_length(text)
                if line > most or 3 * line < least:
                    continue
                if PyUnicode_IS_ASCII(text) and not wanted[line]:
                    continue
                found.append(i)
        return found

    def digits(self, Py_ssize_t start, Py_ssize_t stop):
        """The indexes from ``start`` to ``stop`` of the texts that hold a decimal digit (what the pattern
        ``\\d`` finds in a str)."""
        cdef Py_ssize_t i, k, length
        cdef int kind
        cdef void* data
        cdef str text
        found = []
        for i in range(max(0, start), min(stop, self.n)):
            text = <str>self.texts[i]
            length = PyUnicode_GET_LENGTH(text)
            kind = PyUnicode_KIND(text)
            data = PyUnicode_DATA(text)
            for k in range(length):
                if Py_UNICODE_ISDECIMAL(PyUnicode_READ(kind, data, k)):
                    found.append(i)
                    break
        return found

    def openings(self, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t longest, tuple starts, Py_ssize_t inner, str separators):
        """The indexes from ``start`` to ``stop`` of the texts at most ``longest`` long that may open with one of
        ``starts`` (case-folded, after spaces), or (those at most ``inner`` long) hold one of
        ``separators``, spaces and "by"."""
        cdef Py_ssize_t i, length
        cdef str text, word
        cdef unsigned char firsts[128]
        memset(firsts, 0, 128)
        for word in starts:
            if PyUnicode_GET_LENGTH(word) == 0:
                memset(firsts, 1, 128)
            elif PyUnicode_READ_CHAR(word, 0) < 128:
                firsts[PyUnicode_READ_CHAR(word, 0)] = 1
        found = []
        for i in range(max(0, start), min(stop, self.n)):
            text = <str>self.texts[i]
            length = PyUnicode_GET_LENGTH(text)
            if length <= longest and (_may_open(text, starts, firsts) or (length <= inner and _may_hold_by(text, separators))):
                found.append(i)
        return found
