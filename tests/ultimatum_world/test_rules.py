"""One test per rule of the book, in the book's order, with the dice forced; the book's own worked
examples are marked 'book:' (tests/ultimatum_world/test_book_examples.py repeats them one by one)."""

from __future__ import annotations

import dataclasses

import pytest

from ultimata.envs import game_class
from ultimata.envs.core.errors import ConfigError, IllegalActionError, UltimataError
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world import phases as P
from ultimata.envs.ultimatum_world.content import CARD_KINDS, PriceSpec

from .positions import BLACK, GREEN, RED, W, aim, nation, place, play, position, sea

CARD = {name: A.CARD + k for k, name in enumerate(CARD_KINDS)}
KIND = {name: k for k, name in enumerate(CARD_KINDS)}
US, GB, FR, SPAIN, ITALY = (nation(x) for x in ("U.S.A.", "Great Britain", "France", "Spain", "Italy"))


def at_sea(key) -> int:
    return place(sea(key), at_sea=True)


# -- game components: each player's set of pieces ---------------------------------------------------
def test_a_players_pieces_are_its_set_and_troops_and_lasers_share_the_large_discs():
    """Book: a set holds 70 troop discs and 10 large discs (10 troops or a laser): 170 troops in play."""
    western = {W.names[x]: (0, 1) for x in W.members[0]}
    s = position(nations={**western, "France": (0, 149)}, seas={2: (0, 26, 10)}, phase=P.BUY)  # 159 troops
    s.bank[0] = 30
    s._mask = None
    assert A.BUY_TROOPS_5 in s.legal_actions() and A.BUY_LASER in s.legal_actions()
    play(s, A.BUY_LASER)
    assert (s.lasers[0], s.troops_left(0)) == (1, 1), "the laser takes a large disc: ten troops less"
    assert A.BUY_TROOPS_5 not in s.legal_actions() and A.BUY_LASER not in s.legal_actions()
    play(s, A.BUY_TROOPS_ALL, place(FR))
    assert s.troops[FR] == 150 and s.bank[0] == 19, "all the money would buy 20; the set had one troop left"
    assert s.phase == P.ACT, "nothing more fits (26 battleships, 10 submarines at sea): the purchases are over"
    s = position(nations={"France": (0, 170)}, seas={2: (0, 26, 10)}, phase=P.BUY, pieces=None)
    s.bank[0] = 8
    s._mask = None
    assert {A.BUY_TROOPS_5, A.BUY_BATTLESHIP, A.BUY_SUBMARINE} <= set(s.legal_actions()), "pieces: null"


def test_cards_give_what_is_left_of_the_set_and_a_card_with_nothing_left_is_not_played():
    """Ours: a reinforcement card or a Helicopter Commando brings as many of its pieces as the player's
    set has left, and cannot be played when none is."""
    s = position(nations={"France": (0, 167)}, seas={2: (0, 25, 10)},
                 hands={0: {"troops_5": 1, "battleships_2": 1, "submarine_1": 1}})  # fmt: skip
    assert CARD["submarine_1"] not in s.legal_actions(), "all 10 submarines are at sea"
    play(s, CARD["battleships_2"])
    assert s.placing == [0, 1, 0]
    play(s, at_sea(2), CARD["troops_5"])
    assert s.placing == [3, 0, 0]
    s = position(nations={"France": (0, 168), "Spain": (1, 2)}, hands={0: {"helicopter_commando": 1}},
                 rolls=[BLACK[28], BLACK[2]] * 2)  # fmt: skip
    play(s, CARD["helicopter_commando"], place(SPAIN))
    assert (s.owner[SPAIN], s.troops[SPAIN]) == (0, 2), "two commandos land (170 - 168) and win"


def test_a_saved_state_with_more_pieces_than_the_set_is_refused():
    s = position(nations={"France": (0, 170)})
    saved = s.state_dict()
    saved["state"]["troops"][FR] = 171
    with pytest.raises(UltimataError, match="player 0 has more troops and lasers in play than its set of pieces"):
        s.load_state_dict(saved)
    assert s.troops[FR] == 170


def test_a_set_of_pieces_must_hold_the_set_up():
    with pytest.raises(ConfigError, match="pieces: at 2 players the set-up can give a player 100 troops"):
        game_class("ultimatum_world_v4").from_config({"num_players": 2, "pieces": {"troop_discs": 20,
                                                                                   "large_discs": 7}})
    with pytest.raises(ConfigError, match="unknown key 'pieces.troops'"):
        game_class("ultimatum_world_v4").from_config({"pieces": {"troops": 100}})


# -- the world chooses sides -----------------------------------------------------------------------
def test_setup_four_nations_from_four_alliances_one_worldpower_then_one_at_a_time_then_battleships():
    s = game_class("ultimatum_world_v4").from_config({"num_players": 3}).new_initial_state(Rng(5))
    first = s.current_player
    picks = []
    for _ in range(4):
        assert s.current_player == first
        pick = s.legal_actions()[0]
        picks.append(pick)
        s.apply(pick)
    assert len({W.alliance[x] for x in picks}) == 4 and sum(W.worldpower[x] for x in picks) == 1
    assert sorted(s.troops[x] for x in picks) == [5, 5, 5, 10]
    assert s.current_player == (first + 1) % 3, "clockwise"
    while s.phase == P.SETUP_START:
        s.apply(s.legal_actions()[-1])
    assert s.phase == P.SETUP_FILL and s.current_player == first
    while s.phase == P.SETUP_FILL:
        who = s.current_player
        x = s.legal_actions()[0]
        s.apply(x)
        assert s.owner[x] == who and s.troops[x] == 5, "one nation or Worldpower a turn, five troops"
    assert all(o >= 0 for o in s.owner)
    placers = []
    while s.phase == P.SETUP_FLEET:
        placers.append(s.current_player)
        t = s.legal_actions()[0] - A.NATIONS
        s.apply(s.legal_actions()[0])
        assert s.bs[t] == 2 and s.sea_owner[t] == placers[-1]
    assert len(placers) == 14 and all(o >= 0 for o in s.sea_owner[:14])
    assert all(placers[k + 1] == (placers[k] + 1) % 3 for k in range(13)), "clockwise from the die's winner"
    last = placers[-1]
    assert s.player == last, "the last to place battleships attacks first"
    assert [s.bank[(last + k) % 3] for k in range(3)] == [2, 3, 4], "book: $2, $3, $4 billion in playing order"


