# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The markup guard's scan in C (forest.limits.check_markup): one pass over a page's text.

It counts the start tags (``<`` and an ASCII letter, what ``forest.limits._START_TAG`` finds) and,
for every tag long enough to hold MAX_ATTRIBUTES attributes (``forest.limits._LONG_START_TAG``'s
matches, found as ``finditer`` finds them), a bound on its attributes: its runs of characters that
can start an attribute's name (``[^\\s"'<>/=]``, ``\\s`` as Python's ``re`` reads it).  Each of
``_ATTRIBUTE``'s matches starts a run (a name takes the whole run it starts in, and a value ends at
a character outside such runs or at a closing quote), so a tag has at most its runs less one (its
name's) attributes; only a page over the limit by that bound needs the exact count in Python.
The reference is forest.limits' regular expressions, which ``tests/unit/test_native_markup.py``
checks this against.  It reads a str, no lxml struct.
"""

from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND, Py_UNICODE_ISSPACE
from cpython.unicode cimport PyUnicode_1BYTE_KIND, PyUnicode_2BYTE_KIND
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memchr, memcpy


cdef extern from "<wchar.h>":
    ctypedef int wchar_t
    const wchar_t* wmemchr(const wchar_t* s, wchar_t c, size_t n) nogil


cdef inline bint _letter(Py_UCS4 c) noexcept:
    return 65 <= c <= 90 or 97 <= c <= 122


cdef inline bint _name_char(Py_UCS4 c) noexcept:
    # _ATTRIBUTE's [^\s"'<>/=]: sre's \s on str patterns is Py_UNICODE_ISSPACE.
    return not (c == 34 or c == 39 or c == 60 or c == 62 or c == 47 or c == 61 or Py_UNICODE_ISSPACE(c))


ctypedef fused char_t:
    uint8_t
    uint16_t
    uint32_t


cdef void _scan(const char_t* data, Py_ssize_t n, Py_ssize_t long_tag, Py_ssize_t* tags, Py_ssize_t* most) noexcept:
    # One loop per str kind: PyUnicode_READ's switch on every character cost 3x the scan.
    cdef Py_ssize_t i = 0, j, k, runs
    cdef Py_UCS4 c
    cdef bint inside
    while i + 1 < n:
        i = _find_lt(data, i, n)
        if i + 1 >= n:
            break
        if not _letter(data[i + 1]):
            i += 1
            continue
        tags[0] += 1
        # The tag runs to the next '<' or '>': a candidate when that is long_tag or more characters on.
        j = i + 2
        while j < n:
            c = data[j]
            if c == 60 or c == 62:
                break
            j += 1
        if j - i - 2 >= long_tag:
            # The name's run starts at i + 1 (a letter); its attributes' runs follow.
            runs = 0
            inside = False
            for k in range(i + 1, j):
                if _name_char(data[k]):
                    if not inside:
                        runs += 1
                        inside = True
                else:
                    inside = False
            if runs - 1 > most[0]:
                most[0] = runs - 1
        # Nothing between i + 1 and j starts a tag: resume at j (a '<', a '>' or the end).
        i = j


cdef inline Py_ssize_t _find_lt(const char_t* data, Py_ssize_t i, Py_ssize_t n) noexcept:
    # The next '<' at or after i (n for none): most of a page's characters are passed over here,
    # so each kind has its fastest search (libc's memchr and wmemchr, 4 characters a word for UCS2).
    cdef const void* found
    cdef uint64_t word, hit
    if char_t is uint8_t:
        found = memchr(data + i, 60, n - i)
        return n if found is NULL else <const uint8_t*>found - data
    elif char_t is uint32_t:
        found = wmemchr(<const wchar_t*>(data + i), 60, n - i)
        return n if found is NULL else <const uint32_t*>found - data
    else:
        while i + 4 <= n:
            memcpy(&word, data + i, 8)
            # A zero 16-bit lane of word ^ '<<<<' is a '<' (the classic zero-lane test).
            word ^= 0x003C003C003C003CULL
            hit = (word - 0x0001000100010001ULL) & ~word & 0x8000800080008000ULL
            if hit:
                break
            i += 4
        while i < n and data[i] != 60:
            i += 1
        return i


def markup_counts(str text not None, Py_ssize_t long_tag):
    """The start tags of ``text``, and the most attribute-name runs, less one, of a start tag
    with at least ``long_tag`` characters after ``<`` and its letter without ``<`` or ``>``
    (``-1`` when there is no such tag): an upper bound on ``forest.limits.most_attributes``."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t tags = 0, most = -1
    if long_tag < 0:
        raise ValueError("long_tag must not be negative")
    if kind == PyUnicode_1BYTE_KIND:
        _scan(<const uint8_t*>data, n, long_tag, &tags, &most)
    elif kind == PyUnicode_2BYTE_KIND:
        _scan(<const uint16_t*>data, n, long_tag, &tags, &most)
    else:
        _scan(<const uint32_t*>data, n, long_tag, &tags, &most)
    return tags, most
