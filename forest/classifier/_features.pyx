# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The per-element feature counts in C: what forest.classifier.features read element by element in Python.

For every element of a page walk (forest.classifier._walk): the lengths and counts of its class
and id, its tokens (a class/id/itemprop/role value split on punctuation and camelCase, lower-cased,
digits dropped, and with the "modern" group CSS-in-JS hashes dropped too) and their hashed columns,
its tag's one-hot column and a code that tells its tag from its siblings'; for every block its
length, words and link characters; for every row the sorted hashed columns of its element's tokens
and its ancestors' (marked ``^``); and the first and last block inside every element.  Then the
columns built on those counts: every element's node columns (node_numeric), the descendants' levels
(descendant_levels) and the second stage's context columns (context_columns), with numpy's sums'
order and divisions; their logarithms stay in numpy (its SIMD log1p is what the model was trained
on), so the features keep their bits.

The reference is ``tests/unit/test_native_features.py``'s ``reference_page_features`` (the same
counts read in Python with the regular expressions of the definition), which the features must
equal on every page.  Class and id values are the strings the walk read (``PageTree.class_and_id``);
the tokens' definition reads only their ASCII letters and digits, so no lxml struct is read here.
"""

from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND, PyUnicode_READ
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t, uint8_t
from libc.stdlib cimport calloc, malloc, realloc, free
from libc.string cimport memcmp, memcpy, strcmp, strlen

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlNode

# Importing the page pass checks the lxml version its struct layouts (and these) were built against.
from forest.classifier._walk cimport Nodes

import numpy as np

cetree.import_lxml__etree()

# The values seen with each (n_hash, modern), by their UTF-8 bytes: pages repeat a few class names
# on hundreds of elements, and sites repeat theirs on every page.
cdef dict _TABLES = {}
# Bounds each table: a long run sees new class names (and ids) on every site.
cdef Py_ssize_t _MAX_ENTRIES = 1 << 16
# The longest token hashed through the stack buffer; longer ones (rare: a run of letters) are allocated.
DEF STACK_TOKEN = 256


cdef inline bint _lower(uint8_t c) noexcept nogil:
    return 97 <= c <= 122


cdef inline bint _upper(uint8_t c) noexcept nogil:
    return 65 <= c <= 90


cdef inline bint _digit(uint8_t c) noexcept nogil:
    return 48 <= c <= 57


cdef inline bint _alnum(uint8_t c) noexcept nogil:
    # The characters _SPLIT keeps: [A-Za-z0-9], ASCII only (re's character ranges on a str pattern);
    # a character beyond ASCII is bytes >= 0x80 in UTF-8, all of them separators.
    return _lower(c) or _upper(c) or _digit(c)


cdef inline uint32_t _rotl(uint32_t x, int r) noexcept nogil:
    return (x << r) | (x >> (32 - r))


cdef int32_t _column(const uint8_t* data, Py_ssize_t n, int64_t n_hash) noexcept nogil:
    # HashingVectorizer's column of a token: |MurmurHash3_32(utf-8, seed 0)| mod n_hash, with
    # MurmurHash3 read as a signed 32-bit integer (features.murmurhash3_32).
    cdef uint32_t c1 = 0xCC9E2D51U, c2 = 0x1B873593U, h = 0, k
    cdef Py_ssize_t body = n - n % 4, i
    cdef int64_t signed
    for i in range(0, body, 4):
        k = <uint32_t>data[i] | (<uint32_t>data[i + 1] << 8) | (<uint32_t>data[i + 2] << 16) | (<uint32_t>data[i + 3] << 24)
        k *= c1
        k = _rotl(k, 15)
        k *= c2
        h ^= k
        h = _rotl(h, 13)
        h = h * 5 + 0xE6546B64U
    k = 0
    if n % 4 == 3:
        k ^= <uint32_t>data[body + 2] << 16
    if n % 4 >= 2:
        k ^= <uint32_t>data[body + 1] << 8
    if n % 4 >= 1:
        k ^= <uint32_t>data[body]
        k *= c1
        k = _rotl(k, 15)
        k *= c2
        h ^= k
    h ^= <uint32_t>n
    h ^= h >> 16
    h *= 0x85EBCA6BU
    h ^= h >> 13
    h *= 0xC2B2AE35U
    h ^= h >> 16
    signed = <int64_t>h - (<int64_t>1 << 32) if h >= (<uint32_t>1 << 31) else <int64_t>h
    if signed < 0:
        signed = -signed
    return <int32_t>(signed % n_hash)


cdef Py_ssize_t _camel_part(const uint8_t* w, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    # The end of the match of [A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+ at w[i] (w: ASCII letters and digits).
    cdef Py_ssize_t j
    if _digit(w[i]):
        j = i + 1
        while j < n and _digit(w[j]):
            j += 1
        return j
    if _lower(w[i]) or (i + 1 < n and _lower(w[i + 1])):
        # [A-Z]?[a-z]+ (an upper case letter starts it only when a lower case one follows).
        j = i + 1
        while j < n and _lower(w[j]):
            j += 1
        return j
    # [A-Z]+ not followed by [a-z]: a run of capitals gives its last one to the word after it.
    j = i + 1
    while j < n and _upper(w[j]):
        j += 1
    if j < n and _lower(w[j]):
        j -= 1
    return j


cdef bint _is_hashed(const uint8_t* w, Py_ssize_t n) noexcept nogil:
    # features.is_hashed_name of a word of ASCII letters and digits.
    cdef Py_ssize_t i, upper = 0, lower = 0, digits = 0, j
    if n < 5:
        return False
    for i in range(n):
        if _upper(w[i]):
            upper += 1
        elif _lower(w[i]):
            lower += 1
        else:
            digits += 1
    if digits == 0:
        if n > 8 or upper < 2 or lower == 0:
            return False
        i = 0
        while i < n:
            j = _camel_part(w, i, n)
            if j - i <= 2:
                return True
            i = j
        return False
    if digits == n:
        return False
    # Letters then digits ([A-Za-z]+\d*) is a name with a number.
    i = 0
    while i < n and not _digit(w[i]):
        i += 1
    if i == 0:
        return True
    while i < n and _digit(w[i]):
        i += 1
    return i < n


cdef class _Entry:
    # The tokens of one class, id or itemprop/role value: their count, their distinct hashed
    # columns (own, and marked ``^`` for an ancestor's), and what the node columns read of it.
    cdef bytes key  # the value's UTF-8 bytes
    cdef uint64_t hash
    cdef int32_t* own
    cdef int32_t* up
    cdef Py_ssize_t n_own, n_up
    cdef int64_t n_tokens, length, n_split
    cdef bint hashed

    def __dealloc__(self):
        free(self.own)
        free(self.up)


cdef inline void _add(int32_t* columns, Py_ssize_t* n, uint8_t* seen, int32_t column) noexcept nogil:
    if not seen[column]:
        seen[column] = 1
        columns[n[0]] = column
        n[0] += 1


cdef inline bint _ascii_space(uint8_t c) noexcept nogil:
    # str.isspace() on ASCII: \t \n \v \f \r, \x1c-\x1f and the space.
    return c == 32 or 9 <= c <= 13 or 28 <= c <= 31


cdef _Entry _entry(const uint8_t* data, Py_ssize_t n, int64_t n_hash, bint modern):
    # attribute_tokens (name_tokens with ``modern``) of the value whose UTF-8 bytes are
    # data[:n], hashed; its len() and len(value.split()).
    cdef _Entry e = _Entry()
    cdef Py_ssize_t i, start, end, j, size
    cdef uint8_t stack[STACK_TOKEN + 1]
    cdef uint8_t* token
    cdef uint8_t* seen = NULL  # the columns already in own (seen[c]) and up (seen[n_hash + c])
    cdef bint in_word = False, ascii = True
    cdef str text
    for i in range(n):
        if data[i] >= 128:
            ascii = False
            break
    if ascii:
        e.length = n
        for i in range(n):
            if _ascii_space(data[i]):
                in_word = False
            elif not in_word:
                e.n_split += 1
                in_word = True
    else:
        # Beyond ASCII, Python's own count of characters and whitespace.
        text = data[:n].decode("utf-8")
        e.length = PyUnicode_GET_LENGTH(text)
        e.n_split = len(text.split())
    if n == 0:
        return e
    # At most one token per character, and as many distinct columns.
    e.own = <int32_t*>malloc(n * sizeof(int32_t))
    e.up = <int32_t*>malloc(n * sizeof(int32_t))
    seen = <uint8_t*>calloc(2 * n_hash, 1)
    if e.own is NULL or e.up is NULL or seen is NULL:
        free(seen)
        raise MemoryError()
    try:
        i = 0
        while i < n:
            # The next word: a run of [A-Za-z0-9] (between _SPLIT's separators).
            while i < n and not _alnum(data[i]):
                i += 1
            start = i
            while i < n and _alnum(data[i]):
                i += 1
            size = i - start
            if size == 0:
                break
            if modern and _is_hashed(data + start, size):
                e.hashed = True
                continue
            end = start
            while end < i:
                j = _camel_part(data, end, i)
                if not _digit(data[end]):
                    if j - end < STACK_TOKEN:
                        token = &stack[0]
                    else:
                        token = <uint8_t*>malloc(j - end + 1)
                        if token is NULL:
                            raise MemoryError()
                    token[0] = 94  # "^"
                    for size in range(end, j):
                        token[1 + size - end] = data[size] + 32 if _upper(data[size]) else data[size]
                    _add(e.own, &e.n_own, seen, _column(token + 1, j - end, n_hash))
                    _add(e.up, &e.n_up, seen + n_hash, _column(token, j - end + 1, n_hash))
                    if token is not &stack[0]:
                        free(token)
                    e.n_tokens += 1
                end = j
    finally:
        free(seen)
    return e


cdef inline uint64_t _fnv(const uint8_t* data, Py_ssize_t n) noexcept nogil:
    cdef uint64_t h = 14695981039346656037ULL
    cdef Py_ssize_t i
    for i in range(n):
        h = (h ^ data[i]) * 1099511628211ULL
    return h


cdef class _Table:
    # The entries of the values seen, by their bytes: an open-addressing table in C, so that an
    # element's value is looked up without making a str of it.
    cdef list entries
    cdef Py_ssize_t* slots  # an index into entries, -1 when empty
    cdef Py_ssize_t mask
    cdef int64_t n_hash
    cdef bint modern

    def __cinit__(self, int64_t n_hash, bint modern):
        self.n_hash = n_hash
        self.modern = modern
        self._reset(1024)

    def __dealloc__(self):
        free(self.slots)

    cdef int _reset(self, Py_ssize_t size) except -1:
        cdef Py_ssize_t k
        cdef Py_ssize_t* slots = <Py_ssize_t*>malloc(size * sizeof(Py_ssize_t))
        if slots is NULL:
            raise MemoryError()
        for k in range(size):
            slots[k] = -1
        free(self.slots)
        self.slots = slots
        self.mask = size - 1
        self.entries = []
        return 0

    cdef _Entry get(self, const uint8_t* data, Py_ssize_t n):
        cdef uint64_t h = _fnv(data, n)
        cdef Py_ssize_t slot = h & self.mask, k
        cdef _Entry e
        while self.slots[slot] >= 0:
            e = <_Entry>self.entries[self.slots[slot]]
            if e.hash == h and len(e.key) == n and memcmp(<const char*>e.key, data, n) == 0:
                return e
            slot = (slot + 1) & self.mask
        if len(self.entries) >= _MAX_ENTRIES:
            self._reset(1024)
        elif 2 * (len(self.entries) + 1) > self.mask + 1:
            # Grow, and put every entry back.
            entries = self.entries
            self._reset(2 * (self.mask + 1))
            for e in entries:
                self._put(e)
        e = _entry(data, n, self.n_hash, self.modern)
        e.key = data[:n]
        e.hash = h
        self._put(e)
        return e

    cdef void _put(self, _Entry e):
        cdef Py_ssize_t slot = e.hash & self.mask
        while self.slots[slot] >= 0:
            slot = (slot + 1) & self.mask
        self.slots[slot] = len(self.entries)
        self.entries.append(e)


cdef _Table _table(int64_t n_hash, bint modern):
    key = (n_hash, modern)
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = _Table(n_hash, modern)
    return <_Table>table


cdef _Entry _value(_Table table, xmlNode* c_node, tree.xmlAttr* c_attr):
    # The entry of an attribute's value (None for ""): what lxml's attributeValue gives, read
    # from libxml2's text node where there is one (xmlGetNsProp would copy it), else from lxml.
    cdef xmlNode* text = c_attr.children
    cdef const uint8_t* data
    cdef bytes value
    if text is NULL:
        return None
    if text.next is NULL and (text.type == tree.XML_TEXT_NODE or text.type == tree.XML_CDATA_SECTION_NODE):
        if text.content is NULL or text.content[0] == 0:
            return None
        data = <const uint8_t*>text.content
        return table.get(data, strlen(<const char*>data))
    value = (<str>cetree.attributeValue(c_node, c_attr)).encode("utf-8")
    if not value:
        return None
    return table.get(<const uint8_t*>(<const char*>value), len(value))


cdef class Tokens:
    """The tokens of every element of a page (class, id and itemprop/role values), for :func:`row_tokens`."""

    cdef list entries  # keeps the entries whose columns ``own`` and ``up`` point to alive
    cdef Py_ssize_t n
    cdef int64_t n_hash
    # 3 per element (its class's, id's and itemprop/role's): the entry's columns, NULL for none.
    cdef int32_t** own
    cdef int32_t** up
    cdef Py_ssize_t* n_own
    cdef Py_ssize_t* n_up

    def __dealloc__(self):
        free(self.own)
        free(self.up)
        free(self.n_own)
        free(self.n_up)

    def __len__(self):
        return self.n

    cdef void keep(self, Py_ssize_t slot, _Entry e):
        self.entries.append(e)
        self.own[slot] = e.own
        self.up[slot] = e.up
        self.n_own[slot] = e.n_own
        self.n_up[slot] = e.n_up


def element_columns(elements, list tags not None, dict extra not None, dict tag_index not None, int64_t other, int64_t n_hash,
                    bint modern):
    """Per element of a walk (``elements``: its :class:`~forest.classifier._walk.Nodes` or a list
    of lxml elements), the counts its node features read, and its tokens.

    The class and id are read from libxml2's nodes (the first such attribute without a
    namespace, as lxml's ``get`` reads it; from the walk's record when it made one).  ``extra``
    maps an element to its ``itemprop + " " + role`` value (only marked elements have one);
    ``tag_index`` maps a tag to its one-hot column, ``other`` for the rest.  Returns an int64
    array of columns ``len(class)``, ``len(class.split())``, ``len(id)``, the number of tokens,
    the one-hot column, a tag code (0, 1, ... for the distinct tags, in order of appearance),
    and whether the class names a CSS-in-JS hash (with ``modern`` only), and the :class:`Tokens`.
    """
    cdef Py_ssize_t n = len(tags), i
    cdef _Entry e, cls, ident
    cdef str value, tag
    cdef bytes encoded
    cdef object found
    cdef dict codes = {}
    cdef Nodes nodes = elements if isinstance(elements, Nodes) else None
    cdef list proxies = None if nodes is not None else list(elements)
    cdef xmlNode* c_node
    cdef tree.xmlAttr* c_attr
    cdef const char* name
    # The tag codes: 0, 1, ... in order of first appearance, so that they stay as few as the page's
    # tags (the siblings are counted per parent and code, in a parents x codes table).
    cdef int64_t n_codes = 0, k
    known_ = np.full(max(other, 1), -1, dtype=np.int64)
    cdef int64_t[::1] known = known_
    if n_hash <= 0:
        raise ValueError("n_hash must be positive")
    if (nodes.n if nodes is not None else len(proxies)) != n:
        raise ValueError("elements and tags differ in length")
    cdef _Table table = _table(n_hash, modern)
    out = np.zeros((n, 7), dtype=np.int64)
    cdef int64_t[:, ::1] columns = out
    cdef Tokens tokens = Tokens()
    tokens.n = n
    tokens.n_hash = n_hash
    tokens.entries = []
    tokens.own = <int32_t**>calloc(max(3 * n, 1), sizeof(int32_t*))
    tokens.up = <int32_t**>calloc(max(3 * n, 1), sizeof(int32_t*))
    tokens.n_own = <Py_ssize_t*>calloc(max(3 * n, 1), sizeof(Py_ssize_t))
    tokens.n_up = <Py_ssize_t*>calloc(max(3 * n, 1), sizeof(Py_ssize_t))
    if tokens.own is NULL or tokens.up is NULL or tokens.n_own is NULL or tokens.n_up is NULL:
        raise MemoryError()
    for i in range(n):
        c_node = nodes.nodes[i] if nodes is not None else (<cetree._Element?>proxies[i])._c_node
        cls = ident = None
        if nodes is not None and nodes.marking is not None:
            # The walk found them as it went.
            if nodes.class_attr[i] is not NULL:
                cls = _value(table, c_node, nodes.class_attr[i])
            if nodes.id_attr[i] is not NULL:
                ident = _value(table, c_node, nodes.id_attr[i])
            c_attr = NULL
        else:
            c_attr = c_node.properties if c_node.type == tree.XML_ELEMENT_NODE else NULL
        found_class = found_id = False
        while c_attr is not NULL:
            if c_attr.ns is NULL:
                name = <const char*>c_attr.name
                if not found_class and strcmp(name, "class") == 0:
                    found_class = True
                    cls = _value(table, c_node, c_attr)
                elif not found_id and strcmp(name, "id") == 0:
                    found_id = True
                    ident = _value(table, c_node, c_attr)
            c_attr = c_attr.next
        if cls is not None:
            columns[i, 0] = cls.length
            columns[i, 1] = cls.n_split
            columns[i, 3] += cls.n_tokens
            columns[i, 6] = cls.hashed
            if cls.n_own:
                tokens.keep(3 * i, cls)
        if ident is not None:
            columns[i, 2] = ident.length
            columns[i, 3] += ident.n_tokens
            if ident.n_own:
                tokens.keep(3 * i + 1, ident)
        tag = tags[i]
        found = tag_index.get(tag)
        if found is not None:
            k = found
            columns[i, 4] = k
            if not 0 <= k < other:
                raise ValueError("a tag's column is out of range")
            if known[k] < 0:
                known[k] = n_codes
                n_codes += 1
            columns[i, 5] = known[k]
        else:
            columns[i, 4] = other
            found = codes.get(tag)
            if found is None:
                found = codes[tag] = n_codes
                n_codes += 1
            columns[i, 5] = found
    for i, value in extra.items():
        if not 0 <= i < n:
            raise IndexError("an extra value's element is out of range")
        encoded = value.encode("utf-8")
        if encoded:
            e = table.get(<const uint8_t*>(<const char*>encoded), len(encoded))
            columns[i, 3] += e.n_tokens
            if e.n_own:
                tokens.keep(3 * i + 2, e)
    return out, tokens


cdef void _sort(int32_t* a, Py_ssize_t n) noexcept nogil:
    # Insertion sort: a row holds a few dozen columns at most.
    cdef Py_ssize_t i, j
    cdef int32_t x
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


def row_tokens(Tokens tokens not None, const int64_t[::1] rows not None, const int64_t[:, ::1] ancestors not None):
    """The hashed token columns of each row: the distinct columns of its element's tokens and of its
    ancestors' marked ``^``, ascending.  Returns the CSR ``indptr`` (int64) and ``indices`` (int32)."""
    cdef Py_ssize_t n_rows = rows.shape[0], r, k, a, m, count, total = 0, capacity
    cdef int64_t element, n_hash = tokens.n_hash
    cdef int64_t[::1] stamp
    cdef int32_t* row
    cdef int32_t* grown
    cdef int32_t* columns
    cdef int32_t* found
    cdef Py_ssize_t size
    if ancestors.shape[0] != n_rows:
        raise ValueError("rows and ancestors differ in length")
    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    cdef int64_t[::1] ptr = indptr
    stamps = np.full(n_hash, -1, dtype=np.int64)
    stamp = stamps
    for r in range(n_rows):
        for k in range(-1, ancestors.shape[1]):
            element = rows[r] if k < 0 else ancestors[r, k]
            if not 0 <= element < tokens.n:
                raise IndexError("a row's element is out of range")
    capacity = 1024
    columns = <int32_t*>malloc(capacity * sizeof(int32_t))
    row = <int32_t*>malloc(n_hash * sizeof(int32_t))
    if columns is NULL or row is NULL:
        free(columns)
        free(row)
        raise MemoryError()
    try:
        with nogil:
            for r in range(n_rows):
                count = 0
                for k in range(-1, ancestors.shape[1]):
                    element = rows[r] if k < 0 else ancestors[r, k]
                    for a in range(3 * element, 3 * element + 3):
                        if k < 0:
                            found = tokens.own[a]
                            size = tokens.n_own[a]
                        else:
                            found = tokens.up[a]
                            size = tokens.n_up[a]
                        for m in range(size):
                            if stamp[found[m]] != r:
                                stamp[found[m]] = r
                                row[count] = found[m]
                                count += 1
                _sort(row, count)
                if total + count > capacity:
                    capacity = max(2 * capacity, total + count)
                    grown = <int32_t*>realloc(columns, capacity * sizeof(int32_t))
                    if grown is NULL:
                        with gil:
                            raise MemoryError()
                    columns = grown
                memcpy(columns + total, row, count * sizeof(int32_t))
                total += count
                ptr[r + 1] = total
        indices = np.empty(total, dtype=np.int32)
        if total:
            memcpy(_address(indices), columns, total * sizeof(int32_t))
    finally:
        free(columns)
        free(row)
    return indptr, indices


