"""One test per core rule (book sections and our flagged gap choices), on set positions with forced dice.
Positions use (row, col) with row 0 at the top (player_1's end)."""

from __future__ import annotations

import pytest

from tests.ultra_war.positions import E, N, S, W, at, crystal, force, position, select, step, steps
from ultimata.envs.core.errors import IllegalActionError
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war import combat
from ultimata.envs.ultra_war.game import UltraWarGame
from ultimata.envs.ultra_war.geometry import FIELDS, direction, field
from ultimata.envs.ultra_war.phases import ACTIVE, DISCARD, MAIN, OVER, QUICK, SETUP
from ultimata.envs.ultra_war.units import Source

GENERALS = [("Justice", 0, (11, 11), N), ("Vegron", 1, (0, 0), S)]


# -- set-up and turn sequence ------------------------------------------------------------------
def test_setup_deals_five_places_armies_in_start_areas_and_equips_crystals():
    st = UltraWarGame.from_config({}).new_initial_state(Rng(1))
    assert st.phase == SETUP and [len(h) for h in st.hands] == [5, 5]
    assert [len(d) for d in st.decks] == [45, 45]
    for u in st.units:
        assert st.board.start[u.side][u.pos]
    crystals = [s for s in st.sources if s.kind == "crystal"]
    assert len(crystals) == 4 and all(s.bearer >= 0 and s.points == 0 for s in crystals)  # "starts with no energy"
    scenario_start = UltraWarGame.from_config({"power_start": "scenario"}).new_initial_state(Rng(1))
    assert all(s.points == 2 for s in scenario_start.sources)  # v4's reading: the scenario's power_start


def test_opening_hand_pay_then_redraw_to_five():
    st = UltraWarGame.from_config({"first_player": "player_0", "power_start": "scenario"}).new_initial_state(Rng(3))
    playable = [a for a in st.legal_actions() if A.PLAY <= a < A.DISCARD]
    assert playable, "seed 3 deals an affordable card"
    st.apply(playable[0])
    st.apply(st.legal_actions()[0])
    assert len(st.hands[0]) == 4
    st.apply(A.END_TURN)
    assert len(st.hands[0]) == 5 and st.setup_side == 1


def test_turn_starts_with_power_event_then_draw_event():
    st = UltraWarGame.from_config({"first_player": "player_0"}).new_initial_state(Rng(3))
    st.apply(A.END_TURN)
    st.apply(A.END_TURN)
    assert st.phase == MAIN and st.turn == 0
    # two crystals 0 -> 1 each (they start empty), and Sir Gareth's Legacy 1 into the crystal he bears; one card
    assert st.pool(0) == 3 and len(st.hands[0]) == 6


def test_power_sources_gain_one_a_round_up_to_their_maximum():
    st = position(GENERALS)
    st.sources = [Source(0, "Street Generator", 9), Source(0, "Street Generator", 10)]
    st.sources[0].pos, st.sources[1].pos = field(11, 0), field(11, 1)
    st.turn = 1
    st._next_turn()
    assert [s.points for s in st.sources] == [10, 10]


def test_discard_event_down_to_five():
    st = position(GENERALS)
    st.hands[0] = ["Shield Wall"] * 7
    st.apply(A.END_TURN)
    assert st.phase == DISCARD
    st.apply(A.DISCARD)
    st.apply(A.DISCARD)
    assert len(st.hands[0]) == 5 and st.turn == 1 and st.phase == MAIN


# -- movement ----------------------------------------------------------------------------------
def test_movement_is_eight_neighbour_steps_up_to_the_movement_value():
    st = position([("Justice", 0, (10, 5), N), ("Vegron", 1, (0, 0), S)])
    select(st, 10, 5)
    assert steps(st) >= {(9, 4), (9, 5), (9, 6), (10, 4), (10, 6)}
    for r in (9, 8, 7, 6):
        step(st, r, 5)
    assert steps(st) == set()  # movement 4 spent


