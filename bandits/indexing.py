"""Unsigned array indices for the compiled engines' innermost loops."""

import numpy as np
from numba import njit


@njit(inline="always")  # per array access in the innermost loops: a cast, not a call
def ix(i):
    """``i`` as an unsigned array index. Numba wraps signed indices around (a negative one counts
    from the end) at a few instructions per access, in the innermost loops; unsigned ones skip
    that. Every index so cast is a valid position."""
    return np.uint64(i)
