# cython: language_level=3, boundscheck=False, wraparound=False
"""Which of a page index's pattern keys are one attributed step, in C: a test of each key's characters.

``is_single_step(key)`` answers as ``patterns.refine.is_single_step``'s Python expression (its
reference, kept in tests/learning/test_single_steps.py): the key starts with ``//`` and ends with
``]``, holds no ``/`` before its first ``[`` past the ``//``, and no ``]/`` anywhere.
``single_step_keys(keys)`` lists those keys of an index with their elements, in the keys' order:
learning lists them for every sample page, thousands of keys each, and the Python test per key
(behind an lru_cache) cost as much as a page's index walk.
"""

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
