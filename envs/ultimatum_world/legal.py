"""What a player may do: the legal set of every decision, as functions of the state. Every option
offered has a legal completion, so the mask is exact; tests/ultimatum_world/reference.py checks these
sets against an independent model written from the rules doc."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.content import CARD_KINDS, world
from ultimata.envs.ultimatum_world.pieces import card_gift, laser_fits, troops_left, vessels_left

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.state import WorldState

W = world()
NATIONS, SEAS, BLOCKADES = A.NATIONS, A.SEAS, 14
SETUP_START, SETUP_FILL, SETUP_FLEET, BUY, ACT, BATTLE, MOVE_IN, WINDOW, OVER = range(9)
PHASES = (
    "set-up: four nations",
    "set-up: one nation",
    "set-up: battleships",
    "purchases",
    "attacks",
    "battle",
    "moving in",
    "defence",
    "over",
)
WESTERN, COMMUNIST, PEACE, OIL = range(4)
TROOPS_ATTACK, JET, LASER_SHOT, NAVAL = range(4)
ATTACK_KINDS = ("troop attack", "jet bomber", "laser", "naval attack")
COST = {"troop": 1, "battleship": 2, "submarine": 5, "laser": 10}
K = {name: i for i, name in enumerate(CARD_KINDS)}
REINFORCE = (K["troops_5"], K["troops_10"], K["battleships_2"], K["submarine_1"])
AMOUNTS = list(A.AMOUNTS)


# -- places --------------------------------------------------------------------------------------
def holder_places(s: WorldState, p: int) -> list[int]:
    return s.nations_of(p) + [NATIONS + t for t in range(SEAS) if s.sea_owner[t] == p]


def enemy_places(s: WorldState, p: int) -> list[int]:
    return [x for x in range(A.PLACES) if s.owner_of(x) not in (-1, p)]


def enemy_nations(s: WorldState, p: int) -> list[int]:
    return [x for x in range(NATIONS) if s.owner[x] not in (-1, p)]


def fleet_places(s: WorldState, p: int, mine: list[int] | None = None) -> list[int]:
    """Where new vessels go: blockades p holds; once p's whole navy is gone, a vacant blockade (the
    Q&A's only way back to sea), but only for a player still on the board (with no nation and no
    vessel the only way back is a Helicopter Commando). `mine`: p's nations, when already known."""
    if s.has_fleet(p):
        return [NATIONS + t for t in range(BLOCKADES) if s.sea_owner[t] == p]
    if not (s.nations_of(p) if mine is None else mine):
        return []
    return [NATIONS + t for t in range(BLOCKADES) if s.sea_owner[t] < 0]


def _targets(s: WorldState, p: int, a: int) -> Iterator[int]:
    """Book: 3+ troops; a shared border (t < 0), or water between two nations carrying the number of a
    blockade t that p holds or that is vacant (not held by an opponent). May repeat a target."""
    if s.troops[a] < 3:
        return
    owner, sea = s.owner, s.sea_owner
    for b, t in W.crossings[a]:
        if owner[b] != p and owner[b] >= 0 and (t < 0 or sea[t] == p or sea[t] < 0):
            yield b


def attack_targets(s: WorldState, p: int, a: int) -> list[int]:
    return sorted(set(_targets(s, p, a)))


def can_attack_from(s: WorldState, p: int, a: int) -> bool:
    """attack_targets(s, p, a) is not empty (without building it: asked for every nation, every turn)."""
    return next(_targets(s, p, a), None) is not None


def airlift_sources(s: WorldState, p: int, into: int | None) -> list[int]:
    """Nations with a troop to spare (one always stays behind), other than the destination."""
    mine = s.nations_of(p)
    return [a for a in mine if s.troops[a] >= 2 and (a != into if into is not None else len(mine) > 1)]


def jet_targets(s: WorldState, p: int) -> list[int]:
    """Any opponent's nation, or any opponent's sea place with battleships (never submarines alone)."""
    seas = [NATIONS + t for t in range(SEAS) if s.sea_owner[t] not in (-1, p) and s.bs[t]]
    return enemy_nations(s, p) + seas


def join_sources(s: WorldState, battleships: bool) -> list[int]:
    """Places from which ready vessels can still join the naval battle under way."""
    p, target = s.player, s.attack[3] - NATIONS
    if battleships:
        return [NATIONS + t for t in W.sea_links[target] if s.sea_owner[t] == p and s.ready_bs[t]]
    return [NATIONS + t for t in range(SEAS) if s.sea_owner[t] == p and s.ready_subs[t]]


# -- one verb at a time --------------------------------------------------------------------------
def chain_length(s: WorldState, verb: int) -> int:
    """How many choices follow a verb before it happens (0: it happens at once)."""
    if verb == A.ATTACK:
        return 2
    if verb == A.LASER or verb in (A.CARD + K["helicopter_commando"], A.CARD + K["jet_bomber"]):
        return 1
    if verb in (A.MOVE_BATTLESHIPS, A.MOVE_SUBMARINES):
        return 2 if s.phase == BATTLE else 3  # in a battle: join it from where, how many
    if verb == A.CARD + K["airlift"]:
        return 2 if s.phase == WINDOW else 3  # for the defender the destination is the nation attacked
    return 0


