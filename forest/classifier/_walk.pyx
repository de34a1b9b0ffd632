# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The page pass in C: one walk over a parsed body's libxml2 nodes that fills PageTree's arrays.

It reads ``_Element._c_node`` and libxml2's node fields through lxml's public C API
(``lxml.includes.etreepublic``): no Python attribute access per element.  The reference is
``tests/unit/test_native_walk.py``'s ``reference_walk`` (the walk in Python over lxml's
elements), which it must equal on every array and block.

The struct layouts it reads are those of the lxml it was compiled against: the module refuses to
import under another lxml major.minor version (a one-line ForestError that says to reinstall forest).
"""

from cpython.unicode cimport PyUnicode_GET_LENGTH, PyUnicode_KIND, PyUnicode_DATA, Py_UNICODE_ISSPACE
from cpython.unicode cimport PyUnicode_FromKindAndData, PyUnicode_1BYTE_KIND, PyUnicode_2BYTE_KIND, PyUnicode_4BYTE_KIND
from cpython.unicode cimport PyUnicode_New, PyUnicode_DecodeUTF8
from libc.stdlib cimport realloc, free
from libc.string cimport memcpy, memset, strcmp, strlen, strstr
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uintptr_t

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlNode

from collections.abc import Sequence

import lxml
import numpy as np

from forest.errors import ForestError

# Checked on major.minor: pip builds forest in an isolated environment whose lxml may be a newer
# patch release than the one installed beside it, and patch releases keep the structs.
BUILT_AGAINST = (<bytes>cetree.LXML_VERSION_STRING).decode("ascii")
if lxml.__version__.split(".")[:2] != BUILT_AGAINST.split(".")[:2]:
    raise ForestError(
        f"forest's native page pass was built against lxml {BUILT_AGAINST}, but lxml {lxml.__version__} is installed: "
        "reinstall forest to rebuild it (pip install --force-reinstall --no-deps --no-binary forest-extract forest-extract, "
        "or pip install -e . in a checkout)"
    )
cetree.import_lxml__etree()

from cpython.object cimport PyObject, PyTypeObject, Py_TYPE

cdef extern from "Python.h":
    int PyObject_GenericSetAttr(object o, object name, object value) except -1

_new = object.__new__


cdef dict _PLAIN = {}


def _plain_fields(type cls, tuple names):
    # Whether ``cls(*values)`` only stores ``values`` in the fields ``names``, in order: a
    # dataclass with exactly those fields and no __post_init__, whose __init__ stores what it is
    # given as it is (checked once per class, on sentinels).
    key = (cls, names)
    plain = _PLAIN.get(key)
    if plain is None:
        fields = getattr(cls, "__dataclass_fields__", None)
        plain = fields is not None and tuple(fields) == names and not hasattr(cls, "__post_init__")
        if plain:
            sentinels = tuple(object() for _ in names)
            try:
                made = cls(*sentinels)
            except Exception:
                plain = False
            else:
                plain = all(getattr(made, name) is sentinel for name, sentinel in zip(names, sentinels))
        _PLAIN[key] = plain
    return plain


# A field's slot in an instance, as a dataclass with slots=True has one per field: its member
# descriptor's PyMemberDef (an object slot, T_OBJECT_EX, writable: neither READONLY nor another type).
cdef extern from "Python.h":
    ctypedef struct PyMemberDef:
        const char* name
        int type
        Py_ssize_t offset
        int flags
    ctypedef struct PyMemberDescrObject:
        PyMemberDef* d_member
    PyTypeObject PyMemberDescr_Type
    void _incref "Py_INCREF"(PyObject* o)
    void _xdecref "Py_XDECREF"(PyObject* o)

cdef enum:
    _T_OBJECT_EX = 16  # structmember.h's member types and flags, part of the stable ABI
    _READONLY = 1
    _MAX_FIELDS = 8


cdef bint _slots_of(type cls, tuple names, Py_ssize_t* offsets) except -1:
    # Whether each of ``names`` (at most _MAX_FIELDS) is a writable object slot of ``cls`` itself,
    # each slot's offset in ``offsets``: _store then writes a field where object.__setattr__ would,
    # through its descriptor (PyMember_SetOne), without looking the descriptor up on every field.
    cdef Py_ssize_t k
    cdef PyMemberDef* member
    if len(names) > _MAX_FIELDS:
        return False
    for k in range(len(names)):
        descriptor = cls.__dict__.get(names[k])
        if descriptor is None or Py_TYPE(descriptor) is not &PyMemberDescr_Type:
            return False
        member = (<PyMemberDescrObject*><PyObject*>descriptor).d_member
        if member.type != _T_OBJECT_EX or member.flags & _READONLY:
            return False
        offsets[k] = member.offset
    return True


cdef inline void _store(object obj, Py_ssize_t offset, object value) noexcept:
    # PyMember_SetOne of a T_OBJECT_EX slot: the new value in, the old one (NULL in a new instance) out.
    cdef PyObject** slot = <PyObject**>((<char*><PyObject*>obj) + offset)
    cdef PyObject* old = slot[0]
    _incref(<PyObject*>value)
    slot[0] = <PyObject*>value
    _xdecref(old)


cdef inline object _made(type cls, tuple names, tuple values):
    # cls(*values) for a class _plain_fields accepts, without running its __init__ (a frozen
    # dataclass's sets each field through object.__setattr__ in Python: a tenth of the walk).
    cdef object obj = _new(cls)
    cdef Py_ssize_t k
    for k in range(len(names)):
        PyObject_GenericSetAttr(obj, names[k], values[k])
    return obj


cdef struct Grow:
    # A growable int64 array.
    int64_t* data
    Py_ssize_t size
    Py_ssize_t capacity


cdef int _push(Grow* g, int64_t value) except -1:
    cdef Py_ssize_t capacity
    cdef int64_t* data
    if g.size == g.capacity:
        capacity = g.capacity * 2 if g.capacity else 256
        data = <int64_t*>realloc(g.data, capacity * sizeof(int64_t))
        if data is NULL:
            raise MemoryError()
        g.data = data
        g.capacity = capacity
    g.data[g.size] = value
    g.size += 1
    return 0


cdef object _array(Grow* g):
    out = np.empty(g.size, dtype=np.int64)
    cdef int64_t[::1] view = out
    if g.size:
        memcpy(&view[0], g.data, g.size * sizeof(int64_t))
    return out



cdef enum RunKind:
    NO_RUN = 0  # None or '': not a run
    BLANK = 1  # one text node of ASCII whitespace: no characters, no words, a separator in a block
    TEXT = 2


cdef RunKind _kind(xmlNode* first) noexcept nogil:
    # What lxml's text (or tail) starting at ``first`` would be, read from the bytes where that is
    # cheap: most runs are indentation between tags, and need no Python string.
    cdef xmlNode* c_node = _text_or_skip(first)
    cdef const unsigned char* s
    if c_node is NULL:
        return NO_RUN
    if _text_or_skip(c_node.next) is not NULL:
        # Several text nodes: joined by lxml; decided on the string.
        while c_node is not NULL:
            if c_node.content is not NULL and c_node.content[0] != 0:
                return TEXT
            c_node = _text_or_skip(c_node.next)
        return NO_RUN
    s = <const unsigned char*>c_node.content
    if s is NULL or s[0] == 0:
        return NO_RUN
    while s[0] != 0:
        # Python's str.isspace() on ASCII: \t \n \v \f \r, \x1c-\x1f and the space.
        if not (s[0] == 32 or 9 <= s[0] <= 13 or 28 <= s[0] <= 31):
            return TEXT
        s += 1
    return BLANK


ctypedef fused run_char:
    uint8_t
    uint16_t
    uint32_t


# Python's str.isspace() of each Latin-1 character, looked up: most texts are 1-byte strs, and most
# characters of the others are Latin-1 too.
cdef bint _LATIN1_SPACE[256]
for _c in range(256):
    _LATIN1_SPACE[_c] = Py_UNICODE_ISSPACE(<Py_UCS4>_c)


cdef inline bint _space(Py_UCS4 c) noexcept:
    return _LATIN1_SPACE[c] if c < 256 else Py_UNICODE_ISSPACE(c)


cdef inline Py_ssize_t _add_run(const run_char* data, Py_ssize_t n, Py_UCS4* buffer, Py_ssize_t size, bint* pending_space,
                                int64_t* chars, int64_t* words, Py_UCS4* most, int64_t* gaps) noexcept:
    # One pass over a run's characters: appended to ``buffer`` (from ``size``) as _Text.add says, and
    # its len(text.strip()) and len(text.split()) counted; ``most`` raised to the largest character
    # written and ``gaps`` counting the spaces written between words.  Returns the buffer's new size.
    cdef Py_ssize_t i, first = -1, last = -1
    cdef int64_t count = 0
    cdef bint in_word = False, gap = pending_space[0]
    cdef Py_UCS4 c
    for i in range(n):
        c = data[i]
        if _space(c):
            in_word = False
            gap = size > 0
        else:
            if not in_word:
                count += 1
                in_word = True
            if first < 0:
                first = i
            last = i
            if gap:
                buffer[size] = 32
                size += 1
                gaps[0] += 1
                gap = False
            buffer[size] = c
            size += 1
            if c > most[0]:
                most[0] = c
    pending_space[0] = gap
    chars[0] = last - first + 1 if first >= 0 else 0
    words[0] = count
    return size


cdef inline Py_ssize_t _utf8(const uint8_t* s, Py_UCS4* c) noexcept nogil:
    # The character UTF-8 bytes ``s`` (NUL-terminated) start with, and its length in bytes; 0 where
    # Python's strict decoder refuses them (an overlong form, a surrogate, past U+10FFFF, a cut sequence).
    cdef uint8_t b = s[0]
    if b < 0x80:
        c[0] = b
        return 1
    if 0xC2 <= b <= 0xDF:
        if not 0x80 <= s[1] <= 0xBF:
            return 0
        c[0] = ((b & 0x1F) << 6) | (s[1] & 0x3F)
        return 2
    if 0xE0 <= b <= 0xEF:
        if not ((0xA0 if b == 0xE0 else 0x80) <= s[1] <= (0x9F if b == 0xED else 0xBF)) or not 0x80 <= s[2] <= 0xBF:
            return 0
        c[0] = ((b & 0x0F) << 12) | ((s[1] & 0x3F) << 6) | (s[2] & 0x3F)
        return 3
    if 0xF0 <= b <= 0xF4:
        if not ((0x90 if b == 0xF0 else 0x80) <= s[1] <= (0x8F if b == 0xF4 else 0xBF)) \
                or not 0x80 <= s[2] <= 0xBF or not 0x80 <= s[3] <= 0xBF:
            return 0
        c[0] = ((b & 0x07) << 18) | ((s[1] & 0x3F) << 12) | ((s[2] & 0x3F) << 6) | (s[3] & 0x3F)
        return 4
    return 0


cdef class _Text:
    # The block texts being written: " ".join("".join(runs).split()) of each group, in one buffer.
    cdef Py_UCS4* buffer
    cdef Py_ssize_t size, capacity
    cdef bint pending_space
    # The largest character written, and the spaces written between words (its words less one, as
    # Block.words counts them), kept as the text is written: take() then makes its str in one pass.
    cdef Py_UCS4 most
    cdef int64_t gaps

    def __dealloc__(self):
        free(self.buffer)

    cdef int reserve(self, Py_ssize_t n) except -1:
        cdef Py_UCS4* grown
        if self.size + n + 1 > self.capacity:
            self.capacity = max(2 * self.capacity, self.size + n + 1, 1024)
            grown = <Py_UCS4*>realloc(self.buffer, self.capacity * sizeof(Py_UCS4))
            if grown is NULL:
                raise MemoryError()
            self.buffer = grown
        return 0

    cdef int add(self, str text, int64_t* chars, int64_t* words) except -1:
        # ``text`` appended, with its len(text.strip()) and len(text.split()) counted in the same pass
        # (with Python's own whitespace test), read as its kind of str holds it: two passes of
        # PyUnicode_READ, one to count and one to copy, were a third of the walk.
        cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
        cdef int kind = PyUnicode_KIND(text)
        cdef void* data = PyUnicode_DATA(text)
        self.reserve(n)
        if kind == PyUnicode_1BYTE_KIND:
            self.size = _add_run(<const uint8_t*>data, n, self.buffer, self.size, &self.pending_space, chars, words, &self.most, &self.gaps)
        elif kind == PyUnicode_2BYTE_KIND:
            self.size = _add_run(<const uint16_t*>data, n, self.buffer, self.size, &self.pending_space, chars, words, &self.most, &self.gaps)
        else:
            self.size = _add_run(<const uint32_t*>data, n, self.buffer, self.size, &self.pending_space, chars, words, &self.most, &self.gaps)
        return 0

    cdef bint add_utf8(self, const uint8_t* data, int64_t* chars, int64_t* words) except -1:
        # add() of the str lxml would decode from the UTF-8 ``data`` (a text node's content), read from
        # the bytes: a str made for each of a page's texts, to be read once and dropped, was a tenth of
        # the walk.  False, with nothing written, where Python's decoder would refuse the bytes.
        cdef Py_ssize_t n = strlen(<const char*>data), i = 0, k = 0, first = -1, last = -1, step
        cdef Py_ssize_t size
        cdef int64_t count = 0, gaps = self.gaps
        cdef bint in_word = False, gap = self.pending_space
        cdef Py_UCS4 c, most = self.most
        self.reserve(n)  # as many characters at most as bytes
        size = self.size
        while i < n:
            step = _utf8(data + i, &c)
            if step == 0:
                return False
            i += step
            if _space(c):
                in_word = False
                gap = size > 0
            else:
                if not in_word:
                    count += 1
                    in_word = True
                if first < 0:
                    first = k
                last = k
                if gap:
                    self.buffer[size] = 32
                    size += 1
                    gaps += 1
                    gap = False
                self.buffer[size] = c
                size += 1
                if c > most:
                    most = c
            k += 1
        self.size = size
        self.pending_space = gap
        self.gaps = gaps
        self.most = most
        chars[0] = last - first + 1 if first >= 0 else 0
        words[0] = count
        return True

    cdef int space(self) except -1:
        self.pending_space = self.size > 0
        return 0

    cdef str take(self, int64_t* spaces):
        # The text written, and (``spaces``) how many spaces it holds: its words less one, as Block.words counts them.
        # Made at its kind (the largest character's) in one pass, where PyUnicode_FromKindAndData
        # searched the characters for the largest first.
        cdef Py_ssize_t i, n = self.size
        cdef str text = PyUnicode_New(n, self.most)
        cdef void* out = PyUnicode_DATA(text)
        cdef int kind = PyUnicode_KIND(text)
        if kind == PyUnicode_1BYTE_KIND:
            for i in range(n):
                (<uint8_t*>out)[i] = <uint8_t>self.buffer[i]
        elif kind == PyUnicode_2BYTE_KIND:
            for i in range(n):
                (<uint16_t*>out)[i] = <uint16_t>self.buffer[i]
        elif n:
            memcpy(out, self.buffer, n * sizeof(Py_UCS4))
        spaces[0] = self.gaps
        self.size = 0
        self.pending_space = False
        self.most = 0
        self.gaps = 0
        return text


_BLOCK_FIELDS = ("text", "link_chars")


cdef class _Pass:
    # One walk's state: the runs of the open group and what has been recorded so far.
    cdef Grow parent, depth, position, n_children, own_chars, own_link_chars, own_words, last, in_link, block_owner, is_block
    cdef Grow owner
    # Each block's characters, words and link characters (PageTree.block_counts), and its text.
    cdef Grow block_chars, block_words, block_links
    cdef list blocks, pieces, texts
    cdef _Text text
    cdef int64_t group_chars, group_links
    cdef bint keep_pieces
    cdef list pending  # (element, text) of the open group's runs, for pieces
    cdef object block_class
    cdef bint plain_blocks  # block_class(text, link_chars) only stores them (_plain_fields)
    cdef bint slotted_blocks  # and in slots, at block_slots (_slots_of)
    cdef Py_ssize_t block_slots[_MAX_FIELDS]

    def __cinit__(self):
        self.text = _Text()
        self.blocks = []
        self.pieces = []
        self.pending = []
        self.texts = []

    def __dealloc__(self):
        free(self.parent.data)
        free(self.depth.data)
        free(self.position.data)
        free(self.n_children.data)
        free(self.own_chars.data)
        free(self.own_link_chars.data)
        free(self.own_words.data)
        free(self.last.data)
        free(self.in_link.data)
        free(self.block_owner.data)
        free(self.is_block.data)
        free(self.owner.data)
        free(self.block_chars.data)
        free(self.block_words.data)
        free(self.block_links.data)

    cdef int run(self, int64_t element, xmlNode* c_node, bint tail) except -1:
        # A text run (an element's text, or the tail of ``c_node`` that belongs to ``element``).
        cdef RunKind kind = _kind(c_node.next if tail else c_node.children)
        cdef int64_t chars = 0, words = 0
        cdef str text
        if kind == NO_RUN:
            return 0
        cdef xmlNode* c_text
        cdef bint read = False
        if kind == TEXT and not self.keep_pieces:
            # One text node (most runs): its bytes are read as lxml would decode them.
            c_text = _text_or_skip(c_node.next if tail else c_node.children)
            if _text_or_skip(c_text.next) is NULL:
                read = self.text.add_utf8(<const uint8_t*>c_text.content, &chars, &words)
        if not read and (kind == TEXT or self.keep_pieces):
            text = cetree.tailOf(c_node) if tail else cetree.textOf(c_node)
        if kind == TEXT:
            if not read:
                self.text.add(text, &chars, &words)
            self.own_chars.data[element] += chars
            self.own_words.data[element] += words
            if self.in_link.data[element]:
                self.own_link_chars.data[element] += chars
                self.group_links += chars
            self.group_chars += chars
        else:
            self.text.space()
        if self.keep_pieces:
            self.pending.append((element, text))
        return 0

    cdef int boundary(self, int64_t owner) except -1:
        # A block-level start or end: the open group becomes a block (if it has text) owned by ``owner``.
        cdef int64_t block = -1, spaces = 0, links
        cdef str text
        if self.group_chars > 0:
            text = self.text.take(&spaces)
            block = len(self.blocks)
            links = min(self.group_links, len(text))
            _push(&self.block_chars, len(text))
            _push(&self.block_words, spaces + 1)
            _push(&self.block_links, links)
            self.texts.append(text)
            if self.plain_blocks:
                if self.slotted_blocks:
                    made = _new(self.block_class)
                    _store(made, self.block_slots[0], text)
                    _store(made, self.block_slots[1], min(self.group_links, len(text)))
                    self.blocks.append(made)
                else:
                    self.blocks.append(_made(self.block_class, _BLOCK_FIELDS, (text, min(self.group_links, len(text)))))
            else:
                self.blocks.append(self.block_class(text, min(self.group_links, len(text))))
            _push(&self.owner, owner)
        elif self.text.size or self.text.pending_space:
            self.text.take(&spaces)
        if self.keep_pieces and self.pending:
            for element, text in self.pending:
                self.pieces.append((element, block, text))
            self.pending = []
        self.group_chars = self.group_links = 0
        return 0


cdef class _Tag:
    # An element name's tag string and its roles in the walk.
    cdef str tag
    cdef bytes name  # libxml2's name, to check a cached address still holds it
    cdef bint block, link


# Tag strings by the address of libxml2's name (an un-namespaced element's): the parser's names
# come from a dictionary, so a few addresses serve every page.  An address can be reused for
# another name once its document is gone, hence the check of the bytes on every hit.
cdef dict _TAGS = {}
# Bounds the cache when names do not come from a dictionary (elements built one by one).
cdef Py_ssize_t _MAX_TAGS = 4096

# In front of _TAGS, the entries last found by each few bits of an address, compared as addresses:
# the dict's key is a Python int made of the address (too large for a cached small int), allocated,
# hashed and looked up for every element.  The entries are borrowed from _TAGS, which holds each:
# both are emptied together.  256 slots hold a page's few dozen names with few collisions; the walk's
# share of cold extraction re-measures a change (`python -m eval.coldbench`).
cdef enum:
    _RECENT = 256
cdef const void* _recent_names[_RECENT]
cdef PyObject* _recent_tags[_RECENT]


cdef inline Py_ssize_t _recent_slot(const void* name) noexcept:
    # libxml2's names are allocated apart, 16 bytes aligned at least: the bits above the alignment.
    return (<uintptr_t>name >> 4) & (_RECENT - 1)


cdef _Tag _tag(xmlNode* c_node, frozenset block_tags):
    cdef _Tag entry
    cdef object key
    cdef Py_ssize_t slot = _recent_slot(c_node.name)
    if c_node.ns is NULL:
        if _recent_names[slot] == <const void*>c_node.name:
            entry = <_Tag><object>_recent_tags[slot]
            if strcmp(<const char*>c_node.name, entry.name) == 0:
                return entry
        key = <uintptr_t>c_node.name
        entry = _TAGS.get(key)
        if entry is not None and strcmp(<const char*>c_node.name, entry.name) == 0:
            _recent_names[slot] = <const void*>c_node.name
            _recent_tags[slot] = <PyObject*>entry
            return entry
    entry = _Tag()
    entry.tag = cetree.namespacedName(c_node)
    entry.name = <bytes><const char*>c_node.name
    entry.block = entry.tag in block_tags
    entry.link = entry.tag == "a"
    if c_node.ns is NULL:
        if len(_TAGS) >= _MAX_TAGS:
            memset(_recent_names, 0, sizeof(_recent_names))
            _TAGS.clear()
        _TAGS[<uintptr_t>c_node.name] = entry
        _recent_names[slot] = <const void*>c_node.name
        _recent_tags[slot] = <PyObject*>entry
    return entry


cdef class Nodes:
    """The elements of one walk, in document order, as a sequence whose lxml elements are made on
    access: a proxy costs about as much as the rest of the pass, and cold extraction asks for a few.

    It holds the walk's root, so the document lives as long as it does, but not the other elements:
    an element cut from the tree (``remove``, ``drop_tree``) after the walk may be freed with its
    subtree, and reading it here would read freed memory.  Use it only while the tree is unchanged
    (``walk(..., proxies=False)`` says the same).

    Its fields are declared in _walk.pxd, for the native modules that read the nodes.
    """

    def __dealloc__(self):
        free(self.nodes)
        free(self.class_attr)
        free(self.id_attr)

    cdef int append(self, xmlNode* c_node) except -1:
        cdef xmlNode** grown
        cdef tree.xmlAttr** classes
        cdef tree.xmlAttr** ids
        if self.n == self.capacity:
            self.capacity = self.capacity * 2 if self.capacity else 256
            grown = <xmlNode**>realloc(self.nodes, self.capacity * sizeof(xmlNode*))
            if grown is NULL:
                raise MemoryError()
            self.nodes = grown
            if self.marking is not None:
                classes = <tree.xmlAttr**>realloc(self.class_attr, self.capacity * sizeof(tree.xmlAttr*))
                if classes is NULL:
                    raise MemoryError()
                self.class_attr = classes
                ids = <tree.xmlAttr**>realloc(self.id_attr, self.capacity * sizeof(tree.xmlAttr*))
                if ids is NULL:
                    raise MemoryError()
                self.id_attr = ids
        self.nodes[self.n] = c_node
        self.n += 1
        return 0

    cdef int scan(self, xmlNode* c_node, const bint* initial, list encoded) except -1:
        # The attributes of the element just appended, read while its node is at hand.
        cdef tree.xmlAttr* c_attr = c_node.properties
        cdef tree.xmlAttr* cls = NULL
        cdef tree.xmlAttr* ident = NULL
        cdef const char* name
        cdef bint mark = False
        while c_attr is not NULL:
            if c_attr.ns is NULL:
                name = <const char*>c_attr.name
                if _named(name, "class"):
                    if cls is NULL:
                        cls = c_attr
                elif _named(name, "id"):
                    if ident is NULL:
                        ident = c_attr
                elif not mark and initial[<unsigned char>name[0]] and _marking(name, encoded):
                    mark = True
            c_attr = c_attr.next
        self.class_attr[self.n - 1] = cls
        self.id_attr[self.n - 1] = ident
        if mark:
            self.marked.append(self.n - 1)
        return 0

    def __len__(self):
        return self.n

    def __getitem__(self, index):
        cdef Py_ssize_t i
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(self.n))]
        i = index
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError("element index out of range")
        return cetree.elementFactory(self.doc, self.nodes[i])

    def __iter__(self):
        cdef Py_ssize_t i
        for i in range(self.n):
            yield self[i]

    def __reversed__(self):
        cdef Py_ssize_t i
        for i in range(self.n - 1, -1, -1):
            yield self[i]

    def __contains__(self, element):
        return any(e is element for e in self)

    def index(self, element):
        for i, e in enumerate(self):
            if e is element:
                return i
        raise ValueError("not an element of this walk")

    def count(self, element):
        return int(element in self)

    def __eq__(self, other):
        try:
            return len(self) == len(other) and all(a is b for a, b in zip(self, other))
        except TypeError:
            return NotImplemented

    def attributes(self):
        """Each element's attributes as a dict, as ``dict(element.items())`` gives them."""
        cdef Py_ssize_t i
        return [_attributes(self.nodes[i]) for i in range(self.n)]