def test_setup_never_offers_a_pick_that_cannot_be_completed():
    s = game_class("ultimatum_world_v4").from_config({"num_players": 6}).new_initial_state(Rng(1))
    for _ in range(24):
        legal = s.legal_actions()
        assert legal
        s.apply(legal[-1])
    assert s.phase == P.SETUP_FILL
    assert all(s.owner[x] >= 0 for x in W.members[3]), "6 players take the six Oil nations at the start"
    assert sum(1 for x in range(37) if W.worldpower[x] and s.owner[x] >= 0) == 6


# -- money -----------------------------------------------------------------------------------------
def test_purchases_cost_1_2_5_and_are_placed_at_once():
    s = position(nations={"France": (0, 5)}, seas={2: (0, 2, 0)}, phase=P.BUY)
    s.bank[0] = 8
    s._mask = None
    play(s, A.BUY_TROOPS_5, place(FR), A.AMOUNT_ALL)
    assert s.troops[FR] == 10 and s.bank[0] == 3
    play(s, A.BUY_BATTLESHIP, at_sea(2))
    assert s.bs[sea(2)] == 3 and s.bank[0] == 1
    assert A.BUY_SUBMARINE not in s.legal_actions()
    play(s, A.BUY_TROOPS_1, place(FR))
    assert s.phase == P.ACT, "the bank's money is spent: the purchases are over"


def test_purchases_are_priced_by_the_rules_data():
    """The prices are read from data/rules.yaml (the book's 1, 2, 5, 10): other prices there change what
    the money buys and what it costs, 'all the money' included."""
    s = position(nations={"France": (0, 5)}, seas={2: (0, 2, 0)}, phase=P.BUY)
    s.rules = dataclasses.replace(s.rules, prices=PriceSpec(troop=2, battleship=3, submarine=6, laser=12))
    s.bank[0] = 5
    s._mask = None
    buys = set(s.legal_actions()) & set(range(A.BUY_TROOPS_1, A.BUY_LASER + 1))
    assert buys == {A.BUY_TROOPS_1, A.BUY_TROOPS_ALL, A.BUY_BATTLESHIP}, "5 troops cost 10, a submarine 6"
    play(s, A.BUY_TROOPS_ALL, place(FR), A.AMOUNT_ALL)
    assert s.troops[FR] == 7 and s.bank[0] == 1, "all the money buys two troops at 2"
    assert s.phase == P.ACT, "1 buys nothing more: the purchases are over"


def test_bank_money_is_spent_only_before_the_first_attack():
    s = position(nations={"France": (0, 5), "Spain": (1, 1)}, phase=P.BUY, rolls=[BLACK[2], BLACK[28]])
    s.bank[0] = 8
    s._mask = None
    assert A.ATTACK in s.legal_actions(), "attacking is allowed at once and ends the purchases"
    play(s, A.ATTACK, place(FR), place(SPAIN))
    play(s, A.ROLL, A.STOP)
    assert s.phase == P.ACT and A.BUY_TROOPS_1 not in s.legal_actions() and s.bank[0] == 8


def test_attacker_cards_can_be_used_during_the_purchases():
    s = position(nations={"France": (0, 5)}, hands={0: {"army_intelligence": 1, "troops_5": 1}}, phase=P.BUY)
    s.bank[0] = 3
    s._mask = None
    play(s, CARD["army_intelligence"])
    assert s.phase == P.BUY, "a card that is not an attack leaves the purchases open"
    play(s, CARD["troops_5"], place(FR), A.AMOUNT_ALL, A.BUY_TROOPS_ALL, place(FR), A.AMOUNT_ALL)
    assert s.troops[FR] == 13 and s.bank[0] == 0


def test_only_an_attack_closes_the_purchases_ship_moves_and_airlifts_leave_them_open():
    """Gap (ours): the bank is spent 'prior to the player making attacks'; nothing else ends it."""
    s = position(nations={"France": (0, 5), "Spain": (0, 3)}, seas={2: (0, 2, 0)}, hands={0: {"airlift": 1}},
                 phase=P.BUY)  # fmt: skip
    s.bank[0] = 3
    s._mask = None
    play(s, A.MOVE_BATTLESHIPS, at_sea(2), at_sea((2, 5, 7)), A.AMOUNT_ONE)
    assert s.phase == P.BUY, "a ship move onto a vacant anchor is no attack"
    play(s, CARD["airlift"], place(FR), place(SPAIN), A.AMOUNT_ONE, A.DONE)
    assert s.phase == P.BUY and s.troops[SPAIN] == 4, "an airlift is no attack"
    s = position(seas={6: (0, 1, 0), (6, 8): (1, 1, 0)}, phase=P.BUY, rolls=[GREEN["WIN"]])
    s.bank[0] = 3
    s._mask = None
    play(s, A.MOVE_BATTLESHIPS, at_sea(6), at_sea((6, 8)), A.AMOUNT_ALL)
    assert s.phase == P.BATTLE, "moving onto an opponent's anchor is an attack"
    play(s, aim("battleship", "battleship"))
    assert s.phase == P.ACT and A.BUY_TROOPS_1 not in s.legal_actions() and s.bank[0] == 3


def test_a_laser_costs_10_and_needs_the_whole_western_or_communist_alliance():
    western = {W.names[x]: (0, 2) for x in W.members[0]}
    s = position(nations=western, phase=P.BUY)
    s.bank[0] = 10
    s._mask = None
    play(s, A.BUY_LASER)
    assert s.lasers[0] == 1 and s.bank[0] == 0
    s = position(nations={"France": (0, 2)}, phase=P.BUY)
    s.bank[0] = 30
    s._mask = None
    assert A.BUY_LASER not in s.legal_actions()


