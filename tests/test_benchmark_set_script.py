"""scripts/benchmark_set.py's reroll: a set's positions rolled out again, deeper, into a new set
that `errors` reads (on a two-position set in a temporary folder)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

import benchmark_set as bs
import tavla

# A gul bara race (every checker in its own half) and a bear-off small enough for the exact
# two-sided table (six checkers a side or fewer), in each side's own numbering; the checkers
# not on the board are borne off.
RACE = ([0, 2, 2, 2, 2, 2, 0, 1, 1, 1, 1, 1] + [0] * 13, [0, 0, 3, 3, 3, 0, 0, 2, 2, 2] + [0] * 15)
BEAR_OFF = ([2, 2, 1] + [0] * 22, [0, 1, 1, 2] + [0] * 21)


@pytest.fixture()
def sets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(bs, "set_path", lambda name: tmp_path / f"{name}.json")
    entries = [{"mine": m, "theirs": t, "class": c, "rollout": {"equity": 0.0, "equity_error": 0.5}}
               for (m, t), c in [(RACE, "race"), (BEAR_OFF, "bear-off")]]
    doc = {"variant": "gulbara", "made_by": "by hand", "trials": 1, "positions": entries}
    (tmp_path / "tiny.json").write_text(json.dumps(doc))
    return tmp_path


def reroll_args(**changes: object) -> argparse.Namespace:
    args = dict(variant="gulbara", name="tiny", out="tiny-deep", ply=1, trials=8, variance_reduction=True, seed=3, threads=1)
    return argparse.Namespace(**(args | changes))


def test_reroll_keeps_the_positions_and_classes_and_records_how_it_rolled(sets: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bs.reroll(reroll_args()) == 0
    doc = json.loads((sets / "tiny-deep.json").read_text())
    source = json.loads((sets / "tiny.json").read_text())
    assert [(e["mine"], e["theirs"], e["class"]) for e in doc["positions"]] == \
        [(e["mine"], e["theirs"], e["class"]) for e in source["positions"]]
    assert (doc["ply"], doc["trials"], doc["variance_reduction"], doc["positions_from"]) == (1, 8, True, "by hand")
    assert "--ply 1 --trials 8 --seed 3 --variance-reduction" in doc["made_by"]
    race, bear_off = (e["rollout"] for e in doc["positions"])
    assert race["trials"] == 8 and -3.0 <= race["equity"] <= 3.0
    # The exact table plays the whole game and judges every roll: the variance reduction leaves no noise.
    position = tavla.Position.from_arrays("gulbara", *BEAR_OFF)
    assert bear_off["equity"] == pytest.approx(tavla.Engine("gulbara", ply=0).evaluate(position).equity, abs=1e-4)
    assert bear_off["equity_error"] < 1e-3
    # `errors` reads the new set and names its depth.
    assert bs.errors(argparse.Namespace(variant="gulbara", name="tiny-deep", network=[], against=None)) == 0
    assert "rollouts of 8 trials (1-ply, variance reduction)" in capsys.readouterr().out
    # Paired against an evaluator: that evaluator less itself is exactly zero; a name not rated is refused.
    assert bs.errors(argparse.Namespace(variant="gulbara", name="tiny-deep", network=[], against="Engine network ply 0")) == 0
    out = capsys.readouterr().out
    assert "less Engine network ply 0" in out
    assert [line for line in out.splitlines() if "Engine network ply 0 " in line][0].endswith("+0.0000 ± 0.0000")
    with pytest.raises(SystemExit, match="no such evaluator"):
        bs.errors(argparse.Namespace(variant="gulbara", name="tiny-deep", network=[], against="Engine nothing ply 0"))


def test_reroll_refuses_a_set_of_another_variant_and_its_own_name(sets: Path) -> None:
    with pytest.raises(SystemExit, match="is a gulbara set, not nardy"):
        bs.reroll(reroll_args(variant="nardy"))
    with pytest.raises(SystemExit, match="would overwrite the set it rolls out again"):
        bs.reroll(reroll_args(out="tiny"))
    assert json.loads((sets / "tiny.json").read_text())["made_by"] == "by hand"
