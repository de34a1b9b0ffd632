# cython: language_level=3, boundscheck=False, wraparound=False
"""The text pass of patterns.text in C: a region's text with its block and link marks, skipping a
wrapper's exclusions, as the XSLT stylesheet of patterns.text writes it.

The stylesheet is the reference (tests/unit/test_native_blocks.py asserts the two write the same
text on the shared datasets' pages and on generated ones).  It cost a fifth of extraction with a
stored wrapper: libxslt makes a document per region node, builds a result tree of every text node
and serializes it, and matches every exclusion's predicates through XPath; this walk appends the
text nodes' bytes to one buffer.

What it reads of a tree: ``_Element._c_node`` and libxml2's node fields (type, name, ns,
children, next, parent, content, properties), through lxml's public C API, as patterns._order.
It does not check lxml's version itself: forest's page pass does, for the whole install.

libxslt's view of a transformed element is lxml's: a document whose root is that element, with
its attributes and children (lxml's _fakeRootDoc).  So an exclusion matches inside that subtree
only: its steps above the last climb no higher than the element itself, whose parent is a
document, not an element.  The walk matches the same way.

An exclusion is given compiled by patterns.text (``_program``): its steps, last first, each a name
(None for ``*``) and predicates over the element's own attributes, as tuples:

- ``(HAS, name)``: the attribute is there (``[@class]``)
- ``(EQUALS, name, value)``: the attribute is there with that value (``[@class='x']``)
- ``(SAME, left, right)``: two strings are equal (``[normalize-space(@class)='x']``)
- ``(CONTAINS, haystack, needle)``, ``(STARTS, string, prefix)``
- ``(NOT, predicate)``, ``(AND, a, b)``, ``(OR, a, b)``

and a string is ``(LITERAL, text)``, ``(ATTRIBUTE, name)`` (its value, '' when absent),
``(NORMALIZED, string)`` (XPath's normalize-space) or ``(CONCAT, (strings...))``.  Names, values
and texts are UTF-8 bytes.  A walk that meets a node the stylesheet could read otherwise (an entity reference,
a namespaced element) gives None, and patterns.text runs the stylesheet.
"""

from cpython.bytes cimport PyBytes_AS_STRING
from cpython.unicode cimport PyUnicode_FromKindAndData, PyUnicode_4BYTE_KIND, Py_UNICODE_ISSPACE
from libc.stdint cimport uint32_t
from libc.stdlib cimport free, realloc
from libc.string cimport memchr, memcmp, memcpy, strcmp, strlen

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlNode, xmlAttr

cetree.import_lxml__etree()

cdef enum Op:
    _HAS, _EQUALS, _SAME, _CONTAINS, _STARTS, _NOT, _AND, _OR, _LITERAL, _ATTRIBUTE, _NORMALIZED, _CONCAT

# The predicates' and strings' opcodes, for patterns.text, which compiles exclusions to them.
HAS, EQUALS, SAME, CONTAINS, STARTS, NOT, AND, OR = _HAS, _EQUALS, _SAME, _CONTAINS, _STARTS, _NOT, _AND, _OR
LITERAL, ATTRIBUTE, NORMALIZED, CONCAT = _LITERAL, _ATTRIBUTE, _NORMALIZED, _CONCAT

cdef enum Kind:
    INLINE = 0
    BLOCK = 1
    LINK = 2


cdef extern from "Python.h":
    int PyObject_GenericSetAttr(object o, object name, object value) except -1

_new = object.__new__
_BLOCK_FIELDS = ("text", "link_chars")


def _plain(type cls):
    # Whether ``cls(text, link_chars)`` only stores its two fields (a dataclass with exactly those
    # fields and no __post_init__, checked on sentinels): the blocks are then made without its
    # __init__, which a frozen dataclass runs in Python (object.__setattr__ per field).
    fields = getattr(cls, "__dataclass_fields__", None)
    if fields is None or tuple(fields) != _BLOCK_FIELDS or hasattr(cls, "__post_init__"):
        return False
    sentinels = (object(), object())
    try:
        made = cls(*sentinels)
    except Exception:
        return False
    return made.text is sentinels[0] and made.link_chars is sentinels[1]


