# Types of the trees' evaluation in C (forest/classifier/_trees.pyx), for mypy.
import numpy as np

def leaf_sums(
    dense: np.ndarray,
    data: np.ndarray,
    indices: np.ndarray,
    indptr: np.ndarray,
    slot: np.ndarray,
    n_slots: int,
    columns: np.ndarray,
    packed: np.ndarray,
    value: np.ndarray,
    roots: np.ndarray,
    max_depth: int,
) -> np.ndarray: ...

def heap_sums(
    dense: np.ndarray,
    data: np.ndarray,
    indices: np.ndarray,
    indptr: np.ndarray,
    slot: np.ndarray,
    n_slots: int,
    columns: np.ndarray,
    heap: np.ndarray,
    value: np.ndarray,
    n_trees: int,
    max_depth: int,
) -> np.ndarray: ...
