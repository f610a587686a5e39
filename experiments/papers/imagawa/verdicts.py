"""The verdicts of the seed 001 reproduction: Welch t-tests against Plain, and each claim of
the paper beside our numbers with a verdict computed from the stored results (never typed in)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from .study import curve_rates, is_default, mean_failure

SIGNIFICANCE = 0.05


def welch(a: pd.DataFrame, b: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Two-tailed Welch t-test, row by row, of curve rows ``a`` against aligned rows ``b``
    (columns failure_rate, std, runs): (t, p). Where neither varies the rates are exact: p is 1
    when they are equal and 0 when they differ."""
    with np.errstate(divide="ignore", invalid="ignore"):
        t, p = stats.ttest_ind_from_stats(
            *(rows[column].to_numpy(float) for rows in (a, b)
              for column in ("failure_rate", "std", "runs")), equal_var=False)
    exact = (a["std"].to_numpy() == 0) & (b["std"].to_numpy() == 0)
    same = a["failure_rate"].to_numpy() == b["failure_rate"].to_numpy()
    return np.where(exact, 0.0, t), np.where(exact, np.where(same, 1.0, 0.0), p)


def welch_tests(frame: pd.DataFrame) -> pd.DataFrame:
    """Every default enhancement against Plain with the same tree and policy, per budget:
    two-tailed Welch t-test on the per-run failure indicators (significance 0.05)."""
    main = frame[is_default(frame)]
    keys = ["tree", "policy", "budget"]
    pairs = main[main.adjuster != "plain"].merge(main[main.adjuster == "plain"], on=keys,
                                                 suffixes=("", "_plain"))
    plain = pairs[["failure_rate_plain", "std_plain", "runs_plain"]].set_axis(
        ["failure_rate", "std", "runs"], axis=1)
    t, p = welch(pairs, plain)
    return pd.DataFrame({
        "tree": pairs.tree, "policy": pairs.policy, "adjuster": pairs.adjuster,
        "budget": pairs.budget, "plain": pairs.failure_rate_plain,
        "enhanced": pairs.failure_rate,
        "difference": pairs.failure_rate - pairs.failure_rate_plain,
        "t": t, "p": p, "significant": p < SIGNIFICANCE,
    })


def significant_share(tests: pd.DataFrame, tree: str, policy: str, adjuster: str,
                      better: bool = True, low: int = 2**8) -> tuple[int, int]:
    """(budgets >= low where the enhancement is significantly better (or worse), budgets)."""
    rows = tests[(tests.tree == tree) & (tests.policy == policy) & (tests.adjuster == adjuster)
                 & (tests.budget >= low)]
    sign = rows.difference < 0 if better else rows.difference > 0
    return int((rows.significant & sign).sum()), len(rows)


@dataclass(frozen=True)
class Claim:
    figure: str
    paper: str  # what the paper reports
    ours: str  # what we measured
    agrees: bool


def _have(frame: pd.DataFrame, *pairs) -> bool:
    return all(not curve_rates(frame, tree, policy, adjuster).empty
               for tree, policy, adjuster in pairs)


def _mean(frame, tree, policy, adjuster) -> str:
    return f"{mean_failure(frame, tree, policy, adjuster):.3f}"


def claims(frame: pd.DataFrame, tests: pd.DataFrame) -> list[Claim]:
    """The paper's claims that our curves can confirm or contradict. 'Mean failure' is the
    average over budgets 2^6..2^14 (area under the log-x curve); 'significant' is Welch's
    two-tailed test at 0.05 against Plain per budget >= 256."""
    return [*_convergence_claims(frame), *_maxfreq_claims(frame),
            *_enhancement_claims(frame, tests), *_later_claims(frame, tests)]


def _convergence_claims(frame: pd.DataFrame) -> list[Claim]:
    """Figs. 3-9's starting level and Fig. 3(a)'s plain UCT on Constant(1,1) and (1,5)."""
    found = []
    first = frame[frame.budget == 1]
    rate = first.failures.sum() / first.runs.sum()
    found.append(Claim("3-9", "failure rate is initially about 0.75 (a random move of four)",
                       f"{rate:.3f} at t=1 over all {first.runs.sum():,} runs",
                       abs(rate - 0.75) < 0.02))
    if _have(frame, ("constant(1,1)", "ucb1", "plain"), ("constant(1,5)", "ucb1", "plain")):
        easy = curve_rates(frame, "constant(1,1)", "ucb1", "plain")
        hard = curve_rates(frame, "constant(1,5)", "ucb1", "plain")
        found.append(Claim(
            "3a", "plain UCT converges quickly on Constant(1,1) but keeps a high failure rate "
            "on Constant(1,5) until 10,000 playouts",
            f"Constant(1,1) {easy[1024]:.3f} at 1,024; Constant(1,5) {hard[8192]:.3f} at 8,192",
            easy[1024] < 0.05 and hard[8192] > 0.3))
    return found