def test_no_passing_through_characters_or_walls():
    st = position([("Justice", 0, (9, 5), N), ("Sir Gareth", 0, (8, 5), N), ("Vegron", 1, (0, 0), S)])
    select(st, 9, 5)
    assert (8, 5) not in steps(st)
    assert (8, 4) not in steps(st)  # wall at e4 (row 8, col 4)


def test_moving_backwards_halves_movement_rounding_up():
    st = position([("Justice", 0, (5, 5), N), ("Vegron", 1, (0, 0), S)])
    select(st, 5, 5)
    step(st, 6, 5)  # south while facing north: backwards
    step(st, 7, 5)
    assert steps(st) == set()  # ceil(4 / 2) = 2


def test_charging_doubles_movement_then_the_character_is_turned():
    st = position([("Justice", 0, (11, 5), N), ("Vegron", 1, (0, 0), S)])
    select(st, 11, 5)
    st.apply(A.CHARGE)
    for r in range(10, 2, -1):
        step(st, r, 5)
    assert steps(st) == set() and at(st, 3, 5).steps == 8
    assert not any(A.ATTACK <= a < A.TARGET for a in st.legal_actions())
    st.apply(A.END_ACT)
    assert at(st, 3, 5).turned


def test_charging_doubles_the_base_movement_and_adds_equipment_movement_once():
    st = position([("Justice", 0, (11, 5), N), ("Vegron", 1, (0, 0), S)])
    justice = st.units[0]
    justice.standard = "Swift Boots"  # +1 movement
    assert st.full_movement(justice) == 5
    justice.charging = True
    assert st.full_movement(justice) == 2 * 4 + 1  # "twice their Base Movement number"
    justice.deprived = 1
    assert st.full_movement(justice) == 4  # then less half, rounded up


def test_turned_character_cannot_move_attack_or_be_selected_and_unturns_next_turn():
    st = position([("Justice", 0, (5, 5), N), ("Maxian Trooper", 1, (4, 5), S), ("Vegron", 1, (0, 0), S)])
    justice = at(st, 5, 5)
    justice.turned = True
    assert A.SELECT + justice.slot not in st.legal_actions()
    st.apply(A.END_TURN)
    st.apply(A.END_TURN)
    assert not justice.turned and A.SELECT + justice.slot in st.legal_actions()


def test_facing_is_chosen_at_the_end_of_an_activation():
    st = position(GENERALS)
    select(st, 11, 11)
    st.apply(A.FACE + W)
    assert at(st, 11, 11).facing == W and at(st, 11, 11).acted and st.phase == MAIN


def test_player_1_actions_are_seat_relative():
    st = position(GENERALS)
    st.apply(A.END_TURN)
    select(st, 0, 0)
    assert st.current_player == 1
    step(st, 1, 1)
    assert at(st, 1, 1).name == "Vegron"
    st.apply(A.FACE + N)  # "north" for player_1 is south on the map
    assert at(st, 1, 1).facing == S


# -- engagement and free strikes ---------------------------------------------------------------
def free_strike_position(**config):
    return position([("Squire Wren", 0, (6, 5), N), ("Vegron", 1, (5, 5), S), ("Justice", 0, (11, 11), N)],
                    **config)


def test_moving_within_the_front_and_side_spaces_draws_no_free_strike():
    st = free_strike_position()
    st.units[0].ch = st.units[2].ch.model_copy(update={"abilities": {}})  # a Wren without Free Strike Movement
    st.units[0].name = "Justice"
    select(st, 6, 5)
    step(st, 6, 4)  # still in Vegron's front arc (he faces south): safe
    assert not any("free strike" in e for e in st.events) and at(st, 6, 4).life == 4


def test_leaving_engagement_gives_a_free_strike_at_plus_two():
    st = free_strike_position()
    wren = at(st, 6, 5)
    wren.ch = wren.ch.model_copy(update={"abilities": {}})
    vegron = at(st, 5, 5)
    vegron.facing = N  # now Wren stands in his back arc; stepping away leaves his zone
    select(st, 6, 5)
    force(st, 2, 2, 1, 1, 1, 1, 1)  # Vegron 2+2 (+ third die 1) + 5 + 1 (Affiliate) + 2 = 12... vs Wren 1+1+3
    step(st, 7, 5)
    assert any("free strike" in e for e in st.events)
    assert not wren.on_map or wren.life < 4


