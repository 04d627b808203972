"""One test per rule of the book, with the dice forced; the book's own examples are marked 'book:'."""

from __future__ import annotations

import pytest

from ultimata.envs import game_class
from ultimata.envs.core.errors import IllegalActionError
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world import state as S
from ultimata.envs.ultimatum_world.content import CARD_KINDS

from .helpers import BLACK, GREEN, RED, W, nation, place, play, position, sea

CARD = {name: A.CARD + k for k, name in enumerate(CARD_KINDS)}
US, GB, FR, SPAIN = nation("U.S.A."), nation("Great Britain"), nation("France"), nation("Spain")


# -- set-up ----------------------------------------------------------------------------------
def test_setup_four_nations_from_four_alliances_one_worldpower_then_one_at_a_time_then_battleships():
    s = game_class("ultimatum_world_v0").from_config({"num_players": 3}).new_initial_state(Rng(5))
    first = s.current_player
    picks = []
    for _ in range(4):
        assert s.current_player == first
        pick = s.legal_actions()[0]
        picks.append(pick)
        s.apply(pick)
    assert len({W.alliance[x] for x in picks}) == 4 and sum(W.worldpower[x] for x in picks) == 1
    assert sorted(s.troops[x] for x in picks) == [5, 5, 5, 10]
    assert s.current_player == (first + 1) % 3
    while s.phase == S.SETUP_START:
        s.apply(s.legal_actions()[-1])
    assert s.phase == S.SETUP_FILL and s.current_player == first
    while s.phase == S.SETUP_FILL:
        who = s.current_player
        x = s.legal_actions()[0]
        s.apply(x)
        assert s.owner[x] == who and s.troops[x] == 5
    assert all(o >= 0 for o in s.owner)
    placers = []
    while s.phase == S.SETUP_FLEET:
        placers.append(s.current_player)
        t = s.legal_actions()[0] - A.NATIONS
        s.apply(s.legal_actions()[0])
        assert s.bs[t] == 2 and s.sea_owner[t] == placers[-1]
    assert len(placers) == 14 and all(o >= 0 for o in s.sea_owner[:14])
    last = placers[-1]
    assert s.player == last, "the last to place battleships attacks first"
    assert [s.bank[(last + k) % 3] for k in range(3)] == [2, 3, 4] or s.phase == S.ACT


def test_setup_never_offers_a_pick_that_cannot_be_completed():
    s = game_class("ultimatum_world_v0").from_config({"num_players": 6}).new_initial_state(Rng(1))
    for _ in range(24):
        legal = s.legal_actions()
        assert legal
        s.apply(legal[-1])
    assert s.phase == S.SETUP_FILL
    assert all(s.owner[x] >= 0 for x in W.members[3]), "6 players take the six Oil nations at the start"
    assert sum(1 for x in range(37) if W.worldpower[x] and s.owner[x] >= 0) == 6


# -- money -----------------------------------------------------------------------------------
def test_purchases_cost_1_2_5_and_only_at_the_start_of_the_turn():
    s = position(nations={"France": (0, 5)}, seas={2: (0, 2, 0)}, phase=S.BUY)
    s.bank[0] = 8
    s._mask = None
    play(s, A.BUY_TROOPS_5, place(FR))
    assert s.troops[FR] == 10 and s.bank[0] == 3
    play(s, A.BUY_BATTLESHIP, place(sea(2), at_sea=True))
    assert s.bs[sea(2)] == 3 and s.bank[0] == 1
    assert A.BUY_SUBMARINE not in s.legal_actions()
    play(s, A.DONE)
    assert s.phase == S.ACT and A.BUY_TROOPS_1 not in s.legal_actions(), "saved money is spent before attacks only"


def test_a_laser_costs_10_and_needs_the_whole_western_or_communist_alliance():
    western = {W.names[x]: (0, 2) for x in W.members[0]}
    s = position(nations=western, phase=S.BUY)
    s.bank[0] = 10
    s._mask = None
    play(s, A.BUY_LASER)
    assert s.lasers[0] == 1 and s.bank[0] == 0
    s = position(nations={"France": (0, 2)}, phase=S.BUY)
    s.bank[0] = 30
    s._mask = None
    assert A.BUY_LASER not in s.legal_actions()


