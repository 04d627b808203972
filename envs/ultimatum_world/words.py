"""A move in words. A turn is built one decision at a time (a verb, then its places, then an amount), so
each decision is worded with the verb it completes: its mover reads a command ("attack from Mexico", "move
them to anchor 4,11 (Cape of Good Hope)", "place 2 troops on Italy"), everyone else a sentence about the
mover ("player_3 attacks from Mexico"). A card is named only once it is played, as the events name it; the
events then tell what the move made happen (dice, losses, conquests). Where the rules log the move itself in
the same words, the event log does not repeat it (core/narration.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.core.narration import two_voices
from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.actions import NATIONS
from ultimata.envs.ultimatum_world.cards import AIRLIFT, HELICOPTER_COMMANDO, JET_BOMBER
from ultimata.envs.ultimatum_world.content import CARD_KINDS, world
from ultimata.envs.ultimatum_world.phases import ACT, BATTLE, BUY, MOVE_IN, SETUP, SETUP_FLEET, WINDOW

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.state import WorldState

W = world()
PIECES = ("troop", "battleship", "submarine")
VESSELS = {A.MOVE_BATTLESHIPS: "battleships", A.MOVE_SUBMARINES: "submarines"}
LAYOUT = {
    A.BUY_TROOPS_1: "buy 1 troop",
    A.BUY_TROOPS_5: "buy 5 troops",
    A.BUY_TROOPS_ALL: "buy troops with all the money",
    A.BUY_BATTLESHIP: "buy a battleship",
    A.BUY_SUBMARINE: "buy a submarine",
    A.BUY_LASER: "buy a laser",
    A.ATTACK: "attack with troops",
    A.LASER: "fire a laser",
    A.MOVE_BATTLESHIPS: "move battleships",
    A.MOVE_SUBMARINES: "move submarines",
    A.ROLL: "roll the black dice",
    A.BLITZ: "roll until the battle is decided",
    A.STOP: "stop the attack",
    A.AMOUNT_ONE: "one",
    A.AMOUNT_HALF: "half",
    A.AMOUNT_ALL: "all",
    A.DONE: "done",
}
"""What each action is in the layout alone, for an action not legal now (an error message names it)."""


def move_words(s: WorldState, action: int) -> tuple[str, str]:
    """(the mover's command, the table's sentence 'player_N ...') for `action` of the current player."""
    who = f"player_{max(s.current_player, 0)}"
    mask = s.legal_action_mask()
    if not (0 <= action < len(mask) and mask[action]):
        what = _layout(action)
        return what, f"{who}: {what}"
    mover, table = two_voices(_template(s, action))
    return mover, f"{who} {table}"


def card_name(kind: int) -> str:
    """A card as the events name it: 'jet bomber', 'troops 5'."""
    return CARD_KINDS[kind].replace("_", " ")


def _layout(action: int) -> str:
    if action < A.BUY_TROOPS_1:
        return W.place_name(action - A.PLACE)
    if A.CARD <= action < A.ATTACK:
        return "play " + card_name(action - A.CARD)
    if A.AIM <= action < A.AIM + 4:
        return "announce a naval attack"
    return LAYOUT.get(action, f"action {action}")


def _count(action: int, available: int, noun: str, more: str = "") -> str:
    """An amount as the pieces it moves: '1 troop', '3 more troops', 'all 9 battleships'."""
    count = {A.AMOUNT_ONE: 1, A.AMOUNT_HALF: max(1, available // 2), A.AMOUNT_ALL: available}[action]
    words = f"{count}{more} {noun}{'s' if count != 1 else ''}"
    return f"all {words}" if action == A.AMOUNT_ALL and count > 1 else words


def _twin(action: int, available: int) -> str:
    """For the mover, an amount choice that moves as many as 'one' says so ('half of 3' and 'all 1' are one
    piece too): the buttons are distinct words for what is the same move. The table hears only the count."""
    if action == A.AMOUNT_ONE or (action == A.AMOUNT_HALF and available >= 4) or (action == A.AMOUNT_ALL
                                                                               and available >= 2):
        return ""
    what = f"half of {available}" if action == A.AMOUNT_HALF else f"all {available}"
    return f"[ ({what}: the same as 'one')|]"


def _template(s: WorldState, action: int) -> str:
    """A legal decision with `[mover|table]` pairs (core/narration.two_voices), read in the order the rules
    dispatch it (state._apply): the verb under way first, then reinforcements, troops moving on, the phase."""
    if s.pending:
        return _argument(s, s.pending[0], s.pending[1:], action)
    if s.placing_now():
        return _placing(s, action)
    if s.transferring():
        source, into = s.transfer
        if action == A.DONE:
            return "[move|moves] no more troops"
        spare = s.troops[source] - 1
        moved = _count(action, spare, "troop", " more")
        return f"[move|moves] {moved} from {W.names[source]} to {W.names[into]}{_twin(action, spare)}"
    if s.phase in SETUP:
        place = action - A.PLACE
        if s.phase == SETUP_FLEET:
            return f"[place|places] 2 battleships on {W.place_name(place)}"
        return f"[choose|chooses] {W.names[place]}"
    if s.phase == BATTLE:
        return _battle(s, action)
    if s.phase == MOVE_IN:
        target, spare = s.attack[3], s.troops[s.attack[4]] - 1
        return f"[move|moves] {_count(action, spare, 'troop')} into {W.names[target]}{_twin(action, spare)}"
    if action == A.DONE:
        return {BUY: "[end|ends] [your|its] purchases", ACT: "[end|ends] [your|its] turn"}.get(
            s.phase, "[let|lets] the attack go on")
    return _verb(s, action)


def _verb(s: WorldState, action: int) -> str:
    """A verb on the player's turn or in its defence window; those with places to follow say what comes."""
    if A.CARD <= action < A.ATTACK:
        return f"[play|plays] {card_name(action - A.CARD)}"
    if action == A.BUY_TROOPS_ALL:
        return "[buy|buys] as many troops as the money and [your|its] pieces left allow"
    if action == A.ATTACK:
        return "[attack with troops|prepares a troop attack]"
    if action == A.LASER:
        return "[answer with a laser|prepares to answer with a laser]" if s.phase == WINDOW else (
            "[fire a laser|prepares to fire a laser]")
    if action in VESSELS:
        return f"[move {VESSELS[action]}|prepares to move {VESSELS[action]}]"
    return f"[buy|buys] {LAYOUT[action].removeprefix('buy ')}"