def test_free_strike_movement_avoids_the_free_strike():
    st = free_strike_position()
    at(st, 5, 5).facing = N
    select(st, 6, 5)
    step(st, 7, 5)
    assert not any("free strike" in e for e in st.events)


@pytest.mark.parametrize("strikes", [True, False])
def test_turned_characters_strike_only_under_turned_characters_strike(strikes):
    """The book pulls both ways (docs: Engagement). Default (v4): a turned enemy still strikes whoever leaves
    its zone, on foot or taking off ("Stun, Stasis or Powered-Down status will disengage Characters" names
    what stops it). `turned_characters_strike: false` (v3): "Turned Characters cannot move, Attack or make
    Feats after being Turned", and a free strike is "a free Attack"."""
    st = free_strike_position(turned_characters_strike=strikes)
    wren, vegron = at(st, 6, 5), at(st, 5, 5)
    wren.ch = wren.ch.model_copy(update={"abilities": {}})
    vegron.facing, vegron.turned = N, True
    select(st, 6, 5)
    force(st, 6, 6, 1, 1, 6)  # a critical free strike
    step(st, 7, 5)
    assert any("free strike" in e for e in st.events) == strikes
    assert (not wren.on_map) == strikes
    st = position([("Rayna", 1, (5, 4), S), ("Justice", 0, (6, 4), N), ("Sir Gareth", 0, (5, 3), E),
                   ("Vegron", 1, (0, 0), S)], turned_characters_strike=strikes)
    rayna = st.units[0]
    rayna.flying, rayna.landed = False, True
    st.units[1].turned = st.units[2].turned = True
    assert st.takeoff_strikers(rayna) == (st.units[1:3] if strikes else [])
    st.units[2].turned = False
    assert st.takeoff_strikers(rayna) == (st.units[1:3] if strikes else [st.units[2]])


@pytest.mark.parametrize("strikes", [True, False])
def test_a_turned_defenders_double_six_fails_the_attack_and_deals_back_only_if_turned_characters_strike(strikes):
    """The critical's die back is dealt with the defender's attacks (only "if the character is within range"
    of one): a turned defender's double six always makes the attack fail, and deals its die back unless
    `turned_characters_strike: false` (a turned character "cannot ... Attack")."""
    st = duel(turned_characters_strike=strikes)
    st.units[1].turned = True
    force(st, 5, 5, 6, 6, 3)
    assert st.roll_attack(st.units[0], st.units[0].ch.attacks[0], 0, field(6, 4)) == 0
    assert st.units[0].life == (5 if strikes else 8) and st.units[1].life == 4


# -- attacks -----------------------------------------------------------------------------------
def duel(att="Justice", dfn="Maxian Trooper", dfn_facing=W, **config):
    return position([(att, 0, (6, 3), E), (dfn, 1, (6, 4), dfn_facing), ("Vegron", 1, (0, 0), S)], **config)


def test_attack_is_2d6_plus_offense_against_2d6_plus_defense_damage_is_the_difference():
    st = duel()
    force(st, 5, 5, 1, 2)  # 10 + 5 + 1 = 16 vs 3 + 3 + 1 (Vegron's mod) = 7 -> 9 (life 4: defeated)
    dealt = st.roll_attack(st.units[0], st.units[0].ch.attacks[0], 0, field(6, 4))
    assert dealt == 9 and not st.units[1].on_map


def test_critical_strike_adds_a_d6():
    st = duel(dfn="Vegron", dfn_facing=W)
    force(st, 6, 6, 6, 5, 4, 4)  # 12 + 6 = 18 vs 6 + 5 (+ third die) + 5 + 1 = 17 -> 1 + d6 4 = 5
    dealt = st.roll_attack(st.units[0], st.units[0].ch.attacks[0], 0, field(6, 4))
    assert dealt == 5


