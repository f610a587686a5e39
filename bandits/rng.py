"""Random numbers for compiled kernels (bandit policies and engines): xoshiro256** seeded by
splitmix64.

Each run owns a ``state`` (uint64 [4]) derived from its seed, so results do not depend on how
runs are spread over threads. Samplers: uniform doubles, bounded integers (multiply-shift,
bias below n / 2^32), standard normals and exponentials by the 256-layer ziggurat (Marsaglia &
Tsang 2000; layer, sign and abscissa come from disjoint bits of one draw, as Doornik 2005
advises), Gamma(k >= 1) (Marsaglia & Tsang 2000) and Beta(a >= 1, b >= 1) as a ratio of
gammas. None approximates: each is an exact draw of its law up to the 2^-53 grid of uniforms.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LAYERS = 256
_LOW8 = np.uint64(0xFF)


def _ziggurat(density, inverse, r, area):
    """Tables of the 256-layer ziggurat under a decreasing density f on [0, inf).

    Layer 0 is the base [0, x_0] x [0, f(r)] with x_0 = v / f(r) and r = x_1 (its part beyond r
    stands for the tail); layer i >= 1 is [0, x_i] x [f(x_i), f(x_(i+1))] with
    x_(i+1) = f^-1(f(x_i) + v / x_i) and x_256 = 0; every layer has area v. A draw picks a layer
    i and x = U x_i; x < x_(i+1) lies under f (tested on the 53-bit integer U 2^53), otherwise
    the tail (i = 0) or the wedge test y = f(x_i) + U' (f(x_(i+1)) - f(x_i)) < f(x) decides.
    Returns int64 [256] floor(2^53 x_(i+1) / x_i), float64 [256] x_i 2^-53, float64 [257] f(x_i).
    """
    x = np.empty(_LAYERS + 1)
    x[0], x[1], x[_LAYERS] = area / density(r), r, 0.0
    for i in range(1, _LAYERS - 1):
        x[i + 1] = inverse(density(x[i]) + area / x[i])
    accept = np.floor(x[1:] / x[:-1] * 2.0**53).astype(np.int64)
    return accept, x[:-1] * 2.0**-53, np.array([density(xi) for xi in x])


_NORMAL_R = 3.6541528853610088  # r of Marsaglia & Tsang's 256-layer tables; v follows from r
_NORMAL_K, _NORMAL_W, _NORMAL_F = _ziggurat(
    lambda x: math.exp(-0.5 * x * x),
    lambda y: math.sqrt(-2.0 * math.log(y)),
    _NORMAL_R,
    _NORMAL_R * math.exp(-0.5 * _NORMAL_R**2)
    + math.sqrt(0.5 * math.pi) * math.erfc(_NORMAL_R / math.sqrt(2.0)),
)
_EXP_R = 7.69711747013104972  # v = (r + 1) e^-r
_EXP_K, _EXP_W, _EXP_F = _ziggurat(
    lambda x: math.exp(-x), lambda y: -math.log(y), _EXP_R, (_EXP_R + 1.0) * math.exp(-_EXP_R)
)


# _rotl, next_u64 and beta_given are left to LLVM as calls; the samplers beta_given draws with
# (gamma_given, normal) are inlined in numba's IR into it alone, and the smallest (uniform,
# randint, gamma_constant) everywhere. Inlined in numba's IR at every call site they are typed
# afresh there: Thompson's kernel took 58 s to compile instead of 17 with next_u64 so inlined,
# and 69 CPU-s instead of 19 with beta_given; as calls throughout, its playouts took 1.35x.
@njit
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def seed_state(seed):
    """xoshiro256** state (uint64 [4]) from a 64-bit seed via splitmix64."""
    state = np.empty(4, dtype=np.uint64)
    z = np.uint64(seed)
    for i in range(4):
        z = z + _GOLDEN
        x = z
        x = (x ^ (x >> np.uint64(30))) * _MIX1
        x = (x ^ (x >> np.uint64(27))) * _MIX2
        state[i] = x ^ (x >> np.uint64(31))
    return state


@njit
def next_u64(state):
    """The next 64 random bits of xoshiro256**."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return result


