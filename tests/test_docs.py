"""docs/rules.md and LICENSE agree with the engine and the package metadata."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tavla

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
ALL_VARIANTS = list(tavla.VARIANTS) + list(tavla.RESERVE_VARIANTS)
VARIANT_CELLS = {"nardy": ["nardy"], "gul bara": ["gulbara"], "all": ALL_VARIANTS,
                 "backgammon": ["backgammon"], "dutch": ["dutch"]}


def option_table(text: str) -> list[tuple[str, str, list[str]]]:
    """(variant, option, values with the default first) of the rules.md option table."""
    section = text.split("## 6. All rule options", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[1].startswith("`"):
            continue
        option = cells[1].strip("`")
        values = re.findall(r"`([^`]+)`", cells[2].split("(")[0])
        for variant_cell in cells[0].split(","):
            for variant in VARIANT_CELLS[variant_cell.strip()]:
                rows.append((variant, option, values))
    return rows


def literal(text: str):
    return {"True": True, "False": False}.get(text, int(text) if text.isdigit() else text)


ROWS = option_table(RULES.read_text(encoding="utf-8"))


def test_the_table_names_every_option_of_every_variant():
    documented = {(v, o) for v, o, _ in ROWS}
    for variant in ALL_VARIANTS:
        for option in tavla.Position.start(variant).rules:
            assert (variant, option) in documented, f"docs/rules.md's table lacks {variant} {option}"
    assert len(documented) == sum(len(tavla.Position.start(v).rules) for v in ALL_VARIANTS)


@pytest.mark.parametrize("variant,option,values", ROWS, ids=[f"{v}-{o}" for v, o, _ in ROWS])
def test_documented_defaults_and_values_are_the_engines(variant, option, values):
    assert values, f"{variant} {option}: no values in the table"
    assert tavla.Position.start(variant).rules[option] == literal(values[0]), "the default is listed first"
    for value in values:
        assert tavla.Position.start(variant, **{option: literal(value)}).rules[option] == literal(value)


@pytest.mark.parametrize("variant", tavla.RESERVE_VARIANTS)
def test_reserve_games_are_played_in_full_and_not_listed_as_missing(variant):
    # docs/rules.md section 4b has them; section 7 lists only what tavla does not play.
    assert tavla.Position.start(variant).reserve == (15, 15)
    assert 0.0 < tavla.Engine(variant, ply=0).evaluate(tavla.Position.start(variant)).win < 1.0
    missing = RULES.read_text(encoding="utf-8").split("## 7.", 1)[1].split("\n## ", 1)[0]
    assert variant not in missing.lower().replace("-", "_").replace(" backgammon", "")


def test_rules_md_covers_each_variant_and_the_readings():
    text = RULES.read_text(encoding="utf-8")
    for heading in ("## 2. Short backgammon", "## 3. Long nardy", "## 4. Gul bara", "## 5. Readings"):
        assert heading in text
    for word in ("beaver", "jacoby", "Crawford", "max_cube", "next_game_starter", "cascade", "wrap"):
        assert word in text


def test_license_is_mit_and_matches_pyproject():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 the tavla authors" in text
    assert 'license = { text = "MIT" }' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Kazaross-XG2.xml" in readme and "LICENSE" in readme
    met = (ROOT / "src" / "cube" / "met" / "Kazaross-XG2.xml").read_text(encoding="utf-8")
    assert "this notice are preserved" in met  # the table's own notice is still in the file