cdef dict _attributes(xmlNode* c_node):
    # dict(lxml's items()), which is dict(collectAttributes(c_node, 3)); most elements have none.  An
    # attribute's value is read from its one text node where it has one, as lxml's attributeValue
    # reads it but without xmlGetNsProp's search and copy, and no list of pairs is made first
    # (the marked elements' attributes, read for every page, cost a fifth of the walk); any other
    # attribute (no text node, several, a namespace) is read by lxml.
    cdef dict out = {}
    cdef tree.xmlAttr* c_attr = c_node.properties
    cdef xmlNode* text
    while c_attr is not NULL:
        if c_attr.ns is not NULL:
            return dict(cetree.collectAttributes(c_node, 3))
        text = c_attr.children
        if text is not NULL and text.next is NULL and text.content is not NULL \
                and (text.type == tree.XML_TEXT_NODE or text.type == tree.XML_CDATA_SECTION_NODE):
            value = (<const char*>text.content).decode("utf-8")
        else:
            value = cetree.attributeValue(c_node, c_attr)
        out[(<const char*>c_attr.name).decode("utf-8")] = value
        c_attr = c_attr.next
    return out


Sequence.register(Nodes)


cdef inline bint _named(const char* name, const char* target) noexcept nogil:
    return strcmp(name, target) == 0