cdef dict _PLAIN = {}


cdef class _Lines:
    # The blocks being written: patterns.text's reading of the stylesheet's text, line by line
    # (a line is the text between two block marks), done as the text arrives.  A line's text is
    # " ".join(line.split()) of its characters, its link characters the sum of len(part.strip())
    # over its parts (the text between two marks) written inside a link.
    cdef Py_UCS4* text  # the line's text so far, whitespace runs written as one space
    cdef Py_ssize_t size, capacity
    cdef bint pending_space
    cdef Py_ssize_t part_chars, part_first, part_last  # the open part: characters, first and last non-space (-1: none)
    cdef Py_ssize_t link_chars
    cdef int depth  # links open
    cdef list blocks
    cdef object block_class
    cdef bint plain
    cdef unsigned char prefix[5]  # the text's first bytes, marks as 0xee: lxml strips an XML declaration there
    cdef Py_ssize_t written

    def __cinit__(self, block_class):
        self.blocks = []
        self.block_class = block_class
        plain = _PLAIN.get(block_class)
        if plain is None:
            plain = _PLAIN[block_class] = isinstance(block_class, type) and _plain(block_class)
        self.plain = plain
        self.part_first = self.part_last = -1

    def __dealloc__(self):
        free(self.text)

    cdef void _seen(self, const unsigned char* s, Py_ssize_t n) noexcept:
        cdef Py_ssize_t k = 0
        while self.written < 5 and k < n:
            self.prefix[self.written] = s[k]
            self.written += 1
            k += 1

    cdef int add(self, const unsigned char* s, Py_ssize_t n) except -1:
        # A text node's UTF-8 bytes; -1 with ValueError on bytes that are not UTF-8.
        cdef Py_ssize_t k = 0, size, part_chars, part_first, part_last
        cdef uint32_t c
        cdef unsigned char b
        cdef int more
        cdef bint pending
        cdef Py_UCS4* text
        cdef Py_UCS4* grown
        self._seen(s, n)
        if self.size + n + 1 > self.capacity:  # at most one character per byte, and a space
            self.capacity = max(2 * self.capacity, self.size + n + 1, 1024)
            grown = <Py_UCS4*>realloc(self.text, self.capacity * sizeof(Py_UCS4))
            if grown is NULL:
                raise MemoryError()
            self.text = grown
        # The loop's state in locals: the compiler keeps them in registers.
        text, size, pending = self.text, self.size, self.pending_space
        part_chars, part_first, part_last = self.part_chars, self.part_first, self.part_last
        while k < n:
            b = s[k]
            k += 1
            if b < 0x80:
                c = b
            else:
                if 0xc2 <= b < 0xe0:
                    c = b & 0x1f
                    more = 1
                elif 0xe0 <= b < 0xf0:
                    c = b & 0x0f
                    more = 2
                elif 0xf0 <= b < 0xf5:
                    c = b & 0x07
                    more = 3
                else:
                    raise ValueError("not UTF-8")
                while more:
                    if k >= n or (s[k] & 0xc0) != 0x80:
                        raise ValueError("not UTF-8")
                    c = (c << 6) | (s[k] & 0x3f)
                    k += 1
                    more -= 1
            if Py_UNICODE_ISSPACE(<Py_UCS4>c):
                pending = size > 0
            else:
                if pending:
                    text[size] = 32
                    size += 1
                    pending = False
                text[size] = <Py_UCS4>c
                size += 1
                if part_first < 0:
                    part_first = part_chars
                part_last = part_chars
            part_chars += 1
        self.size, self.pending_space = size, pending
        self.part_chars, self.part_first, self.part_last = part_chars, part_first, part_last
        return 0

    cdef int read(self, const unsigned char* s, Py_ssize_t n) except -1:
        # A text node's bytes.  A page's own U+E000, U+E001 or U+E002 in it is a mark to
        # patterns.text, as the stylesheet's are: the line ends there, or a link starts or ends.
        cdef Py_ssize_t start = 0, k = 0
        cdef const unsigned char* at
        while k < n:
            at = <const unsigned char*>memchr(s + k, 0xee, n - k)
            if at is NULL:
                break
            k = at - s
            if k + 2 < n and s[k + 1] == 0x80 and 0x80 <= s[k + 2] <= 0x82:
                self.add(s + start, k - start)
                if s[k + 2] == 0x80:
                    self.boundary()
                else:
                    self.link(s[k + 2] == 0x81)
                k = start = k + 3
            else:  # another character that starts with the same byte
                k += 1
        return self.add(s + start, n - start)

    cdef void _close_part(self) noexcept:
        if self.depth and self.part_first >= 0:
            self.link_chars += self.part_last - self.part_first + 1
        self.part_chars = 0
        self.part_first = self.part_last = -1

    cdef void link(self, bint opening) noexcept:
        self._seen(<const unsigned char*>(b"\xee\x80\x81" if opening else b"\xee\x80\x82"), 3)
        self._close_part()
        if opening:
            self.depth += 1
        elif self.depth > 0:
            self.depth -= 1

    cdef int boundary(self) except -1:
        cdef str text
        self._seen(<const unsigned char*>b"\xee\x80\x80", 3)
        self._close_part()
        if self.size:
            text = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, self.text, self.size)
            if self.plain:
                block = _new(self.block_class)
                PyObject_GenericSetAttr(block, "text", text)
                PyObject_GenericSetAttr(block, "link_chars", min(self.link_chars, self.size))
            else:
                block = self.block_class(text, min(self.link_chars, self.size))
            self.blocks.append(block)
        self.size = 0
        self.pending_space = False
        self.link_chars = 0
        return 0