def test_income_is_1_per_nation_and_2_per_blockade_book_example_ten_and_four_make_18():
    mine = [W.names[x] for x in range(10)]
    s = position(nations={name: (0, 1) for name in mine}, seas={1: (0, 1, 0), 2: (0, 1, 0), 3: (0, 1, 0),
                                                               4: (0, 1, 0), (3, 4, 6, 7): (0, 1, 0)})
    play(s, A.DONE)
    assert s.bank[0] == 18, "anchors pay nothing"


def test_conquest_money_oil_2_worldpower_5_spent_that_turn_and_lost_at_its_end():
    s = position(nations={"Iran": (0, 10), "Iraq": (1, 1)}, rolls=[BLACK[28], BLACK[2]])
    play(s, A.ATTACK, place(nation("Iran")), place(nation("Iraq")), A.ROLL, A.AMOUNT_ONE)
    assert s.owner[nation("Iraq")] == 0 and s.turn_money == 2
    assert A.BUY_TROOPS_1 in s.legal_actions()
    play(s, A.DONE)
    assert s.bank[0] == 2, "only the income: 2 nations (the conquest money was not spent and is lost)"


def test_alliance_money_is_paid_each_time_the_alliance_is_regained():
    communist = {W.names[x]: (0, 3) for x in W.members[1]}
    communist["China"] = (1, 1)
    communist["Mongolia"] = (0, 10)
    s = position(nations=communist, rolls=[BLACK[28], BLACK[2]])
    play(s, A.ATTACK, place(nation("Mongolia")), place(nation("China")), A.ROLL, A.AMOUNT_ONE)
    assert s.turn_money == 5 + 15
    s.owner[nation("China")] = 1  # lost again ...
    s.alliance_flag[0][1] = False
    s.troops[nation("China")] = 1
    s._mask = None
    s.rng.rolls = [BLACK[28], BLACK[2]]
    play(s, A.ATTACK, place(nation("Mongolia")), place(nation("China")), A.ROLL, A.AMOUNT_ONE)
    assert s.turn_money == 2 * (5 + 15), "... and regained: paid again"


def test_oil_embargo_6_from_each_opponent_and_a_debt_when_short():
    oil = {W.names[x]: (0, 3) for x in W.members[3]}
    oil["Iraq"], oil["Iran"] = (1, 1), (0, 10)
    s = position(n=3, nations=oil, rolls=[BLACK[28], BLACK[2]])
    s.bank = [0, 10, 4]
    play(s, A.ATTACK, place(nation("Iran")), place(nation("Iraq")), A.ROLL, A.AMOUNT_ONE)
    assert s.bank == [0, 4, 0] and s.turn_money == 2 + 6 + 4 and s.debts == [[2, 0, 2]]
    s._earn(2, 5, to_bank=True)
    assert s.debts == [] and s.bank[2] == 3, "paid as soon as funds are acquired"
    assert s.turn_money == 14, "on the creditor's own turn the debt is money to spend this turn"
    play(s, A.DONE)
    s._earn(2, 10, to_bank=True)
    assert s.bank[2] == 13 and s.bank[0] == 6, "no debt left: nothing more is taken"


# -- army ------------------------------------------------------------------------------------
def test_an_attack_needs_three_troops_and_a_border():
    s = position(nations={"France": (0, 2), "Spain": (1, 1)})
    assert A.ATTACK not in s.legal_actions()
    s = position(nations={"France": (0, 3), "Spain": (1, 1)})
    play(s, A.ATTACK, place(FR))
    assert place(SPAIN) in s.legal_actions()


def test_book_crossing_water_britain_2_blockade_2_france_2():
    s = position(nations={"Great Britain": (0, 5), "France": (1, 1)}, seas={2: (1, 2, 0)})
    assert place(FR) not in (s._attack_targets(0, GB)), "blockade #2 held by an opponent blocks the crossing"
    s = position(nations={"Great Britain": (0, 5), "France": (1, 1)})
    assert FR in s._attack_targets(0, GB), "a vacant blockade can be crossed"
    s = position(nations={"Great Britain": (0, 5), "France": (1, 1)}, seas={2: (0, 1, 0)})
    assert FR in s._attack_targets(0, GB)
    assert SPAIN not in s._attack_targets(0, GB), "Spain carries no #2"