cdef void* _address(object array):
    cdef int32_t[::1] view = array
    return <void*>&view[0]


def block_counts(list blocks not None):
    """Per block: ``len(text)``, ``text.count(" ") + 1`` (its words: the text is whitespace-normalized) and ``link_chars``."""
    cdef Py_ssize_t n = len(blocks), i, j, length
    cdef str text
    cdef int kind
    cdef void* data
    cdef int64_t spaces
    out = np.empty((3, n), dtype=np.int64)
    cdef int64_t[:, ::1] counts = out
    for i in range(n):
        block = blocks[i]
        text = block.text
        length = PyUnicode_GET_LENGTH(text)
        kind = PyUnicode_KIND(text)
        data = PyUnicode_DATA(text)
        spaces = 0
        for j in range(length):
            spaces += PyUnicode_READ(kind, data, j) == 32
        counts[0, i] = length
        counts[1, i] = spaces + 1
        counts[2, i] = block.link_chars
    return out


def block_spans(const int64_t[::1] parent not None, const int64_t[::1] owner not None):
    """The first and last block inside each element (``len(owner)`` and -1 for none): a block is
    inside its owner and the owner's ancestors.  ``parent`` is PageTree.parent, in document order."""
    cdef Py_ssize_t n = parent.shape[0], nb = owner.shape[0], i, b
    cdef int64_t p, o
    first_ = np.full(n, nb, dtype=np.int64)
    last_ = np.full(n, -1, dtype=np.int64)
    cdef int64_t[::1] first = first_, last = last_
    for b in range(nb):
        if not 0 <= owner[b] < n:
            raise IndexError("a block's owner is out of range")
    for i in range(1, n):
        if not -1 <= parent[i] < i:
            raise ValueError("parents must come before their children")
    with nogil:
        for b in range(nb):
            o = owner[b]
            if b < first[o]:
                first[o] = b
            if b > last[o]:
                last[o] = b
        # Children come after their parent in document order: from the end, each element's range
        # is complete before it widens its parent's.
        for i in range(n - 1, 0, -1):
            p = parent[i]
            if p < 0:
                continue
            if first[i] < first[p]:
                first[p] = first[i]
            if last[i] > last[p]:
                last[p] = last[i]
    return first_, last_