cdef enum:
    # How many element names a walk remembers (a region has a few dozen); past them, the last is replaced.
    _KNOWN = 64


cdef class _Names:
    # What the walk knows of each element name it met in one call: its kind and the exclusions
    # whose last step names it.  Keyed by the address of libxml2's name: the tree does not change
    # during the call, so an address holds one name throughout.
    cdef const void* names[_KNOWN]
    cdef int kinds[_KNOWN]
    cdef list named  # of tuples
    cdef int n
    cdef frozenset block_tags
    cdef tuple patterns

    def __cinit__(self, frozenset block_tags, tuple patterns):
        self.block_tags = block_tags
        self.patterns = patterns
        self.named = []

    cdef int find(self, xmlNode* c_node) except -1:
        # The index of the node's name among those remembered (its kind and exclusions).
        cdef int i
        cdef bytes name
        cdef list named
        for i in range(self.n):
            if self.names[i] == <const void*>c_node.name:
                return i
        name = <bytes>c_node.name
        tag = name.decode("utf-8")
        named = []
        for pattern in self.patterns:
            last = (<tuple>pattern)[0][0]
            if last is None or last == name:
                named.append(pattern)
        if self.n == _KNOWN:
            self.n -= 1
            self.named.pop()
        i = self.n
        self.names[i] = <const void*>c_node.name
        self.kinds[i] = BLOCK if tag in self.block_tags else LINK if tag == "a" else INLINE
        self.named.append(tuple(named))
        self.n += 1
        return i


cdef xmlAttr* _attribute(xmlNode* c_node, bytes name):
    # The element's attribute of that name in no namespace (XPath's @name on an HTML tree).
    cdef xmlAttr* c_attr = c_node.properties
    cdef const char* wanted = PyBytes_AS_STRING(name)
    while c_attr is not NULL:
        if c_attr.ns is NULL and strcmp(<const char*>c_attr.name, wanted) == 0:
            return c_attr
        c_attr = c_attr.next
    return NULL