@njit(inline="always")  # per draw (playouts, ties, Thompson): a shift and a multiply
def uniform(state):
    """A double uniform in [0, 1)."""
    return float(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(inline="always")  # per draw (playout moves, ties): a multiply-shift
def randint(state, n):
    """An integer uniform in [0, n) for n < 2^32."""
    return np.int64(((next_u64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(inline="always")  # per Gamma draw, into gamma_given: Thompson's hot path
def normal(state):
    """A standard normal deviate by the ziggurat: bits 0-7 of a draw pick the layer and its top
    54 bits, read as a signed integer s, give x = s x_i 2^-53 (the sign is bit 63)."""
    while True:
        bits = next_u64(state)
        layer = np.intp(bits & _LOW8)
        s = np.int64(bits) >> np.int64(10)
        x = s * _NORMAL_W[layer]
        if abs(s) < _NORMAL_K[layer]:
            return x
        if layer == 0:
            return math.copysign(_NORMAL_R + _normal_tail(state), x)
        f0, f1 = _NORMAL_F[layer], _NORMAL_F[layer + 1]
        if f0 + uniform(state) * (f1 - f0) < math.exp(-0.5 * x * x):
            return x


@njit(cache=True)
def _normal_tail(state):
    """|x| - r for a normal x conditioned on |x| > r, by Marsaglia's (1964) rejection: t ~ Exp(r)
    accepted when an Exp(1) deviate exceeds t^2 / 2 (out of line: 1 draw in 3900)."""
    while True:
        t = -math.log(1.0 - uniform(state)) / _NORMAL_R
        if -2.0 * math.log(1.0 - uniform(state)) > t * t:
            return t


@njit
def exponential(state):
    """An Exp(1) deviate by the ziggurat: bits 0-7 pick the layer, bits 11-63 the abscissa;
    the tail beyond r is r + Exp(1) (memorylessness), drawn by inversion."""
    while True:
        bits = next_u64(state)
        layer = np.intp(bits & _LOW8)
        u = np.int64(bits >> np.uint64(11))
        x = u * _EXP_W[layer]
        if u < _EXP_K[layer]:
            return x
        if layer == 0:
            return _EXP_R - math.log(1.0 - uniform(state))
        f0, f1 = _EXP_F[layer], _EXP_F[layer + 1]
        if f0 + uniform(state) * (f1 - f0) < math.exp(-x):
            return x


@njit(inline="always")  # per Gamma draw off the tables: one square root
def gamma_constant(shape):
    """Marsaglia & Tsang's c = 1 / sqrt(9 d), d = shape - 1/3."""
    return 1.0 / math.sqrt(9.0 * (shape - 1.0 / 3.0))


@njit
def gamma(state, shape):
    """Gamma(shape, 1) for shape >= 1 (see :func:`gamma_given`)."""
    return gamma_given(state, shape, gamma_constant(shape))


@njit(inline="always")  # per Gamma draw, into beta_given alone: Thompson's hot path
def gamma_given(state, shape, c):
    """Gamma(shape, 1) for shape >= 1 given c = ``gamma_constant(shape)`` (callers that draw
    many gammas may tabulate it): Exp(1) when shape = 1, else Marsaglia & Tsang's (2000)
    method: d = shape - 1/3, v = (1 + y)^3 with y = c x for a normal x, accept d v when
    ln u < f = x^2/2 + d (1 - v + ln v).

    Before the logarithms, a squeeze tighter than the paper's u < 1 - 0.0331 x^4: as
    9 d c^2 = 1, f = 3 d (ln(1+y) - y + y^2/2 - y^3/3) = -3 d int_0^y t^3 / (1+t) dt
    >= -0.75 d y^4 / w with w = min(1, 1+y), and e^f >= 1 + f, so u w < w - 0.75 d y^4
    accepts. The logarithms are then needed for about 1 / (36 d) of the draws instead of 3-8%
    (the same decisions: a squeeze only settles sooner what the exact test decides)."""
    if shape == 1.0:
        return exponential(state)
    d = shape - 1.0 / 3.0
    while True:
        x = normal(state)
        y = c * x
        w = 1.0 + y
        if w <= 0.0:
            continue
        v = w * w * w
        u = uniform(state)
        w = min(w, 1.0)
        y2 = y * y
        if u * w < w - 0.75 * d * y2 * y2:
            return d * v
        if math.log(u) < 0.5 * x * x + d * (1.0 - v + math.log(v)):
            return d * v


@njit
def beta(state, a, b):
    """Beta(a, b) for a, b >= 1 (see :func:`beta_given`)."""
    return beta_given(state, a, gamma_constant(a), b, gamma_constant(b))


@njit
def beta_given(state, a, c_a, b, c_b):
    """Beta(a, b) for a, b >= 1 given their gamma constants, as X / (X + Y), X ~ Gamma(a),
    Y ~ Gamma(b); Beta(1, 1) is uniform."""
    if a == 1.0 and b == 1.0:
        return uniform(state)
    x = gamma_given(state, a, c_a)
    return x / (x + gamma_given(state, b, c_b))
