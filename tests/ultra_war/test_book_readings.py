"""The book's sentences behind v4's readings (issue 45): free strikes with the equipped weapon, one free strike
per engagement, a stun of one full round, minions unusable the moment they leave control range, the plain
charge beside Charge Attack, a destroyed token's points, and no diagonal squeeze between touching pieces.
Positions use (row, col) with row 0 at the top (player_1's end); dice are forced."""

from __future__ import annotations

import pytest

from tests.ultra_war.positions import E, N, S, W, at, force, legal, position, select, step, steps
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war.game import UltraWarGame
from ultimata.envs.ultra_war.geometry import field
from ultimata.envs.ultra_war.phases import ACTIVE, MAIN
from ultimata.envs.ultra_war.units import Source


def attacks_logged(st, who: str) -> list[str]:
    return [e for e in st.events if e.startswith(f"{who} attacks")]


# -- free strikes: the equipped weapon, or base Offense ---------------------------------------------------
@pytest.mark.parametrize(("weapon", "logged"), [
    ("Excalibur", "Justice attacks Maxian Trooper with Excalibur: rolls 2+1 + attack 11 = 14"),  # 5 +3 +1 general +2
    ("", "Justice attacks Maxian Trooper with Sword: rolls 2+1 + attack 8 = 11"),  # no weapon: base Offense
    ("Crossbow", "Justice attacks Maxian Trooper with Sword: rolls 2+1 + attack 8 = 11"),  # ranged: none in effect
])
def test_a_free_strike_is_made_with_the_equipped_melee_weapon_else_base_offense(weapon, logged):
    """"The opposing Character gets a free Attack against the Character with a +2", and base Offense "is used
    in Melee combat if no Weapon or modifiers are in effect": Justice strikes with Excalibur when it is
    equipped (before v4 he struck with his own Sword though Excalibur was his)."""
    st = position([("Justice", 0, (6, 3), E), ("Maxian Trooper", 1, (6, 4), W), ("Vegron", 1, (0, 0), S)])
    at(st, 6, 3).weapon = weapon
    st.apply(A.END_TURN)  # player_1's turn
    select(st, 6, 4)
    force(st, 1, 2, 1, 1)
    step(st, 6, 5)  # out of Justice's front and sides (and out of his reach)
    assert [e[:len(logged)] for e in attacks_logged(st, "Justice")] == [logged]


def test_strike_back_is_made_with_the_equipped_melee_weapon():
    """Strike Back, "an immediate attack after being attacked", is a melee attack as a free strike is."""
    st = position([("Justice", 0, (6, 3), E), ("Maxian Trooper", 1, (6, 4), W), ("Vegron", 1, (0, 0), S)])
    justice, trooper = st.units[0], st.units[1]
    justice.ch = justice.ch.model_copy(update={"abilities": {**justice.ch.abilities, "Strike Back": None}})
    justice.weapon = "Excalibur"
    force(st, 1, 1, 6, 5, 2, 2, 1, 1)  # the trooper fumbles; Justice strikes back 2+2 +5 +3 +1 = 13
    st.roll_attack(trooper, trooper.ch.attacks[0], 0, justice.pos)
    assert "Justice strikes back" in st.events
    assert [e[:67] for e in attacks_logged(st, "Justice")] == [
        "Justice attacks Maxian Trooper with Excalibur: rolls 2+2 + attack 9"]