# Strings are compared as their UTF-8 bytes: equal, contained in and starting strings are the same
# as bytes as they are as characters, and XPath's whitespace (normalize-space's) is ASCII.

cdef struct Bytes:
    # A growable byte string, empty and unallocated at first.
    char* data
    Py_ssize_t size
    Py_ssize_t capacity


cdef int _append(Bytes* b, const char* s, Py_ssize_t n) except -1:
    cdef Py_ssize_t capacity
    cdef char* grown
    if b.size + n > b.capacity:
        capacity = max(2 * b.capacity, b.size + n, 64)
        grown = <char*>realloc(b.data, capacity)
        if grown is NULL:
            raise MemoryError()
        b.data = grown
        b.capacity = capacity
    if n:
        memcpy(b.data + b.size, s, n)
        b.size += n
    return 0


cdef inline const char* _single_text(xmlAttr* c_attr) noexcept:
    # The attribute's value where it is one text node (as the parser makes it), '' where it has
    # none, else NULL (then read through lxml).
    cdef xmlNode* child = c_attr.children
    if child is NULL:
        return ""
    if child.next is NULL and child.type == tree.XML_TEXT_NODE and child.content is not NULL:
        return <const char*>child.content
    return NULL


cdef int _value(xmlNode* c_node, xmlAttr* c_attr, Bytes* out) except -1:
    cdef const char* value = _single_text(c_attr)
    cdef bytes encoded
    if value is not NULL:
        return _append(out, value, strlen(value))
    encoded = (<str>cetree.attributeValue(c_node, c_attr)).encode("utf-8")
    return _append(out, PyBytes_AS_STRING(encoded), len(encoded))


cdef inline bint _xpath_space(char c) noexcept:
    return c == 32 or c == 9 or c == 13 or c == 10


cdef int _write(xmlNode* c_node, tuple expression, Bytes* out) except -1:
    # The string ``expression`` gives on the element, appended to ``out``.
    cdef int op = expression[0]
    cdef xmlAttr* c_attr
    cdef Bytes inner
    cdef Py_ssize_t k, start
    cdef bint pending
    cdef bytes literal
    if op == _LITERAL:
        literal = <bytes>expression[1]
        return _append(out, PyBytes_AS_STRING(literal), len(literal))
    if op == _ATTRIBUTE:
        c_attr = _attribute(c_node, <bytes>expression[1])
        return _value(c_node, c_attr, out) if c_attr is not NULL else 0
    if op == _CONCAT:
        for part in <tuple>expression[1]:
            _write(c_node, <tuple>part, out)
        return 0
    if op == _NORMALIZED:
        inner.data = NULL
        inner.size = inner.capacity = 0
        try:
            _write(c_node, <tuple>expression[1], &inner)
            pending = False
            start = out.size
            for k in range(inner.size):
                if _xpath_space(inner.data[k]):
                    pending = out.size > start
                else:
                    if pending:
                        _append(out, " ", 1)
                        pending = False
                    _append(out, inner.data + k, 1)
        finally:
            free(inner.data)
        return 0
    raise ValueError(f"not a string opcode: {op}")


cdef bint _contains(Bytes* haystack, Bytes* needle) noexcept:
    cdef Py_ssize_t k
    if needle.size == 0:
        return True
    for k in range(haystack.size - needle.size + 1):
        if haystack.data[k] == needle.data[0] and memcmp(haystack.data + k, needle.data, needle.size) == 0:
            return True
    return False


