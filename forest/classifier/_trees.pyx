# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The tree ensemble's evaluation in C: every row down every tree of a compact model, in one loop.

forest.classifier.compact stores a fitted ensemble as flat node arrays; this walks a block of rows at
a time down each tree without the GIL, reading each row's dense columns and its hashed (CSR)
columns where the model splits on them, and sums each row's leaves as numpy's ``values.sum(axis=1)`` does (pairwise, in
numpy's order), so the probabilities keep numpy's bits.  The reference is
``tests/unit/test_native_trees.py``'s ``reference_proba`` (the trees walked in lockstep with numpy
over a densified matrix), which it must equal bit for bit.

It reads no lxml struct: unlike the page pass, it does not depend on the lxml it was built with.
"""

from libc.stdlib cimport calloc, malloc, free
from libc.stdint cimport int32_t, uint8_t

import numpy as np

ctypedef fused row_t:
    float
    double

ctypedef fused hashed_t:
    float
    double

# A node as one record (forest.classifier.compact's NODE32 and NODE64): a step reads one cache line,
# where three arrays (feature, threshold, children) cost three, and the ensemble's arrays overflow L1.
# child[0] is the right child, child[1] the left: a step is child[x <= threshold].
ctypedef struct Node32:
    int32_t feature
    float threshold
    int32_t child[2]

ctypedef struct Node64:
    int32_t feature
    int32_t pad
    double threshold
    int32_t child[2]


# numpy's PW_BLOCKSIZE: runs up to this long are summed by 8 accumulators, longer ones halved.
cdef enum:
    BLOCKSIZE = 128
    # Rows walked together down one tree: its nodes (a few hundred bytes) stay in L1 while the block's
    # rows take every step, where a row at a time down every tree read the whole ensemble (~100 KB,
    # past L1) once a row.  16 rows' copies (a row is its dense and hashed columns, 3-4 KB) still fit
    # beside it.  8 and 32 rows were slower on the shipped model; re-measure a change with
    # `python -m eval.coldbench`, the trees' share of cold extraction.
    BLOCK = 16


cdef double _pairwise(const double* a, Py_ssize_t n) noexcept nogil:
    # numpy's DOUBLE_pairwise_sum (numpy/_core/src/umath/loops_utils.h.src), step for step:
    # the bits of ndarray.sum over a contiguous axis.
    cdef Py_ssize_t i, half
    cdef double res
    cdef double r0, r1, r2, r3, r4, r5, r6, r7
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[i]
        return res
    if n <= BLOCKSIZE:
        r0 = a[0]; r1 = a[1]; r2 = a[2]; r3 = a[3]
        r4 = a[4]; r5 = a[5]; r6 = a[6]; r7 = a[7]
        i = 8
        while i < n - (n % 8):
            r0 += a[i]; r1 += a[i + 1]; r2 += a[i + 2]; r3 += a[i + 3]
            r4 += a[i + 4]; r5 += a[i + 5]; r6 += a[i + 6]; r7 += a[i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < n:
            res += a[i]
            i += 1
        return res
    half = n // 2
    half -= half % 8
    return _pairwise(a, half) + _pairwise(a + half, n - half)


cdef inline void _descend(const row_t** rows, int32_t* at, Py_ssize_t nb, int max_depth,
                          const Node32* nodes32, const Node64* nodes64) noexcept nogil:
    """Walk ``nb`` rows down one tree, ``max_depth`` steps each, from the nodes in ``at``: the rows
    one step at a time, as the lockstep walk does (a leaf is its own child), so that the CPU overlaps
    the rows' independent reads."""
    cdef int d
    cdef Py_ssize_t b
    cdef const Node32* at32
    cdef const Node64* at64
    for d in range(max_depth):
        for b in range(nb):
            if row_t is float:
                at32 = &nodes32[at[b]]
                at[b] = at32.child[rows[b][at32.feature] <= at32.threshold]
            else:
                at64 = &nodes64[at[b]]
                at[b] = at64.child[rows[b][at64.feature] <= at64.threshold]


