"""Bit operations on ``uint64`` masks for bitboard rules: one LLVM instruction each."""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, mask):
    """The number of set bits of a ``uint64`` (``llvm.ctpop``), as ``int64``."""
    if mask != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.uint64), codegen


@intrinsic
def lowest_bit(typingctx, mask):
    """The index of the lowest set bit of a non-zero ``uint64`` (``llvm.cttz``), as ``int64``."""
    if mask != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.uint64), codegen


@intrinsic
def trailing_zeros(typingctx, mask):
    """The number of trailing zero bits of a ``uint64``, 64 for 0 (``llvm.cttz``), as ``int64``:
    the lowest set bit's index without a branch on zero."""
    if mask != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.uint64), codegen


@intrinsic
def leading_zeros(typingctx, mask):
    """The number of leading zero bits of a ``uint64``, 64 for 0 (``llvm.ctlz``), as ``int64``:
    63 minus the highest set bit's index, without a branch on zero."""
    if mask != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.uint64), codegen


@njit(inline="always")  # per move of a uniform playout (Breakthrough, Checkers, Pentalath)
def nth_move(r, m0, m1, m2, m3):
    """(cell, k) of the move at place ``r`` when the moves ``k`` of the cells of mask ``mk``
    (k = 0..3) are listed by cell, then k: a binary search for the cell on the number of moves
    of the cells under it (six steps), then the k within it. 0 <= r < the number of moves."""
    cell, step = 0, 32
    while step:
        below = (np.uint64(1) << np.uint64(cell + step)) - np.uint64(1)
        if (popcount(m0 & below) + popcount(m1 & below) + popcount(m2 & below)
                + popcount(m3 & below)) <= r:
            cell += step
        step >>= 1
    below = (np.uint64(1) << np.uint64(cell)) - np.uint64(1)
    r -= popcount(m0 & below) + popcount(m1 & below) + popcount(m2 & below) + popcount(m3 & below)
    bit = np.uint64(1) << np.uint64(cell)
    for k, mask in enumerate((m0, m1, m2)):
        if mask & bit:
            if r == 0:
                return cell, k
            r -= 1
    return cell, 3