cdef bint _compare(xmlNode* c_node, int op, tuple left, tuple right) except -1:
    # SAME, CONTAINS or STARTS of two strings.
    cdef Bytes a, b
    a.data = b.data = NULL
    a.size = a.capacity = b.size = b.capacity = 0
    try:
        _write(c_node, left, &a)
        _write(c_node, right, &b)
        if op == _SAME:
            return a.size == b.size and (a.size == 0 or memcmp(a.data, b.data, a.size) == 0)
        if op == _CONTAINS:
            return _contains(&a, &b)
        return b.size <= a.size and (b.size == 0 or memcmp(a.data, b.data, b.size) == 0)
    finally:
        free(a.data)
        free(b.data)


cdef bint _holds(xmlNode* c_node, tuple predicate) except -1:
    cdef int op = predicate[0]
    cdef xmlAttr* c_attr
    cdef const char* value
    cdef bytes wanted
    cdef Bytes read
    if op == _HAS:
        return _attribute(c_node, <bytes>predicate[1]) is not NULL
    if op == _EQUALS:
        c_attr = _attribute(c_node, <bytes>predicate[1])
        if c_attr is NULL:
            return False
        wanted = <bytes>predicate[2]
        value = _single_text(c_attr)
        if value is not NULL:
            return strlen(value) == <size_t>len(wanted) and memcmp(value, PyBytes_AS_STRING(wanted), len(wanted)) == 0
        read.data = NULL
        read.size = read.capacity = 0
        try:
            _value(c_node, c_attr, &read)
            return read.size == len(wanted) and (read.size == 0 or memcmp(read.data, PyBytes_AS_STRING(wanted), read.size) == 0)
        finally:
            free(read.data)
    if op == _SAME or op == _CONTAINS or op == _STARTS:
        return _compare(c_node, op, <tuple>predicate[1], <tuple>predicate[2])
    if op == _NOT:
        return not _holds(c_node, <tuple>predicate[1])
    if op == _AND:
        return _holds(c_node, <tuple>predicate[1]) and _holds(c_node, <tuple>predicate[2])
    if op == _OR:
        return _holds(c_node, <tuple>predicate[1]) or _holds(c_node, <tuple>predicate[2])
    raise ValueError(f"not a predicate opcode: {op}")


cdef bint _step_holds(xmlNode* c_node, tuple step) except -1:
    # One step of an exclusion: (name or None, predicates).
    cdef tuple predicate
    name = step[0]
    if c_node.type != tree.XML_ELEMENT_NODE or c_node.ns is not NULL:
        return False
    if name is not None and strcmp(<const char*>c_node.name, PyBytes_AS_STRING(<bytes>name)) != 0:
        return False
    for predicate in <tuple>step[1]:
        if not _holds(c_node, predicate):
            return False
    return True


cdef bint _excluded(xmlNode* c_node, xmlNode* top, tuple named) except -1:
    # Whether an exclusion whose last step names this element matches it, climbing no higher than ``top``.
    cdef tuple pattern
    cdef xmlNode* at
    cdef Py_ssize_t k
    for pattern in named:
        if not _step_holds(c_node, <tuple>pattern[0]):
            continue
        at = c_node
        for k in range(1, len(pattern)):
            if at is top:  # the transformed element's parent is a document
                at = NULL
                break
            at = at.parent
            if at is NULL or not _step_holds(at, <tuple>pattern[k]):
                at = NULL
                break
        if at is not NULL:
            return True
    return False