def test_conquest_money_oil_2_worldpower_5_spent_that_turn_and_lost_at_its_end():
    s = position(nations={"Iran": (0, 10), "Iraq": (1, 1)}, rolls=[BLACK[28], BLACK[2]])
    play(s, A.ATTACK, place(nation("Iran")), place(nation("Iraq")), A.ROLL, A.AMOUNT_ONE, A.DONE)
    assert s.owner[nation("Iraq")] == 0 and s.turn_money == 2
    assert A.BUY_TROOPS_1 in s.legal_actions(), "conquest money is spent during the turn"
    play(s, A.DONE)
    assert s.bank[0] == 2, "only the income: 2 nations (the conquest money was not spent and is lost)"
    s = position(nations={"U.S.A.": (1, 1), "Canada": (0, 10)}, rolls=[BLACK[28], BLACK[2]], turn_money_kept=True)
    play(s, A.ATTACK, place(nation("Canada")), place(US), A.ROLL, A.AMOUNT_ONE, A.DONE)
    assert s.turn_money == 5, "a Worldpower pays $5 billion"
    play(s, A.DONE)
    assert s.bank[0] == 2 + 5, "turn_money_kept: what was not spent is saved"


@pytest.mark.parametrize(("alliance", "money"), [(0, 20), (1, 15), (2, 25)])
def test_whole_alliance_money_western_20_communist_15_peace_25(alliance, money):
    members = W.members[alliance]
    last = next(x for x in members if not W.worldpower[x] and any(b not in members for b in W.borders[x]))
    source = next(b for b in W.borders[last] if b not in members)
    holdings = {W.names[x]: (0, 1) for x in members}
    holdings[W.names[last]] = (1, 1)
    holdings[W.names[source]] = (0, 10)
    s = position(nations=holdings, rolls=[BLACK[28], BLACK[2]])
    play(s, A.ATTACK, place(source), place(last), A.ROLL, A.AMOUNT_ONE, A.DONE)
    assert s.turn_money == money, "a non-Worldpower completes the alliance: only the alliance's money"


def test_alliance_money_is_paid_each_time_the_alliance_is_regained():
    communist = {W.names[x]: (0, 3) for x in W.members[1]}
    communist["China"] = (1, 1)
    communist["Mongolia"] = (0, 10)
    communist["India"] = (1, 6)
    s = position(nations=communist, rolls=[BLACK[28], BLACK[2]])
    play(s, A.ATTACK, place(nation("Mongolia")), place(nation("China")), A.ROLL, A.AMOUNT_ONE, A.DONE)
    assert s.turn_money == 5 + 15
    play(s, A.DONE)
    s._start_turn(1)
    s.phase, s._mask = P.ACT, None
    s.rng.rolls = [BLACK[28], BLACK[2]]
    play(s, A.ATTACK, place(nation("India")), place(nation("China")), A.ROLL)
    assert s.phase == P.WINDOW, "player 0 holds the card its conquest earned: asked before the roll"
    play(s, A.DONE, A.AMOUNT_ONE, A.DONE)
    assert s.owner[nation("China")] == 1
    s._start_turn(0)
    s.phase, s._mask = P.ACT, None
    s.rng.rolls = [BLACK[28], BLACK[2]]
    play(s, A.ATTACK, place(nation("Mongolia")), place(nation("China")), A.ROLL, A.AMOUNT_ONE, A.DONE)
    assert s.turn_money == 5 + 15, "... lost and regained: the Communist money is paid again"


def test_oil_embargo_6_from_each_opponent_and_a_debt_when_short():
    oil = {W.names[x]: (0, 3) for x in W.members[3]}
    oil["Iraq"], oil["Iran"] = (1, 1), (0, 10)
    s = position(n=3, nations=oil, rolls=[BLACK[28], BLACK[2]])
    s.bank = [0, 10, 4]
    play(s, A.ATTACK, place(nation("Iran")), place(nation("Iraq")), A.ROLL, A.AMOUNT_ONE, A.DONE)
    assert s.bank == [0, 4, 0] and s.turn_money == 2 and s.embargo_money == 6 + 4 and s.debts == [[2, 0, 2]]
    play(s, A.DONE)
    s._earn(2, 5, "bank")
    assert s.debts == [] and s.bank[2] == 3 and s.bank[0] == 6 + 2, "paid as soon as funds are acquired"


def test_embargo_money_buys_troops_and_vessels_but_not_lasers():
    holdings = {W.names[x]: (0, 3) for x in W.members[3] + W.members[0]}
    holdings["Iraq"], holdings["Iran"] = (1, 1), (0, 10)
    s = position(n=2, nations=holdings, seas={10: (0, 1, 0)}, rolls=[BLACK[28], BLACK[2]] * 2)
    s.bank = [0, 20]
    play(s, A.ATTACK, place(nation("Iran")), place(nation("Iraq")), A.ROLL, A.AMOUNT_ONE, A.DONE)
    assert (s.turn_money, s.embargo_money) == (2, 6) and not s.is_terminal()
    assert A.BUY_LASER not in s.legal_actions(), "book: embargo money buys 'troops and/or naval vessels'"
    play(s, A.BUY_SUBMARINE, at_sea(10))
    assert (s.turn_money, s.embargo_money) == (2, 1), "the money kept for fewer uses is spent first"
    s.turn_money = 10
    s._mask = None
    assert A.BUY_LASER in s.legal_actions(), "conquest money buys lasers"


def test_embargo_money_received_pays_the_receivers_own_debt_first():
    oil = {W.names[x]: (0, 3) for x in W.members[3]}
    oil["Iraq"], oil["Iran"] = (1, 1), (0, 10)
    s = position(n=3, nations=oil, rolls=[BLACK[28], BLACK[2]])
    s.bank = [0, 6, 6]
    s.debts = [[0, 2, 4]]
    play(s, A.ATTACK, place(nation("Iran")), place(nation("Iraq")), A.ROLL, A.AMOUNT_ONE, A.DONE)
    assert s.debts == [] and (s.turn_money, s.embargo_money) == (0, 12 - 2) and s.bank[2] == 4, (
        "the Oil nation's $2 and then the embargo money pay the debt of 4 first")


# -- army --------------------------------------------------------------------------------------------
def test_an_attack_needs_three_troops_and_a_border():
    s = position(nations={"France": (0, 2), "Spain": (1, 1)})
    assert A.ATTACK not in s.legal_actions()
    s = position(nations={"France": (0, 3), "Spain": (1, 1)})
    play(s, A.ATTACK, place(FR))
    assert place(SPAIN) in s.legal_actions() and place(nation("Japan")) not in s.legal_actions()