def test_defender_double_six_makes_the_attack_fail_and_strikes_back_in_range():
    st = duel()
    force(st, 5, 5, 6, 6, 3)
    dealt = st.roll_attack(st.units[0], st.units[0].ch.attacks[0], 0, field(6, 4))
    assert dealt == 0 and st.units[0].life == 5


def test_both_double_six_deal_a_die_each():
    st = duel()
    force(st, 6, 6, 6, 6, 2, 3)
    dealt = st.roll_attack(st.units[0], st.units[0].ch.attacks[0], 0, field(6, 4))
    assert dealt == 2 and st.units[0].life == 5


def test_defender_critical_needs_range_to_strike_back():
    st = position([("Fogg", 0, (6, 1), E), ("Vigil Droid", 1, (6, 4), W), ("Vegron", 1, (0, 0), S)])
    fogg = st.units[0]
    force(st, 5, 5, 6, 6)
    assert st.roll_attack(fogg, fogg.ch.attacks[1], 1, field(6, 4)) == 0
    assert fogg.life == 5  # the Vigil is melee only: no die back


def test_double_one_is_a_critical_miss():
    st = duel(att="Vegron", dfn="Vigil Droid")
    st.units[0].ch = st.units[0].ch.model_copy(update={"offense": 10, "abilities": {}})
    force(st, 1, 1, 1, 1)
    assert st.roll_attack(st.units[0], st.units[0].ch.attacks[0], 0, field(6, 4)) == 0


def test_back_stab_plus_two_from_the_back_arc_and_it_nullifies_defense_initiative():
    st = duel(dfn="Vegron", dfn_facing=E)  # Vegron faces away: Justice is in his back arc
    justice, vegron = st.units[0], st.units[1]
    assert combat.is_back_stab(justice, vegron)
    assert combat.attack_score(st, justice, justice.ch.attacks[0], vegron.pos, vegron) == 5 + 1 + 2  # active general
    assert combat.defense_dice(justice, justice.ch.attacks[0], vegron) == 2


def test_back_stab_nullifies_defense_initiative_on_a_free_strike_too():
    """The issue's example: Street Clash, Justice at k3 facing N, Vegron (Initiative) at l3 facing E. Vegron
    steps to l2, into Justice's back arc, and draws his free strike from Vegron's own back arc: +2 free
    strike, +2 back stab, and Vegron defends with two dice ("Back Stab nullifies Defense Initiative", no
    exception for free strikes)."""
    st = position([("Justice", 0, (9, 10), N), ("Vegron", 1, (9, 11), E)])
    st.turn = 1
    select(st, 9, 11)
    force(st, 2, 1, 1, 2, 6)  # Justice 2+1 + 5 + 1 + 2 + 2 = 13; Vegron 1+2 (not the 6) + 5 + 1 = 9
    step(st, 10, 11)
    vegron = at(st, 10, 11)
    assert any("rolls 2+1 + attack 10 = 13 against Vegron's 2+1 + defence 6 = 9" in e for e in st.events), st.events
    assert vegron.life == 9 - 4


def test_flying_characters_are_hit_only_by_ranged_or_flying_attackers():
    st = duel(dfn="Rayna")
    assert not st.target_ok(st.units[0], 0, field(6, 4))
    st2 = position([("Tristan the Bowman", 0, (6, 1), E), ("Rayna", 1, (6, 4), W), ("Vegron", 1, (0, 0), S)])
    assert st2.target_ok(st2.units[0], 1, field(6, 4))


def test_innate_flyer_lands_to_strike_a_grounded_character_and_flies_again_next_turn():
    st = position([("Rayna", 1, (5, 5), S), ("Justice", 0, (6, 5), N), ("Vegron", 1, (0, 0), S)])
    st.apply(A.END_TURN)
    select(st, 5, 5)
    rayna = at(st, 5, 5)
    force(st, 1, 2, 1, 2)
    st.apply(A.ATTACK + A.to_field(field(6, 5), 1))
    assert not rayna.flying and rayna.turned
    st.apply(A.END_TURN)
    st.apply(A.END_TURN)
    assert rayna.flying


