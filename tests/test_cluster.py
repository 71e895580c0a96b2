"""The Ray backend (tavla.cluster) on a local Ray instance: matches analysed and positions evaluated
as Ray tasks give exactly what one process gives."""

from __future__ import annotations

from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="the cluster backend needs the cluster extra (ray)")

import tavla  # noqa: E402
from tavla import analysis, cluster, formats  # noqa: E402
from tavla.sampling import random_positions  # noqa: E402

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def local_cluster():
    cluster.connect(num_cpus=2)
    yield
    cluster.shutdown()


def test_matches_analysed_on_ray_are_the_ones_analysed_here(local_cluster):
    texts = [(DATA / name).read_text() for name in ("gnubg_3pt.mat", "gnubg_5pt.mat")]
    reports = cluster.analyze_matches(texts, ply=0)
    engine = tavla.Engine("backgammon", ply=0)
    for text, report in zip(texts, reports):
        here = analysis.analyze_match(engine, formats.read_mat(text))
        assert report["players"] == here["players"] and report["final_score"] == here["final_score"]
        assert "decisions" not in report


def test_positions_evaluated_on_ray_are_the_ones_evaluated_here(local_cluster):
    positions = random_positions("nardy", 3, seed=5) + random_positions("backgammon", 3, seed=5)
    remote = cluster.evaluate_positions(positions, ply=1)
    for p, probabilities in zip(positions, remote):
        e = tavla.Engine(p.variant, ply=1).evaluate(p)
        assert probabilities == pytest.approx([e.win, e.win_gammon, e.win_backgammon, e.lose_gammon,
                                               e.lose_backgammon], abs=1e-6)


def test_positions_rolled_out_on_ray_are_the_ones_rolled_out_here(local_cluster):
    positions = random_positions("backgammon", 2, seed=9) + random_positions("nardy", 1, seed=9)
    remote = cluster.rollout_positions(positions, trials=72, seed=4, variance_reduction=False)
    for p, result in zip(positions, remote):
        here = tavla.Engine(p.variant, ply=0, threads=2).rollout(p, trials=72, seed=4)
        assert result["equity"] == pytest.approx(here.equity, abs=1e-9) and result["trials"] == here.trials
    with pytest.raises(ValueError, match="no progress or threads"):
        cluster.rollout_positions(positions, threads=2)


def test_a_broken_match_is_refused_before_any_task(local_cluster):
    good = (DATA / "gnubg_3pt.mat").read_text()
    with pytest.raises(ValueError, match="match 1: line 7"):
        cluster.analyze_matches([good, good.replace("13/9 24/23", "13/9 24/22", 1)])