def descendant_levels(const int64_t[::1] rows not None, const int64_t[::1] parent not None, const int64_t[::1] depth not None,
                      const int64_t[::1] last not None, const double[:, ::1] base not None, const int64_t[::1] tag not None,
                      Py_ssize_t n_levels, Py_ssize_t n_tags):
    """For each of ``rows`` (distinct element indices) and each level 1..``n_levels`` below it: the
    columns of features._descendant_levels but the first (its log1p, left to numpy for its bits),
    and the level's element count, which that column is read from.

    ``base`` is every element's count column (ones) then its numeric columns: summed child by
    child in document order from zero, level by level, as forest.classifier._walk.child_sums
    sums them, then divided by the count (at least 1).  The tags' one-hot columns are counted over
    each row's subtree (integers: exact in any order) and divided alike.  Returns the float64
    ``rows x (n_levels * (base columns + n_tags))`` matrix (first column of each level left 0)
    and the ``rows x n_levels`` counts.
    """
    cdef Py_ssize_t n = parent.shape[0], m = rows.shape[0], numbers = base.shape[1], r, e, k, c, d
    cdef Py_ssize_t width = numbers + n_tags
    cdef int64_t row, top, p
    cdef double share
    if depth.shape[0] != n or last.shape[0] != n or tag.shape[0] != n or base.shape[0] != n:
        raise ValueError("parent, depth, last, base and tag differ in length")
    if n_levels < 0 or n_tags <= 0 or numbers < 1:
        raise ValueError("n_levels must not be negative, n_tags and the base's columns positive")
    for e in range(n):
        if not e <= last[e] < n or not 0 <= tag[e] < n_tags or not -1 <= parent[e] < n:
            raise ValueError("a parent, subtree end or tag column is out of range")
    for r in range(m):
        if not 0 <= rows[r] < n:
            raise IndexError("a row's element is out of range")
    out_ = np.zeros((m, n_levels * width), dtype=np.float64)
    counts_ = np.empty((m, n_levels), dtype=np.float64)
    cdef double[:, ::1] out = out_, counts = counts_
    # Two levels' sums over every element: the one below is made from the one above.
    previous_ = np.array(base, dtype=np.float64, copy=True)
    current_ = np.zeros((n, numbers), dtype=np.float64)
    cdef double[:, ::1] previous = previous_, current = current_, swap
    with nogil:
        for k in range(n_levels):
            for e in range(n):
                for c in range(numbers):
                    current[e, c] = 0.0
            for e in range(n):
                p = parent[e]
                if p < 0:
                    continue
                for c in range(numbers):
                    current[p, c] += previous[e, c]
            for r in range(m):
                row = rows[r]
                counts[r, k] = current[row, 0]
                share = current[row, 0] if current[row, 0] > 1.0 else 1.0
                for c in range(1, numbers):
                    out[r, k * width + c] = current[row, c] / share
            swap = previous
            previous = current
            current = swap
        for r in range(m):
            row = rows[r]
            top = depth[row]
            e = row + 1
            while e <= last[row]:
                d = depth[e] - top
                if d < 1 or d > n_levels:
                    e = last[e] + 1
                    continue
                out[r, (d - 1) * width + numbers + tag[e]] += 1.0
                # Below the last level nothing is counted: skip the rest of this subtree.
                e = last[e] + 1 if d == n_levels else e + 1
        for r in range(m):
            for k in range(n_levels):
                share = counts[r, k] if counts[r, k] > 1.0 else 1.0
                if share == 1.0:
                    continue  # x / 1.0 is x
                for c in range(n_tags):
                    # Most of a level's tags are absent: 0.0 / share is 0.0, and a division costs
                    # more than the test (a third of this function's time was these divisions).
                    if out[r, k * width + numbers + c] != 0.0:
                        out[r, k * width + numbers + c] /= share
    return out_, counts_