def test_attacking_turns_the_attacker_and_ends_its_activation():
    st = duel()
    select(st, 6, 3)
    force(st, 1, 2, 1, 2)
    st.apply(A.ATTACK + field(6, 4))
    assert st.units[0].turned and st.phase == MAIN


def test_masks_respect_range_and_line_of_sight():
    st = position([("Tristan the Bowman", 0, (9, 2), N), ("Maxian Trooper", 1, (3, 2), S),
                   ("Acid Spitter", 1, (3, 8), S), ("Vegron", 1, (0, 0), S), ("Justice", 0, (11, 11), N)])
    select(st, 9, 2)
    targets = {divmod((a - A.ATTACK) % 144, 12) for a in st.legal_actions() if A.ATTACK + 144 <= a < A.ATTACK + 288}
    assert targets == {(3, 2)}  # the spitter is out of range 6 (6 + 6 = 12 sides)


def behind_position():
    """Tristan facing north; a trooper beside him (west), one behind (south), a spitter behind (south-west);
    every line clear."""
    st = position([("Tristan the Bowman", 0, (6, 2), N), ("Maxian Trooper", 1, (6, 0), S),
                   ("Maxian Trooper", 1, (8, 2), N), ("Acid Spitter", 1, (7, 1), N),
                   ("Vegron", 1, (0, 0), S), ("Justice", 0, (11, 11), N)])
    return st


def test_ranged_attacks_select_only_ahead_of_the_character_or_beside_it():
    """Glossary, Line of Sight: the line runs "between the forward facing base piece" and the selection.
    Tristan may shoot the trooper beside him, not the two behind; he turns south at the end of his
    activation and shoots the one behind next turn."""
    st = behind_position()
    select(st, 6, 2)
    bow = A.ATTACK + 1 * FIELDS
    assert {divmod(a - bow, 12) for a in st.legal_actions() if bow <= a < bow + FIELDS} == {(6, 0)}
    st.apply(A.FACE + S)
    st.apply(A.END_TURN)
    st.apply(A.END_TURN)
    select(st, 6, 2)
    assert {divmod(a - bow, 12) for a in st.legal_actions() if bow <= a < bow + FIELDS} == {(6, 0), (8, 2), (7, 1)}
    force(st, 2, 1, 1, 2)  # 2+1 + 5 + 1 (Targeting) = 9 vs 1+2 + 3 + 1 (Vegron's mod) = 7
    st.apply(bow + field(8, 2))
    assert at(st, 8, 2).life == 4 - 2


def test_a_feat_selects_only_ahead_of_its_performer_or_beside_it():
    st = behind_position()
    crystal(st, 0, 4)
    st.hands[0] = ["Holy Fire"]
    st.apply(A.PLAY)
    st.apply(A.TARGET + field(6, 2))  # Tristan performs Holy Fire (magic, range 4)
    assert {divmod(a - A.TARGET, 12) for a in st.legal_actions()} == {(6, 0)}
    force(st, 6, 5, 1, 1)  # 11 + 0 against 2 + 0: the feat succeeds
    st.apply(A.TARGET + field(6, 0))
    assert at(st, 6, 0).life == 4 - 2


# -- levels ------------------------------------------------------------------------------------
def rooftop(fogg, rayna, flying=False):
    """Fogg facing Rayna (sight reaches only ahead and beside: `state.faces`)."""
    facing = direction(field(*fogg), field(*rayna))
    st = position([("Fogg", 0, fogg, facing), ("Rayna", 1, rayna, S), ("Kane", 0, (11, 11), N),
                   ("Warlord Kragg", 1, (0, 11), S)], scenario="rooftop_rescue")
    st.units[1].flying = flying
    return st, st.units[0]


