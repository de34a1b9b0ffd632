# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The markup guard's scan in C (forest.limits.check_markup): one pass over a page's text.

It counts the start tags (``<`` and an ASCII letter, what ``forest.limits._START_TAG`` finds) and,
for every tag long enough to hold MAX_ATTRIBUTES attributes (``forest.limits._LONG_START_TAG``'s
matches, found as ``finditer`` finds them), its attributes as ``re.findall`` of
``forest.limits._ATTRIBUTE`` counts them (``\\s`` as Python's ``re`` reads it: Py_UNICODE_ISSPACE).
It does not know raw text (a script, a comment): only a page whose most is over the limit needs
forest.limits.most_attributes, which skips such tags.  The reference is forest.limits' regular
expressions, which ``tests/unit/test_native_markup.py`` checks this against.  It reads a str, no
lxml struct.
"""

from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND, Py_UNICODE_ISSPACE
from cpython.unicode cimport PyUnicode_1BYTE_KIND, PyUnicode_2BYTE_KIND
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memchr, memcpy


cdef inline bint _letter(Py_UCS4 c) noexcept:
    return 65 <= c <= 90 or 97 <= c <= 122


cdef inline bint _name_char(Py_UCS4 c) noexcept:
    # _ATTRIBUTE's [^\s"'<>/=]: sre's \s on str patterns is Py_UNICODE_ISSPACE.
    return not (c == 34 or c == 39 or c == 60 or c == 62 or c == 47 or c == 61 or Py_UNICODE_ISSPACE(c))


ctypedef fused char_t:
    uint8_t
    uint16_t
    uint32_t


cdef Py_ssize_t _attributes(const char_t* data, Py_ssize_t k, Py_ssize_t end) noexcept:
    # How many matches re.findall of _ATTRIBUTE finds in data[k:end] (no '<' or '>' in it):
    # [^\s"'<>/=]+ then, if '=' follows (after spaces), the value after it (and spaces): a quoted
    # string up to its closing quote, or else the run of [^\s"'<>] (maybe empty).  The regex takes
    # the first of these that matches, with its greedy runs as long as they go, as here.
    cdef Py_ssize_t count = 0, f, q
    cdef Py_UCS4 c
    while k < end:
        if not _name_char(data[k]):
            k += 1
            continue
        count += 1
        while k < end and _name_char(data[k]):
            k += 1
        f = k
        while f < end and Py_UNICODE_ISSPACE(data[f]):
            f += 1
        if f >= end or data[f] != 61:
            continue  # no value: the match ends with the name
        f += 1
        while f < end and Py_UNICODE_ISSPACE(data[f]):
            f += 1
        k = f
        if f < end and (data[f] == 34 or data[f] == 39):
            c = data[f]
            q = f + 1
            while q < end and data[q] != c:
                q += 1
            if q < end:
                k = q + 1  # the quoted value, closed
            # Unclosed: the unquoted alternative matches nothing at the quote.
            continue
        while k < end and not (data[k] == 34 or data[k] == 39 or Py_UNICODE_ISSPACE(data[k])):
            k += 1
    return count


cdef void _scan(const char_t* data, Py_ssize_t n, Py_ssize_t long_tag, Py_ssize_t* tags, Py_ssize_t* most) noexcept:
    # One loop per str kind: PyUnicode_READ's switch on every character cost 3x the scan.
    cdef Py_ssize_t i = 0, j, found
    cdef Py_UCS4 c
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
            # _ATTRIBUTE's matches in the tag (its name the first): its count of attributes, exactly.
            found = _attributes(data, i + 1, j) - 1
            if found > most[0]:
                most[0] = found
        # Nothing between i + 1 and j starts a tag: resume at j (a '<', a '>' or the end).
        i = j


cdef inline Py_ssize_t _find_lt(const char_t* data, Py_ssize_t i, Py_ssize_t n) noexcept:
    # The next '<' at or after i (n for none): most of a page's characters are passed over here,
    # so the common kinds have a fast search (libc's memchr; 4 characters a word for UCS2).
    cdef const void* found
    cdef uint64_t word, hit
    if char_t is uint8_t:
        found = memchr(data + i, 60, n - i)
        return n if found is NULL else <const uint8_t*>found - data
    elif char_t is uint32_t:
        # Pages with characters past the BMP (emoji) are few: a plain loop.
        while i < n and data[i] != 60:
            i += 1
        return i
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
    """The start tags of ``text``, and the most attributes of a start tag with at least
    ``long_tag`` characters after ``<`` and its letter without ``<`` or ``>`` (``-1`` when there is
    no such tag): ``forest.limits.most_attributes(text, raw_text=False)`` with ``_LONG_TAG`` as ``long_tag``."""
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
