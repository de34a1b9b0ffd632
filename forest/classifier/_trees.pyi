# Types of the trees' evaluation in C (forest/classifier/_trees.pyx), for mypy.
import numpy as np

def leaf_sums(
    dense: np.ndarray,
    data: np.ndarray,
    indices: np.ndarray,
    indptr: np.ndarray,
    position: np.ndarray,
    n_hashed: int,
    packed: np.ndarray,
    value: np.ndarray,
    roots: np.ndarray,
    max_depth: int,
) -> np.ndarray: ...