def test_black_dice_high_roll_wins_a_tie_costs_both_and_the_attack_stops_below_three():
    s = position(nations={"France": (0, 4), "Spain": (1, 3)}, rolls=[BLACK[10], BLACK[5], BLACK[5], BLACK[5]])
    play(s, A.ATTACK, place(FR), place(SPAIN), A.ROLL)
    assert (s.troops[FR], s.troops[SPAIN]) == (4, 2)
    play(s, A.ROLL)
    assert (s.troops[FR], s.troops[SPAIN]) == (3, 1) and s.phase == S.BATTLE
    s.rng.rolls = [BLACK[2], BLACK[5]]
    play(s, A.ROLL)
    assert s.troops[FR] == 2 and s.phase == S.ACT, "no attack goes on from a nation of two troops"


def test_conquest_moves_in_at_least_one_and_leaves_one_behind():
    s = position(nations={"France": (0, 9), "Spain": (1, 1)}, rolls=[BLACK[28], BLACK[2]])
    play(s, A.ATTACK, place(FR), place(SPAIN), A.BLITZ)
    assert s.phase == S.MOVE_IN
    play(s, A.AMOUNT_ALL)
    assert (s.troops[FR], s.troops[SPAIN], s.owner[SPAIN]) == (1, 8, 0)


def test_helicopter_commando_ten_troops_anywhere_and_a_one_one_tie_goes_to_the_commando():
    s = position(nations={"Australia": (1, 11)}, hands={0: {"helicopter_commando": 1}},
                 rolls=[BLACK[28], BLACK[2]] * 9 + [BLACK[2], BLACK[28]] * 8 + [BLACK[5], BLACK[5]])
    s.owner = [1] * 37  # player 0 holds nothing: the commando is the way back
    s._mask = None
    play(s, CARD["helicopter_commando"], place(nation("Australia")))
    assert s.owner[nation("Australia")] == 0 and s.troops[nation("Australia")] == 1
    assert s.hands[0][CARD_KINDS.index("helicopter_commando")] == 0 and s.deck[-1] == CARD_KINDS.index(
        "helicopter_commando"), "a used card goes to the bottom of the deck"


def test_minefield_costs_the_attacker_five_but_never_the_last_troop():
    s = position(nations={"France": (0, 9), "Spain": (1, 3)}, hands={1: {"minefield": 2}})
    play(s, A.ATTACK, place(FR), place(SPAIN))
    assert s.phase == S.WINDOW and s.current_player == 1
    play(s, CARD["minefield"])
    assert s.troops[FR] == 4
    play(s, CARD["minefield"])
    assert s.troops[FR] == 1
    play(s, A.DONE)
    assert s.phase == S.ACT, "the attack is called off: fewer than three troops"


def test_no_window_for_a_defender_without_a_usable_card():
    s = position(nations={"France": (0, 9), "Spain": (1, 3)}, hands={1: {"ocean_mine": 1}})
    play(s, A.ATTACK, place(FR), place(SPAIN))
    assert s.phase == S.BATTLE


# -- navy ------------------------------------------------------------------------------------
def test_book_battleships_go_from_blockade_6_to_anchor_6_4_3_7_then_to_4_3_or_7_next_turn():
    anchor = sea((3, 4, 6, 7))
    s = position(seas={6: (0, 2, 0)})
    play(s, A.MOVE_BATTLESHIPS, place(sea(6), True))
    assert place(anchor, True) in s.legal_actions()
    assert place(sea(4), True) not in s.legal_actions(), "never blockade to blockade in one turn"
    play(s, place(anchor, True), A.AMOUNT_ALL)
    assert s.bs[anchor] == 2 and A.MOVE_BATTLESHIPS not in s.legal_actions(), "one move a turn"
    s._start_turn(0)
    s.phase, s._mask = S.ACT, None
    play(s, A.MOVE_BATTLESHIPS, place(anchor, True))
    assert sorted(a - A.NATIONS for a in s.legal_actions()) == sorted([sea(3), sea(4), sea(6), sea(7)])


