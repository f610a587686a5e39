"""Seed 003 Fig. 2 on Pig (slow): UCT+CV+CRN scores higher than base UCT at equal simulations,
with non-overlapping 95% intervals over 3000 games (Pig, 10 turns, the same dice for both)."""

import pandas as pd
import pytest

from experiments.papers.veness import PANELS, game_scores, score_summary


@pytest.mark.slow
@pytest.mark.parametrize("budget", [64, 256])
def test_cv_crn_beats_base_uct(budget):
    scores = pd.concat([game_scores(PANELS["pig"], method, budget, 3000, seed=2011)
                        for method in ("uct", "uct+cv+crn")])
    table = score_summary(scores).set_index("method")
    assert table.loc["uct+cv+crn", "ci95_low"] > table.loc["uct", "ci95_high"]