def leaf_sums(
    const row_t[:, ::1] dense,
    const hashed_t[::1] data,
    const Py_ssize_t[::1] indices,
    const Py_ssize_t[::1] indptr,
    const Py_ssize_t[::1] position,
    Py_ssize_t n_hashed,
    const uint8_t[::1] packed,
    const double[::1] value,
    const Py_ssize_t[::1] roots,
    int max_depth,
):
    """Per row, the sum of its leaves' values over the trees (``0.0 +`` numpy's pairwise sum).

    A row's columns are ``dense[row]`` then ``n_hashed`` hashed columns: CSR entry k of the row
    (``data[k]`` at column ``indices[k]``) adds into hashed column ``position[indices[k]]`` (none
    when -1), summed in ``hashed_t`` as ``np.add.at`` sums duplicates.  ``packed`` holds the nodes
    as records (Node32 for float rows, Node64 for double ones): node i splits on column
    ``feature`` (left when the value is at most ``threshold``); ``child[0]`` is its right child,
    ``child[1]`` its left; a leaf is its own child, so every tree takes ``max_depth`` steps, as the
    lockstep walk in numpy did.  The caller checks the nodes' indices; the CSR's are checked here
    (an empty ``indptr``: no hashed entries at all), where a loop costs less than numpy's checks.
    """
    cdef Py_ssize_t n = dense.shape[0], width = dense.shape[1], n_trees = roots.shape[0]
    cdef Py_ssize_t row, t, k, node, column, n_columns = position.shape[0]
    cdef bint sparse = indptr.shape[0] > 0
    cdef const Node32* nodes32 = NULL
    cdef const Node64* nodes64 = NULL
    if row_t is float:
        if packed.shape[0] % sizeof(Node32):
            raise ValueError("packed nodes are not Node32 records")
        if packed.shape[0]:
            nodes32 = <const Node32*>&packed[0]
    else:
        if packed.shape[0] % sizeof(Node64):
            raise ValueError("packed nodes are not Node64 records")
        if packed.shape[0]:
            nodes64 = <const Node64*>&packed[0]
    if sparse:
        if indptr.shape[0] != n + 1 or indptr[0] != 0 or indptr[n] > indices.shape[0] or indptr[n] > data.shape[0]:
            raise ValueError("hashed rows are not a CSR matrix's")
        for row in range(n):
            if indptr[row + 1] < indptr[row]:
                raise ValueError("hashed rows are not a CSR matrix's")
        for k in range(indptr[n]):
            if not 0 <= indices[k] < n_columns:
                raise ValueError("hashed column index out of range")
            if position[indices[k]] >= n_hashed:
                raise ValueError("a hashed column's position is out of range")
    out = np.empty(n, dtype=np.float64)
    cdef double[::1] sums = out
    if n == 0:
        return out
    cdef Py_ssize_t stride = width + n_hashed, r0, b, nb
    # Each row of the block's leaves, one row after another, summed per row as before.
    cdef double* leaves = <double*>malloc(max(n_trees, 1) * BLOCK * sizeof(double))
    # The block's rows' node in the tree being walked, as the records hold indices (int32).
    cdef int32_t* at = <int32_t*>malloc(BLOCK * sizeof(int32_t))
    cdef hashed_t* hashed = <hashed_t*>calloc(max(n_hashed, 1), sizeof(hashed_t))
    # The block's rows as the trees read them: each its dense columns, then its hashed ones.
    cdef row_t* x = <row_t*>malloc(max(stride, 1) * BLOCK * sizeof(row_t))
    cdef const row_t* rows[BLOCK]
    cdef int32_t root
    if leaves is NULL or at is NULL or hashed is NULL or x is NULL:
        free(leaves)
        free(at)
        free(hashed)
        free(x)
        raise MemoryError()
    try:
        with nogil:
            r0 = 0
            while r0 < n:
                nb = min(<Py_ssize_t>BLOCK, n - r0)
                for b in range(nb):
                    row = r0 + b
                    if n_hashed or width == 0:
                        for k in range(width):
                            x[b * stride + k] = dense[row, k]
                        if sparse:
                            for k in range(indptr[row], indptr[row + 1]):
                                column = position[indices[k]]
                                if column >= 0:
                                    hashed[column] += data[k]
                        # The densified matrix held 0 + the sum: the same comparisons.
                        for k in range(n_hashed):
                            x[b * stride + width + k] = <row_t>hashed[k]
                            hashed[k] = 0
                        rows[b] = &x[b * stride]
                    else:
                        # A row without hashed columns is read where it is, not copied.
                        rows[b] = &dense[row, 0]
                for t in range(n_trees):
                    root = <int32_t>roots[t]
                    for b in range(nb):
                        at[b] = root
                    # A whole block's count is a constant where _descend is inlined: the compiler unrolls it.
                    if nb == BLOCK:
                        _descend(rows, at, BLOCK, max_depth, nodes32, nodes64)
                    else:
                        _descend(rows, at, nb, max_depth, nodes32, nodes64)
                    for b in range(nb):
                        leaves[b * n_trees + t] = value[at[b]]
                for b in range(nb):
                    sums[r0 + b] = 0.0 + _pairwise(&leaves[b * n_trees], n_trees)
                r0 += nb
    finally:
        free(leaves)
        free(at)
        free(hashed)
        free(x)
    return out