cdef inline bint _marking(const char* name, list marking) noexcept:
    # Whether ``name`` is one of the marking names (their UTF-8 bytes), compared in C.
    cdef bytes candidate
    for candidate in marking:
        if strcmp(name, <const char*>candidate) == 0:
            return True
    return False


cdef int _read_names(xmlNode* c_node, list marking, const bint* initial, bint names, list classes, list ids, list marked,
                     dict marked_attributes, Py_ssize_t i) except -1:
    cdef tree.xmlAttr* c_attr = c_node.properties
    cdef const char* name
    cls = ""
    ident = ""
    cdef bint mark = False
    while c_attr is not NULL:
        if c_attr.ns is NULL:
            name = <const char*>c_attr.name
            # What dict(element.items()) would hold under "class" and "id" (the last such attribute).
            if _named(name, "class"):
                if names:
                    cls = cetree.attributeValue(c_node, c_attr)
            elif _named(name, "id"):
                if names:
                    ident = cetree.attributeValue(c_node, c_attr)
            elif not mark and initial[<unsigned char>name[0]] and _marking(name, marking):
                mark = True
        c_attr = c_attr.next
    if names:
        classes.append(cls or "")
        ids.append(ident or "")
    if mark:
        marked.append(i)
        marked_attributes[i] = _attributes(c_node)
    return 0