def test_new_vessels_cannot_move_until_the_next_turn_and_submarines_go_anywhere():
    s = position(nations={"France": (0, 3)}, seas={2: (0, 1, 0)}, phase=S.BUY)
    s.bank[0] = 5
    s._mask = None
    play(s, A.BUY_SUBMARINE, place(sea(2), True), A.DONE)
    assert A.MOVE_SUBMARINES not in s.legal_actions()
    s._start_turn(0)
    s.phase, s._mask = S.ACT, None
    play(s, A.MOVE_SUBMARINES, place(sea(2), True))
    assert len(s.legal_actions()) == 22


@pytest.mark.parametrize(("ship", "green", "left"), [
    ("battleship", "WIN", (1, 0, 0)), ("battleship", "LOSE", (0, 1, 0)), ("battleship", "DRAW", (0, 0, 0)),
    ("submarine", "WIN", (1, 0, 0)), ("submarine", "LOSE", (0, 1, 0)), ("submarine", "DRAW", (1, 0, 0))])
def test_green_die_against_a_battleship(ship, green, left):
    s = position(seas={2: (0, 1, 0) if ship == "battleship" else (0, 0, 1), (2, 5, 7): (1, 1, 0)},
                 rolls=[GREEN[green]])
    verb = A.MOVE_BATTLESHIPS if ship == "battleship" else A.MOVE_SUBMARINES
    play(s, verb, place(sea(2), True), place(sea((2, 5, 7)), True), A.AMOUNT_ALL)
    t = sea((2, 5, 7))
    mine = s.bs[t] + s.subs[t] if s.sea_owner[t] == 0 else 0
    assert (mine, s.bs[t] if s.sea_owner[t] == 1 else 0, 0) == left


def test_a_battleship_draw_against_a_submarine_sinks_only_the_battleship():
    s = position(seas={2: (0, 1, 0), (2, 5, 7): (1, 0, 1)}, rolls=[GREEN["DRAW"]])
    play(s, A.MOVE_BATTLESHIPS, place(sea(2), True), place(sea((2, 5, 7)), True), A.AMOUNT_ALL)
    t = sea((2, 5, 7))
    assert (s.sea_owner[t], s.subs[t]) == (1, 1)


def test_naval_attacks_fight_to_the_end_and_a_won_blockade_gives_two_cards():
    s = position(seas={(2, 5, 7): (0, 3, 0), 2: (1, 2, 0)}, rolls=[GREEN["LOSE"], GREEN["WIN"], GREEN["WIN"]])
    play(s, A.MOVE_BATTLESHIPS, place(sea((2, 5, 7)), True), place(sea(2), True), A.AMOUNT_ALL)
    assert (s.sea_owner[sea(2)], s.bs[sea(2)]) == (0, 2) and s.conquered_blockades == 1
    play(s, A.DONE)
    assert sum(s.hands[0]) == 2


def test_ocean_mine_only_on_blockades():
    s = position(seas={(2, 5, 7): (0, 3, 0), 2: (1, 2, 0)}, hands={1: {"ocean_mine": 1}},
                 rolls=[GREEN["WIN"]] * 4)
    play(s, A.MOVE_BATTLESHIPS, place(sea((2, 5, 7)), True), place(sea(2), True), A.AMOUNT_ALL)
    assert s.phase == S.WINDOW
    play(s, CARD["ocean_mine"], A.DONE)
    assert s.bs[sea(2)] == 2 and s.sea_owner[sea(2)] == 0, "one battleship lost to the mine, two win"
    s = position(seas={2: (0, 3, 0), (2, 5, 7): (1, 2, 0)}, hands={1: {"ocean_mine": 1}}, rolls=[GREEN["WIN"]] * 4)
    play(s, A.MOVE_BATTLESHIPS, place(sea(2), True), place(sea((2, 5, 7)), True), A.AMOUNT_ALL)
    assert s.phase == S.ACT, "no window: an ocean mine defends blockades only"


def test_moving_into_a_vacant_blockade_earns_no_card():
    s = position(seas={(2, 5, 7): (0, 2, 0)})
    play(s, A.MOVE_BATTLESHIPS, place(sea((2, 5, 7)), True), place(sea(2), True), A.AMOUNT_ALL, A.DONE)
    assert s.sea_owner[sea(2)] == 0 and sum(s.hands[0]) == 0