# -- one free strike per engagement -----------------------------------------------------------------------
def test_a_survivor_is_struck_once_per_engagement_not_at_every_step():
    """"If the Character survives the Attack, it may become disengaged": circling f6 -> f7 -> e7 -> d7 round
    a Vegron on e6 draws one free strike (three before v4); leaving his reach ends the engagement."""
    st = position([("Justice", 0, (6, 5), N), ("Vegron", 1, (6, 4), S)])
    justice = st.units[0]
    select(st, 6, 5)
    force(st, 1, 2, 1, 1, 2)  # Vegron 2+1 +5 +1 +2 +2 (back stab) = 13 vs Justice 1+2 +4 = 7: 6 damage
    for r, c in ((5, 5), (5, 4), (5, 3)):  # f7, e7, d7: each outside Vegron's front and sides
        step(st, r, c)
    assert sum("gets a free strike" in e for e in st.events) == 1 and justice.life == 2
    assert st.disengaged == [1] and st.phase == ACTIVE
    step(st, 4, 2)  # c8: out of his reach, the engagement is over
    assert st.disengaged == [] and justice.life == 2


def test_a_new_engagement_draws_a_new_free_strike():
    """Coming back into an enemy's reach engages it again (book: "When a Character moves within Melee Range
    ... these Characters become engaged"), and leaving its zone then draws a strike again."""
    st = position([("Sir Gareth", 0, (6, 5), W), ("Vegron", 1, (6, 4), S), ("Justice", 0, (11, 0), N)])
    gareth = st.units[0]
    select(st, 6, 5)
    force(st, 1, 1, 2, 6, 5, 1, 1, 2, 6, 5)  # two strikes of 2+1 +5 +1 +2 = 11 against 6+5 +4 = 15
    step(st, 5, 5)  # f7: out of Vegron's front and sides: struck
    step(st, 4, 4)  # e8: out of his reach, the engagement is over
    assert st.disengaged == []
    step(st, 5, 3)  # d7: engaged again
    step(st, 5, 2)  # c7: leaving his zone again
    assert sum("gets a free strike" in e for e in st.events) == 2 and gareth.life == 6


# -- stun: one full round ---------------------------------------------------------------------------------
def test_a_stun_lasts_one_full_round():
    """Stun: "becomes turned, cannot attack, perform Feats and receive a -3 to all Defensive rolls for one full
    round". Stunned in player_0's turn 1, the trooper is stunned through player_1's turn 1 and free again when
    player_0's turn 2 starts (before v4 it was still stunned, and turned, then)."""
    st = position([("Justice", 0, (6, 3), E), ("Maxian Trooper", 1, (6, 4), W), ("Vegron", 1, (0, 0), S)])
    justice, trooper = st.units[0], st.units[1]
    stun = justice.ch.attacks[0].model_copy(update={"tags": {"Stun": None}})
    force(st, 6, 5, 1, 2)
    st.roll_attack(justice, stun, 0, trooper.pos)
    assert trooper.stun and trooper.turned and trooper.disabled
    st.apply(A.END_TURN)  # player_1's turn 1: the trooper cannot act
    assert st.turn == 1 and trooper.disabled and A.SELECT + trooper.slot not in legal(st)
    st.apply(A.END_TURN)  # player_0's turn 2: one full round has passed
    assert st.turn == 0 and st.round == 2
    assert not trooper.stun and not trooper.turned and not trooper.disabled


def test_a_character_stunned_in_its_own_turn_is_free_again_at_its_next_turn():
    """The round counts from the stun: one stunned in its own side's turn (a Strike Back with a stun, say) is
    stunned through the other side's turn and acts again in its own next turn."""
    st = position([("Justice", 0, (6, 3), E), ("Maxian Trooper", 1, (6, 4), W), ("Vegron", 1, (0, 0), S)])
    justice, trooper = st.units[0], st.units[1]
    stun = trooper.ch.attacks[0].model_copy(update={"tags": {"Stun": None}})
    force(st, 6, 5, 1, 2)
    st.roll_attack(trooper, stun, 0, justice.pos)
    st.apply(A.END_TURN)
    assert justice.disabled
    st.apply(A.END_TURN)
    assert st.turn == 0 and not justice.disabled and A.SELECT + justice.slot in legal(st)


# -- minions out of range -----------------------------------------------------------------------------------
def relay(*pawns):
    return position(list(pawns), scenario="relay_hold")