cdef void _initials(frozenset marking, bint* initial):
    # The first bytes of the marking names: most attributes (href, src, alt) are told apart by it, in C.
    cdef Py_ssize_t i
    for i in range(256):
        initial[i] = False
    for name in marking:
        initial[(<str>name).encode("utf-8")[0]] = True


def read_names(elements, frozenset marking not None, bint names=True):
    """One pass over the attributes of ``elements`` (a :class:`Nodes` or a list of lxml elements):
    each element's ``class`` and ``id`` (``""`` without; with ``names`` only, else both lists are
    empty), the indices of the elements with an attribute named in ``marking``, and those
    elements' attributes as dicts (``dict(e.items())``)."""
    cdef list classes = [], ids = [], marked = []
    cdef list encoded = [(<str>name).encode("utf-8") for name in marking]
    cdef dict marked_attributes = {}
    cdef Py_ssize_t i
    cdef Nodes nodes
    cdef cetree._Element element
    cdef bint initial[256]
    _initials(marking, initial)
    if isinstance(elements, Nodes) and not names and (<Nodes>elements).marking == marking:
        # The walk found the marked elements: only their attributes are left to read.
        nodes = <Nodes>elements
        for i in nodes.marked:
            marked_attributes[i] = _attributes(nodes.nodes[i])
        return classes, ids, list(nodes.marked), marked_attributes
    if isinstance(elements, Nodes):
        nodes = <Nodes>elements
        for i in range(nodes.n):
            _read_names(nodes.nodes[i], encoded, initial, names, classes, ids, marked, marked_attributes, i)
    else:
        for i, element in enumerate(elements):
            _read_names(element._c_node, encoded, initial, names, classes, ids, marked, marked_attributes, i)
    return classes, ids, marked, marked_attributes


