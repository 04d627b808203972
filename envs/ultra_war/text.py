"""The ansi table: the map (row 12 on top), the armies, power, hands (only the viewer's) and events."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultra_war.content import SIZE
from ultimata.envs.ultra_war.geometry import DIR_NAMES, field, name
from ultimata.envs.ultra_war.phases import PHASES

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState

ARROWS = "^/>\\v/<\\"
LEGEND = ("key: A-H player_0's characters, a-h player_1's (in army order), T power token, * objective, e escape",
          "     # wall, D door (passable, blocks sight), o obstruction (walk through, blocks sight), s stairs, "
          "^ upper level, . floor")
"""What the map's letters mean, printed under it (a person at a terminal has no other key)."""


def render(state: UltraWarState, viewer: int | None = None) -> str:
    b = state.board
    lines = [f"Ultra War - {state.game.scenario.title} - round {state.round}, "
             f"player_{state.turn} to play, phase: {PHASES[state.phase]}"]
    lines.append("    " + " ".join("abcdefghijkl"))
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            f = field(r, c)
            u = state.unit_at(f)
            if u is not None:
                ch = "ABCDEFGH"[u.slot] if u.side == 0 else "abcdefgh"[u.slot]
            elif state.token_at(f):
                ch = "T"
            elif b.solid(f, state.breached):
                ch = "#"
            elif b.door[f]:
                ch = "D"
            elif b.obstruction[f]:
                ch = "o"
            elif b.stairs[f]:
                ch = "s"
            elif b.objective[f]:
                ch = "*"
            elif b.escape[f]:
                ch = "e"
            else:
                ch = "^" if b.level[f] else "."
            row.append(ch)
        lines.append(f"{SIZE - r:>3} " + " ".join(row))
    lines += LEGEND
    for side in (0, 1):
        factions = state.game.scenario.factions
        lines.append(f"player_{side} ({factions[side]}): power {state.pool(side)}, hand {len(state.hands[side])}, "
                     f"deck {len(state.decks[side])}" + (f", hold {state.hold[side]}" if any(state.hold) else ""))
        for u in state.side_units(side):
            tag = ("ABCDEFGH" if side == 0 else "abcdefgh")[u.slot]
            where = name(u.pos) if u.on_map else "the Void" if u.void else "defeated"
            crystals = state.borne(u)
            flags = [x for x, on in (("turned", u.turned), ("flying", u.flying), ("stunned", u.stun),
                                     ("powered down", u.powered_down), ("imprisoned", u.imprisoned),
                                     ("acted", u.acted)) if on]
            flags += [f"crystal {s.points}" for s in crystals]
            gear = ", ".join(x for x in (u.weapon, u.weapon2, u.armor, u.standard, *u.upgrades) if x)
            lines.append(f"  {tag} {u.name} at {where} facing {DIR_NAMES[u.facing]} life {u.life}/{u.ch.life}"
                         + (f" [{', '.join(flags)}]" if flags else "") + (f" gear: {gear}" if gear else ""))
    if viewer is not None:
        lines.append(f"your hand: {', '.join(state.hands[viewer]) or '-'}")
        if state.current_player == viewer:
            from ultimata.envs.ultra_war.view import melee_notes

            lines += [f"note: {n}" for n in melee_notes(state)]
    lines += [f"> {e}" for e in state.events[-5:]]
    return "\n".join(lines)


__all__ = ["render", "ARROWS"]
