# cython: language_level=3, boundscheck=False, wraparound=False
"""Which of a page index's pattern keys are one attributed step, in C: a test of each key's characters.

``is_single_step(key)`` answers as ``patterns.refine.is_single_step``'s Python expression (its
reference, kept in tests/learning/test_single_steps.py): the key starts with ``//`` and ends with
``]``, holds no ``/`` before its first ``[`` past the ``//``, and no ``]/`` anywhere.
``single_step_keys(keys)`` lists those keys of an index with their elements, in the keys' order:
learning lists them for every sample page, thousands of keys each, and the Python test per key
(behind an lru_cache) cost as much as a page's index walk.
"""

from libc.stdlib cimport malloc, free


cdef bint _single(str key) noexcept:
    cdef Py_ssize_t n = len(key), i
    cdef Py_UCS4 c, last = 0
    cdef bint named = True  # still before the first "[" past the "//"
    if n < 2 or key[0] != u"/" or key[1] != u"/" or key[n - 1] != u"]":
        return False
    for i in range(n):
        c = key[i]
        if i >= 2 and named:
            if c == u"[":
                named = False
            elif c == u"/":
                return False
        if c == u"/" and last == u"]":
            return False
        last = c
    return True


def is_single_step(str key):
    """Whether ``key`` is one attributed step (``//div[@class='x']``)."""
    return _single(key)


def single_step_keys(dict keys):
    """``[(key, elements)]`` for each key of ``keys`` (a page index's) that is one attributed step, in the keys' order."""
    cdef list found = []
    for key, nodes in keys.items():
        if _single(<str?>key):
            found.append((key, nodes))
    return found


def keys_holding(dict keys, set wanted, Py_ssize_t n):
    """The keys of ``keys`` (a page index's, each with its elements' positions, all below ``n``) that hold an
    element of ``wanted``, in the keys' order: ``[key for key, nodes in keys.items() if not
    wanted.isdisjoint(nodes)]`` (its reference, tests/learning/test_single_steps.py), which ranking ran
    over every sample page's thousands of keys.

    :raises ValueError: for a position of ``wanted`` or of a key's elements outside ``range(n)``.
    """
    cdef bytearray mask = bytearray(n)
    cdef unsigned char* marked = mask
    cdef list found = [], nodes
    cdef Py_ssize_t v, j
    for item in wanted:
        v = item
        if v < 0 or v >= n:
            raise ValueError(f"element {v} outside the index's {n}")
        marked[v] = 1
    for key, elements in keys.items():
        nodes = <list?>elements
        for j in range(len(nodes)):
            v = <Py_ssize_t>nodes[j]
            if v < 0 or v >= n:
                raise ValueError(f"element {v} outside the index's {n}")
            if marked[v]:
                found.append(key)
                break
    return found


cdef Py_ssize_t _bisect(list nodes, Py_ssize_t value, Py_ssize_t lo) except -1:
    # bisect.bisect_left(nodes, value, lo): nodes hold ints in ascending order.
    cdef Py_ssize_t hi = len(nodes), mid
    while lo < hi:
        mid = (lo + hi) // 2
        if <Py_ssize_t>nodes[mid] < value:
            lo = mid + 1
        else:
            hi = mid
    return lo


def keys_within(list single, list spans, list end):
    """``[(key, elements)]`` for each ``(key, nodes)`` of ``single`` (patterns.refine.single_steps') with elements
    in ``spans`` (``(lo, hi)`` ranges of the document order), in the keys' order: those of
    its elements, outermost (``PageIndex.outermost`` by ``end``, each element's subtree end).  Its reference is
    the Python loop (tests/learning/test_single_steps.py): a region's cut and the template's boxes ran it
    over every sample page's thousands of keys, a bisection per key and region node.
    """
    cdef list found = [], nodes, within
    cdef Py_ssize_t n_spans = len(spans), s, lo, hi, at, stop, i, last_end, first, last, least, most
    cdef Py_ssize_t* bounds
    if n_spans == 0:
        return found
    bounds = <Py_ssize_t*>malloc(2 * n_spans * sizeof(Py_ssize_t))
    if bounds is NULL:
        raise MemoryError()
    try:
        least, most = spans[0]
        for s in range(n_spans):
            lo, hi = spans[s]
            bounds[2 * s] = lo
            bounds[2 * s + 1] = hi
            least, most = min(least, lo), max(most, hi)
        for key, elements in single:
            nodes = <list?>elements
            if not nodes:
                continue
            first = <Py_ssize_t>nodes[0]
            last = <Py_ssize_t>nodes[len(nodes) - 1]
            if last < least or first >= most:
                continue  # every element before the first span or past the last: most keys of a page
            within = None
            last_end = -1
            for s in range(n_spans):
                at = _bisect(nodes, bounds[2 * s], 0)
                stop = _bisect(nodes, bounds[2 * s + 1], at)
                while at < stop:
                    i = <Py_ssize_t>nodes[at]
                    if i > last_end:
                        if within is None:
                            within = []
                        within.append(nodes[at])
                        last_end = <Py_ssize_t>end[i]
                    at += 1
            if within is not None:
                found.append((key, within))
    finally:
        free(bounds)
    return found