def test_black_dice_high_roll_wins_a_tie_costs_both_and_the_attack_stops_below_three():
    s = position(nations={"France": (0, 4), "Spain": (1, 3)}, rolls=[BLACK[10], BLACK[5], BLACK[5], BLACK[5]])
    play(s, A.ATTACK, place(FR), place(SPAIN), A.ROLL)
    assert (s.troops[FR], s.troops[SPAIN]) == (4, 2)
    play(s, A.ROLL)
    assert (s.troops[FR], s.troops[SPAIN]) == (3, 1) and s.phase == P.BATTLE
    s.rng.rolls = [BLACK[2], BLACK[5]]
    play(s, A.ROLL)
    assert s.troops[FR] == 2 and s.phase == P.ACT, "no attack goes on from a nation of two troops"


def test_an_attack_may_stop_any_time_after_a_roll():
    s = position(nations={"France": (0, 9), "Spain": (1, 5)}, rolls=[BLACK[10], BLACK[5]])
    play(s, A.ATTACK, place(FR), place(SPAIN))
    assert s.legal_actions() == [A.ROLL, A.BLITZ], "book: announce the nations, then roll"
    play(s, A.ROLL)
    assert A.STOP in s.legal_actions() and s.troops[SPAIN] == 4
    play(s, A.STOP)
    assert s.phase == P.ACT and s.owner[SPAIN] == 1


def test_conquest_moves_in_at_least_one_and_leaves_one_behind():
    s = position(nations={"France": (0, 9), "Spain": (1, 1)}, rolls=[BLACK[28], BLACK[2]])
    play(s, A.ATTACK, place(FR), place(SPAIN), A.BLITZ)
    assert s.phase == P.MOVE_IN and s.legal_actions() == list(A.AMOUNTS)
    play(s, A.AMOUNT_ALL)
    assert (s.troops[FR], s.troops[SPAIN], s.owner[SPAIN]) == (1, 8, 0)
    assert s.phase == P.ACT and not s.transferring(), "nothing more can move in: the turn goes on"


def test_any_number_of_troops_moves_in_one_at_a_time_if_wished():
    s = position(nations={"France": (0, 10), "Spain": (1, 1)}, rolls=[BLACK[28], BLACK[2]])
    play(s, A.ATTACK, place(FR), place(SPAIN), A.ROLL, A.AMOUNT_ONE)
    assert s.owner[SPAIN] == 0 and s.legal_actions() == [*A.AMOUNTS, A.DONE]
    play(s, A.AMOUNT_ONE, A.AMOUNT_ONE, A.DONE)
    assert (s.troops[FR], s.troops[SPAIN]) == (7, 3), "three moved in: neither one, half nor all but one"


def test_card_troops_go_on_one_or_any_number_of_own_nations():
    s = position(nations={"France": (0, 1), "Spain": (0, 1)}, hands={0: {"troops_10": 1}})
    play(s, CARD["troops_10"])
    assert s.legal_actions() == sorted([place(FR), place(SPAIN)] + [place(x) for x in range(37)
                                                                     if s.owner[x] == 0 and x not in (FR, SPAIN)])
    play(s, place(FR), A.AMOUNT_HALF)
    assert s.troops[FR] == 6 and s.placing == [5, 0, 0]
    play(s, place(SPAIN), A.AMOUNT_ONE, place(FR), A.AMOUNT_ALL)
    assert (s.troops[FR], s.troops[SPAIN], s.placing) == (10, 2, [0, 0, 0])


def test_helicopter_commando_ten_troops_anywhere_and_a_one_one_tie_goes_to_the_commando():
    s = position(nations={"Australia": (1, 11)}, hands={0: {"helicopter_commando": 1}, 1: {"minefield": 1}},
                 rolls=[BLACK[28], BLACK[2]] * 10 + [BLACK[2], BLACK[28]] * 9 + [BLACK[5], BLACK[5]])
    s.owner = [1] * 37  # player 0 holds nothing: the commando is the way back
    s.lasers[1] = 1
    s._mask = None
    play(s, CARD["helicopter_commando"], place(nation("Australia")))
    assert s.owner[nation("Australia")] == 0 and s.troops[nation("Australia")] == 1
    assert s.hands[1][KIND["minefield"]] == 1 and s.lasers[1] == 1, "no defence cards or lasers against it"
    assert s.hands[0][KIND["helicopter_commando"]] == 0 and s.deck[-1] == KIND["helicopter_commando"], (
        "a used card goes to the bottom of the deck")


def test_helicopter_commandos_that_lose_are_all_gone():
    s = position(nations={"Spain": (1, 3)}, hands={0: {"helicopter_commando": 1}}, rolls=[BLACK[2], BLACK[28]] * 10)
    play(s, CARD["helicopter_commando"], place(SPAIN))
    assert s.owner[SPAIN] == 1 and s.troops[SPAIN] == 3


def test_minefield_costs_the_attacker_five_but_never_the_last_troop():
    s = position(nations={"France": (0, 9), "Spain": (1, 3)}, hands={1: {"minefield": 2}})
    play(s, A.ATTACK, place(FR), place(SPAIN), A.ROLL)
    assert s.phase == P.WINDOW and s.current_player == 1, "the defender is asked before the roll"
    play(s, CARD["minefield"])
    assert s.troops[FR] == 4
    play(s, CARD["minefield"])
    assert s.troops[FR] == 1 and s.phase == P.ACT, "the attack is called off: fewer than three troops"


def test_defence_cards_can_be_used_before_any_roll_of_a_troop_battle():
    s = position(nations={"France": (0, 20), "Spain": (1, 3)}, hands={1: {"minefield": 1}},
                 rolls=[BLACK[20], BLACK[10]] * 3)
    play(s, A.ATTACK, place(FR), place(SPAIN), A.BLITZ)
    assert s.phase == P.WINDOW
    play(s, A.DONE)
    assert s.phase == P.WINDOW and s.troops[SPAIN] == 2, "asked again before the next roll of the blitz"
    play(s, A.DONE, CARD["minefield"])
    assert (s.troops[FR], s.troops[SPAIN], s.phase) == (15, 0, P.MOVE_IN), "the blitz rolls on after the mine"


