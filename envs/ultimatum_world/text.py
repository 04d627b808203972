"""Words for moves and positions: the action a player is choosing, and the table as an ansi text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.cards import AIRLIFT
from ultimata.envs.ultimatum_world.content import ALLIANCES, CARD_KINDS, world
from ultimata.envs.ultimatum_world.phases import ACT, BUY, MOVE_IN, OVER, PHASES, WINDOW

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.state import WorldState

W = world()
VERBS = {
    A.BUY_TROOPS_1: "buy 1 troop",
    A.BUY_TROOPS_5: "buy 5 troops",
    A.BUY_TROOPS_ALL: "buy troops with all the money (up to the pieces left)",
    A.BUY_BATTLESHIP: "buy a battleship",
    A.BUY_SUBMARINE: "buy a submarine",
    A.BUY_LASER: "buy a laser",
    A.ATTACK: "attack with troops",
    A.LASER: "fire a laser",
    A.MOVE_BATTLESHIPS: "move battleships",
    A.MOVE_SUBMARINES: "move submarines",
    A.ROLL: "roll the dice once",
    A.BLITZ: "roll until the battle is decided",
    A.STOP: "stop the attack",
    A.AIM: "a battleship attacks a battleship",
    A.AIM + 1: "a battleship attacks a submarine",
    A.AIM + 2: "a submarine attacks a battleship",
    A.AIM + 3: "a submarine attacks a submarine",
    A.AMOUNT_ONE: "one",
    A.AMOUNT_HALF: "half",
    A.AMOUNT_ALL: "all (troops: all but one)",
    A.DONE: "done",
}
PLACE_ROLE = {A.ATTACK: ("from", "against"), A.MOVE_BATTLESHIPS: ("from", "to"), A.MOVE_SUBMARINES: ("from", "to")}


def action_text(s: WorldState, action: int) -> str:
    if action < A.BUY_TROOPS_1:
        if s.placing != [0, 0, 0] and not s.pending:
            return f"place on {W.place_name(action)}"
        if s.pending:
            roles = PLACE_ROLE.get(s.pending[0])
            step = len(s.pending) - 1
            if roles and step < len(roles):
                return f"{roles[step]} {W.place_name(action)}"
            if s.pending[0] == A.CARD + AIRLIFT:
                return f"{('from', 'to')[min(step, 1)]} {W.place_name(action)}"
        return W.place_name(action)
    if A.CARD <= action < A.ATTACK:
        return "play " + CARD_KINDS[action - A.CARD].replace("_", " ")
    if action == A.DONE and s.transfer[0] >= 0 and not s.pending:
        return "no more troops"
    if action == A.DONE:
        return {BUY: "done buying", ACT: "end the turn", WINDOW: "no (more) defence now"}.get(s.phase, "done")
    if action in A.AMOUNTS:
        return _amount_text(s, action)
    return VERBS.get(action, f"action {action}")


def _amount_text(s: WorldState, action: int) -> str:
    """An amount as the number it moves here: '1 troop', '4 battleships', 'all 9 troops'."""
    more, verb = "", s.pending[0] if len(s.pending) >= 2 else None
    if verb in (A.MOVE_BATTLESHIPS, A.MOVE_SUBMARINES):
        battleships = verb == A.MOVE_BATTLESHIPS
        ready = s.ready_bs if battleships else s.ready_subs
        available, noun = ready[s.pending[1] - A.NATIONS], "battleship" if battleships else "submarine"
    elif verb == A.CARD + AIRLIFT:  # one troop stays behind
        available, noun = s.troops[s.pending[1]] - 1, "troop"
    elif s.pending:
        return VERBS[action]
    elif s.placing != [0, 0, 0]:
        kind = next(i for i, c in enumerate(s.placing) if c)
        available, noun = s.placing[kind], ("troop", "battleship", "submarine")[kind]
    elif s.transfer[0] >= 0:
        available, noun, more = s.troops[s.transfer[0]] - 1, "troop", " more"
    elif s.phase == MOVE_IN:
        available, noun = s.troops[s.attack[4]] - 1, "troop"
    else:
        return VERBS[action]
    count = {A.AMOUNT_ONE: 1, A.AMOUNT_HALF: max(1, available // 2), A.AMOUNT_ALL: available}[action]
    words = f"{count}{more} {noun}{'s' if count != 1 else ''}"
    return f"all {words}" if action == A.AMOUNT_ALL and count > 1 else words


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