def test_from_an_upper_level_only_the_ledge_sees_the_ground():
    st, fogg = rooftop((2, 2), (5, 2))  # Fogg on the roof, one space from the ledge
    assert not st.target_ok(fogg, 1, field(5, 2))
    st, fogg = rooftop((3, 2), (5, 2))  # at the ledge
    assert st.target_ok(fogg, 1, field(5, 2))


def test_from_the_ground_an_upper_level_character_is_seen_only_at_the_ledge():
    st, fogg = rooftop((6, 2), (2, 2))
    assert not st.target_ok(fogg, 1, field(2, 2))
    st, fogg = rooftop((6, 2), (3, 2))
    assert st.target_ok(fogg, 1, field(3, 2))


def test_a_flying_target_is_seen_from_anywhere_on_the_roof():
    st, fogg = rooftop((2, 2), (5, 2), flying=True)
    assert st.target_ok(fogg, 1, field(5, 2))


def test_level_change_lines_stop_ground_movement_but_not_stairs_or_flight():
    st, fogg = rooftop((4, 2), (0, 5))
    select(st, 4, 2)
    assert (3, 2) not in steps(st) and (3, 3) in steps(st)  # d9 is stairs
    st2, _ = rooftop((6, 2), (4, 2), flying=True)
    st2.apply(A.END_TURN)
    select(st2, 4, 2)
    assert (3, 2) in steps(st2)


# -- generals, droids, objectives, cap ---------------------------------------------------------
def test_defeating_the_enemy_generals_wins_street_clash():
    st = duel(dfn="Vegron")
    st.units = st.units[:2]
    force(st, 6, 6, 1, 1, 1, 6)
    st.units[1].life = 1
    st.roll_attack(st.units[0], st.units[0].ch.attacks[0], 0, field(6, 4))
    assert st.phase == OVER and st.returns() == [1.0, -1.0]


def test_robot_droids_power_down_outside_control_range_and_recover_on_4_plus():
    st = position([("Edward Blackstone", 1, (0, 0), S), ("Vigil Droid", 1, (10, 10), N), ("Justice", 0, (11, 0), N)],
                  scenario="relay_hold")
    droid = st.units[1]
    st._next_turn()  # player_1's turn starts: out of Blackstone's range 6
    assert droid.powered_down and droid.turned
    assert combat.base_defense(st, droid, False) == 0
    droid.pos = field(3, 3)
    st.turn = 1
    force(st, 4)
    st._next_turn()
    st._next_turn()
    assert not droid.powered_down


def test_hold_scores_a_point_a_round_for_holding_more_objectives():
    st = position([("Edward Blackstone", 0, (4, 4), N), ("David Barrett", 1, (0, 0), S)], scenario="relay_hold")
    st.turn = 1
    st._next_turn()
    assert st.hold == [1, 0]


def test_rescue_frees_the_prisoner_and_escaping_wins():
    st = position([("Kane", 0, (6, 6), N), ("Warlord Kragg", 1, (0, 11), S), ("Brick", 0, (5, 6), S)],
                  scenario="rooftop_rescue")
    brick = st.units[2]
    brick.imprisoned, brick.turned = True, True
    select(st, 6, 6)
    step(st, 6, 5)
    assert not brick.imprisoned
    brick.pos = field(0, 1)
    st._step(brick, field(0, 0))
    assert st.phase == OVER and st.winner == 0


def test_round_cap_ends_the_game_on_enemy_value_destroyed():
    st = position(GENERALS, rounds=1)
    st.units[1].life = 6  # Vegron lost a third: 9 * 3 / 9 = 3 points for player_0
    st.apply(A.END_TURN)
    st.apply(A.END_TURN)
    assert st.phase == OVER and st.winner == 0


def test_round_cap_with_nothing_destroyed_is_a_draw():
    st = position(GENERALS, rounds=1)
    st.apply(A.END_TURN)
    st.apply(A.END_TURN)
    assert st.phase == OVER and st.winner == 2 and st.returns() == [0.0, 0.0]