def attributes_of(list elements not None):
    """``[dict(e.items()) for e in elements]``, read from libxml2's nodes."""
    cdef cetree._Element element
    return [_attributes(element._c_node) for element in elements]


def flatten(root, frozenset block_tags not None, block_class, bint keep_pieces=False, bint proxies=True, frozenset marking=None,
            bint counts=False):
    """PageTree's fields for the subtree of ``root`` (an lxml element), as a tuple:
    (elements, tags, parent, depth, position, n_children, own_chars, own_link_chars, own_words,
    last, blocks, owner, pieces), and with ``counts`` two more: PageTree.block_counts (each block's
    characters, words and link characters, rows of int64: ``len(text)``, ``text.count(" ") + 1`` and
    ``link_chars``, counted as the texts are written) and the blocks' texts, in a list.

    ``elements`` is the list of every element's lxml proxy with ``proxies``, else a
    :class:`Nodes` (proxies made on access).  Given ``marking`` (and no ``proxies``), the walk also
    reads each element's attributes as it enters it: its class and id nodes, and whether it has
    an attribute named in ``marking`` (read_names and the features then take those from the Nodes
    instead of reading every element's attributes again)."""
    cdef cetree._Element top = <cetree._Element?>root
    cdef cetree._Document doc = top._doc
    cdef xmlNode* c_root = top._c_node
    cdef xmlNode* c_node = c_root
    cdef xmlNode* child
    cdef _Pass p = _Pass()
    cdef Grow stack  # element index at each depth of the open elements
    cdef int64_t i = 0, d = 0, up, n
    cdef bint block, link
    cdef Nodes nodes = None if proxies else Nodes()
    cdef list made = [] if proxies else None
    cdef list tags = []
    cdef _Tag entry
    cdef bint initial[256]
    cdef list encoded = None
    if nodes is not None and marking is not None:
        nodes.marking = marking
        nodes.marked = []
        encoded = [(<str>name).encode("utf-8") for name in marking]
        _initials(marking, initial)
    stack.data = NULL
    stack.size = stack.capacity = 0
    p.keep_pieces = keep_pieces
    p.block_class = block_class
    p.plain_blocks = isinstance(block_class, type) and _plain_fields(block_class, _BLOCK_FIELDS)
    p.slotted_blocks = p.plain_blocks and _slots_of(block_class, _BLOCK_FIELDS, p.block_slots)
    if c_root.type != tree.XML_ELEMENT_NODE:
        raise TypeError("flatten() needs an element")
    try:
        while True:
            # Enter c_node: element i at depth d.
            entry = _tag(c_node, block_tags)
            tags.append(entry.tag)
            block = entry.block
            link = entry.link
            if proxies:
                made.append(cetree.elementFactory(doc, c_node))
            else:
                nodes.append(c_node)
                if encoded is not None:
                    nodes.scan(c_node, initial, encoded)
            up = stack.data[d - 1] if d > 0 else -1
            _push(&p.parent, up)
            _push(&p.depth, d)
            _push(&p.n_children, 0)
            _push(&p.own_chars, 0)
            _push(&p.own_link_chars, 0)
            _push(&p.own_words, 0)
            _push(&p.last, i)
            _push(&p.is_block, block)
            if up >= 0:
                _push(&p.position, p.n_children.data[up])
                p.n_children.data[up] += 1
                _push(&p.in_link, link or p.in_link.data[up])
                _push(&p.block_owner, i if block else p.block_owner.data[up])
            else:
                _push(&p.position, 0)
                _push(&p.in_link, link)
                _push(&p.block_owner, 0)
            if stack.size <= d:
                _push(&stack, i)
            else:
                stack.data[d] = i
            if block:
                p.boundary(p.block_owner.data[up] if up >= 0 else 0)
            p.run(i, c_node, False)
            i += 1
            child = _next_element(c_node.children)
            if child is not NULL:
                c_node = child
                d += 1
                continue
            # Leave elements until one has a next sibling element.
            while True:
                n = stack.data[d]
                p.last.data[n] = i - 1
                if p.is_block.data[n]:
                    p.boundary(n)
                if d == 0:
                    break
                p.run(stack.data[d - 1], c_node, True)
                child = _next_element(c_node.next)
                if child is not NULL:
                    break
                c_node = c_node.parent
                d -= 1
            if d == 0:
                break
            c_node = child
        p.boundary(0)  # the final flush: the body's
    finally:
        free(stack.data)
    if not proxies:
        nodes.doc = doc
        nodes.root = root
    fields = (
        made if proxies else nodes, tags, _array(&p.parent), _array(&p.depth), _array(&p.position), _array(&p.n_children),
        _array(&p.own_chars), _array(&p.own_link_chars), _array(&p.own_words), _array(&p.last),
        p.blocks, _array(&p.owner), p.pieces,
    )
    if not counts:
        return fields
    block_counts = np.empty((3, p.block_chars.size), dtype=np.int64)
    cdef int64_t[:, ::1] rows = block_counts
    if p.block_chars.size:
        memcpy(&rows[0, 0], p.block_chars.data, p.block_chars.size * sizeof(int64_t))
        memcpy(&rows[1, 0], p.block_words.data, p.block_words.size * sizeof(int64_t))
        memcpy(&rows[2, 0], p.block_links.data, p.block_links.size * sizeof(int64_t))
    return fields + (block_counts, p.texts)