def verb_options(s: WorldState, verb: int, args: list[int]) -> list[int] | None:
    """The next choices of a verb given its arguments so far, or None when it is complete."""
    p, step = s.current_player, len(args)
    if step >= chain_length(s, verb):
        return None
    if verb == A.ATTACK:
        if step == 0:
            return [a for a in s.nations_of(p) if can_attack_from(s, p, a)]
        return attack_targets(s, p, args[0])
    if verb == A.LASER:
        return holder_places(s, s.attack[1]) if s.phase == WINDOW else enemy_places(s, p)
    if verb in (A.MOVE_BATTLESHIPS, A.MOVE_SUBMARINES):
        battleships = verb == A.MOVE_BATTLESHIPS
        if s.phase == BATTLE:
            return join_sources(s, battleships) if step == 0 else AMOUNTS
        ready = s.ready_bs if battleships else s.ready_subs
        if step == 0:
            return [NATIONS + t for t in range(SEAS) if s.sea_owner[t] == p and ready[t]]
        if step == 1:
            here = args[0] - NATIONS
            if battleships:
                return [NATIONS + t for t in W.sea_links[here]]
            return [NATIONS + t for t in range(SEAS) if t != here]
        return AMOUNTS
    if verb == A.CARD + K["helicopter_commando"]:
        return enemy_nations(s, p)
    if verb == A.CARD + K["jet_bomber"]:
        return jet_targets(s, p)
    # the airlift
    if s.phase == WINDOW:
        return airlift_sources(s, p, s.attack[3]) if step == 0 else AMOUNTS
    if step == 0:
        return airlift_sources(s, p, None)
    return [b for b in s.nations_of(p) if b != args[0]] if step == 1 else AMOUNTS


def purchases(s: WorldState, mine: list[int] | None = None) -> list[int]:
    """What the money the player may spend now buys, where the pieces have somewhere to go and are
    still in the player's set."""
    p, money = s.player, s.troop_money()
    mine = s.nations_of(p) if mine is None else mine
    out = []
    if money and mine:
        room = troops_left(s, p)
        if room:
            out += [v for v, k in A.BUY_TROOPS.items() if money >= k and room >= k] + [A.BUY_TROOPS_ALL]
    if money >= COST["battleship"] and fleet_places(s, p, mine):
        battleships, submarines = vessels_left(s, p)
        if battleships:
            out.append(A.BUY_BATTLESHIP)
        if money >= COST["submarine"] and submarines:
            out.append(A.BUY_SUBMARINE)
    if (
        s.laser_money() >= COST["laser"]
        and (s.holds_alliance(p, WESTERN) or s.holds_alliance(p, COMMUNIST))
        and laser_fits(s, p)
    ):
        out.append(A.BUY_LASER)
    return out


def _card_usable(s: WorldState, p: int, kind: int, mine: list[int]) -> bool:
    """An attacker card with somewhere to go (its first choice, asked as yes/no) and, if it brings
    pieces, at least one of them left in the player's set."""
    card = s.rules.cards[kind]
    enemy_nation = len(mine) < NATIONS  # every nation is held after the set-up
    if card.user == "defender":
        return False
    if kind in REINFORCE:  # every piece it gives needs a place
        troops, *vessels = card_gift(s, p, card)
        return bool(troops or any(vessels)) and (not troops or bool(mine)) and (
            not any(vessels) or bool(fleet_places(s, p, mine))
        )
    if kind == K["helicopter_commando"]:
        return enemy_nation and troops_left(s, p) > 0
    if kind == K["jet_bomber"]:
        return enemy_nation or any(o != p and o >= 0 and bs for o, bs in zip(s.sea_owner, s.bs))
    if kind == K["airlift"]:
        return len(mine) > 1 and any(s.troops[a] >= 2 for a in mine)
    return True  # intelligence


def turn_verbs(s: WorldState) -> list[int]:
    """Purchases, attacker cards, attacks, lasers and fleet moves, then DONE; a verb is offered when its
    first choice has an option (the first step of verb_options, asked as yes/no: this runs for most
    decisions). Attacker cards are usable 'any time during the attacking player's turn', purchases too."""
    p, sea_owner = s.player, s.sea_owner
    mine = s.nations_of(p)
    out = purchases(s, mine)
    out += [A.CARD + kind for kind, held in enumerate(s.hands[p]) if held and _card_usable(s, p, kind, mine)]
    if any(can_attack_from(s, p, a) for a in mine):
        out.append(A.ATTACK)
    if any(o == p and ready for o, ready in zip(sea_owner, s.ready_bs)):
        out.append(A.MOVE_BATTLESHIPS)
    if any(o == p and ready for o, ready in zip(sea_owner, s.ready_subs)):
        out.append(A.MOVE_SUBMARINES)
    if s.lasers[p] and (len(mine) < NATIONS or any(o != p and o >= 0 for o in sea_owner)):
        out.append(A.LASER)
    return sorted(out) + [A.DONE]