# -- cards and quick windows -------------------------------------------------------------------
def test_equipment_one_of_each_kind_per_character():
    st = position(GENERALS)
    st.sources = [Source(0, "Street Generator", 10)]
    st.sources[0].pos = field(11, 0)
    st.hands[0] = ["Round Shield", "Plate of Camelot"]
    st.apply(A.PLAY)
    st.apply(A.TARGET + field(11, 11))
    assert at(st, 11, 11).armor == "Round Shield"
    assert A.PLAY not in st.legal_actions()  # the plate has no character without armor


def test_ultra_equipment_is_unique_on_the_battlefield():
    st = position([("Justice", 0, (11, 11), N), ("Sir Gareth", 0, (11, 10), N), ("Vegron", 1, (0, 0), S)])
    st.sources = [Source(0, "Street Generator", 10)]
    st.sources[0].pos = field(11, 0)
    st.units[1].weapon = "Excalibur"
    st.hands[0] = ["Excalibur"]
    assert A.PLAY not in st.legal_actions()


def test_cards_are_paid_from_any_number_of_sources():
    st = position(GENERALS)
    st.sources = [Source(0, "Street Generator", 1), Source(0, "Street Generator", 2)]
    st.sources[0].pos, st.sources[1].pos = field(11, 0), field(11, 1)
    st.hands[0] = ["Plate of Camelot"]
    st.apply(A.PLAY)
    st.apply(A.TARGET + field(11, 11))
    assert [s.points for s in st.sources] == [0, 0]


def test_quick_window_goes_to_the_defender_and_last_played_resolves_first():
    st = position([("Justice", 1, (6, 3), E), ("Edward Blackstone", 0, (6, 4), W), ("Vegron", 1, (0, 0), S)],
                  scenario="relay_hold")
    st.sources = [Source(0, "Tripod Entity", 5), Source(1, "Street Generator", 5)]
    st.sources[0].pos, st.sources[1].pos = field(11, 0), field(0, 11)
    st.hands[0] = ["Emergency Shield", "Jam Signal"]
    st.hands[1] = []
    st.apply(A.END_TURN)
    select(st, 6, 3)
    st.apply(A.ATTACK + A.to_field(field(6, 4), 1))
    assert st.phase == QUICK and st.current_player == 0
    force(st, 3, 4, 2, 4)  # 7 + 5 (Justice is not side 1's active general) = 12 vs 6 + 4 + 1 (mod) + 2 = 13
    st.apply(A.PLAY)  # Emergency Shield: +2 defence; the attacker cannot answer, the stack resolves
    assert st.phase == ACTIVE or st.phase == MAIN
    assert at(st, 6, 4).life == 7


def test_jam_signal_cancels_the_card_below_it():
    st = position([("Edward Blackstone", 0, (6, 3), E), ("Fogg", 1, (6, 4), W), ("David Barrett", 1, (0, 0), S)],
                  scenario="relay_hold")
    st.sources = [Source(0, "Tripod Entity", 5), Source(1, "Street Generator", 5)]
    st.sources[0].pos, st.sources[1].pos = field(11, 0), field(0, 11)
    st.hands[0] = ["Jam Signal"]
    st.hands[1] = ["Take Cover"]
    select(st, 6, 3)
    st.apply(A.ATTACK + field(6, 4))
    assert st.phase == QUICK and st.current_player == 1
    force(st, 5, 5, 1, 2)  # 10 + 3 + 1 = 14 vs 3 + 3 (+2 cancelled) = 6 -> 8: Fogg (5) defeated
    st.apply(A.PLAY)
    assert st.current_player == 0
    st.apply(A.PLAY)
    assert not st.units[1].on_map


def test_feat_roll_double_one_fails_and_double_six_succeeds():
    st = position([("Skydas", 0, (9, 5), N), ("Vegron", 1, (6, 5), S), ("Justice", 0, (11, 11), N)])
    card = st.card(0, "Holy Fire")
    force(st, 1, 1, 1, 1)
    assert not st.resolve_feat(st.units[0], card, "Holy Fire", st.units[1])
    force(st, 6, 6, 6, 6)
    assert st.resolve_feat(st.units[0], card, "Holy Fire", st.units[1]) and st.units[1].life == 7


