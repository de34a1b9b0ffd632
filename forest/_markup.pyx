# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The markup guard's scan in C (forest.limits.check_markup): one pass over a page's text.

It counts the start tags (``<`` and an ASCII letter, what ``forest.limits._START_TAG`` finds) and,
for every tag long enough to hold MAX_ATTRIBUTES attributes (``forest.limits._LONG_START_TAG``'s
matches, found as ``finditer`` finds them), its attributes as ``re.findall`` of
``forest.limits._ATTRIBUTE`` counts them (``\\s`` as Python's ``re`` reads it: Py_UNICODE_ISSPACE).
It does not know raw text (a script, a comment): only a page whose most is over the limit is scanned
again by :func:`most_outside_raw_text`, which skips the long tags inside raw text as
forest.limits.most_attributes does.  The reference is forest.limits' regular expressions, which
``tests/unit/test_native_markup.py`` checks both against.  It reads a str, no lxml struct.
"""

from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND, Py_UNICODE_ISALNUM, Py_UNICODE_ISSPACE
from cpython.unicode cimport PyUnicode_1BYTE_KIND, PyUnicode_2BYTE_KIND
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memchr, memcpy, strlen


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


cdef int _scan(const char_t* data, Py_ssize_t n, Py_ssize_t long_tag, Py_ssize_t* tags, Py_ssize_t* most,
               list found_tags) except -1:
    # One loop per str kind: PyUnicode_READ's switch on every character cost 3x the scan.  With
    # ``found_tags`` (not None), each long tag's start and attributes are appended to it as well.
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
            if found_tags is not None:
                found_tags.append((i, found))
        # Nothing between i + 1 and j starts a tag: resume at j (a '<', a '>' or the end).
        i = j
    return 0


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
    cdef Py_ssize_t tags = 0, most = -1
    _scan_text(text, long_tag, &tags, &most, None)
    return tags, most


cdef int _scan_text(str text, Py_ssize_t long_tag, Py_ssize_t* tags, Py_ssize_t* most, list found_tags) except -1:
    # _scan of ``text``'s characters, in the loop of its str kind.
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    if long_tag < 0:
        raise ValueError("long_tag must not be negative")
    if kind == PyUnicode_1BYTE_KIND:
        return _scan(<const uint8_t*>data, n, long_tag, tags, most, found_tags)
    if kind == PyUnicode_2BYTE_KIND:
        return _scan(<const uint16_t*>data, n, long_tag, tags, most, found_tags)
    return _scan(<const uint32_t*>data, n, long_tag, tags, most, found_tags)


# --- Raw text: forest.limits._raw_text_spans's reading, in C ---------------------------------------

# forest.limits._RAW_ELEMENTS, in its alternation's order (no name is another's prefix), then a comment's kind.
cdef const char* _RAW_NAMES[11]
_RAW_NAMES[:] = [b"script", b"style", b"textarea", b"title", b"xmp", b"noscript", b"template", b"iframe", b"noembed",
                 b"noframes", b"plaintext"]
cdef enum:
    _N_RAW = 11
    _COMMENT = 11


cdef inline bint _folds_to(uint32_t c, char letter) noexcept:
    # Whether re's IGNORECASE matches c to the lower-case ASCII ``letter``: its case, and the three
    # letters beyond ASCII that fold to one of the raw names' ("ſ" to s, "İ" and "ı" to i).
    if c < 128:
        return (c | 0x20) == <uint32_t>letter
    return (letter == c's' and c == 0x17F) or (letter == c'i' and (c == 0x130 or c == 0x131))


cdef int _raw_name(const char_t* data, Py_ssize_t at, Py_ssize_t n, Py_ssize_t* end) noexcept:
    # The first raw name (its kind) spelled at ``at``, its end in ``end``; -1 for none.
    cdef Py_ssize_t k, j, length
    cdef const char* name
    for k in range(_N_RAW):
        name = _RAW_NAMES[k]
        length = <Py_ssize_t>strlen(name)
        if at + length > n:
            continue
        j = 0
        while j < length and _folds_to(data[at + j], name[j]):
            j += 1
        if j == length:
            end[0] = at + length
            return <int>k
    return -1


cdef inline bint _word(uint32_t c) noexcept:
    # sre's \w on str patterns: Py_UNICODE_ISALNUM, and "_".
    return c == 95 or Py_UNICODE_ISALNUM(<Py_UCS4>c)


cdef list _raw_spans(const char_t* data, Py_ssize_t n):
    # forest.limits._raw_text_spans: (start, end) of each comment and raw-text element, in order.
    # The closes (_RAW_CLOSE's matches: "</name" + spaces + ">", or "-->") cannot overlap, so every
    # place is tried; then each open (_RAW_OPEN's: "<name" at a word's end, or "<!--") outside the span
    # before it runs to the first close of its kind that ends after it, or to the end of the text.
    cdef list closes = [[] for _ in range(_N_RAW + 1)]
    cdef list opens = []
    cdef Py_ssize_t i, e, s
    cdef int k
    for i in range(n):
        if data[i] == 60:  # '<'
            if i + 1 < n and data[i + 1] == 47:  # '/'
                k = _raw_name(data, i + 2, n, &e)
                if k >= 0:
                    while e < n and Py_UNICODE_ISSPACE(data[e]):
                        e += 1
                    if e < n and data[e] == 62:
                        (<list>closes[k]).append(e + 1)
                continue
            k = _raw_name(data, i + 1, n, &e)
            if k >= 0 and (e == n or not _word(data[e])):
                opens.append((i, e, k))
            elif i + 3 < n and data[i + 1] == 33 and data[i + 2] == 45 and data[i + 3] == 45:  # '<!--'
                opens.append((i, i + 4, _COMMENT))
        elif data[i] == 45 and i + 2 < n and data[i + 1] == 45 and data[i + 2] == 62:  # '-->'
            (<list>closes[_COMMENT]).append(i + 3)
    cdef list spans = []
    cdef Py_ssize_t end = -1
    cdef Py_ssize_t[_N_RAW + 1] next_close  # each kind's first close not yet passed (opens come in order)
    cdef list ends
    for k in range(_N_RAW + 1):
        next_close[k] = 0
    for s, e, k in opens:
        if s < end:
            continue  # inside the previous span: a "<script" in a comment opens nothing
        ends = <list>closes[k]
        while next_close[k] < len(ends) and <Py_ssize_t>ends[next_close[k]] <= e:
            next_close[k] += 1
        end = <Py_ssize_t>ends[next_close[k]] if next_close[k] < len(ends) else n
        spans.append((s, end))
    return spans


cdef list _raw_spans_of(str text):
    # _raw_spans of ``text``'s characters, in the loop of its str kind.
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    if kind == PyUnicode_1BYTE_KIND:
        return _raw_spans(<const uint8_t*>data, n)
    if kind == PyUnicode_2BYTE_KIND:
        return _raw_spans(<const uint16_t*>data, n)
    return _raw_spans(<const uint32_t*>data, n)


def most_outside_raw_text(str text not None, Py_ssize_t long_tag):
    """The most attributes of a start tag with at least ``long_tag`` characters after ``<`` and its
    letter without ``<`` or ``>``, among those outside comments and raw-text elements (script, style,
    title...), 0 when none has any: ``forest.limits.most_attributes(text)`` with ``_LONG_TAG`` as
    ``long_tag``.  Its regular expressions read a page of a few megabytes in tens of milliseconds."""
    cdef Py_ssize_t tags = 0, most = -1, best = 0, at, lo, hi, mid
    cdef list found = [], spans = None
    _scan_text(text, long_tag, &tags, &most, found)
    for at, count in found:
        if count <= best:
            continue
        if spans is None:  # read when a tag first could count, as most_attributes reads them
            spans = _raw_spans_of(text)
        # The last span starting at or before the tag (spans are in order and apart): inside it, the tag is text.
        lo, hi = 0, len(spans)
        while lo < hi:
            mid = (lo + hi) // 2
            if <Py_ssize_t>(<tuple>spans[mid])[0] <= at:
                lo = mid + 1
            else:
                hi = mid
        if lo > 0 and <Py_ssize_t>(<tuple>spans[lo - 1])[0] < at < <Py_ssize_t>(<tuple>spans[lo - 1])[1]:
            continue
        best = count
    return best