def test_a_droid_that_steps_out_of_control_range_powers_down_at_once_and_cannot_attack():
    """Minion Hub: "If Minions move outside this range, they become unusable. (Robot-Droids are considered
    'Powered-Down')". Before v4 the Vigil Droid still attacked Fogg from there."""
    st = relay(("Edward Blackstone", 0, (11, 0), N), ("Vigil Droid", 0, (5, 6), N), ("Fogg", 1, (3, 7), S))
    droid, fogg = st.units[1], st.units[2]
    select(st, 5, 6)
    step(st, 4, 7)  # 7 spaces from Blackstone (Minion Hub 6)
    assert droid.powered_down and droid.turned and droid.acted
    assert st.phase == MAIN and st.active == -1 and fogg.life == fogg.ch.life
    assert not any(A.ATTACK <= a < A.TARGET for a in legal(st))
    assert "Vigil Droid is out of control range and powers down" in st.events


def test_a_droid_left_out_of_range_by_its_general_powers_down_at_once():
    """The same sentence, when the hub moves: the droid its General walked away from cannot be activated."""
    st = relay(("Edward Blackstone", 0, (6, 1), N), ("Vigil Droid", 0, (6, 7), N), ("Fogg", 1, (0, 11), S))
    droid = st.units[1]
    assert A.SELECT + droid.slot in legal(st)
    select(st, 6, 1)
    step(st, 6, 0)  # now 7 spaces from the droid
    assert droid.powered_down and A.SELECT + droid.slot not in legal(st)


def test_droids_power_down_when_their_tripod_is_destroyed():
    """"If one of the Power Sources is destroyed and the Robot-Droids fall out of a control range, that player
    would have to 'power-down' the Robot-Droids."""
    st = relay(("Edward Blackstone", 0, (11, 11), N), ("Vigil Droid", 0, (5, 1), N), ("David Barrett", 1, (0, 11), S))
    tripod = Source(0, "Tripod Entity", 3)
    tripod.pos = field(6, 0)
    st.sources.append(tripod)
    st.apply(A.END_TURN)
    assert not st.units[1].powered_down
    st.damage_token(tripod, 4)
    st._lose_control()
    assert st.units[1].powered_down


# -- Charge Attack beside the plain charge -----------------------------------------------------------------
def test_charge_attack_is_an_option_beside_the_plain_charge():
    """Charge Attack "gives the character the ability to move an extra 2 spaces from their standard movement
    AND perform an attack afterwards": an added ability. Kragg (movement 4) charges 6 and may attack, or,
    with a second CHARGE before his first step, makes the plain charge, "twice their Base Movement number"
    and turned (before v4 he could never make the 8-space charge)."""
    st = position([("Warlord Kragg", 0, (11, 5), N), ("Vegron", 1, (0, 0), S)])
    kragg = st.units[0]
    select(st, 11, 5)
    st.apply(A.CHARGE)
    assert st.full_movement(kragg) == 6 and st.can_attack(kragg) and A.CHARGE in legal(st)
    assert st.action_to_string(A.CHARGE).startswith("charge Warlord Kragg the plain way instead")
    st.apply(A.CHARGE)
    assert st.full_movement(kragg) == 8 and not st.can_attack(kragg) and A.CHARGE not in legal(st)
    for r in range(10, 2, -1):
        step(st, r, 5)
    assert steps(st) == set()
    st.apply(A.END_ACT)
    assert kragg.turned