def test_an_eliminated_navy_comes_back_only_on_a_vacant_blockade():
    s = position(nations={"France": (0, 3)}, seas={2: (1, 2, 0)}, phase=S.BUY)
    s.bank[0] = 2
    s._mask = None
    play(s, A.BUY_BATTLESHIP)
    blockades = [a - A.NATIONS for a in s.legal_actions()]
    assert sea(2) not in blockades and len(blockades) == 13


# -- air force and lasers --------------------------------------------------------------------
def test_book_jet_bomber_rolling_8_on_troops_kills_8():
    s = position(nations={"Spain": (1, 12)}, hands={0: {"jet_bomber": 1}}, rolls=[RED[8]])
    play(s, CARD["jet_bomber"], place(SPAIN))
    assert s.troops[SPAIN] == 4


def test_jet_bomber_always_leaves_one_troop():
    s = position(nations={"Spain": (1, 3)}, hands={0: {"jet_bomber": 1}}, rolls=[RED[10]])
    play(s, CARD["jet_bomber"], place(SPAIN))
    assert s.troops[SPAIN] == 1


def test_book_jet_bomber_rolling_6_on_ships_sinks_3_battleships_never_submarines():
    s = position(seas={2: (1, 5, 2), 3: (1, 0, 4)}, hands={0: {"jet_bomber": 1}}, rolls=[RED[6]])
    play(s, CARD["jet_bomber"])
    assert place(sea(3), True) not in s.legal_actions(), "jet bombers cannot attack submarines"
    play(s, place(sea(2), True))
    assert (s.bs[sea(2)], s.subs[sea(2)]) == (2, 2)


def test_anti_aircraft_missile_cancels_the_jet_bomber_and_airlift_reinforces_the_defender():
    s = position(nations={"Spain": (1, 3), "Italy": (1, 9)}, hands={0: {"jet_bomber": 1},
                 1: {"anti_aircraft_missile": 1, "airlift": 1}}, rolls=[RED[4]])
    play(s, CARD["jet_bomber"], place(SPAIN))
    assert s.current_player == 1
    play(s, CARD["airlift"], place(nation("Italy")), A.AMOUNT_ALL)
    assert (s.troops[SPAIN], s.troops[nation("Italy")]) == (11, 1), "at least one troop stays behind"
    play(s, CARD["anti_aircraft_missile"], A.DONE)
    assert s.troops[SPAIN] == 11 and s.rng.rolls == [RED[4]], "the bomber is lost before it rolls"


def test_attacker_airlift_from_one_nation_to_another_anywhere():
    s = position(nations={"Australia": (0, 6), "Canada": (0, 1)}, hands={0: {"airlift": 1}})
    play(s, CARD["airlift"], place(nation("Australia")), place(nation("Canada")), A.AMOUNT_HALF)
    assert (s.troops[nation("Australia")], s.troops[nation("Canada")]) == (4, 3)


def test_book_laser_rolling_28_kills_28_troops_and_keeps_one():
    s = position(nations={"Spain": (1, 40), "Italy": (1, 20)}, rolls=[BLACK[28], BLACK[28]])
    s.lasers[0] = 2
    play(s, A.LASER, place(SPAIN))
    assert s.troops[SPAIN] == 12 and s.lasers[0] == 1, "fired once and removed"
    play(s, A.LASER, place(nation("Italy")))
    assert s.troops[nation("Italy")] == 1


def test_book_laser_rolling_20_on_a_blockade_sinks_10_vessels_battleships_first():
    s = position(seas={2: (1, 8, 4)}, rolls=[BLACK[20]])
    s.lasers[0] = 1
    play(s, A.LASER, place(sea(2), True))
    assert (s.bs[sea(2)], s.subs[sea(2)]) == (0, 2)


def test_a_laser_is_answered_by_one_laser_on_any_of_the_attackers_places():
    s = position(nations={"Spain": (1, 9), "France": (0, 30)}, rolls=[BLACK[15], BLACK[10]])
    s.lasers = [1, 2, 0]
    play(s, A.LASER, place(SPAIN))
    assert s.current_player == 1
    play(s, A.LASER, place(FR))
    assert s.troops[FR] == 15 and A.LASER not in s.legal_actions(), "one answer per laser"
    play(s, A.DONE)
    assert s.troops[SPAIN] == 1 and s.lasers == [0, 1, 0]