def context_columns(const double[::1] p not None, const double[::1] chars not None, const double[::1] link not None,
                    const int32_t[:, :, ::1] spans not None, Py_ssize_t n_columns, windows not None):
    """The second stage's context columns of one page's blocks (forest.classifier.context._page) but
    those that take a logarithm, which numpy computes for their bits.

    Returns the float64 ``n x n_columns`` matrix (columns 0, the levels' ``chars`` and the last but
    one left 0), the odds ``p / (1 - p)`` of each clipped probability, and each level's characters
    (``n x levels``): the caller writes their logarithms in.  Every sum runs as numpy's running sums
    do (in order, from zero), every division as numpy's, so the columns keep their bits.
    """
    cdef Py_ssize_t n = p.shape[0], levels = spans.shape[1], i, k, w, lo, hi, first, last, count = 0
    cdef Py_ssize_t n_windows = len(windows)
    cdef double clipped, content, weighted_total, product
    if chars.shape[0] != n or link.shape[0] != n or spans.shape[0] != n or spans.shape[2] != 2:
        raise ValueError("p, chars, link and spans differ in length")
    if n_columns != 1 + n_windows + 2 + 3 * levels + 4:
        raise ValueError("n_columns does not match the windows and levels")
    cdef int64_t[::1] width = np.asarray(windows, dtype=np.int64)
    out_ = np.zeros((n, n_columns), dtype=np.float64)
    odds_ = np.empty(n, dtype=np.float64)
    size_ = np.empty((n, levels), dtype=np.float64)
    running_ = np.empty(n + 1, dtype=np.float64)
    weighted_ = np.empty(n + 1, dtype=np.float64)
    total_ = np.empty(n + 1, dtype=np.float64)
    cdef double[:, ::1] out = out_, size = size_
    cdef double[::1] odds = odds_, running = running_, weighted = weighted_, total = total_
    with nogil:
        # numpy's cumsum, after a 0: its first sum is the first value itself (not 0 + it: -0.0 stays).
        running[0] = weighted[0] = total[0] = 0.0
        for i in range(n):
            product = p[i] * chars[i]
            if i == 0:
                running[1], weighted[1], total[1] = p[0], product, chars[0]
            else:
                running[i + 1] = running[i] + p[i]
                weighted[i + 1] = weighted[i] + product
                total[i + 1] = total[i] + chars[i]
            if p[i] >= 0.5:
                count += 1
        content = weighted[n] if weighted[n] > 1e-9 else 1e-9
        weighted_total = weighted[n] / (total[n] if total[n] > 1.0 else 1.0)
        for i in range(n):
            clipped = p[i]
            if clipped < 1e-4:
                clipped = 1e-4
            if clipped > 1 - 1e-4:
                clipped = 1 - 1e-4
            odds[i] = clipped / (1 - clipped)
            for w in range(n_windows):
                lo = i - width[w] if i - width[w] > 0 else 0
                hi = i + width[w] + 1 if i + width[w] + 1 < n else n
                out[i, 1 + w] = (running[hi] - running[lo]) / <double>(hi - lo)
            out[i, 1 + n_windows] = p[i - 1] if i > 0 else 0.0
            out[i, 2 + n_windows] = p[i + 1] if i + 1 < n else 0.0
            for k in range(levels):
                # The blocks inside the row's element (k = 0) and its ancestors: a span, clipped to the page.
                first = spans[i, k, 0]
                first = 0 if first < 0 else (n if first > n else first)
                last = spans[i, k, 1] + 1
                last = first if last < first else last
                last = n if last > n else last
                size[i, k] = total[last] - total[first]
                out[i, 3 + n_windows + 3 * k] = (weighted[last] - weighted[first]) / (size[i, k] if size[i, k] > 1.0 else 1.0)
                out[i, 4 + n_windows + 3 * k] = (weighted[last] - weighted[first]) / content
            out[i, n_columns - 4] = weighted_total
            out[i, n_columns - 3] = <double>count / <double>n
            out[i, n_columns - 1] = link[i]
    return out_, odds_, size_