# -- a destroyed energy token's points --------------------------------------------------------------------
@pytest.mark.parametrize("rule", ["kept", "lost"])
def test_a_destroyed_token_generates_no_more_and_its_points_are_kept_or_lost(rule):
    """"Destroying these Energy Sources will cause the owner's ability to generate Energy Reserve useless":
    it gains no point at the power event and its ability is gone; by default (v4) the points it stored still
    pay for cards (the book says a Crystal "loses all Magic points if dropped", and nothing of the kind for a
    token); `destroyed_source_points: lost` (v3) loses them with it."""
    st = position([("Edward Blackstone", 0, (11, 11), N), ("Vigil Droid", 0, (10, 10), N),
                   ("David Barrett", 1, (0, 11), S)], scenario="relay_hold", destroyed_source_points=rule)
    tripod = Source(0, "Tripod Entity", 5)
    tripod.pos = field(11, 0)
    st.sources.append(tripod)
    st.damage_token(tripod, 4)
    kept = 5 if rule == "kept" else 0
    assert tripod.life == 0 and tripod.points == kept and st.pool(0) == kept
    st.apply(A.END_TURN)
    st.apply(A.END_TURN)  # player_0's power event
    assert tripod.points == kept and st.use_targets(0, None) == []
    if rule == "kept":
        st.pay(0, 3)
        assert tripod.points == 2


# -- no diagonal squeeze ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("mover", "passes"), [("Justice", False), ("Rayna", True), ("Brick", True)])
def test_a_diagonal_step_between_two_pieces_touching_at_a_corner_is_refused(mover, passes):
    """Character Movement: "As long as there is a space between the characters/items/etc. then normal
    movement may commence (Unless the Character has the flight ability or Level Change movement ability ...
    to span over Characters, objects and Level raises)". Justice cannot step NE between the two pawns on
    his north and east; Rayna flying and Brick (Level Change Movement) can. With one of them gone, anyone can."""
    st = position([(mover, 0, (6, 5), N), ("Sir Gareth", 0, (5, 5), N), ("Vegron", 1, (6, 6), W),
                   ("Justice" if mover != "Justice" else "Skydas", 0, (11, 0), N)])
    select(st, 6, 5)
    assert ((5, 6) in steps(st)) == passes
    st = position([(mover, 0, (6, 5), N), ("Vegron", 1, (6, 6), W),
                   ("Justice" if mover != "Justice" else "Skydas", 0, (11, 0), N)])
    select(st, 6, 5)
    assert (5, 6) in steps(st)


# -- content --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("scenario", ["street_clash", "relay_hold", "rooftop_rescue"])
def test_every_scenarios_droids_start_in_control_range(scenario):
    """The scripted deployment puts every robot droid within a Minion Hub's range: none starts turn 1 powered
    down (v3's relay_hold powered down the Sentry Droid and two Vigil Droids at once)."""
    game = UltraWarGame.from_config({"scenario": scenario, "first_player": "player_0"})
    st = game.new_initial_state(Rng(0))
    st.apply(A.END_TURN)
    st.apply(A.END_TURN)  # both sides paid nothing: player_0's turn 1 starts
    assert st.phase == MAIN
    droids = [u for u in st.units if u.is_droid]
    assert all(st.controlled(u) and not u.powered_down for u in droids)
    assert len(droids) == (5 if scenario == "relay_hold" else 0)


def test_a_droid_powered_down_by_its_step_ends_its_activation_after_the_free_strike_window():
    """The step out of range draws a free strike whose window waits for player_0's answer; once it closes the
    powered-down droid's activation is over, as it is when no window waits."""
    st = relay(("Edward Blackstone", 0, (11, 0), N), ("Vigil Droid", 0, (5, 6), N), ("Fogg", 1, (4, 6), N))
    tripod = Source(0, "Tripod Entity", 3)
    tripod.pos = field(11, 1)
    st.sources.append(tripod)
    st.hands[0] = ["Emergency Shield"]
    droid = st.units[1]
    select(st, 5, 6)
    force(st, 1, 1, 1, 2)  # Fogg's strike: a critical miss
    step(st, 5, 7)  # out of Blackstone's range, and out of Fogg's front and sides
    assert droid.powered_down and st.current_player == 0 and A.PASS in legal(st)
    st.apply(A.PASS)
    assert st.phase == MAIN and st.active == -1 and droid.acted