def child_sums(const int64_t[::1] parent not None, const double[:, ::1] values not None):
    """Row ``p`` of the result is the sum of the rows of ``values`` of p's children, added in
    document order from zero: what the children matrix's product (scipy's CSR times dense) gives,
    to the bit, without building the matrix.  ``parent`` is PageTree.parent (-1 for the root)."""
    cdef Py_ssize_t n = values.shape[0], width = values.shape[1], c, k
    cdef int64_t p
    if parent.shape[0] != n:
        raise ValueError("parent and values differ in length")
    out = np.zeros((n, width), dtype=np.float64)
    cdef double[:, ::1] sums = out
    with nogil:
        for c in range(n):
            p = parent[c]
            if p < 0:
                continue
            for k in range(width):
                sums[p, k] += values[c, k]
    return out


def count_nodes(root, Py_ssize_t limit):
    """How many nodes ``root.iter()`` gives (the root, then its descendants: elements, comments,
    processing instructions and entity references), counted up to ``limit + 1``: lxml's traversal
    (``BEGIN_FOR_EACH_ELEMENT_FROM``) without a proxy per node."""
    cdef cetree._Element top = <cetree._Element?>root
    cdef xmlNode* c_top = top._c_node
    cdef xmlNode* c_node = c_top
    cdef xmlNode* following
    cdef Py_ssize_t count = 0
    if limit < 0:
        raise ValueError("limit must not be negative")
    while c_node is not NULL:
        count += 1
        if count > limit:
            break
        # Children first (not an entity reference's or a DTD's), then the next sibling, then up.
        following = c_node.children
        if following is not NULL and (c_node.type == tree.XML_ENTITY_REF_NODE or c_node.type == tree.XML_DTD_NODE):
            following = NULL
        following = _next_matching(following)
        if following is NULL and c_node is not c_top:
            following = _next_matching(c_node.next)
            while following is NULL:
                c_node = c_node.parent
                if c_node is NULL or c_node is c_top or not _is_iterated(c_node):
                    break
                following = _next_matching(c_node.next)
        c_node = following
    return count


cdef inline bint _is_iterated(xmlNode* c_node) noexcept nogil:
    # lxml's _isElement: what iter() gives.
    return (c_node.type == tree.XML_ELEMENT_NODE or c_node.type == tree.XML_COMMENT_NODE
            or c_node.type == tree.XML_ENTITY_REF_NODE or c_node.type == tree.XML_PI_NODE)


cdef inline xmlNode* _next_matching(xmlNode* c_node) noexcept nogil:
    while c_node is not NULL and not _is_iterated(c_node):
        c_node = c_node.next
    return c_node


_PREDICTION_FIELDS = ("index", "block", "element", "probability", "is_content")


