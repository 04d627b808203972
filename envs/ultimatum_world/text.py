"""The table as an ansi text (a move's words are words.py's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.content import ALLIANCES, CARD_KINDS, world
from ultimata.envs.ultimatum_world.phases import OVER, PHASES

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.state import WorldState

W = world()
KEY = (
    "Key: 'France* p1:10' = France (* a Worldpower), held by player_1 with 10 troops; "
    "'blockade 2 p1:3b2s' = player_1's 3 battleships and 2 submarines there; seas not listed are vacant"
)


def _nation_text(s: WorldState, x: int) -> str:
    holder = f"p{s.owner[x]}:{s.troops[x]}" if s.owner[x] >= 0 else "unowned"
    return f"{W.names[x]}{'*' if W.worldpower[x] else ''} {holder}"


def render(s: WorldState, viewer: int | None = None) -> str:
    lines = [
        f"Ultimatum, round {s.round}/{s.cfg.max_rounds}, turn {s.turn}: {PHASES[s.phase]}"
        + ("" if s.phase == OVER else f", player_{s.current_player} to decide")
    ]
    for q in range(s.n):
        hand = sum(s.hands[q])
        mine = ""
        if viewer == q:
            mine = " [" + ", ".join(f"{c}x {CARD_KINDS[k]}" for k, c in enumerate(s.hands[q]) if c) + "]"
        held = [ALLIANCES[a] for a in range(4) if s.holds_alliance(q, a)]
        lines.append(
            f"player_{q}: ${s.bank[q]}bn, {s.lasers[q]} laser(s), {hand} card(s){mine}"
            + (f", holds {', '.join(held)}" if held else "")
            + (" (out)" if s.out[q] else "")
        )
    lines.append(KEY)
    for a, members in enumerate(W.members):
        lines.append(f"{ALLIANCES[a]}: " + ", ".join(_nation_text(s, x) for x in members))
    seas = [
        f"{W.sea_names[t].split(' (')[0]} p{s.sea_owner[t]}:{s.bs[t]}b{s.subs[t]}s"
        for t in range(A.SEAS)
        if s.sea_owner[t] >= 0
    ]
    lines.append("Seas: " + ("; ".join(seas) or "all vacant"))
    if s.turn_money or s.embargo_money:
        lines.append(f"money to spend this turn: ${s.turn_money}bn conquest, ${s.embargo_money}bn embargo")
    if s.placing != [0, 0, 0]:
        lines.append(f"to place: {s.placing[0]} troop(s), {s.placing[1]} battleship(s), {s.placing[2]} submarine(s)")
    lines += s.events[-4:]
    return "\n".join(lines)