def test_lasers_keep_working_after_the_alliance_is_lost():
    s = position(nations={"Spain": (1, 9)})
    s.lasers[0] = 1
    s._mask = None
    assert A.LASER in s.legal_actions()


# -- cards -----------------------------------------------------------------------------------
def test_cards_one_per_nation_two_per_blockade_at_most_three_at_the_end_of_the_turn():
    s = position(nations={"France": (0, 20), "Spain": (1, 1), "Italy": (1, 1), "West Germany": (1, 1)},
                 rolls=[BLACK[28], BLACK[2]] * 3)
    for target in ("Spain", "Italy", "West Germany"):
        play(s, A.ATTACK, place(FR), place(nation(target)), A.ROLL, A.AMOUNT_ONE)
        assert sum(s.hands[0]) == 0, "cards come at the end of the turn"
    top = s.deck[:3]
    play(s, A.DONE)
    assert sum(s.hands[0]) == 3 and sorted(k for k, c in enumerate(s.hands[0]) for _ in range(c)) == sorted(top)


def test_intelligence_shows_one_branch_of_every_opponents_cards():
    s = position(hands={0: {"army_intelligence": 1}, 1: {"minefield": 2, "jet_bomber": 1}, 2: {"troops_5": 1}})
    before = s.observation(0).copy()
    play(s, CARD["army_intelligence"])
    assert s.revealed[0][1][CARD_KINDS.index("minefield")] == 2
    assert s.revealed[0][1][CARD_KINDS.index("jet_bomber")] == -1, "only the army branch"
    assert s.revealed[0][2][CARD_KINDS.index("troops_5")] == 1
    assert not (s.observation(0) == before).all()
    assert s.revealed[1] == [[-1] * len(CARD_KINDS)] * 3, "only the player who used it sees"


def test_defender_cards_are_never_played_on_your_own_turn():
    s = position(hands={0: {"minefield": 1, "ocean_mine": 1, "anti_aircraft_missile": 1}})
    assert s.legal_actions() == [A.DONE]


# -- winning and ending ------------------------------------------------------------------------
def test_oil_and_one_more_alliance_wins_with_3_players_two_more_with_2():
    holdings = {W.names[x]: (0, 3) for a in (1, 3) for x in W.members[a]}
    holdings["Iraq"], holdings["Iran"] = (1, 1), (0, 10)
    s = position(n=3, nations=holdings, rolls=[BLACK[28], BLACK[2]])
    play(s, A.ATTACK, place(nation("Iran")), place(nation("Iraq")), A.ROLL, A.AMOUNT_ONE)
    assert s.is_terminal() and s.winners == [0] and s.returns() == [1.0, -0.5, -0.5]
    s = position(n=2, nations=holdings, rolls=[BLACK[28], BLACK[2]])
    play(s, A.ATTACK, place(nation("Iran")), place(nation("Iraq")), A.ROLL, A.AMOUNT_ONE)
    assert not s.is_terminal(), "two players need Oil and two more alliances"


def test_the_round_cap_ends_the_game_and_ranks_by_alliances_then_nations():
    s = position(n=3, nations={W.names[x]: (0, 1) for x in W.members[3]}, max_rounds=1)
    for _ in range(3):
        play(s, A.DONE) if s.phase in (S.ACT, S.BUY) else None
        while s.phase == S.BUY:
            play(s, A.DONE)
    assert s.is_terminal()
    assert s.winners == [2], "player 2 holds 31 nations, the Peace and Western alliances"


def test_an_illegal_action_is_refused_and_changes_nothing():
    s = position(nations={"France": (0, 3), "Spain": (1, 1)})
    before = s.state_dict()
    with pytest.raises(IllegalActionError, match="legal actions"):
        s.apply(A.ROLL)
    assert s.state_dict() == before


def test_an_announced_attack_rolls_at_least_once_so_every_attack_costs_troops():
    s = position(nations={"France": (0, 9), "Spain": (1, 5)}, rolls=[BLACK[10], BLACK[5]])
    play(s, A.ATTACK, place(FR), place(SPAIN))
    assert s.legal_actions() == [A.ROLL, A.BLITZ], "book: announce the nations, then roll"
    play(s, A.ROLL)
    assert A.STOP in s.legal_actions() and s.troops[SPAIN] == 4
