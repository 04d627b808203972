"""A move in words: its mover reads a command ("attack Iraq, paying 3000 chips"), everyone else a sentence
about the mover ("player_2 attacks Iraq, paying 3000 chips"). Where the rules log the move itself in the
same words ("player_2 passes the attack option"), the event log does not repeat it (core/narration.py).
A battle's first weapon choice is never in the table's words: state.narrate hides it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world.board import board
from ultimata.envs.conquest_of_the_world.combat import SPEND_WORDS, SPENDS, WEAPONS
from ultimata.envs.conquest_of_the_world.phases import DIPLOMACY, HOMELAND, ZONE_ALLY
from ultimata.envs.core.narration import two_voices

if TYPE_CHECKING:
    from ultimata.envs.conquest_of_the_world.state import ConquestState

BOARD = board()


def move_words(s: ConquestState, action: int) -> tuple[str, str]:
    """(the mover's command, the table's sentence) for `action` of the current player."""
    p = max(s.current_player, 0)
    mover, table = two_voices(_template(s, p, action))
    return mover, f"player_{p} {table}"


def _template(s: ConquestState, p: int, action: int) -> str:
    """The move with `[mover|table]` pairs (core/narration.two_voices)."""
    if action < A.BUY:
        c = action - A.PICK
        where = f"{BOARD.names[c]}[ ({BOARD.value[c]})|]"
        if s.phase == HOMELAND:
            return f"[choose|chooses] {where} as homeland"
        return f"[ally|allies] with {where} in [your|its] home zone"
    if action < A.ATTACK:
        c = action - A.BUY
        return f"[buy|buys] an alliance with {BOARD.names[c]}[ for {BOARD.value[c] * 500} chips|]"
    if action < A.WEAPON:
        c = action - A.ATTACK
        cost = 0 if s.holder[c] < 0 else BOARD.value[c] * 1000
        return f"[attack|attacks] {BOARD.names[c]}" + (f", paying {cost} chips" if cost else "")
    if action < A.PROPOSE:
        weapon, spend = divmod(action - A.WEAPON, len(SPENDS))
        return f"[fight|fights] with a {WEAPONS[weapon]}, spending {SPEND_WORDS[spend]}"
    if action < A.BREAK:
        return f"[propose|proposes] a player alliance to player_{(p + action - A.PROPOSE + 1) % s.n}"
    if action == A.BREAK:
        allies = ", ".join(f"player_{q}" for q in s.group(p)[1:]) or "no one"
        return f"[break|breaks] the[ player|] alliance with {allies}[ for good|]"
    if action == A.DONE:
        return {ZONE_ALLY: "[stop|stops] allying in [your|its] home zone",
                DIPLOMACY: "[end|ends] [your|its] diplomacy for now"}.get(s.phase, "[pass|passes] the attack option")
    if action in (A.ACCEPT, A.DECLINE):
        proposer, partner = s.proposal
        if proposer < 0:  # no proposal is waiting (an error message naming the action)
            return "[accept|accepts] the alliance" if action == A.ACCEPT else "[decline|declines] the alliance"
        answer = "[accept|accepts]" if action == A.ACCEPT else "[decline|declines]"
        return f"{answer} the alliance of player_{proposer} with " + (
            f"[you|player_{partner}]" if partner == p else f"player_{partner}")
    return f"[choose|chooses] action {action}"
