"""The statistics the kit's evidence rests on, in one place: the tournament's win shares and paired differences
(`cardkit match`, the expert's evidence), the expert's choice at the table, and the impact runs' shift in the
odds (`cardkit impact`, read by the rule cards).

* ``wilson``: the Wilson score interval of a proportion (a win share, a rate of games);
* ``mean_ci``: a mean with its interval, mean ± z standard errors;
* ``t95_one_sided``, ``t95_two_sided``: Student's t quantiles for few samples;
* ``paired_gain``: whether paired differences are above zero beyond doubt (a one-sided t test, or a sign test
  where every sample gave the same difference);
* ``batch_means_half``: the half width of a 95 % interval from paired batches (chunks of seeds).
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054          # the two-sided 95 % quantile of the normal distribution


def wilson(mean: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion `mean` observed over `n` trials."""
    if n <= 0:
        return 0.0, 1.0
    z2 = z * z
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(mean * (1 - mean), 0.0) / n + z2 / (4 * n * n))
    lo = 0.0 if mean <= 0 else max(0.0, centre - half)
    hi = 1.0 if mean >= 1 else min(1.0, centre + half)
    return lo, hi


def mean_ci(values: list, z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): the mean of `values` and its interval, mean ± `z` standard errors (95 % by default;
    infinite with fewer than two values)."""
    n = len(values)
    if not n:
        return 0.0, -math.inf, math.inf
    m = sum(values) / n
    if n < 2:
        return m, -math.inf, math.inf
    half = z * math.sqrt(sum((x - m) ** 2 for x in values) / (n - 1) / n)
    return m, m - half, m + half


# one-sided 95 % quantiles of Student's t by degrees of freedom (1 … 30, then 40, 60, 120; beyond: the normal's)
_T95 = {1: 6.314, 2: 2.920, 3: 2.353, 4: 2.132, 5: 2.015, 6: 1.943, 7: 1.895, 8: 1.860, 9: 1.833, 10: 1.812,
        11: 1.796, 12: 1.782, 13: 1.771, 14: 1.761, 15: 1.753, 16: 1.746, 17: 1.740, 18: 1.734, 19: 1.729,
        20: 1.725, 21: 1.721, 22: 1.717, 23: 1.714, 24: 1.711, 25: 1.708, 26: 1.706, 27: 1.703, 28: 1.701,
        29: 1.699, 30: 1.697, 40: 1.684, 60: 1.671, 120: 1.658}


def t95_one_sided(df: int) -> float:
    """The one-sided 95 % quantile of Student's t with `df` degrees of freedom (between the tabled ones: the
    next smaller df's, which is the larger, so a test stays on the safe side)."""
    if df < 1:
        return math.inf                    # one sample: no spread to judge by
    if df in _T95:
        return _T95[df]
    if df > 120:
        return 1.645
    return _T95[max(d for d in _T95 if d < df)]


def t95_two_sided(df: int) -> float:
    """Student's t for a two-sided 95 % interval with `df` degrees of freedom (the table below 3, else the
    Cornish–Fisher expansion about the normal quantile, within 0.1 % of the table)."""
    if df < 1:
        return math.inf
    if df <= 2:
        return (12.706, 4.303)[df - 1]
    z = Z95
    z3, z5, z7 = z ** 3, z ** 5, z ** 7
    return (z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2)
            + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3))


def paired_gain(diffs: list, z: float, at_least: int) -> float | None:
    """The mean of the paired differences `diffs` (one per sample: an action's value minus another's in the
    same sample) if it is above zero beyond doubt, else None: its interval, mean ± `z` standard errors, lies
    above zero (a one-sided t test with `z` the t quantile); where every sample gave the same difference there
    is no spread to test, and then only a sign test counts — all of at least `at_least` samples in favour
    (½⁵ ≈ 3 % for 5): two samples that both went one way prove nothing."""
    m, lo, _ = mean_ci(diffs, z)
    if len(diffs) < at_least and max(diffs) - min(diffs) <= 1e-9 * (1 + abs(m)):
        return None
    return m if lo > 0 else None


def batch_means_half(diffs: list, weights: list) -> float | None:
    """The half width of the 95 % interval of a weighted mean of batch differences (batch means: each batch —
    a chunk of seeds played both ways — is one paired sample, so the spread of the batches' differences
    carries the pairing's correlation); `weights` is what each batch's figure is a share of (its games, the
    units staked in it). None with fewer than two batches."""
    k = len(diffs)
    if k < 2:
        return None
    total = sum(weights)
    mean = sum(w * d for w, d in zip(weights, diffs)) / total
    var = k / (k - 1) * sum((w / total) ** 2 * (d - mean) ** 2 for w, d in zip(weights, diffs))
    return t95_two_sided(k - 1) * math.sqrt(var)