def test_a_defender_holding_any_card_is_asked_before_every_roll_and_may_only_pass():
    """Default `reaction_windows: always`: an Ocean Mine is no use against troops, but being asked or not
    must not tell the table whether the card is one."""
    s = position(nations={"France": (0, 9), "Spain": (1, 3)}, hands={1: {"ocean_mine": 1}},
                 rolls=[BLACK[10], BLACK[5]] * 2)
    play(s, A.ATTACK, place(FR), place(SPAIN), A.BLITZ)
    assert (s.phase, s.current_player, s.legal_actions()) == (P.WINDOW, 1, [A.DONE])
    play(s, A.DONE)
    assert s.phase == P.WINDOW and s.troops[SPAIN] == 2, "asked again before the blitz's next roll"
    play(s, A.DONE, A.DONE)
    assert s.phase == P.MOVE_IN and s.troops[SPAIN] == 0


def test_a_defender_with_no_card_and_no_laser_is_not_asked():
    """Hand sizes and lasers are public: a defender who holds neither is known to have nothing."""
    s = position(nations={"France": (0, 9), "Spain": (1, 3)}, rolls=[BLACK[10], BLACK[5]])
    play(s, A.ATTACK, place(FR), place(SPAIN), A.ROLL)
    assert s.phase == P.BATTLE and s.troops[SPAIN] == 2


def test_revealing_windows_ask_only_a_defender_with_a_usable_card():
    s = position(nations={"France": (0, 9), "Spain": (1, 3)}, hands={1: {"ocean_mine": 1}},
                 rolls=[BLACK[10], BLACK[5]], reaction_windows="revealing")
    play(s, A.ATTACK, place(FR), place(SPAIN), A.ROLL)
    assert s.phase == P.BATTLE and s.troops[SPAIN] == 2
    s = position(nations={"France": (0, 9), "Spain": (1, 3)}, hands={1: {"minefield": 1}},
                 rolls=[BLACK[10], BLACK[5]], reaction_windows="revealing")
    play(s, A.ATTACK, place(FR), place(SPAIN), A.ROLL)
    assert s.phase == P.WINDOW and s.current_player == 1


def test_reaction_windows_takes_only_its_two_values():
    with pytest.raises(ConfigError, match="reaction_windows"):
        game_class("ultimatum_world_v4").from_config({"reaction_windows": "never"})


# -- navy ----------------------------------------------------------------------------------------------
def test_new_vessels_cannot_move_until_the_next_turn_and_submarines_go_anywhere():
    s = position(nations={"France": (0, 3)}, seas={2: (0, 1, 0)}, phase=P.BUY)
    s.bank[0] = 5
    s._mask = None
    play(s, A.BUY_SUBMARINE, at_sea(2))
    assert A.MOVE_SUBMARINES not in s.legal_actions()
    s._start_turn(0)
    s.phase, s._mask = P.ACT, None
    play(s, A.MOVE_SUBMARINES, at_sea(2))
    assert len(s.legal_actions()) == 22


def test_new_vessels_go_on_blockades_the_player_holds_never_on_anchors():
    s = position(nations={"France": (0, 3)}, seas={2: (0, 1, 0), (2, 5, 7): (0, 1, 0), 5: (0, 1, 0)},
                 hands={0: {"battleships_2": 1}})
    play(s, CARD["battleships_2"])
    assert s.legal_actions() == [at_sea(2), at_sea(5)]
    play(s, at_sea(2), A.AMOUNT_ONE, at_sea(5))
    assert (s.bs[sea(2)], s.bs[sea(5)]) == (2, 2), "on one or any number of blockades"


@pytest.mark.parametrize(("mine", "theirs", "green", "lost"), [
    ("battleship", "battleship", "WIN", (0, 1)), ("battleship", "battleship", "LOSE", (1, 0)),
    ("battleship", "battleship", "DRAW", (1, 1)), ("battleship", "submarine", "WIN", (0, 1)),
    ("battleship", "submarine", "LOSE", (1, 0)), ("battleship", "submarine", "DRAW", (1, 0)),
    ("submarine", "battleship", "WIN", (0, 1)), ("submarine", "battleship", "LOSE", (1, 0)),
    ("submarine", "battleship", "DRAW", (0, 1)), ("submarine", "submarine", "DRAW", (0, 1))])
def test_green_die_win_lose_draw_for_each_announced_pair(mine, theirs, green, lost):
    ours = (0, 3, 0) if mine == "battleship" else (0, 0, 3)
    s = position(seas={2: ours, (2, 5, 7): (1, 2, 2)}, rolls=[GREEN[green]])
    verb = A.MOVE_BATTLESHIPS if mine == "battleship" else A.MOVE_SUBMARINES
    play(s, verb, at_sea(2), at_sea((2, 5, 7)), A.AMOUNT_ALL, aim(mine, theirs))
    t = sea((2, 5, 7))
    theirs_left = s.bs[t] if theirs == "battleship" else s.subs[t]
    assert (3 - sum(s.force), 2 - theirs_left) == lost and s.phase == P.BATTLE


def test_naval_attacks_fight_to_the_end_and_a_won_blockade_gives_two_cards():
    s = position(seas={(2, 5, 7): (0, 3, 0), 2: (1, 2, 0)}, rolls=[GREEN["LOSE"], GREEN["WIN"], GREEN["WIN"]])
    play(s, A.MOVE_BATTLESHIPS, at_sea((2, 5, 7)), at_sea(2), A.AMOUNT_ALL)
    assert A.STOP not in s.legal_actions(), "book: 'attack until successful or defeated'"
    play(s, A.BLITZ)
    assert (s.sea_owner[sea(2)], s.bs[sea(2)]) == (0, 2) and s.conquered_blockades == 1
    play(s, A.DONE)
    assert sum(s.hands[0]) == 2


def test_battleships_and_submarines_attack_together_and_the_attacker_announces_each_pair():
    s = position(seas={(2, 5, 7): (0, 2, 0), 8: (0, 0, 1), 2: (1, 1, 1)},
                 rolls=[GREEN["DRAW"], GREEN["WIN"]])
    play(s, A.MOVE_BATTLESHIPS, at_sea((2, 5, 7)), at_sea(2), A.AMOUNT_ALL)
    assert A.MOVE_SUBMARINES in s.legal_actions(), "a submarine anywhere can join the attack"
    play(s, A.MOVE_SUBMARINES, at_sea(8), A.AMOUNT_ALL)
    assert s.force == [2, 1]
    assert set(s.legal_actions()) >= {aim("battleship", "battleship"), aim("battleship", "submarine"),
                                      aim("submarine", "battleship"), aim("submarine", "submarine")}
    play(s, aim("submarine", "submarine"))
    assert (s.subs[sea(2)], s.force) == (0, [2, 1]), "a submarine's draw goes to the attacker"
    assert aim("submarine", "submarine") not in s.legal_actions()
    play(s, aim("battleship", "battleship"))
    assert (s.sea_owner[sea(2)], s.bs[sea(2)], s.subs[sea(2)]) == (0, 2, 1)
    assert (s.ready_bs[sea(2)], s.ready_subs[sea(2)]) == (0, 0), "vessels that moved do not move again"