def blocks(cetree._Element element not None, frozenset block_tags not None, tuple patterns not None, block_class):
    """The blocks of ``element``'s subtree (``block_class(text, link_chars)``, in document order)
    without the elements ``patterns`` (compiled exclusions, see the module's docstring) match, as
    patterns.text reads the stylesheet's text; None where the stylesheet is to write it (a node
    this walk does not read)."""
    cdef xmlNode* top = element._c_node
    cdef xmlNode* c_node = top
    cdef _Lines lines = _Lines(block_class)
    cdef _Names names = _Names(block_tags, patterns)
    cdef int kind, i
    cdef tuple named
    cdef bint descend
    if top.type != tree.XML_ELEMENT_NODE:
        return None
    try:
        while True:
            # Enter c_node.
            descend = False
            if c_node.type == tree.XML_ELEMENT_NODE:
                if c_node.ns is not NULL:
                    return None
                i = names.find(c_node)
                named = <tuple>names.named[i]
                if not (named and _excluded(c_node, top, named)):
                    kind = names.kinds[i]
                    if kind == BLOCK:
                        lines.boundary()
                    elif kind == LINK:
                        lines.link(True)
                    descend = True
            elif c_node.type == tree.XML_TEXT_NODE or c_node.type == tree.XML_CDATA_SECTION_NODE:
                if c_node.content is not NULL:
                    lines.read(<const unsigned char*>c_node.content, strlen(<const char*>c_node.content))
            elif c_node.type != tree.XML_COMMENT_NODE and c_node.type != tree.XML_PI_NODE:
                return None
            if descend and c_node.children is not NULL:
                c_node = c_node.children
                continue
            # Leave c_node (its end mark if it has one), then its ancestors without a next sibling.
            while True:
                if descend:
                    kind = names.kinds[names.find(c_node)]
                    if kind == BLOCK:
                        lines.boundary()
                    elif kind == LINK:
                        lines.link(False)
                if c_node is top or c_node.next is not NULL:
                    break
                c_node = c_node.parent
                descend = True  # an ancestor left was entered and not excluded
            if c_node is top:
                break
            c_node = c_node.next
    except ValueError:  # text that is not UTF-8
        return None
    lines.boundary()  # the text after the last mark
    if lines.written >= 5 and memcmp(lines.prefix, b"<?xml", 5) == 0:
        return None  # lxml strips an XML declaration's encoding from the start of a transform's text
    return lines.blocks


def text_lengths(cetree._Element element not None):
    """``(len(text), len(" ".join(text.split())))`` of ``element``'s text as ``etree.tostring(element,
    method="text", with_tail=False)`` writes it (every text and CDATA node of its subtree), or None
    where that text holds an entity's (an entity reference: then read through lxml)."""
    cdef xmlNode* top = element._c_node
    cdef xmlNode* c_node = top
    cdef const unsigned char* s
    cdef Py_ssize_t chars = 0, normalized = 0
    cdef bint in_word = False, any_word = False
    cdef uint32_t c
    cdef unsigned char b
    cdef int more
    if top.type != tree.XML_ELEMENT_NODE:
        return None
    while True:
        if c_node.type == tree.XML_TEXT_NODE or c_node.type == tree.XML_CDATA_SECTION_NODE:
            s = <const unsigned char*>c_node.content
            while s is not NULL and s[0] != 0:
                b = s[0]
                s += 1
                if b < 0x80:
                    c = b
                else:
                    more = 1 if b < 0xe0 else 2 if b < 0xf0 else 3
                    c = b & (0x1f if more == 1 else 0x0f if more == 2 else 0x07)
                    while more and (s[0] & 0xc0) == 0x80:
                        c = (c << 6) | (s[0] & 0x3f)
                        s += 1
                        more -= 1
                    if more:
                        return None  # not UTF-8: lxml's reading decides
                chars += 1
                if Py_UNICODE_ISSPACE(<Py_UCS4>c):
                    in_word = False
                else:
                    if not in_word and any_word:
                        normalized += 1  # the space between two words
                    in_word = any_word = True
                    normalized += 1
        elif c_node.type == tree.XML_ENTITY_REF_NODE:
            return None
        # Depth first in document order, never above ``element``; entity declarations' children are not text of it.
        if c_node.children is not NULL and c_node.type != tree.XML_ENTITY_REF_NODE and c_node.type != tree.XML_DTD_NODE:
            c_node = c_node.children
            continue
        while c_node is not top and c_node.next is NULL:
            c_node = c_node.parent
        if c_node is top:
            break
        c_node = c_node.next
    return chars, normalized