def predictions(type cls not None, list blocks not None, elements, list owners not None, list probability not None,
                list content not None):
    """``[cls(j, blocks[j], elements[owners[j]], probability[j], content[j]) for j ...]``: the
    classifier's BlockPredictions, each owner's element made once, without running the frozen
    dataclass's __init__ when it only stores the fields (else through it)."""
    cdef Py_ssize_t n = len(blocks), j
    cdef dict made = {}
    cdef list out = []
    cdef bint plain = _plain_fields(cls, _PREDICTION_FIELDS)
    cdef Py_ssize_t slots[_MAX_FIELDS]
    cdef bint slotted = plain and _slots_of(cls, _PREDICTION_FIELDS, slots)
    if len(owners) != n or len(probability) != n or len(content) != n:
        raise ValueError("blocks, owners, probability and content differ in length")
    for j in range(n):
        owner = owners[j]
        element = made.get(owner)
        if element is None:
            element = made[owner] = elements[owner]
        if slotted:
            prediction = _new(cls)
            _store(prediction, slots[0], j)
            _store(prediction, slots[1], blocks[j])
            _store(prediction, slots[2], element)
            _store(prediction, slots[3], probability[j])
            _store(prediction, slots[4], content[j])
            out.append(prediction)
        elif plain:
            out.append(_made(cls, _PREDICTION_FIELDS, (j, blocks[j], element, probability[j], content[j])))
        else:
            out.append(cls(j, blocks[j], element, probability[j], content[j]))
    return out


cdef void _first_bytes(list encoded, bint* initial):
    # The first bytes of names (UTF-8 bytes; an empty name's is its terminating 0, as strcmp reads it).
    cdef Py_ssize_t i
    cdef bytes name
    for i in range(256):
        initial[i] = False
    for name in encoded:
        initial[<unsigned char>(<const char*>name)[0]] = True


def marked_elements(root, tuple attributes not None, tuple tags not None):
    """The elements of ``root.iter(etree.Element)`` (``root``, then its descendants, in document
    order) that carry an attribute named in ``attributes`` or whose tag is in ``tags`` (both str,
    matched as ``element.get(name) is not None`` and ``element.tag == tag`` match them: no
    namespace), found in C with a proxy made for those alone: a proxy and two ``get()`` per element
    cost more than the search a caller makes of the few that carry one (forest.metadata's places)."""
    cdef cetree._Element top = <cetree._Element?>root
    cdef cetree._Document doc = top._doc
    cdef xmlNode* c_top = top._c_node
    cdef xmlNode* c_node = c_top
    cdef tree.xmlAttr* c_attr
    cdef list names = [(<str>name).encode("utf-8") for name in attributes]
    cdef list tag_names = [(<str>tag).encode("utf-8") for tag in tags]
    cdef list found = []
    cdef bint hit
    # The names' and the tags' first bytes: most attributes (class, href, src) and tags are told apart by
    # them in C, where each was compared with every name in a loop over the list (most of the walk's time).
    cdef bint initial[256]
    cdef bint tag_initial[256]
    _first_bytes(names, initial)
    _first_bytes(tag_names, tag_initial)
    while c_node is not NULL:
        if c_node.type == tree.XML_ELEMENT_NODE:
            hit = c_node.ns is NULL and tag_initial[<unsigned char>c_node.name[0]] and _marking(<const char*>c_node.name, tag_names)
            c_attr = c_node.properties
            while not hit and c_attr is not NULL:
                hit = c_attr.ns is NULL and initial[<unsigned char>c_attr.name[0]] and _marking(<const char*>c_attr.name, names)
                c_attr = c_attr.next
            if hit:
                found.append(cetree.elementFactory(doc, c_node))
        c_node = _next_in(c_node, c_top)
    return found


def elements_holding(root, tuple attributes not None, tuple parts not None):
    """The descendants of ``root`` (not ``root``), in document order, with an attribute named in
    ``attributes`` whose value holds one of ``parts`` (ASCII str, matched case-sensitively): the XPath
    ``.//*[contains(@a, 'p') or ...]``'s elements, found in C with a proxy made for those alone.  The
    XPath's test of every element's attributes as strings cost a large product page three parses
    (forest.extraction.reviews)."""
    cdef cetree._Element top = <cetree._Element?>root
    cdef cetree._Document doc = top._doc
    cdef xmlNode* c_top = top._c_node
    cdef xmlNode* c_node = c_top.children
    cdef xmlNode* child
    cdef tree.xmlAttr* c_attr
    cdef list names = [(<str>name).encode("utf-8") for name in attributes]
    cdef list wanted = [(<str>text).encode("ascii") for text in parts]
    cdef list found = []
    cdef bytes part
    cdef bint hit
    while c_node is not NULL:
        if c_node.type == tree.XML_ELEMENT_NODE:
            hit = False
            c_attr = c_node.properties
            while not hit and c_attr is not NULL:
                if c_attr.ns is NULL and _marking(<const char*>c_attr.name, names):
                    child = c_attr.children
                    if child is not NULL and child.next is NULL and _is_text(child) and child.content is not NULL:
                        # The value as libxml2 holds it (an HTML page's always): one text node.
                        for part in wanted:
                            if strstr(<const char*>child.content, <const char*>part) is not NULL:
                                hit = True
                                break
                    elif child is not NULL:
                        value = cetree.attributeValue(c_node, c_attr)
                        hit = any(p in value for p in parts)
                c_attr = c_attr.next
            if hit:
                found.append(cetree.elementFactory(doc, c_node))
        c_node = _next_in(c_node, c_top)
    return found


def unseen_boxes(root, tuple tags not None, seen not None, names_of not None):
    """The outermost descendants of ``root`` whose tag is one of ``tags`` and that hold text, none of whose
    names (``names_of(tag, element.get("class"))``, for a non-empty class) is in ``seen``, and that have at
    least one: forest.region.unseen_parts's walk in C, with a proxy made for the boxes found alone (the
    Python walk made one for every box of the region and for every element inside each box found)."""
    cdef cetree._Element top = <cetree._Element?>root
    cdef cetree._Document doc = top._doc
    cdef xmlNode* c_top = top._c_node
    cdef xmlNode* c_node = c_top.children
    cdef tree.xmlAttr* c_attr
    cdef list tag_names = [(<str>tag).encode("utf-8") for tag in tags]
    cdef list found = []
    cdef Py_ssize_t k
    while c_node is not NULL:
        if c_node.type == tree.XML_ELEMENT_NODE:
            k = _tag_index(c_node, tag_names) if c_node.ns is NULL else -1
            if k >= 0:
                c_attr = _attribute(c_node, "class")
                value = _attribute_text(c_node, c_attr) if c_attr is not NULL else None
                if value:
                    names = names_of(tags[k], value)
                    if names and not any(name in seen for name in names) and _shows_text(c_node):
                        found.append(cetree.elementFactory(doc, c_node))
                        c_node = _after_subtree(c_node, c_top)  # inside a box found: no other is outermost
                        continue
        c_node = _next_in(c_node, c_top)
    return found