# The node columns that take a logarithm (features.NODE_COLUMNS' position, children, chars, words,
# own_chars, class_len, id_len and same_tag_siblings): node_numeric leaves their arguments there.
LOG_COLUMNS = (1, 3, 4, 5, 6, 9, 11, 15)


def node_numeric(const int64_t[::1] parent not None, const int64_t[::1] depth not None, const int64_t[::1] position not None,
                 const int64_t[::1] n_children not None, const int64_t[::1] own_chars not None,
                 const int64_t[::1] own_words not None, const int64_t[::1] own_link_chars not None,
                 const int64_t[::1] last not None, const int64_t[::1] owner not None, const int64_t[:, ::1] blocks not None,
                 const int64_t[:, ::1] counts not None, const double[::1] hidden not None, const double[::1] microdata not None,
                 int64_t prose_words, double prose_link_share):
    """The 18 NODE_COLUMNS of every element (features._node_matrix) but the logarithms: the
    LOG_COLUMNS hold their arguments, for numpy's log1p.

    ``blocks`` is PageTree.block_counts() (characters, words, link characters per block),
    ``counts`` element_columns' counts.  The subtree totals are running sums of integers (as
    PageTree.subtree_sums), the divisions numpy's, so the columns keep their bits.
    """
    cdef Py_ssize_t n = parent.shape[0], nb = owner.shape[0], i, b
    cdef int64_t p, codes = 0, key
    cdef double chars, top_chars, top_prose, siblings
    for length in (depth.shape[0], position.shape[0], n_children.shape[0], own_chars.shape[0], own_words.shape[0],
                   own_link_chars.shape[0], last.shape[0], counts.shape[0], hidden.shape[0], microdata.shape[0]):
        if length != n:
            raise ValueError("the elements' columns differ in length")
    if blocks.shape[0] != 3 or blocks.shape[1] != nb or counts.shape[1] < 6:
        raise ValueError("blocks must be 3 x blocks and counts element_columns' columns")
    for i in range(n):
        if not -1 <= parent[i] < i or not i <= last[i] < n or counts[i, 5] < 0 or not 0 <= n_children[i]:
            raise ValueError("a parent, subtree end or tag code is out of range")
        if counts[i, 5] >= codes:
            codes = counts[i, 5] + 1
    for b in range(nb):
        if not 0 <= owner[b] < n:
            raise IndexError("a block's owner is out of range")
    out_ = np.zeros((n, 18), dtype=np.float64)
    # Running sums of the own characters, words, link characters and prose characters (document order).
    running_ = np.zeros((n + 1, 4), dtype=np.int64)
    prose_ = np.zeros(n, dtype=np.int64)
    same_ = np.zeros((n + 1) * max(codes, 1), dtype=np.int64)
    cdef double[:, ::1] out = out_
    cdef int64_t[:, ::1] running = running_
    cdef int64_t[::1] prose = prose_, same = same_
    with nogil:
        for b in range(nb):
            # Prose: at least prose_words words, at most prose_link_share of its characters in links.
            if blocks[1, b] >= prose_words and <double>blocks[2, b] <= prose_link_share * <double>blocks[0, b]:
                prose[owner[b]] += blocks[0, b]
        for i in range(n):
            running[i + 1, 0] = running[i, 0] + own_chars[i]
            running[i + 1, 1] = running[i, 1] + own_words[i]
            running[i + 1, 2] = running[i, 2] + own_link_chars[i]
            running[i + 1, 3] = running[i, 3] + prose[i]
            same[(parent[i] + 1) * codes + counts[i, 5]] += 1
        top_chars = <double>(running[last[0] + 1, 0] - running[0, 0]) if n else 0.0
        top_prose = <double>(running[last[0] + 1, 3] - running[0, 3]) if n else 0.0
        top_chars = top_chars if top_chars > 1.0 else 1.0
        top_prose = top_prose if top_prose > 1.0 else 1.0
        for i in range(n):
            p = parent[i] if parent[i] > 0 else 0
            chars = <double>(running[last[i] + 1, 0] - running[i, 0])
            siblings = <double>(n_children[p] - 1 if n_children[p] - 1 > 1 else 1)
            out[i, 0] = <double>depth[i]
            out[i, 1] = <double>position[i]
            out[i, 2] = <double>position[i] / siblings if parent[i] >= 0 else 0.0
            out[i, 3] = <double>n_children[i]
            out[i, 4] = chars
            out[i, 5] = <double>(running[last[i] + 1, 1] - running[i, 1])
            out[i, 6] = <double>own_chars[i]
            out[i, 7] = <double>(running[last[i] + 1, 2] - running[i, 2]) / (chars if chars > 1.0 else 1.0)
            out[i, 8] = chars / top_chars
            out[i, 9] = <double>counts[i, 0]
            out[i, 10] = <double>counts[i, 1]
            out[i, 11] = <double>counts[i, 2]
            out[i, 12] = <double>counts[i, 3]
            out[i, 13] = <double>(running[last[i] + 1, 3] - running[i, 3]) / top_prose
            out[i, 14] = <double>(running[last[i] + 1, 3] - running[i, 3]) / (chars if chars > 1.0 else 1.0)
            out[i, 15] = <double>(same[(parent[i] + 1) * codes + counts[i, 5]] - 1)
            out[i, 16] = hidden[i]
            out[i, 17] = microdata[i]
    return out_


