# cython: language_level=3, boundscheck=False, wraparound=False
"""The text counts of forest.classifier.text in C: one scan of each text's characters.

Per text it counts what the regular expressions of the features' definition find, with the
predicates Python's ``re`` uses on str patterns (``\\w``: ``Py_UNICODE_ISALNUM`` or ``_``; ``\\s``:
``Py_UNICODE_ISSPACE``; ``\\d``: ``Py_UNICODE_ISDECIMAL``) and those of ``str.split``,
``str.isupper`` and ``str.rstrip``, so the counts are the regex counts exactly.  Stopwords are
looked up by their characters in a hash table (:class:`Stopwords`), without a str per token.  The
reference is ``tests/unit/test_native_text.py``'s ``reference_text_stats`` (the regular
expressions in Python), which it must equal on every text.

It reads no lxml struct: unlike the page pass, it does not depend on the lxml it was built with.
"""

cimport cython
from cpython.unicode cimport (
    PyUnicode_GET_LENGTH, PyUnicode_KIND, PyUnicode_DATA, PyUnicode_READ,
    Py_UNICODE_ISALNUM, Py_UNICODE_ISDECIMAL, Py_UNICODE_ISSPACE, Py_UNICODE_ISUPPER, Py_UNICODE_TOLOWER,
    PyUnicode_1BYTE_KIND,
)
from libc.math cimport ceil
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, malloc, free

import numpy as np

# The columns of text_stats, in order.
COLUMNS = ("chars", "words", "sentences", "punctuation", "stopwords", "tokens", "digits", "capitals", "ends")

# A character's classes, one bit each.
cdef enum:
    WORD = 1
    SPACE = 2
    DECIMAL = 4
    UPPER = 8

cdef uint8_t ASCII[128]


cdef inline uint8_t _classes(Py_UCS4 c) noexcept:
    if c < 128:
        return ASCII[c]
    return ((WORD if Py_UNICODE_ISALNUM(c) else 0) | (SPACE if Py_UNICODE_ISSPACE(c) else 0)
            | (DECIMAL if Py_UNICODE_ISDECIMAL(c) else 0) | (UPPER if Py_UNICODE_ISUPPER(c) else 0))


# A Latin-1 character's classes and lower case (str.lower() keeps Latin-1 text in Latin-1, one
# character for one, and every character's \w class): text_stats reads such a text from its bytes.
cdef uint8_t LATIN1[256]
cdef uint8_t LOWER1[256]


def _init_ascii() -> None:
    cdef Py_UCS4 c
    for c in range(128):
        ASCII[c] = ((WORD if Py_UNICODE_ISALNUM(c) or c == u"_" else 0) | (SPACE if Py_UNICODE_ISSPACE(c) else 0)
                    | (DECIMAL if Py_UNICODE_ISDECIMAL(c) else 0) | (UPPER if Py_UNICODE_ISUPPER(c) else 0))
    for c in range(256):
        LATIN1[c] = _classes(c)
        LOWER1[c] = <uint8_t>ord(chr(c).lower())


_init_ascii()


cdef inline bint _is_mark(Py_UCS4 c) noexcept:
    return c == u"." or c == u"!" or c == u"?"


cdef inline Py_UCS4 _fold(Py_UCS4 c) noexcept:
    # A character of str.lower()'s result, where that is one character and depends on this one alone:
    # Unicode's simple lower case mapping.  Only U+0130 lowers to two characters and only U+03A3
    # depends on its neighbours (a final sigma): text_stats reads a text holding either by lower().
    if c < 128:
        return <Py_UCS4>(<uint32_t>c + 32) if u"A" <= c <= u"Z" else c
    return Py_UNICODE_TOLOWER(c)


cdef inline uint64_t _mix(uint64_t h, Py_UCS4 c) noexcept:
    # FNV-1a over code points.
    return (h ^ <uint64_t>c) * 1099511628211ULL


# A slot of Stopwords' open-addressing table: its word's first character in ``chars`` (-1: empty) and
# its length, side by side, where two arrays of Py_ssize_t cost a lookup two cache lines (the table,
# some 8,000 slots for the shipped 1,261 words, is no longer in cache when a page's text is read).
ctypedef struct _Slot:
    int32_t start
    int32_t length