def roll_pending(s: WorldState) -> bool:
    """Whether the attack's next roll can still happen (a defender reacts only before a roll)."""
    kind, source = s.attack[0], s.attack[4]
    if kind == TROOPS_ATTACK:
        return s.troops[source] >= 3
    if kind == JET:
        return s.force[0] > 0
    if kind == NAVAL:
        return s.aim >= 0 and s.force[s.aim // 2] > 0
    return True


def window_verbs(s: WorldState) -> list[int]:
    """What the defender may use before the next roll; the window opens only when this is not empty."""
    kind, attacker, d, target, source = s.attack
    if not roll_pending(s):
        return []
    hand, out = s.hands[d], []
    if kind == TROOPS_ATTACK and hand[K["minefield"]] and s.troops[source] >= 2:
        out.append(A.CARD + K["minefield"])
    if kind == NAVAL and hand[K["ocean_mine"]] and target < NATIONS + BLOCKADES:
        out.append(A.CARD + K["ocean_mine"])
    if kind == JET and hand[K["anti_aircraft_missile"]]:
        out.append(A.CARD + K["anti_aircraft_missile"])
    if kind != NAVAL and target < NATIONS and hand[K["airlift"]] and airlift_sources(s, d, target):
        out.append(A.CARD + K["airlift"])
    if s.lasers[d] and not (kind == LASER_SHOT and s.laser_answered) and holder_places(s, attacker):
        out.append(A.LASER)
    return sorted(out)


def aims(s: WorldState) -> list[int]:
    """Naval announcements: one of the attacker's vessel kinds against one of the defender's."""
    t = s.attack[3] - NATIONS
    theirs = [kind for kind, count in ((A.BATTLESHIP, s.bs[t]), (A.SUBMARINE, s.subs[t])) if count]
    return [A.AIM + 2 * mine + other for mine in (A.BATTLESHIP, A.SUBMARINE) if s.force[mine] for other in theirs]


def battle_options(s: WorldState) -> list[int]:
    if s.attack[0] == TROOPS_ATTACK:
        # book: announcing an attack means rolling; stopping before one roll would loop forever
        return [A.ROLL, A.BLITZ, A.STOP] if s.rolls else [A.ROLL, A.BLITZ]
    joins = [v for v in (A.MOVE_BATTLESHIPS, A.MOVE_SUBMARINES) if join_sources(s, v == A.MOVE_BATTLESHIPS)]
    return sorted(joins + [A.BLITZ] + aims(s))


def placing_options(s: WorldState) -> list[int]:
    """Reinforcements go on the player's own nations (troops) or blockades (vessels), one place at a
    time: a place, then (when more than one is left) how many of them go there."""
    if s.place_at >= 0:
        return AMOUNTS
    places = s.nations_of(s.player) if s.placing[0] else fleet_places(s, s.player)
    return [A.PLACE + x for x in places]


def start_picks(s: WorldState, p: int) -> list[int]:
    """Book: four nations from four different alliances, exactly one of them a Worldpower. A pick is
    offered only if the player can still complete its four."""
    used = {W.alliance[x] for x in s.start_picks}
    has_wp = any(W.worldpower[x] for x in s.start_picks)
    out = []
    for x in range(NATIONS):
        if s.owner[x] >= 0 or W.alliance[x] in used or (has_wp and W.worldpower[x]):
            continue
        rest = [a for a in range(4) if a not in used and a != W.alliance[x]]
        if _completable(s, rest, not (has_wp or W.worldpower[x]), x):
            out.append(x)
    return out


def _completable(s: WorldState, alliances: list[int], need_wp: bool, taken: int) -> bool:
    def free(a: int, wp: bool) -> bool:
        return any(s.owner[y] < 0 and y != taken and W.worldpower[y] == wp for y in W.members[a])

    if not need_wp:
        return all(free(a, False) for a in alliances)
    return any(free(w, True) and all(free(a, False) for a in alliances if a != w) for w in alliances)


def legal_actions(s: WorldState) -> list[int]:
    if s.pending:
        return sorted(verb_options(s, s.pending[0], s.pending[1:]) or [])
    phase = s.phase
    if s.placing_now():
        return placing_options(s)
    if s.transferring():
        return AMOUNTS + [A.DONE]
    if phase == SETUP_START:
        return [A.PLACE + x for x in start_picks(s, s.current_player)]
    if phase == SETUP_FILL:
        return [A.PLACE + x for x in range(NATIONS) if s.owner[x] < 0]
    if phase == SETUP_FLEET:
        return [A.PLACE + NATIONS + t for t in range(BLOCKADES) if s.sea_owner[t] < 0]
    if phase in (BUY, ACT):
        return turn_verbs(s)
    if phase == BATTLE:
        return battle_options(s)
    if phase == MOVE_IN:
        return AMOUNTS
    if phase == WINDOW:
        return window_verbs(s) + [A.DONE]
    return []