cdef Py_ssize_t _container(const uint8_t[::1] content, const int64_t[::1] owner, const int64_t[::1] words,
                           const int64_t[::1] last, const int64_t[::1] depth, int64_t* own) except -1:
    # forest.classifier.container.article_container over ``own`` (zeroed, one per element): each
    # element's content words, their subtree sums as running sums' differences (integers: exact,
    # as numpy's), and the deepest element holding more than half (the first of equal depth).
    cdef Py_ssize_t n = last.shape[0], nb = owner.shape[0], i, b, top = -1
    cdef int64_t total = 0, held
    cdef int64_t* running = own
    for b in range(nb):
        if content[b]:
            own[owner[b]] += words[b]
            total += words[b]
    # own becomes the running sums in place, one longer: running[i] is the words before element i.
    cdef int64_t before = 0, here
    for i in range(n):
        here = own[i]
        running[i] = before
        before += here
    running[n] = before
    for i in range(n):
        held = running[last[i] + 1] - running[i]
        if 2 * held > total and (top < 0 or depth[i] > depth[top]):
            top = i
    return top if top >= 0 else 0


cdef int _check_owners(const int64_t[::1] owner, const int64_t[::1] last) except -1:
    # What _container trusts of its arrays: every block's owner and every subtree's end is an element.
    cdef Py_ssize_t n = last.shape[0], b, i
    for b in range(owner.shape[0]):
        if not 0 <= owner[b] < n:
            raise IndexError("a block's owner is out of range")
    for i in range(n):
        if not i <= last[i] < n:
            raise IndexError("an element's subtree end is out of range")
    return 0


def with_tags(const double[:, ::1] numeric not None, const int64_t[::1] tag not None, const int64_t[:, ::1] index not None,
              float[:, :, :] out not None):
    """forest.classifier.features._with_tags: into ``out`` (rows x levels x columns, float32) the
    numeric columns of elements ``index`` (rows x levels), then the one-hot columns of their
    ``tag``, each value cast to float32 as numpy's assignment casts it.  numpy's three fancy-indexed
    assignments cost a page more than its trees' walk."""
    cdef Py_ssize_t rows = index.shape[0], levels = index.shape[1], width = numeric.shape[1]
    cdef Py_ssize_t columns = out.shape[2], n = numeric.shape[0], r, k, c
    cdef int64_t e
    cdef float* at
    cdef const double* values
    if out.shape[0] != rows or out.shape[1] != levels or tag.shape[0] != n:
        raise ValueError("the rows' arrays differ in shape")
    for r in range(rows):
        for k in range(levels):
            e = index[r, k]
            if not 0 <= e < n:
                raise IndexError("a row's element is out of range")
            if not 0 <= tag[e] < columns - width:
                raise IndexError("an element's tag column is out of range")
    if rows == 0 or levels == 0 or columns == 0:
        return
    if out.strides[2] != sizeof(float):
        with nogil:
            for r in range(rows):
                for k in range(levels):
                    e = index[r, k]
                    for c in range(width):
                        out[r, k, c] = <float>numeric[e, c]
                    for c in range(width, columns):
                        out[r, k, c] = 0.0
                    out[r, k, width + tag[e]] = 1.0
        return
    with nogil:
        for r in range(rows):
            for k in range(levels):
                e = index[r, k]
                # A level's columns side by side (the features' rows): plain loops the compiler
                # vectorizes, where each value's three strides were computed for every column.
                at = &out[r, k, 0]
                values = &numeric[e, 0] if width else NULL
                for c in range(width):
                    at[c] = <float>values[c]
                for c in range(width, columns):
                    at[c] = 0.0
                at[width + tag[e]] = 1.0


def article_container_of(const uint8_t[::1] content not None, const int64_t[::1] owner not None,
                         const int64_t[::1] words not None, const int64_t[::1] last not None,
                         const int64_t[::1] depth not None):
    """forest.classifier.container.article_container of a page's arrays: ``content`` per block (0 or
    1), each block's ``owner`` and ``words``, each element's ``last`` (its subtree's end) and ``depth``."""
    cdef Py_ssize_t n = last.shape[0], nb = owner.shape[0]
    if content.shape[0] != nb or words.shape[0] != nb or depth.shape[0] != n:
        raise ValueError("the blocks' or the elements' arrays differ in length")
    _check_owners(owner, last)
    cdef int64_t* own = <int64_t*>calloc(n + 1, sizeof(int64_t))
    if own is NULL:
        raise MemoryError()
    try:
        return _container(content, owner, words, last, depth, own)
    finally:
        free(own)


def confined(const double[::1] probability not None, const uint8_t[::1] content not None, const int64_t[::1] owner not None,
             const int64_t[::1] words not None, const int64_t[::1] last not None, const int64_t[::1] depth not None,
             list tags not None, headings, double outside, double inside):
    """forest.classifier.container.confine of a page's arrays (as article_container_of's, and each
    block's ``probability``, each element's tag): the labels as a bool array.  A block before the
    container's first content block keeps its label outside the container as a heading
    (``tags[owner] in headings``): that is asked only of the few content blocks it decides."""
    cdef Py_ssize_t n = last.shape[0], nb = owner.shape[0]
    if content.shape[0] != nb or words.shape[0] != nb or probability.shape[0] != nb or depth.shape[0] != n or len(tags) != n:
        raise ValueError("the blocks' or the elements' arrays differ in length")
    _check_owners(owner, last)
    out_ = np.zeros(nb, dtype=bool)
    _confine(probability, content, owner, words, last, depth, tags, headings, outside, inside, out_.view(np.uint8))
    return out_


