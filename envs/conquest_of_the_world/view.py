"""JSON for people and browsers: the board (zones, countries, holders and kinds), the players' records,
chips and alliances, the battle under way without a hidden weapon choice (whether the first side has
chosen is public, what it chose is not), the battle model's public tables, the last battle fought as
everyone saw it, and the legal moves."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world.board import board
from ultimata.envs.conquest_of_the_world.combat import SPEND_WORDS, SPENDS, WEAPONS, battle_model
from ultimata.envs.conquest_of_the_world.phases import OVER, PHASES, WEAPON
from ultimata.envs.conquest_of_the_world.terms import DUEL, KINDS, STAGES

if TYPE_CHECKING:
    from ultimata.envs.conquest_of_the_world.state import ConquestState


def view(state: ConquestState, seat: int | None) -> dict[str, Any]:
    b = board()
    over = state.phase == OVER
    returns = state.returns() if over else []
    best = max(returns) if returns else 0
    return {
        "seat": seat,
        "zones": [[{"country": c, "name": b.names[c], "value": b.value[c], "holder": state.holder[c],
                    "held_as": KINDS[state.kind[c]]} for c in members] for members in b.zone_members],
        "players": [{"record": state.record[q] / 2, "chips": state.chips[q], "alive": state.alive[q],
                     "allies": [r for r in range(state.n) if state.allied[q][r]],
                     "broken_with": [r for r in range(state.n) if state.broken[q][r]],
                     "homeland": state.homeland[q]} for q in range(state.n)],
        "option": state.option,
        "buys": state.buys,
        "proposal": ({"from": state.proposal[0], "to": state.proposal[1], "waiting": list(state.answers)}
                     if state.proposal[0] >= 0 else None),
        "turn": state.turn,
        "stage": STAGES[state.stage],
        "phase": PHASES[state.phase],
        "battle": ({"fighters": state.fighters, "directors": [state.director(0), state.director(1)],
                    "energy": state.energy, "wins": state.wins,
                    "target": state.target, "target_name": b.names[state.target] if state.target >= 0 else None,
                    "battle": state.battles + 1, "first_chosen": state.pending >= 0, "choosing": state.choosing,
                    "your_pick": _your_pick(state, seat),
                    "barred": [[w for i, w in enumerate(WEAPONS) if state.barred[side] >> i & 1] for side in (0, 1)]}
                   if state.phase == WEAPON else None),
        "last_battle": _last_battle(state),
        "battle_model": _battle_tables(state),
        "events": list(state.events[-6:]),
        "to_move": None if over else state.current_player,
        "over": over,
        "winners": [q for q in range(state.n) if returns and returns[q] == best],
    }


def moves(state: ConquestState) -> list[dict[str, Any]]:
    out = []
    for action in state.legal_actions():
        move: dict[str, Any] = {"action": action, "label": state.action_to_string(action)}
        if action < A.WEAPON:
            move.update(target="country", country=(action - A.PICK) % A.COUNTRIES,
                        kind=("pick", "buy", "attack")[action // A.COUNTRIES])
        elif action < A.PROPOSE:
            move.update(target="weapon", **_choice(action - A.WEAPON))
        else:
            move.update(target="button", kind="")
        out.append(move)
    return out


def _last_battle(state: ConquestState) -> dict[str, Any] | None:
    """The last battle fought: both choices are public once it is fought."""
    attacker, defender, pick_attacker, pick_defender, wooded = state.last_battle
    if attacker < 0:
        return None
    return {"directors": [attacker, defender], "choices": [_choice(pick_attacker), _choice(pick_defender)],
            "wooded": bool(wooded)}


def _choice(k: int) -> dict[str, str]:
    return {"weapon": WEAPONS[k // len(SPENDS)], "spend": SPEND_WORDS[k % len(SPENDS)]}


def _your_pick(state: ConquestState, seat: int | None) -> dict[str, str] | None:
    """The viewer's own hidden choice, waiting for the other side's: only its chooser sees it."""
    if state.pending < 0 or seat is None:
        return None
    first = state.battles % 2 if state.mode == DUEL else 0
    return _choice(state.pending) if state.director(first) == seat else None


def _battle_tables(state: ConquestState) -> dict[str, Any]:
    """What a player needs to choose a weapon: hit chances, spend levels' costs and bonuses (public rules)."""
    m = battle_model()
    return {"weapons": list(WEAPONS), "spends": list(SPEND_WORDS),
            "hit": [list(row) for row in m.hit], "cost": [list(row) for row in m.cost], "bonus": list(m.bonus),
            "tree_penalty": m.tree_penalty, "wooded_chance": state.game.config.wooded_chance}