cdef inline Py_ssize_t _tag_index(xmlNode* c_node, list tag_names) noexcept:
    # Which of the tags (their UTF-8 bytes) names the element; -1 for none.
    cdef Py_ssize_t k
    for k in range(len(tag_names)):
        if strcmp(<const char*>c_node.name, <const char*><bytes>tag_names[k]) == 0:
            return k
    return -1


cdef object _attribute_text(xmlNode* c_node, tree.xmlAttr* c_attr):
    # element.get()'s value of the attribute: its one text node's content (an HTML page's always), else lxml's reading.
    cdef xmlNode* child = c_attr.children
    if child is NULL:
        return ""
    if child.next is NULL and _is_text(child) and child.content is not NULL:
        return PyUnicode_DecodeUTF8(<const char*>child.content, strlen(<const char*>child.content), NULL)
    return cetree.attributeValue(c_node, c_attr)


cdef bint _shows_text(xmlNode* c_top) except -1:
    # Whether a text or CDATA node inside the element holds a character that is not a space (str.isspace):
    # ``any(text.strip() for text in element.itertext())``.  ASCII bytes are told in C; a text with other
    # bytes is decoded and asked.
    cdef xmlNode* c_node = c_top.children
    cdef const unsigned char* content
    cdef unsigned char c
    cdef Py_ssize_t i
    while c_node is not NULL:
        if _is_text(c_node) and c_node.content is not NULL:
            content = <const unsigned char*>c_node.content
            i = 0
            while content[i] != 0:
                c = content[i]
                if c >= 128:
                    text = PyUnicode_DecodeUTF8(<const char*>content, strlen(<const char*>content), NULL)
                    if not text.isspace():
                        return True
                    break
                if not (c == 32 or 9 <= c <= 13 or 28 <= c <= 31):
                    return True
                i += 1
        c_node = _next_in(c_node, c_top)
    return False


cdef inline bint _is_body(xmlNode* c_node) noexcept nogil:
    return c_node.type == tree.XML_ELEMENT_NODE and c_node.ns is NULL and strcmp(<const char*>c_node.name, "body") == 0


cdef inline Py_ssize_t _normalized_length(const unsigned char* text) noexcept nogil:
    # string-length(normalize-space(.)) of UTF-8 ``text``: its characters (bytes that do not continue
    # one) outside XPath's whitespace (space, tab, CR, LF), plus one space between each two runs of them.
    cdef Py_ssize_t length = 0
    cdef bint gap = False
    cdef unsigned char c
    while text[0] != 0:
        c = text[0]
        if c == 32 or c == 9 or c == 13 or c == 10:
            gap = length > 0
        elif (c & 0xC0) != 0x80:
            length += 1 + gap
            gap = False
        text += 1
    return length


cdef inline Py_ssize_t _solid_ascii(const unsigned char* text) noexcept nogil:
    # The ASCII characters of UTF-8 ``text`` that str.split() does not split on (its ASCII whitespace:
    # tab, LF, VT, FF, CR, the four separators U+001C-U+001F and space).
    cdef Py_ssize_t count = 0
    cdef unsigned char c
    while text[0] != 0:
        c = text[0]
        count += c < 0x80 and not (9 <= c <= 13 or 28 <= c <= 32)
        text += 1
    return count


def body_texts(root, Py_ssize_t shortest, Py_ssize_t longest=-1):
    """The texts of ``//body//text()[string-length(normalize-space(.)) >= shortest]`` in the
    document of ``root``, as str, in document order: the text (and CDATA) nodes inside a ``<body>``
    (any, in no namespace) whose text, whitespace-normalized as XPath does it, has at least
    ``shortest`` characters.  One walk in C, where libxml2's XPath made a string of every text
    node's normalized text and lxml a smart string of every one it returned.

    With ``longest`` (0 or more), only the texts with at most ``longest`` ASCII characters that
    str.split() does not split on: a text with more is no str of ``longest`` characters once split
    and joined (whatever its other characters), and a caller that looks for such strs (a page's
    headline) is spared a str of every paragraph."""
    cdef cetree._Element top = <cetree._Element?>root
    cdef xmlNode* c_node = top._c_node
    cdef Py_ssize_t inside = 0
    cdef list found = []
    cdef const char* content
    # The document's first node: XPath's // starts at the document, not at ``root``.
    while c_node.parent is not NULL and c_node.parent.type != tree.XML_DOCUMENT_NODE \
            and c_node.parent.type != tree.XML_HTML_DOCUMENT_NODE:
        c_node = c_node.parent
    if c_node.parent is not NULL:
        c_node = c_node.parent.children
    else:
        while c_node.prev is not NULL:
            c_node = c_node.prev
    while c_node is not NULL:
        if c_node.type == tree.XML_ELEMENT_NODE:
            if _is_body(c_node):
                inside += 1
            if c_node.children is not NULL:
                c_node = c_node.children
                continue
            if _is_body(c_node):
                inside -= 1
        elif inside and (c_node.type == tree.XML_TEXT_NODE or c_node.type == tree.XML_CDATA_SECTION_NODE):
            content = <const char*>c_node.content
            if content is not NULL and _normalized_length(<const unsigned char*>content) >= shortest \
                    and (longest < 0 or _solid_ascii(<const unsigned char*>content) <= longest):
                found.append(content.decode("utf-8"))
            elif content is NULL and shortest <= 0:
                found.append("")
        # The next sibling, else the next sibling of the nearest ancestor that has one (leaving each
        # ancestor climbed out of), up to the document.
        while c_node.next is NULL:
            c_node = c_node.parent
            if c_node is NULL or c_node.type == tree.XML_DOCUMENT_NODE or c_node.type == tree.XML_HTML_DOCUMENT_NODE:
                return found
            if _is_body(c_node):
                inside -= 1
        c_node = c_node.next
    return found