def test_ocean_mine_only_on_blockades_and_it_sinks_the_announced_vessel():
    s = position(seas={(2, 5, 7): (0, 3, 0), 8: (0, 0, 1), 2: (1, 2, 0)}, hands={1: {"ocean_mine": 1}},
                 rolls=[GREEN["WIN"]] * 4)
    play(s, A.MOVE_BATTLESHIPS, at_sea((2, 5, 7)), at_sea(2), A.AMOUNT_ALL)
    play(s, A.MOVE_SUBMARINES, at_sea(8), A.AMOUNT_ALL, aim("submarine", "battleship"))
    assert s.phase == P.WINDOW and s.current_player == 1
    play(s, CARD["ocean_mine"])
    assert s.force == [3, 0] and s.phase == P.BATTLE and s.aim == -1, "the submarine is lost before it rolls"
    play(s, A.BLITZ)
    assert s.bs[sea(2)] == 3 and s.sea_owner[sea(2)] == 0
    s = position(seas={2: (0, 3, 0), (2, 5, 7): (1, 2, 0)}, hands={1: {"ocean_mine": 1}}, rolls=[GREEN["WIN"]] * 4)
    play(s, A.MOVE_BATTLESHIPS, at_sea(2), at_sea((2, 5, 7)), A.AMOUNT_ALL, A.BLITZ)
    assert s.phase == P.ACT and s.sea_owner[sea((2, 5, 7))] == 0, "no window: an ocean mine defends blockades only"


def test_moving_into_a_vacant_blockade_earns_no_card():
    s = position(seas={(2, 5, 7): (0, 2, 0)})
    play(s, A.MOVE_BATTLESHIPS, at_sea((2, 5, 7)), at_sea(2), A.AMOUNT_ALL, A.DONE)
    assert s.sea_owner[sea(2)] == 0 and sum(s.hands[0]) == 0


def test_a_blockade_is_conquered_when_its_last_vessel_is_sunk_and_moving_in_earns_nothing():
    """Book: 'considered conquered when their last naval vessel has been eliminated'; 'no cards are
    earned ... for moving into vacant naval blockades'. A laser that sinks all gives the two cards."""
    s = position(seas={(2, 5, 7): (0, 2, 0), 2: (1, 2, 1)}, rolls=[BLACK[20]])
    s.lasers[0] = 1
    play(s, A.LASER, at_sea(2))
    assert s.sea_owner[sea(2)] == -1 and s.conquered_blockades == 1
    play(s, A.DONE)
    assert sum(s.hands[0]) == 2, "conquered by the laser, never occupied"
    s = position(seas={(2, 5, 7): (0, 2, 0), 2: (1, 3, 0)}, hands={0: {"jet_bomber": 1}}, rolls=[RED[6]])
    play(s, CARD["jet_bomber"], at_sea(2))
    assert s.sea_owner[sea(2)] == -1 and s.conquered_blockades == 1, "6 / 2 = 3: the last battleship sunk"
    play(s, A.MOVE_BATTLESHIPS, at_sea((2, 5, 7)), at_sea(2), A.AMOUNT_ALL)
    assert s.sea_owner[sea(2)] == 0 and s.conquered_blockades == 1, "moving in adds nothing"
    s = position(seas={(2, 5, 7): (0, 1, 0), 2: (1, 1, 0)}, rolls=[GREEN["DRAW"]])
    play(s, A.MOVE_BATTLESHIPS, at_sea((2, 5, 7)), at_sea(2), A.AMOUNT_ALL, A.BLITZ, A.DONE)
    assert s.sea_owner[sea(2)] == -1 and sum(s.hands[0]) == 2, "both navies sunk: the blockade is conquered"


def test_an_eliminated_navy_comes_back_only_on_a_vacant_blockade():
    s = position(nations={"France": (0, 3)}, seas={2: (1, 2, 0)}, phase=P.BUY)
    s.bank[0] = 2
    s._mask = None
    play(s, A.BUY_BATTLESHIP)
    blockades = [a - A.NATIONS for a in s.legal_actions()]
    assert sea(2) not in blockades and len(blockades) == 13


def test_a_player_with_no_nation_and_no_vessel_comes_back_only_by_helicopter_commando():
    s = position(hands={0: {"battleships_2": 1, "helicopter_commando": 1}}, phase=P.BUY)
    s.owner = [1] * 37
    s.bank[0] = 10
    s._start_turn(0)
    s._mask = None
    assert s.phase == P.ACT, "nothing can be bought"
    assert s.legal_actions() == [CARD["helicopter_commando"], A.DONE]


# -- air force and lasers ----------------------------------------------------------------------------
def test_jet_bomber_always_leaves_one_troop():
    s = position(nations={"Spain": (1, 3)}, hands={0: {"jet_bomber": 1}}, rolls=[RED[10]])
    play(s, CARD["jet_bomber"], place(SPAIN))
    assert s.troops[SPAIN] == 1


@pytest.mark.parametrize(("red", "sunk"), [(1, 0), (2, 1), (10, 5)])
def test_jet_bomber_on_ships_halves_the_red_die_rounding_down(red, sunk):
    """Gap (ours): an odd roll halves down, so the red die's 1 sinks no battleship."""
    s = position(seas={2: (1, 6, 1)}, hands={0: {"jet_bomber": 1}}, rolls=[RED[red]])
    play(s, CARD["jet_bomber"], at_sea(2))
    assert (s.bs[sea(2)], s.subs[sea(2)]) == (6 - sunk, 1)


