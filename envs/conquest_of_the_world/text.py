"""The ansi table: the board zone by zone (holder and kind), the players' records and chips, player
alliances, the battle under way (never a hidden weapon choice) and the latest events."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.conquest_of_the_world.board import board
from ultimata.envs.conquest_of_the_world.phases import OVER, PHASES, RESPOND, WEAPON
from ultimata.envs.conquest_of_the_world.terms import ALLY, CONQUEST, HOME, STAGES

if TYPE_CHECKING:
    from ultimata.envs.conquest_of_the_world.state import ConquestState

MARK = {HOME: "H", CONQUEST: "C", ALLY: "A"}


def record_text(half: int) -> str:
    return f"{half // 2}" + (".5" if half % 2 else "")


def render(s: ConquestState, viewer: int | None = None) -> str:
    b = board()
    who = "" if s.phase == OVER else f", player_{s.current_player} to play"
    lines = [f"Conquest of the World - turn {s.turn}, {STAGES[s.stage]}, {PHASES[s.phase]}{who}"]
    for z, members in enumerate(b.zone_members):
        cells = []
        for c in members:
            h = s.holder[c]
            tag = f"[{MARK[s.kind[c]]}{h}]" if h >= 0 else "[ - ]"
            cells.append(f"{b.names[c]} {b.value[c]} {tag}")
        lines.append(f"zone {z + 1:>2}: " + ", ".join(cells))
    for q in range(s.n):
        allies = [f"player_{r}" for r in range(s.n) if s.allied[q][r]]
        state = "" if s.alive[q] else " (out)"
        broken = [f"player_{r}" for r in range(s.n) if s.broken[q][r]]
        home = f", homeland {b.names[s.homeland[q]]}" if s.homeland[q] >= 0 else ""
        lines.append(f"player_{q}{state}{home}: record {record_text(s.record[q])}, chips {s.chips[q]}"
                     + (f", allied with {', '.join(allies)}" if allies else "")
                     + (f", broke with {', '.join(broken)}" if broken else "")
                     + (" <- you" if q == viewer else ""))
    lines.append("(record: alliances at half value, conquests at full, a player's own homeland not counted)")
    if s.option >= 0 and s.phase != OVER:
        lines.append(f"attack option: player_{s.option}, alliances it may buy: {s.buys}")
    if s.phase == RESPOND:
        p, q = s.proposal
        lines.append(f"proposal: player_{p} to player_{q}; still to answer: "
                     + ", ".join(f"player_{r}" for r in s.answers))
    if s.phase == WEAPON:
        a, d = s.fighters
        what = f"war for {b.names[s.target]}" if s.target >= 0 else "end-game confrontation"
        led = "" if s.director(0) == a else f" (directed by player_{s.director(0)})"
        lines.append(f"{what}: player_{a}{led} energy {s.energy[0]} (won {s.wins[0]}) vs player_{d} energy "
                     f"{s.energy[1]} (won {s.wins[1]}), battle {s.battles + 1}"
                     + (", a first weapon is chosen (hidden)" if s.pending >= 0 else ""))
    lines += [f"> {e}" for e in s.events[-5:]]
    return "\n".join(lines)