def _maxfreq_claims(frame: pd.DataFrame) -> list[Claim]:
    """Figs. 3(b) and 4(b): MaxFrequency on the biased constant trees, and on Constant(1,1)."""
    found = []
    for policy, figure in (("ucb1", "3b"), ("thompson", "4b"), ("klucb", "-")):
        trees = [t for t in ("constant(1,3)", "constant(1,5)", "constant'(1,13)")
                 if _have(frame, (t, policy, "plain"), (t, policy, "maxfreq"))]
        if trees:
            pairs = [(t, mean_failure(frame, t, policy, "maxfreq"),
                      mean_failure(frame, t, policy, "plain")) for t in trees]
            found.append(Claim(
                figure, f"MaxFrequency speeds up convergence in biased constant trees ({policy})",
                "; ".join(f"{t}: {m:.3f} vs plain {p:.3f}" for t, m, p in pairs),
                all(m < p for _, m, p in pairs)))
    if _have(frame, ("constant(1,1)", "ucb1", "plain"), ("constant(1,1)", "ucb1", "maxfreq")):
        m, p = (mean_failure(frame, "constant(1,1)", "ucb1", a) for a in ("maxfreq", "plain"))
        found.append(Claim("3b, note 3", "MaxFrequency is somewhat inefficient in the unbiased "
                           "Constant(1,1)", f"mean failure {m:.3f} vs plain {p:.3f}", m >= p))
    return found


def _enhancement_claims(frame: pd.DataFrame, tests: pd.DataFrame) -> list[Claim]:
    """Figs. 5 and 9: every enhancement against Plain on Constant(1,5) and Random(4,3)."""
    found = []
    for tree, figure in (("constant(1,5)", "5"), ("random(4,3)", "9")):
        for policy in ("ucb1", "klucb", "thompson"):
            enhanced = [a for a in ("static", "score", "value", "maxfreq")
                        if _have(frame, (tree, policy, a), (tree, policy, "plain"))]
            if not enhanced:
                continue
            shares = {a: significant_share(tests, tree, policy, a) for a in enhanced}
            text = "; ".join(f"{a} {_mean(frame, tree, policy, a)} ({s[0]}/{s[1]} budgets "
                             f"significantly better)" for a, s in shares.items())
            text += f"; plain {_mean(frame, tree, policy, 'plain')}"
            if tree == "constant(1,5)":
                found.append(Claim(figure, f"on {tree} every enhancement lowers the failure "
                                   f"rate earlier than Plain ({policy})", text,
                                   all(2 * s[0] >= s[1] for s in shares.values())))
            else:
                better = {a: mean_failure(frame, tree, policy, a)
                          < mean_failure(frame, tree, policy, "plain") for a in enhanced}
                found.append(Claim(figure, f"on {tree} MaxFrequency and Value improve on Plain "
                                   f"({policy})", text,
                                   better.get("maxfreq", True) and better.get("value", True)))
    return found


def _later_claims(frame: pd.DataFrame, tests: pd.DataFrame) -> list[Claim]:
    """Fig. 6 (Constant'(1,13)), Fig. 5's policies without enhancement, Fig. 7(a) and Fig. 9's
    Score against Plain on Random(4,3)."""
    found = []
    if _have(frame, *(("constant'(1,13)", "ucb1", a) for a in ("plain", "score", "value",
                                                                "static", "maxfreq"))):
        tree = "constant'(1,13)"
        shares = {a: significant_share(tests, tree, "ucb1", a)
                  for a in ("score", "value", "static", "maxfreq")}
        text = "; ".join(f"{a} {_mean(frame, tree, 'ucb1', a)} ({s[0]}/{s[1]} significantly "
                         f"better)" for a, s in shares.items())
        text += f"; plain {_mean(frame, tree, 'ucb1', 'plain')}"
        found.append(Claim("6", "on Constant'(1,13) Score and Value (dynamic komi) do not beat "
                           "Plain while Static and MaxFrequency do (UCT)", text,
                           3 * shares["score"][0] <= shares["score"][1]
                           and 3 * shares["value"][0] <= shares["value"][1]
                           and mean_failure(frame, tree, "ucb1", "maxfreq")
                           < mean_failure(frame, tree, "ucb1", "plain")))
    # Sect. V-B on Fig. 5(b), 5(c): "the performance without enhancement was better than that
    # with UCT", said of Constant(1,5) only (Fig. 6's text makes no such claim)
    tree = "constant(1,5)"
    if _have(frame, *((tree, p, "plain") for p in ("ucb1", "klucb", "thompson"))):
        means = {p: mean_failure(frame, tree, p, "plain") for p in ("ucb1", "klucb", "thompson")}
        found.append(Claim("5", f"without enhancement KL-UCB and Thompson sampling do better "
                           f"than UCT ({tree})",
                           "; ".join(f"{p} {m:.3f}" for p, m in means.items()),
                           means["klucb"] < means["ucb1"] and means["thompson"]
                           < means["ucb1"]))
    if _have(frame, ("random(4,0)", "ucb1", "plain"), ("random(4,3)", "ucb1", "plain")):
        easy = curve_rates(frame, "random(4,0)", "ucb1", "plain")[1024]
        hard = curve_rates(frame, "random(4,3)", "ucb1", "plain")[1024]
        found.append(Claim("7a", "plain UCT converges by about 1,000 playouts on Random(4,0) "
                           "but not on Random(4,3)",
                           f"Random(4,0) {easy:.3f}, Random(4,3) {hard:.3f} at 1,024",
                           easy < 0.05 and hard > 0.2))
    worse = [(p, b) for p in ("ucb1", "klucb", "thompson")
             for b in tests[(tests.tree == "random(4,3)") & (tests.policy == p)
                            & (tests.adjuster == "score") & tests.significant
                            & (tests.difference > 0)].budget]
    if not tests[(tests.tree == "random(4,3)") & (tests.adjuster == "score")].empty:
        found.append(Claim("9", "on Random(4,3) Score sometimes has a higher failure rate than "
                           "Plain", f"significantly higher at {len(worse)} (policy, budget) "
                           f"pairs: {', '.join(f'{p}@{b}' for p, b in worse[:6]) or 'none'}",
                           bool(worse)))
    return found