def confined_paragraphs(const double[::1] probability not None, const uint8_t[::1] content not None,
                        const int64_t[::1] owner not None, const int64_t[:, ::1] counts not None,
                        const int64_t[::1] last not None, const int64_t[::1] depth not None, list tags not None, headings,
                        double outside, double inside, paragraphs, int64_t prose_words, double link_share,
                        const uint8_t[::1] hidden not None):
    """:func:`confined`'s labels, and content too every block that forest.classifier.container.long_paragraphs
    finds and ``hidden`` (per block) does not hide, with the container found once for both.
    ``counts`` are PageTree.block_counts (per block: characters, words, link characters); a long
    paragraph has ``prose_words`` words at least, at most ``link_share`` of its characters in links,
    an owner whose tag is in ``paragraphs``, and lies inside a container other than the body, from its
    first content block to its last."""
    cdef Py_ssize_t n = last.shape[0], nb = owner.shape[0], b, top, end, first = -1, final = -1
    if (counts.shape[0] != 3 or counts.shape[1] != nb or content.shape[0] != nb or probability.shape[0] != nb
            or hidden.shape[0] != nb or depth.shape[0] != n or len(tags) != n):
        raise ValueError("the blocks' or the elements' arrays differ in length")
    _check_owners(owner, last)
    out_ = np.zeros(nb, dtype=bool)
    cdef uint8_t[::1] out = out_.view(np.uint8)
    top = _confine(probability, content, owner, counts[1], last, depth, tags, headings, outside, inside, out)
    if top <= 0:  # no content, or the body: the body vouches for nothing
        return out_
    end = last[top]
    for b in range(nb):
        if content[b] and top <= owner[b] <= end:
            if first < 0:
                first = b
            final = b
    if first < 0:  # none inside (not so where the container holds most content words): nothing between
        return out_
    for b in range(first, final + 1):
        # numpy compared the int64 link characters with the float64 product: so here.
        if (top <= owner[b] <= end and counts[1, b] >= prose_words and not hidden[b]
                and <double>counts[2, b] <= link_share * <double>counts[0, b] and tags[owner[b]] in paragraphs):
            out[b] = 1
    return out_


cdef Py_ssize_t _confine(const double[::1] probability, const uint8_t[::1] content, const int64_t[::1] owner,
                         const int64_t[::1] words, const int64_t[::1] last, const int64_t[::1] depth, list tags, headings,
                         double outside, double inside, uint8_t[::1] out) except -2:
    # confined's labels into ``out`` (zeroed), over arrays the caller checked; the container's index,
    # -1 when no block is content (the labels are then all 0).
    cdef Py_ssize_t n = last.shape[0], nb = owner.shape[0], b, top, first = 0, end
    for b in range(nb):
        if content[b]:
            break
    else:
        return -1
    cdef int64_t* own = <int64_t*>calloc(n + 1, sizeof(int64_t))
    if own is NULL:
        raise MemoryError()
    try:
        top = _container(content, owner, words, last, depth, own)
    finally:
        free(own)
    end = last[top]
    # The first content block inside the container (np.argmax: 0 when there is none).
    for b in range(nb):
        if content[b] and top <= owner[b] <= end:
            first = b
            break
    for b in range(nb):
        if top <= owner[b] <= end:
            out[b] = content[b] or probability[b] >= inside
        elif content[b]:
            out[b] = probability[b] >= outside or (b < first and tags[owner[b]] in headings)
    return top


def subtrees(list tags not None, names not None, const int64_t[::1] roots not None, const int64_t[::1] last not None):
    """Per element (a bool array), whether it is or lies inside an element whose tag is in the set ``names``
    or one of ``roots`` (element indices): forest.classifier.blocks._within of those elements, in one pass
    (a subtree is a stretch of the document order: an element is inside when it is before the furthest end of
    the subtrees opened so far), where numpy's union, two bincounts and a running sum cost a page more."""
    cdef Py_ssize_t n = last.shape[0], i, k
    cdef int64_t end = -1
    cdef bint named = len(names) > 0
    if len(tags) != n:
        raise ValueError("the elements' arrays differ in length")
    for i in range(n):
        if not i <= last[i] < n:
            raise IndexError("an element's subtree end is out of range")
    out_ = np.zeros(n, dtype=bool)
    cdef uint8_t[::1] out = out_.view(np.uint8)
    cdef uint8_t* starts = <uint8_t*>calloc(max(n, 1), sizeof(uint8_t))
    if starts is NULL:
        raise MemoryError()
    try:
        for k in range(roots.shape[0]):
            if not 0 <= roots[k] < n:
                raise IndexError("a root is out of range")
            starts[roots[k]] = 1
        for i in range(n):
            if starts[i] or (named and tags[i] in names):
                if last[i] > end:
                    end = last[i]
            out[i] = i <= end
    finally:
        free(starts)
    return out_


def gather_rows(const double[:, ::1] source not None, const int64_t[::1] index not None, float[:, :] out not None):
    """``out[...] = source[index]`` into float32: row r of ``out`` is row ``index[r]`` of ``source``, each value
    cast as numpy's assignment casts it (to the nearest float32).  In one pass, where numpy gathered the rows
    into a float64 matrix and then copied that into ``out`` (the features' descendant levels: a few hundred
    columns a row, two passes over them)."""
    cdef Py_ssize_t rows = index.shape[0], columns = source.shape[1], n = source.shape[0], r, c
    cdef int64_t i
    cdef float* at
    cdef const double* values
    if out.shape[0] != rows or out.shape[1] != columns:
        raise ValueError("out's shape is not the gathered rows'")
    for r in range(rows):
        if not 0 <= index[r] < n:
            raise IndexError("a row's index is out of range")
    if rows == 0 or columns == 0:
        return
    with nogil:
        if out.strides[1] == sizeof(float):
            for r in range(rows):
                at = &out[r, 0]
                values = &source[index[r], 0]
                for c in range(columns):
                    at[c] = <float>values[c]
        else:
            for r in range(rows):
                i = index[r]
                for c in range(columns):
                    out[r, c] = <float>source[i, c]


def tagged(list tags not None, names not None):
    """The indices (int64, ascending) of the elements whose tag (``tags[i]``) is in the set ``names``:
    one lookup per element in C, where list.index compared each tag in Python's rich comparison."""
    cdef Py_ssize_t n = len(tags), i, k = 0
    out_ = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] out = out_
    for i in range(n):
        if tags[i] in names:
            out[k] = i
            k += 1
    return out_[:k]


# The bit of each kind of landmark in modern_columns' marks: the landmarks' own (0 ...
# n_landmarks - 1, features._LANDMARKS' order), then aria-hidden.
DEF MAX_LANDMARKS = 7


