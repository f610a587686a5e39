"""Fused multiply-add for compiled code: ``fma(x, y, z)`` = x y + z rounded once (LLVM's
``llvm.fma.f64``, one instruction on processors with FMA). A Horner step in one operation
instead of two: half the arithmetic and half the latency of a polynomial."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload


@intrinsic
def fma(typingctx, x, y, z):
    """x * y + z with a single rounding, in float64."""
    if not all(isinstance(a, (types.Float, types.Integer)) for a in (x, y, z)):
        return None

    def codegen(context, builder, signature, args):
        operands = [context.cast(builder, a, t, types.float64)
                    for a, t in zip(args, signature.args, strict=True)]
        double = context.get_value_type(types.float64)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(double, [double] * 3), "llvm.fma.f64")
        return builder.call(function, operands)

    return types.float64(x, y, z), codegen


def horner(x, coefficients):
    """c_0 + c_1 x + ... + c_n x^n for the tuple (c_0, ..., c_n) by Horner's rule; in compiled
    code one fused multiply-add per coefficient, as straight-line code (an overload per tuple
    length: numba compiles a loop over a heterogeneous tuple slowly). Called from
    Python, plain multiply-adds."""
    value = coefficients[-1]
    for c in coefficients[-2::-1]:
        value = value * x + c
    return value


@overload(horner)
def _horner_compiled(x, coefficients):
    if len(coefficients) == 1:
        return lambda x, coefficients: coefficients[0]
    return lambda x, coefficients: fma(x, horner(x, coefficients[1:]), coefficients[0])
