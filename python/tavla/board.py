"""A Unicode drawing of a position, for the terminal.

The board is drawn from one player's side in its own numbering: points 13..24
along the top from left to right, 12..1 along the bottom, the player's home
(1..6) at the bottom right. The viewer's checkers are ``●``, the opponent's
``○``; a point with more than five shows the count on its last row.
"""

from __future__ import annotations

from typing import Optional, Sequence, Tuple

from ._core import Position

MINE, THEIRS = "●", "○"
ROWS = 5
# The variants on short backgammon's board: opposite directions, a bar (and for the last two a reserve).
BACKGAMMON_BOARD = ("backgammon", "dutch", "acey_deucey")


def _their_point_on_my_board(variant: str, k: int) -> int:
    """Where the opponent's point k (its numbering) lies in mine."""
    if variant in BACKGAMMON_BOARD:
        return 25 - k
    return k + 12 if k <= 12 else k - 12


def layout(position: Position) -> Tuple[list[int], list[int], Tuple[int, int], Tuple[int, int]]:
    """(mine, theirs) per my point 1..24 (index 0 = point 1), bars, borne off."""
    mine_own, theirs_own = position.to_arrays()
    mine = list(mine_own[:24])
    theirs = [0] * 24
    for k in range(1, 25):
        theirs[_their_point_on_my_board(position.variant, k) - 1] = theirs_own[k - 1]
    return mine, theirs, (mine_own[24], theirs_own[24]), position.off


def _cell(mine: int, theirs: int, row: int) -> str:
    n, mark = (mine, MINE) if mine else (theirs, THEIRS)
    if n == 0 or row >= n:
        return " · " if row == 0 else "   "
    if row == ROWS - 1 and n > ROWS:
        return f"{n:^3}"
    return f" {mark} "


def draw(
    position: Position,
    *,
    names: Sequence[str] = ("you", "opponent"),
    dice: Optional[Tuple[int, int]] = None,
    cube: Optional[str] = None,
) -> str:
    """The board seen from the player on roll of ``position`` (``names[0]``)."""
    mine, theirs, bar, off = layout(position)
    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))

    def numbers(points: list[int]) -> str:
        left = "".join(f"{p:^3}" for p in points[:6])
        right = "".join(f"{p:^3}" for p in points[6:])
        return f"  {left}     {right}"

    def row(points: list[int], r: int, bar_text: str) -> str:
        left = "".join(_cell(mine[p - 1], theirs[p - 1], r) for p in points[:6])
        right = "".join(_cell(mine[p - 1], theirs[p - 1], r) for p in points[6:])
        return f" │{left}│{bar_text:^3}│{right}│"

    lines = [numbers(top), " ┌" + "─" * 18 + "┬───┬" + "─" * 18 + "┐"]
    for r in range(ROWS):
        lines.append(row(top, r, THEIRS if position.variant in BACKGAMMON_BOARD and r < bar[1] else ""))
    middle = "BAR" if position.variant in BACKGAMMON_BOARD else ""
    lines.append(" │" + " " * 18 + f"│{middle:^3}│" + " " * 18 + "│")
    for r in reversed(range(ROWS)):
        lines.append(row(bottom, r, MINE if position.variant in BACKGAMMON_BOARD and r < bar[0] else ""))
    lines.append(" └" + "─" * 18 + "┴───┴" + "─" * 18 + "┘")
    lines.append(numbers(bottom))
    pips = position.pip_count()
    reserve = position.reserve
    lines.append(
        f" {MINE} {names[0]}: pips {pips[0]}, off {off[0]}"
        + (f", bar {bar[0]}" if bar[0] else "")
        + (f", reserve {reserve[0]}" if reserve[0] else "")
        + f"   {THEIRS} {names[1]}: pips {pips[1]}, off {off[1]}"
        + (f", bar {bar[1]}" if bar[1] else "")
        + (f", reserve {reserve[1]}" if reserve[1] else "")
    )
    extra = []
    if dice:
        extra.append(f"dice {dice[0]}-{dice[1]}")
    if cube:
        extra.append(cube)
    if extra:
        lines.append(" " + "   ".join(extra))
    return "\n".join(lines)