def test_a_feat_turns_its_performer_unless_innate():
    st = position([("Justice", 0, (9, 5), N), ("Vegron", 1, (6, 5), S)])
    st.sources = [Source(0, "Street Generator", 5)]
    st.sources[0].pos = field(11, 0)
    st.hands[0] = ["Holy Fire"]
    st.apply(A.PLAY)
    st.apply(A.TARGET + field(9, 5))
    force(st, 2, 2, 6, 6)
    st.apply(A.TARGET + field(6, 5))
    assert st.units[0].turned


def test_illegal_actions_are_refused_and_change_nothing():
    st = position(GENERALS)
    before = st.state_dict()
    with pytest.raises(IllegalActionError):
        st.apply(A.PASS)
    assert st.state_dict() == before


def test_crystal_drops_where_its_bearer_falls_losing_its_points_and_is_picked_up():
    st = position([("Justice", 0, (6, 3), E), ("Sir Gareth", 0, (6, 2), E), ("Maxian Trooper", 1, (6, 4), W),
                   ("Vegron", 1, (0, 0), S)])
    st.sources = [Source(1, "Crystal of the Round", 5)]
    st.sources[0].bearer = 2
    force(st, 6, 5, 1, 1)
    st.roll_attack(st.units[0], st.units[0].ch.attacks[0], 0, field(6, 4))
    assert st.sources[0].pos == field(6, 4) and st.sources[0].points == 0 and st.sources[0].bearer == -1
    select(st, 6, 2)
    step(st, 5, 3)
    st.units[1].pos = field(6, 5)
    st._step(st.units[1], field(6, 4))
    assert st.sources[0].bearer == 1


def test_a_character_carries_several_crystals_but_is_equipped_with_one():
    st = position(GENERALS)
    st.sources = [Source(0, "Crystal of the Round", 3), Source(0, "Crystal of the Round", 4)]
    st.sources[0].bearer = st.sources[1].bearer = 0
    assert st.pool(0) == 3


def test_flight_passes_over_characters_but_cannot_stop_over_one():
    st = position([("Rayna", 0, (6, 5), N), ("Vegron", 1, (5, 5), S), ("Justice", 0, (11, 11), N)])
    select(st, 6, 5)
    assert (5, 5) in steps(st)
    step(st, 5, 5)
    legal = st.legal_actions()
    assert all(a < A.ATTACK for a in legal) and A.END_ACT not in legal  # must fly on
    step(st, 4, 5)
    assert A.END_ACT in st.legal_actions() and st.unit_at(field(5, 5)).name == "Vegron"


def test_a_grounded_character_cannot_pass_over_another():
    st = position([("Justice", 0, (6, 5), N), ("Sir Gareth", 0, (5, 5), N), ("Vegron", 1, (0, 0), S)])
    select(st, 6, 5)
    assert (5, 5) not in steps(st)


def test_the_shaping_potential_is_zero_sum_and_follows_harm_generals_and_holds():
    st = position([("Justice", 0, (6, 3), E), ("Vegron", 1, (6, 4), W), ("Maxian Trooper", 1, (5, 3), S)])
    assert st.potentials() == [0.0, 0.0]
    st.units[2].life -= 1  # a Trooper hurt: the tiebreak's harm only
    trooper_hurt = st.potentials()[0]
    assert trooper_hurt > 0 and sum(st.potentials()) == 0.0
    st.units[1].life -= 1  # the enemy General hurt counts more with defeat_general
    assert st.potentials()[0] - trooper_hurt > trooper_hurt
    held = position([("Justice", 0, (6, 3), E), ("Vegron", 1, (6, 4), W)], scenario="relay_hold")
    held.hold = [2, 0]
    assert held.potentials()[0] > 0 > held.potentials()[1]