def _battle(s: WorldState, action: int) -> str:
    if action == A.ROLL:
        return "[roll|rolls] the black dice"
    if action == A.BLITZ:
        return "[roll|rolls] until the battle is decided"
    if action == A.STOP:
        return "[stop|stops] the attack"
    if action in VESSELS:
        return f"[send more {VESSELS[action]} into the battle|prepares to send more {VESSELS[action]} into the battle]"
    mine, theirs = divmod(action - A.AIM, 2)
    return f"[announce|announces] a {PIECES[1 + mine]} against a {PIECES[1 + theirs]}"


def _argument(s: WorldState, verb: int, args: list[int], action: int) -> str:
    """The next choice of the verb being built: a place, or how many."""
    step, place = len(args), action - A.PLACE
    if verb == A.ATTACK:
        return f"[attack|attacks] from {W.names[place]}" if step == 0 else f"[attack|attacks] {W.names[place]}"
    if verb == A.LASER:
        return f"[aim|aims] the laser at {W.place_name(place)}"
    if verb == A.CARD + HELICOPTER_COMMANDO:
        return f"[send|sends] the helicopter commandos against {W.names[place]}"
    if verb == A.CARD + JET_BOMBER:
        return f"[send|sends] the jet bomber against {W.place_name(place)}"
    if verb == A.CARD + AIRLIFT:
        return _airlift(s, args, action)
    return _vessels(s, verb, args, action)


def _airlift(s: WorldState, args: list[int], action: int) -> str:
    """The turn's airlift: from, to, how many; the defender's: from, how many (into the nation attacked)."""
    defending = s.phase == WINDOW
    if not args:
        into = f" to {W.names[s.attack[3]]}" if defending else ""
        return f"[airlift|airlifts] troops from {W.names[action - A.PLACE]}{into}"
    if len(args) == 1 and not defending:
        return f"[airlift|airlifts] them to {W.names[action - A.PLACE]}"
    spare = s.troops[args[0]] - 1
    return f"[airlift|airlifts] {_count(action, spare, 'troop')}{_twin(action, spare)}"


def _vessels(s: WorldState, verb: int, args: list[int], action: int) -> str:
    """Vessels moving (from, to, how many) or joining the naval battle under way (from, how many). Moving
    into a place an opponent holds attacks it."""
    kind, place = VESSELS[verb], action - A.PLACE
    if not args:
        if s.phase == BATTLE:
            return f"[send|sends] {kind} from {W.place_name(place)} into the battle"
        return f"[move|moves] {kind} from {W.place_name(place)}"
    if s.phase != BATTLE and len(args) == 1:
        holder = s.sea_owner[place - NATIONS]
        if holder in (-1, s.current_player):
            return f"[move|moves] them to {W.place_name(place)}"
        return f"[send|sends] them against {W.place_name(place)}, held by player_{holder}"
    ready = (s.ready_bs if verb == A.MOVE_BATTLESHIPS else s.ready_subs)[args[0] - NATIONS]
    count, twin = _count(action, ready, kind[:-1]), _twin(action, ready)
    if s.phase == BATTLE:
        return f"[send|sends] {count} into the battle{twin}"
    attacking = s.sea_owner[args[1] - NATIONS] not in (-1, s.current_player)
    return f"[attack|attacks] with {count}{twin}" if attacking else f"[move|moves] {count}{twin}"


def _placing(s: WorldState, action: int) -> str:
    """Reinforcements: a place, then (when more than one is left) how many go there."""
    kind = next(i for i, c in enumerate(s.placing) if c)
    noun, left = PIECES[kind], s.placing[kind]
    if s.place_at >= 0:
        return f"[place|places] {_count(action, left, noun)} on {W.place_name(s.place_at)}{_twin(action, left)}"
    where = W.place_name(action - A.PLACE)
    if left > 1:
        return f"[choose|chooses] {where} to place {noun}s on"
    return f"[place|places] 1 {noun} on {where}"