cdef class Stopwords:
    """A set of words that a stretch of a str's characters is looked up in, without making a str of it."""

    cdef Py_UCS4* chars  # every word's characters, one word after another
    cdef _Slot* slots
    # One bit per slot: whether some word's hash starts its probe there.  A token whose slot's bit is
    # clear is no word, found without reading the table (most tokens that are no stopword: 1 KB that stays in cache).
    cdef uint64_t* homes
    cdef Py_ssize_t mask
    cdef readonly Py_ssize_t longest
    cdef readonly frozenset words

    def __cinit__(self, words):
        self.words = frozenset(words)
        cdef Py_ssize_t total = 0, slots = 8, at = 0, i, slot
        cdef uint64_t h
        cdef Py_UCS4 c
        cdef str word
        for word in self.words:
            total += PyUnicode_GET_LENGTH(word)
            self.longest = max(self.longest, PyUnicode_GET_LENGTH(word))
        while slots < 4 * len(self.words):
            slots *= 2
        self.mask = slots - 1
        if total >= 2**31:
            raise ValueError("stopwords of over 2**31 characters in all")
        self.chars = <Py_UCS4*>malloc(max(total, 1) * sizeof(Py_UCS4))
        self.slots = <_Slot*>malloc(slots * sizeof(_Slot))
        self.homes = <uint64_t*>calloc((slots + 63) // 64, sizeof(uint64_t))
        if self.chars is NULL or self.slots is NULL or self.homes is NULL:
            raise MemoryError()
        for slot in range(slots):
            self.slots[slot].start = -1
        for word in self.words:
            h = 14695981039346656037ULL
            for i in range(PyUnicode_GET_LENGTH(word)):
                c = PyUnicode_READ(PyUnicode_KIND(word), PyUnicode_DATA(word), i)
                self.chars[at + i] = c
                h = _mix(h, c)
            slot = h & self.mask
            self.homes[slot >> 6] |= (<uint64_t>1) << (slot & 63)
            while self.slots[slot].start >= 0:
                slot = (slot + 1) & self.mask
            self.slots[slot].start = <int32_t>at
            self.slots[slot].length = <int32_t>PyUnicode_GET_LENGTH(word)
            at += PyUnicode_GET_LENGTH(word)

    def __dealloc__(self):
        free(self.chars)
        free(self.slots)
        free(self.homes)

    def __contains__(self, str word) -> bool:
        return self._has(PyUnicode_KIND(word), PyUnicode_DATA(word), 0, PyUnicode_GET_LENGTH(word), False)

    cdef bint _has(self, int kind, const void* data, Py_ssize_t begin, Py_ssize_t end, bint fold) noexcept:
        # Whether characters [begin, end) of a str's data are a word; ``fold``: read them lower-cased (_fold).
        cdef uint64_t h = 14695981039346656037ULL
        cdef Py_ssize_t i, slot, n = end - begin
        cdef Py_UCS4 c
        if n > self.longest:
            return False
        for i in range(begin, end):
            c = PyUnicode_READ(kind, data, i)
            if fold:
                c = _fold(c)
            h = _mix(h, c)
        slot = h & self.mask
        if not self.homes[slot >> 6] & ((<uint64_t>1) << (slot & 63)):
            return False
        while self.slots[slot].start >= 0:
            if self.slots[slot].length == n:
                for i in range(n):
                    c = PyUnicode_READ(kind, data, begin + i)
                    if fold:
                        c = _fold(c)
                    if self.chars[self.slots[slot].start + i] != c:
                        break
                else:
                    return True
            slot = (slot + 1) & self.mask
        return False

    cdef bint _has_latin1(self, const uint8_t* data, Py_ssize_t begin, Py_ssize_t end, uint64_t h) noexcept nogil:
        # _has of Latin-1 characters [begin, end) read lower-cased, whose hash ``h`` the caller mixed as it read them.
        cdef Py_ssize_t i, slot = h & self.mask, n = end - begin
        if not self.homes[slot >> 6] & ((<uint64_t>1) << (slot & 63)):
            return False
        while self.slots[slot].start >= 0:
            if self.slots[slot].length == n:
                for i in range(n):
                    if self.chars[self.slots[slot].start + i] != LOWER1[data[begin + i]]:
                        break
                else:
                    return True
            slot = (slot + 1) & self.mask
        return False


cdef void _tokens(str text, Stopwords stopwords, bint fold, double* tokens, double* stops) noexcept:
    # The \w+ runs of ``text`` (read lower-cased, by _fold, when ``fold``), and those that are stopwords.
    cdef Py_ssize_t j, length = PyUnicode_GET_LENGTH(text), begin = -1
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_UCS4 c
    for j in range(length + 1):
        if j < length:
            c = PyUnicode_READ(kind, data, j)
            if fold and c >= 128:
                # (A-Z keep their class lower-cased: only the stopword lookup folds them.)
                c = Py_UNICODE_TOLOWER(c)
        if j < length and _classes(c) & WORD:
            if begin < 0:
                begin = j
        elif begin >= 0:
            tokens[0] += 1
            stops[0] += stopwords._has(kind, data, begin, j, fold)
            begin = -1


cdef void _latin1_row(const uint8_t* data, Py_ssize_t length, Stopwords stopwords, str endings, double* row) noexcept:
    # text_stats' counts of a Latin-1 text (one byte a character), in one pass: its words and its
    # \w+ tokens (lower case keeps each character's class), each token's stopword hash mixed as it is read.
    cdef Py_ssize_t j, last = -1, begin = -1
    cdef uint8_t c, classes
    cdef bint in_word = False
    cdef double words = 0, sentences = 0, punctuation = 0, digits = 0, capitals = 0, tokens = 0, stops = 0
    cdef uint64_t h = 0
    for j in range(length):
        c = data[j]
        classes = LATIN1[c]
        if not classes & SPACE:
            last = j
            if not in_word:
                words += 1
                capitals += (classes & UPPER) != 0
            if not classes & WORD:
                punctuation += 1
                if _is_mark(c) and (j + 1 == length or LATIN1[data[j + 1]] & SPACE):
                    sentences += 1
            digits += (classes & DECIMAL) != 0
        in_word = not classes & SPACE
        if classes & WORD:
            if begin < 0:
                begin = j
                h = 14695981039346656037ULL
            h = _mix(h, LOWER1[c])
        elif begin >= 0:
            tokens += 1
            if j - begin <= stopwords.longest:
                stops += stopwords._has_latin1(data, begin, j, h)
            begin = -1
    if begin >= 0:
        tokens += 1
        if length - begin <= stopwords.longest:
            stops += stopwords._has_latin1(data, begin, length, h)
    row[0] = length
    row[1] = words
    row[2] = sentences
    row[3] = punctuation
    row[4] = stops
    row[5] = tokens
    row[6] = digits
    row[7] = capitals
    if last >= 0:
        for j in range(PyUnicode_GET_LENGTH(endings)):
            if PyUnicode_READ(PyUnicode_KIND(endings), PyUnicode_DATA(endings), j) == data[last]:
                row[8] = 1
                break


def text_stats(list texts, Stopwords stopwords, str endings):
    """Raw counts per text (float64, one row each, the COLUMNS):

    ``len(text)``; ``len(text.split())``; the matches of ``[.!?]+(?=\\s|$)``, of ``[^\\w\\s]`` and
    of ``\\d``; of the ``\\w+`` tokens of ``text.lower()``, those among ``stopwords`` and all of
    them; the words whose first character is upper case; and whether ``text.rstrip()`` ends with
    one of the characters of ``endings``.
    """
    cdef Py_ssize_t n = len(texts), i, j, length, last
    cdef int kind
    cdef void* data
    cdef Py_UCS4 c
    cdef uint8_t classes
    cdef bint in_word, contextual
    cdef double words, sentences, punctuation, stops, tokens, digits, capitals
    cdef str text
    out = np.zeros((n, 9))
    cdef double[:, ::1] stats = out
    for i in range(n):
        text = texts[i]
        length = PyUnicode_GET_LENGTH(text)
        kind = PyUnicode_KIND(text)
        data = PyUnicode_DATA(text)
        if kind == PyUnicode_1BYTE_KIND:
            # Most texts: ASCII or Latin-1, one pass over their bytes.
            _latin1_row(<const uint8_t*>data, length, stopwords, endings, &stats[i, 0])
            continue
        words = sentences = punctuation = digits = capitals = 0
        in_word = False
        last = -1  # the last character that is not whitespace
        for j in range(length):
            c = PyUnicode_READ(kind, data, j)
            classes = _classes(c)
            if not classes & SPACE:
                last = j
                if not in_word:
                    words += 1
                    capitals += (classes & UPPER) != 0
                if not classes & WORD:
                    punctuation += 1
                    # The end of a run of marks, followed by whitespace or the end.
                    if _is_mark(c) and (j + 1 == length or _classes(PyUnicode_READ(kind, data, j + 1)) & SPACE):
                        sentences += 1
                digits += (classes & DECIMAL) != 0
            in_word = not classes & SPACE
        stats[i, 0] = length
        stats[i, 1] = words
        stats[i, 2] = sentences
        stats[i, 3] = punctuation
        stats[i, 6] = digits
        stats[i, 7] = capitals
        if last >= 0:
            c = PyUnicode_READ(kind, data, last)
            for j in range(PyUnicode_GET_LENGTH(endings)):
                if PyUnicode_READ(PyUnicode_KIND(endings), PyUnicode_DATA(endings), j) == c:
                    stats[i, 8] = 1
                    break
        # Tokens are read from the lower-cased text: lower() may change a character's class (each
        # is read lower-cased, by _fold), the text's length (U+0130 becomes "i" and a combining dot)
        # and a character by its neighbours (a final sigma).  A text without those two is read
        # folded, in place: lower() made a str of every text beyond ASCII, a third of this count's time.
        tokens = stops = 0
        # Both are beyond Latin-1: only a text of wider characters is searched for them.
        contextual = False
        if kind != PyUnicode_1BYTE_KIND:
            for j in range(length):
                c = PyUnicode_READ(kind, data, j)
                if c == 0x130 or c == 0x3A3:
                    contextual = True
                    break
        if not contextual:
            _tokens(text, stopwords, True, &tokens, &stops)
        else:
            _tokens(text.lower(), stopwords, False, &tokens, &stops)
        stats[i, 4] = stops
        stats[i, 5] = tokens
    return out


@cython.cdivision(True)
def text_columns(const double[:, ::1] stats not None, const double[::1] link not None, const double[::1] position not None,
                 const double[::1] offset not None, const double[::1] share not None, const int64_t[::1] prev not None,
                 const int64_t[::1] nxt not None, Py_ssize_t wrap):
    """forest.classifier.text's TEXT_COLUMNS of each row from its counts (``text_stats``' columns),
    link characters, position, offset and share, and its neighbours (-1: none), but the columns
    that take a logarithm (chars, words, sentences, the neighbours' words and the page's two),
    which numpy computes for their bits: the caller writes them in.  The other columns are the
    divisions, ceilings and comparisons of ``text._shallow``, as numpy computes them.
    """
    cdef Py_ssize_t n = stats.shape[0], i
    if stats.shape[1] != 9:
        raise ValueError("stats must have text_stats' 9 columns")
    for i, length in enumerate((link.shape[0], position.shape[0], offset.shape[0], share.shape[0], prev.shape[0], nxt.shape[0])):
        if length != n:
            raise ValueError("the rows' columns differ in length")
    if wrap <= 0:
        raise ValueError("wrap must be positive")
    for i in range(n):
        if not -1 <= prev[i] < n or not -1 <= nxt[i] < n:
            raise IndexError("a neighbour is out of range")
    out_ = np.zeros((n, 22), dtype=np.float64)
    cdef double[:, ::1] out = out_
    with nogil:
        _shallow(stats, link, position, offset, share, prev, nxt, wrap, out)
    return out_


def block_columns(const double[:, ::1] stats not None, const double[::1] link not None, const int64_t[::1] own_chars not None,
                  const int64_t[::1] last not None, const int64_t[::1] owner not None, Py_ssize_t wrap):
    """text_columns of a page's blocks in order (``stats`` and ``link`` per block; each element's
    own characters and subtree end, each block's owner), with what forest.classifier.text's
    block_text_features gave it worked out here: the block's position among the blocks, the page's
    characters before it, its share of its owner's subtree and its neighbours (the blocks either
    side).  Every one as numpy computed it (the characters are whole numbers, so their sums are
    exact in any order); the logarithms stay the caller's.  A page's fixed cost: these were a
    dozen small numpy calls on every page.
    """
    cdef Py_ssize_t n = stats.shape[0], m = own_chars.shape[0], i
    cdef double total = 0.0, before = 0.0, chars, held
    cdef int64_t running
    if stats.shape[1] != 9:
        raise ValueError("stats must have text_stats' 9 columns")
    if link.shape[0] != n or owner.shape[0] != n or last.shape[0] != m:
        raise ValueError("the rows' columns differ in length")
    if wrap <= 0:
        raise ValueError("wrap must be positive")
    for i in range(n):
        if not 0 <= owner[i] < m or not owner[i] <= last[owner[i]] < m:
            raise IndexError("a block's owner or its subtree end is out of range")
    position_, offset_, share_ = np.empty(n), np.empty(n), np.empty(n)
    prev_, nxt_ = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    out_ = np.zeros((n, 22), dtype=np.float64)
    cdef double[::1] position = position_, offset = offset_, share = share_
    cdef int64_t[::1] prev = prev_, nxt = nxt_
    cdef double[:, ::1] out = out_
    # The running sums of own characters (np.cumsum's int64 ones, with a 0 before them): a subtree's
    # characters are a difference of two, as PageTree.subtree_sums takes them.
    cdef int64_t* run = <int64_t*>malloc((m + 1) * sizeof(int64_t))
    if run is NULL:
        raise MemoryError()
    try:
        with nogil:
            run[0] = running = 0
            for i in range(m):
                running += own_chars[i]
                run[i + 1] = running
            for i in range(n):
                total += stats[i, 0]
            total = total if total > 1.0 else 1.0
            for i in range(n):
                chars = stats[i, 0]
                position[i] = <double>i / <double>(n - 1 if n - 1 > 1 else 1)
                # np.cumsum(chars) - chars: the running sum through this block, less the block.
                before += chars
                offset[i] = (before - chars) / total
                held = <double>(run[last[owner[i]] + 1] - run[owner[i]])
                share[i] = chars / (held if held > 1.0 else 1.0)
                prev[i] = i - 1
                nxt[i] = i + 1 if i + 1 < n else -1
            _shallow(stats, link, position, offset, share, prev, nxt, wrap, out)
    finally:
        free(run)
    return out_


cdef void _shallow(const double[:, ::1] stats, const double[::1] link, const double[::1] position, const double[::1] offset,
                   const double[::1] share, const int64_t[::1] prev, const int64_t[::1] nxt, Py_ssize_t wrap,
                   double[:, ::1] out) noexcept nogil:
    # text_columns' columns of checked arguments.
    cdef Py_ssize_t n = stats.shape[0], i, j, side
    cdef double chars, words, tokens, lines
    for i in range(n):
        chars = stats[i, 0] if stats[i, 0] > 1.0 else 1.0
        words = stats[i, 1]
        tokens = stats[i, 5] if stats[i, 5] > 1.0 else 1.0
        lines = ceil(stats[i, 0] / <double>wrap)
        lines = lines if lines > 1.0 else 1.0
        out[i, 2] = link[i] / chars if link[i] / chars < 1.0 else 1.0
        out[i, 3] = words / lines
        out[i, 4] = stats[i, 0] / (words if words > 1.0 else 1.0)
        out[i, 6] = stats[i, 3] / chars
        out[i, 7] = stats[i, 4] / tokens
        out[i, 8] = stats[i, 6] / chars
        out[i, 9] = stats[i, 7] / (words if words > 1.0 else 1.0)
        out[i, 10] = 1.0 if stats[i, 8] > 0 else 0.0
        out[i, 11] = position[i]
        out[i, 12] = offset[i]
        out[i, 13] = share[i]
    # The neighbours' link and text densities (their words' logarithm is the caller's).
    for i in range(n):
        for side in range(2):
            j = prev[i] if side == 0 else nxt[i]
            if j >= 0:
                out[i, 15 + 3 * side] = out[j, 2]
                out[i, 16 + 3 * side] = out[j, 3]