def test_anti_aircraft_missile_cancels_the_jet_bomber_and_airlift_reinforces_the_defender():
    s = position(nations={"Spain": (1, 3), "Italy": (1, 9)}, hands={0: {"jet_bomber": 1},
                 1: {"anti_aircraft_missile": 1, "airlift": 1}}, rolls=[RED[4]])
    play(s, CARD["jet_bomber"], place(SPAIN))
    assert s.current_player == 1
    play(s, CARD["airlift"], place(ITALY), A.AMOUNT_ALL)
    assert (s.troops[SPAIN], s.troops[ITALY]) == (11, 1), "at least one troop stays behind"
    play(s, CARD["anti_aircraft_missile"])
    assert s.phase == P.ACT and s.troops[SPAIN] == 11 and s.rng.rolls == [RED[4]], "the bomber is lost unrolled"


def test_attacker_airlift_any_number_from_one_nation_to_another_anywhere():
    s = position(nations={"Australia": (0, 6), "Canada": (0, 1)}, hands={0: {"airlift": 1}})
    play(s, CARD["airlift"], place(nation("Australia")), place(nation("Canada")), A.AMOUNT_HALF)
    assert (s.troops[nation("Australia")], s.troops[nation("Canada")]) == (4, 3)
    play(s, A.AMOUNT_ONE, A.DONE)
    assert (s.troops[nation("Australia")], s.troops[nation("Canada")]) == (3, 4) and s.legal_actions()[-1] == A.DONE


def test_a_laser_is_answered_by_one_laser_on_any_of_the_attackers_places():
    s = position(nations={"Spain": (1, 9), "France": (0, 30)}, rolls=[BLACK[15], BLACK[10]])
    s.lasers = [1, 2, 0]
    play(s, A.LASER, place(SPAIN))
    assert s.current_player == 1
    play(s, A.LASER, place(FR))
    assert s.troops[FR] == 15 and s.phase == P.ACT, "one answer per laser: the window closes"
    assert s.troops[SPAIN] == 1 and s.lasers == [0, 1, 0]


def test_a_defender_under_troop_attack_may_launch_lasers_before_any_roll():
    s = position(nations={"Spain": (1, 9), "France": (0, 30)}, rolls=[BLACK[15], BLACK[28], BLACK[2]])
    s.lasers = [0, 2, 0]
    play(s, A.ATTACK, place(FR), place(SPAIN), A.ROLL)
    assert A.LASER in s.legal_actions()
    play(s, A.LASER, place(FR))
    assert s.troops[FR] == 15 and A.LASER in s.legal_actions(), "any form of attack: no one-for-one limit"
    play(s, A.DONE)
    assert s.troops[SPAIN] == 8


def test_lasers_keep_working_after_the_alliance_is_lost():
    s = position(nations={"Spain": (1, 9)})
    s.lasers[0] = 1
    s._mask = None
    assert A.LASER in s.legal_actions()


# -- cards ---------------------------------------------------------------------------------------------
def test_cards_one_per_nation_two_per_blockade_at_most_three_at_the_end_of_the_turn():
    s = position(nations={"France": (0, 20), "Spain": (1, 1), "Italy": (1, 1), "West Germany": (1, 1)},
                 rolls=[BLACK[28], BLACK[2]] * 3)
    for target in ("Spain", "Italy", "West Germany"):
        play(s, A.ATTACK, place(FR), place(nation(target)), A.ROLL, A.AMOUNT_ONE, A.DONE)
        assert sum(s.hands[0]) == 0, "cards come at the end of the turn"
    top = s.deck[:3]
    play(s, A.DONE)
    assert sum(s.hands[0]) == 3 and sorted(k for k, c in enumerate(s.hands[0]) for _ in range(c)) == sorted(top)
    s = position(nations={"France": (0, 20), "Spain": (1, 1)}, seas={(2, 5, 7): (0, 2, 0), 2: (1, 1, 0)},
                 rolls=[BLACK[28], BLACK[2], GREEN["WIN"]])
    play(s, A.ATTACK, place(FR), place(SPAIN), A.ROLL, A.AMOUNT_ONE, A.DONE)
    play(s, A.MOVE_BATTLESHIPS, at_sea((2, 5, 7)), at_sea(2), A.AMOUNT_ALL, A.BLITZ, A.DONE)
    assert sum(s.hands[0]) == 3, "1 + 2 = 3"


def test_no_cards_for_conquering_an_anchor():
    s = position(seas={2: (0, 2, 0), (2, 5, 7): (1, 1, 0)}, rolls=[GREEN["WIN"]])
    play(s, A.MOVE_BATTLESHIPS, at_sea(2), at_sea((2, 5, 7)), A.AMOUNT_ALL, A.BLITZ)
    assert s.sea_owner[sea((2, 5, 7))] == 0
    play(s, A.DONE)
    assert sum(s.hands[0]) == 0


def test_used_cards_go_to_the_bottom_and_everyone_knows_them_when_they_are_drawn_again():
    s = position(nations={"France": (0, 20), "Spain": (1, 1), "Italy": (1, 1)}, hands={0: {"jet_bomber": 1}},
                 rolls=[RED[1]] + [BLACK[28], BLACK[2]] * 2)
    s.deck = s.deck[-1:]  # one unseen card left (the rest are in a box: not this test's business)
    s.hands[2] = [c + s.rules.deck.count(k) - (k == KIND["jet_bomber"]) - s.deck.count(k)
                  for k, c in enumerate(s.hands[2])]
    s._mask = None
    s._check_consistency()
    play(s, CARD["jet_bomber"], place(ITALY))
    assert s.deck[-1] == KIND["jet_bomber"] and s.used == 1
    play(s, A.ATTACK, place(FR), place(SPAIN), A.ROLL, A.AMOUNT_ONE, A.DONE)
    play(s, A.ATTACK, place(FR), place(ITALY), A.ROLL, A.AMOUNT_ONE, A.DONE, A.DONE)
    assert sum(s.hands[0]) == 2 and s.known[0][KIND["jet_bomber"]] == 1 and s.used == 0, (
        "the unseen card, then the jet bomber everyone saw played")
    seen = s.observation(1)
    for draw in range(5):
        other = s.sample_consistent(1, Rng(draw))
        assert other.hands[0][KIND["jet_bomber"]] >= 1 and (other.observation(1) == seen).all()