def modern_columns(list tags not None, dict landmark_of_tag not None, const uint8_t[::1] marks not None,
                   const int64_t[::1] own_chars not None, const int64_t[::1] last not None,
                   const int64_t[::1] rows not None, const double[::1] hashed not None, int n_landmarks):
    """The "modern" columns of ``rows`` (features._modern_matrix) but the page's article count's
    logarithm and og:type (columns 8 and 10 are left 0), and that count.

    ``landmark_of_tag`` maps a tag to its landmark's number; ``marks`` holds per element the bits
    its role adds (bit k: landmark k) and aria-hidden's (bit ``n_landmarks``).  An element is in a
    landmark when it or an ancestor starts one: a subtree is a stretch of the document order, so
    one pass keeps, per landmark, the furthest end of the subtrees opened so far.  The subtrees'
    characters are running sums of integers and the divisions C's, as numpy's, so the columns keep
    their bits; ``hashed`` is each element's CSS-in-JS flag (0 or 1: their sum is exact in any order).
    """
    cdef Py_ssize_t n = len(tags), m = rows.shape[0], i, j, k
    cdef int64_t until[MAX_LANDMARKS + 1]
    cdef int64_t n_articles = 0, largest = -1, r
    cdef double main_chars = 0.0, article_chars = 0.0, flagged = 0.0, total, chars
    cdef uint8_t bits
    cdef object found
    if n_landmarks != MAX_LANDMARKS - 1:
        # The columns' layout: the landmarks', aria-hidden's, then the page's (features.MODERN_COLUMNS).
        raise ValueError("the modern columns have 6 landmarks")
    if marks.shape[0] != n or own_chars.shape[0] != n or last.shape[0] != n or hashed.shape[0] != n:
        raise ValueError("the elements' columns differ in length")
    for i in range(n):
        if not i <= last[i] < n:
            raise ValueError("a subtree end is out of range")
    for j in range(m):
        if not 0 <= rows[j] < n:
            raise IndexError("a row's element is out of range")
    inside_ = np.zeros(n, dtype=np.uint8)
    running_ = np.zeros(n + 1, dtype=np.int64)
    out_ = np.zeros((m, 13), dtype=np.float64)
    cdef uint8_t[::1] inside = inside_
    cdef int64_t[::1] running = running_
    cdef double[:, ::1] out = out_
    # Each element's marks: its tag's landmark, with its role's and aria-hidden's.
    landmark_ = np.asarray(marks, dtype=np.uint8).copy()
    cdef uint8_t[::1] landmark = landmark_
    for i in range(n):
        found = landmark_of_tag.get(tags[i])
        if found is not None:
            k = found
            if not 0 <= k < n_landmarks:
                raise ValueError("a tag's landmark is out of range")
            landmark[i] |= 1 << k
    with nogil:
        for i in range(n):
            running[i + 1] = running[i] + own_chars[i]
            flagged += hashed[i]
        total = <double>(running[last[0] + 1] - running[0]) if n else 0.0
        total = total if total > 1.0 else 1.0
        for k in range(n_landmarks + 1):
            until[k] = -1
        for i in range(n):
            bits = landmark[i]
            if bits:
                chars = <double>(running[last[i] + 1] - running[i])
                for k in range(n_landmarks + 1):
                    if bits & (1 << k) and last[i] > until[k]:
                        until[k] = last[i]
                if bits & 1 and chars > main_chars:
                    main_chars = chars
                if bits & 2:
                    # The first of the largest articles, in document order (numpy's argmax).
                    n_articles += 1
                    if largest < 0 or chars > article_chars:
                        largest, article_chars = i, chars
            bits = 0
            for k in range(n_landmarks + 1):
                if until[k] >= i:
                    bits |= 1 << k
            inside[i] = bits
        for j in range(m):
            r = rows[j]
            for k in range(n_landmarks):
                out[j, k] = 1.0 if inside[r] & (1 << k) else 0.0
            out[j, 6] = 1.0 if inside[r] & (1 << n_landmarks) else 0.0
            out[j, 7] = 1.0 if largest >= 0 and largest <= r <= last[largest] else 0.0
            out[j, 9] = main_chars / total
            out[j, 11] = hashed[r]
            out[j, 12] = flagged / <double>n if n else 0.0
    return out_, n_articles


def page_rows(const int64_t[::1] rows not None, const int64_t[::1] parent not None, const int64_t[::1] owner not None,
              Py_ssize_t n_ancestors, bint spans):
    """What features.page_features reads of its rows' elements, in one call: each row's 1st ...
    ``n_ancestors``-th ancestors (past the body, the body: the thesis's padding), the chain of the
    row's element and those (rows x (1 + n_ancestors)), with ``spans`` the first and last block
    inside each element of the chain (int32, rows x chain x 2; else None), and the distinct
    elements of ``rows`` (ascending) with each row's index among them (np.unique's ``return_inverse``).
    """
    cdef Py_ssize_t n = parent.shape[0], m = rows.shape[0], nb = owner.shape[0], r, k, i, b
    cdef int64_t e, p, o, d
    if n_ancestors < 0:
        raise ValueError("n_ancestors must not be negative")
    for i in range(n):
        if not -1 <= parent[i] < i:
            raise ValueError("parents must come before their children")
    for r in range(m):
        if not 0 <= rows[r] < n:
            raise IndexError("a row's element is out of range")
    if spans:
        for b in range(nb):
            if not 0 <= owner[b] < n:
                raise IndexError("a block's owner is out of range")
    chain_ = np.empty((m, 1 + n_ancestors), dtype=np.int64)
    ancestors_ = np.empty((m, n_ancestors), dtype=np.int64)
    seen_ = np.zeros(n, dtype=np.int64)
    inverse_ = np.empty(m, dtype=np.int64)
    cdef int64_t[:, ::1] chain = chain_, ancestors = ancestors_
    cdef int64_t[::1] seen = seen_, inverse = inverse_
    cdef int64_t[::1] first, last
    cdef int32_t[:, :, ::1] span
    cdef int64_t[::1] distinct
    with nogil:
        for r in range(m):
            e = rows[r]
            chain[r, 0] = e
            seen[e] = 1
            for k in range(n_ancestors):
                e = parent[e] if parent[e] > 0 else 0
                chain[r, k + 1] = e
                ancestors[r, k] = e
        # Each distinct element's number among them, in document order.
        d = 0
        for i in range(n):
            if seen[i]:
                seen[i] = d
                d += 1
            else:
                seen[i] = -1
        for r in range(m):
            inverse[r] = seen[rows[r]]
    distinct_ = np.empty(d, dtype=np.int64)
    distinct = distinct_
    with nogil:
        for i in range(n):
            if seen[i] >= 0:
                distinct[seen[i]] = i
    if not spans:
        return chain_, ancestors_, None, distinct_, inverse_
    first_, last_ = block_spans(parent, owner)
    first = first_
    last = last_
    span_ = np.empty((m, 1 + n_ancestors, 2), dtype=np.int32)
    span = span_
    with nogil:
        for r in range(m):
            for k in range(1 + n_ancestors):
                e = chain[r, k]
                span[r, k, 0] = <int32_t>first[e]
                span[r, k, 1] = <int32_t>last[e]
    return chain_, ancestors_, span_, distinct_, inverse_
