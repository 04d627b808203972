"""The pitch as an ansi text (a move's words are words.py's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultimade.board import COLUMNS, LENGTH, WIDTH
from ultimata.envs.ultimade.phases import OVER, PHASES
from ultimata.envs.ultimade.players import PLAYER_NAMES, TEAMS

if TYPE_CHECKING:
    from ultimata.envs.ultimade.state import UltimadeState

LEGEND = "A1 player  A1* holds the disc  a1 has run this cycle  >A1 picked to run  @ disc on the ground"


def _cell(state: UltimadeState, f: int) -> str:
    if f in state.pos:
        p = state.pos.index(f)
        label = PLAYER_NAMES[p]
        if state.moved >> p & 1:
            label = label.lower()
        if p == state.holder:
            label += "*"
        if p == state.runner:
            label = ">" + label
        return label
    if f == state.disc and state.holder < 0:
        return "@"
    return "."


def board_text(state: UltimadeState) -> str:
    """The pitch with row 18 (B's end) on top; endzone lines drawn across."""
    depth = state.game.config.endzone_depth
    cfg = state.game.config
    lines = [
        f"ULTIMADE   A {state.score[0]} : {state.score[1]} B   (to {cfg.points_to_win})   "
        f"cycle {state.cycle}/{cfg.max_cycles}   {TEAMS[state.offense]} on offense"
    ]
    header = "     " + "".join(f"{c:^4}" for c in COLUMNS)
    rule = "    +" + "-" * (4 * WIDTH) + "+"
    lines += [header, rule]
    for row in range(LENGTH - 1, -1, -1):
        cells = "".join(f"{_cell(state, row * WIDTH + c):^4}" for c in range(WIDTH))
        note = "  B endzone" if row >= LENGTH - depth else "  A endzone" if row < depth else ""
        lines.append(f"{row + 1:>3} |{cells}|{note}")
        if row in (LENGTH - depth, depth):
            lines.append(rule)
    lines += [rule, header, LEGEND]
    if state.last_event:
        lines.append(f"last: {state.last_event}")
    if state.phase == OVER:
        result = f"{TEAMS[state.winner]} wins" if state.winner >= 0 else "draw"
        lines.append(f"game over: {result}")
    else:
        lines.append(f"player_{state.to_move} ({TEAMS[state.to_move]}) to {PHASES[state.phase]}")
    return "\n".join(lines)