def test_intelligence_shows_one_branch_of_every_opponents_cards():
    s = position(hands={0: {"army_intelligence": 1}, 1: {"minefield": 2, "jet_bomber": 1}, 2: {"troops_5": 1}})
    before = s.observation(0).copy()
    play(s, CARD["army_intelligence"])
    assert s.revealed[0][1][KIND["minefield"]] == 2
    assert s.revealed[0][1][KIND["jet_bomber"]] == -1, "only the army branch"
    assert s.revealed[0][2][KIND["troops_5"]] == 1
    assert not (s.observation(0) == before).all()
    assert s.revealed[1] == [[-1] * len(CARD_KINDS)] * 3, "only the player who used it sees"


def test_defender_cards_are_never_played_on_your_own_turn():
    s = position(hands={0: {"minefield": 1, "ocean_mine": 1, "anti_aircraft_missile": 1}})
    assert s.legal_actions() == [A.DONE]


# -- winning and ending ----------------------------------------------------------------------------------
def test_oil_and_one_more_alliance_wins_with_3_players_two_more_with_2():
    holdings = {W.names[x]: (0, 3) for a in (1, 3) for x in W.members[a]}
    holdings["Iraq"], holdings["Iran"] = (1, 1), (0, 10)
    s = position(n=3, nations=holdings, rolls=[BLACK[28], BLACK[2]])
    play(s, A.ATTACK, place(nation("Iran")), place(nation("Iraq")), A.ROLL, A.AMOUNT_ONE)
    assert s.is_terminal() and s.winners == [0] and s.returns() == [1.0, -0.5, -0.5]
    s = position(n=2, nations=holdings, rolls=[BLACK[28], BLACK[2]])
    play(s, A.ATTACK, place(nation("Iran")), place(nation("Iraq")), A.ROLL, A.AMOUNT_ONE, A.DONE)
    assert not s.is_terminal(), "two players need Oil and two more alliances"


def test_the_round_cap_ends_the_game_and_ranks_by_alliances_then_nations():
    s = position(n=3, nations={W.names[x]: (0, 1) for x in W.members[3]}, max_rounds=1)
    for _ in range(3):
        while s.phase in (P.ACT, P.BUY) and not s.is_terminal():
            play(s, A.DONE)
    assert s.is_terminal()
    assert s.winners == [2], "player 2 holds 31 nations, the Peace and Western alliances"


def test_the_shaping_potential_is_zero_sum_and_orders_seats_as_the_round_cap_does():
    s = position(n=3, nations={W.names[x]: (0, 1) for x in W.members[3]}, seas={2: (1, 2, 0)})
    values = s.potentials()
    assert sum(values) == pytest.approx(0.0)
    assert values[2] > values[0] > values[1], "alliances first (2 holds two, 0 holds Oil), then nations"
    before = s.potentials()[1]
    s.sea_owner[sea(3)], s.bs[sea(3)] = 1, 2
    assert s.potentials()[1] > before, "a blockade counts, below a nation"
    env = game_class("ultimatum_world_v4").from_config({"dense_reward": True})
    assert env.supports_dense_reward


def test_a_player_with_nothing_left_is_out_at_the_end_of_a_turn_and_skipped():
    s = position(n=3, nations={"France": (0, 9), "Spain": (1, 1)}, rolls=[BLACK[28], BLACK[2]])
    play(s, A.ATTACK, place(FR), place(SPAIN), A.ROLL, A.AMOUNT_ONE, A.DONE)
    assert not s.out[1], "out only at the end of a turn"
    play(s, A.DONE)
    assert s.out[1] and s.player == 2


def test_a_player_with_a_way_back_stays_in_and_comes_back_by_jet_bomber_and_commando():
    """Ours: out only with no way back (issue 45). Lasers and Jet Bombers sink the last vessel on a blockade
    'regardless of your alliance status'; a blockade conquered gives two cards, and a Helicopter Commando
    among them is 'the only way back onto the playing board'."""
    s = position(n=3, nations={"France": (0, 5), "Spain": (2, 1)}, seas={2: (2, 1, 0)},
                 hands={1: {"jet_bomber": 2}}, rolls=[RED[2], BLACK[28], BLACK[2]])  # fmt: skip
    s.lasers[1], s.bank[1] = 2, 30
    commando = KIND["helicopter_commando"]
    s.deck.remove(commando)
    s.deck.insert(0, commando)
    play(s, A.DONE)
    assert not s.out[1] and s.player == 1, "2 lasers and 2 Jet Bombers: a way back, so still in"
    assert s.legal_actions() == [CARD["jet_bomber"], A.LASER, A.DONE], "money alone buys nothing without a nation"
    play(s, CARD["jet_bomber"], at_sea(2))
    assert s.sea_owner[sea(2)] == -1 and s.conquered_blockades == 1, "the red 2 sinks the last battleship"
    play(s, A.DONE)
    assert s.hands[1][commando] == 1, "the blockade's two cards: the commando on top of the deck"
    while s.player != 1:
        play(s, A.DONE)
    play(s, CARD["helicopter_commando"], place(SPAIN))
    assert s.owner[SPAIN] == 1 and s.troops[SPAIN] == 10, "back on the board"


def test_a_player_whose_only_money_cannot_buy_its_way_back_is_out():
    """Money alone is no way back: troops need a nation, vessels a nation or a fleet, a laser a whole
    Western or Communist Alliance. Intelligence and defence cards bring nothing back either."""
    s = position(n=3, nations={"France": (0, 5)}, hands={1: {"army_intelligence": 1, "minefield": 1}})
    s.bank[1] = 30
    play(s, A.DONE)
    assert s.out[1] and s.player == 2


@pytest.mark.parametrize("way_back", ["laser", "jet_bomber", "helicopter_commando"])
def test_one_laser_or_one_jet_bomber_or_commando_card_keeps_a_player_in(way_back):
    s = position(n=3, nations={"France": (0, 5)}, hands={1: {way_back: 1}} if way_back != "laser" else None)
    s.lasers[1] = int(way_back == "laser")
    play(s, A.DONE)
    assert not s.out[1] and s.player == 1


def test_an_illegal_action_is_refused_and_changes_nothing():
    s = position(nations={"France": (0, 3), "Spain": (1, 1)})
    before = s.state_dict()
    with pytest.raises(IllegalActionError, match="legal actions"):
        s.apply(A.ROLL)
    assert s.state_dict() == before
