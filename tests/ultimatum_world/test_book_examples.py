"""Every worked example of the book, in the book's order, with the dice forced to the values it names."""

from __future__ import annotations

from ultimata.envs import game_class
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world import phases as P
from ultimata.envs.ultimatum_world.content import CARD_KINDS

from .positions import BLACK, GREEN, RED, W, aim, nation, place, play, position, sea

CARD = {name: A.CARD + k for k, name in enumerate(CARD_KINDS)}
GB, FR, SPAIN = nation("Great Britain"), nation("France"), nation("Spain")


def at_sea(key) -> int:
    return place(sea(key), at_sea=True)


def test_book_starting_money_2_for_the_first_player_3_for_the_second_4_for_the_third():
    """'The first player to make attacks will receive $2 billion, the second player $3 billion, the
    third player $4 billion and so on.'"""
    s = game_class("ultimatum_world_v4").from_config({"num_players": 5, "setup": "dealt"}).new_initial_state(Rng(3))
    first = s.player
    assert [s.bank[(first + k) % 5] for k in range(5)] == [2, 3, 4, 5, 6]


def test_book_income_ten_nations_and_four_blockades_make_18():
    """'Occupying ten nations and four naval blockades results in the player receiving 18 billion.'"""
    s = position(nations={W.names[x]: (0, 1) for x in range(10)},
                 seas={1: (0, 1, 0), 2: (0, 1, 0), 3: (0, 1, 0), 4: (0, 1, 0), (3, 4, 6, 7): (0, 1, 0)})
    play(s, A.DONE)
    assert s.bank[0] == 18, "anchors pay nothing"


def test_book_britain_2_blockade_2_france_2():
    """'To attack a nation across a body of water, the attacker must: a) occupy the naval blockade
    between the two nations, and b) the nations and naval blockade must share the same identical number
    (e.g. Britain #2, naval blockade #2 and France #2).'"""
    assert 1 in W.seas[GB] and 1 in W.seas[FR] and FR not in W.borders[GB]
    s = position(nations={"Great Britain": (0, 5), "France": (1, 1)}, seas={2: (0, 1, 0)},
                 rolls=[BLACK[28], BLACK[2]])
    play(s, A.ATTACK, place(GB))
    assert place(FR) in s.legal_actions() and place(SPAIN) not in s.legal_actions(), "Spain carries no #2"
    play(s, place(FR), A.ROLL, A.AMOUNT_ONE, A.DONE)
    assert s.owner[FR] == 0
    s = position(nations={"Great Britain": (0, 5), "France": (1, 1)}, seas={2: (1, 2, 0)})
    play(s, A.ATTACK, place(GB))
    assert place(FR) not in s.legal_actions(), "an opponent's blockade #2 prevents the crossing"
    s = position(nations={"Great Britain": (0, 5), "France": (1, 1)})
    play(s, A.ATTACK, place(GB))
    assert place(FR) in s.legal_actions(), "a vacant blockade can be crossed"


def test_book_battleship_from_blockade_6_to_anchor_6_4_3_7_then_to_4_3_or_7_next_turn_and_attack():
    """'A battleship may move from naval blockade number 6 to anchor numbered 6, 4, 3 and 7 on one turn
    and move to either blockade numbered 4, 3, or 7 on their next turn and attack.'"""
    anchor = sea((3, 4, 6, 7))
    s = position(seas={6: (0, 2, 0), 7: (1, 1, 0)}, rolls=[GREEN["WIN"]])
    play(s, A.MOVE_BATTLESHIPS, at_sea(6))
    assert place(anchor, True) in s.legal_actions()
    assert at_sea(4) not in s.legal_actions() and at_sea(7) not in s.legal_actions(), "never blockade to blockade"
    play(s, place(anchor, True), A.AMOUNT_ALL)
    assert s.bs[anchor] == 2 and A.MOVE_BATTLESHIPS not in s.legal_actions(), "one move a turn"
    s._start_turn(0)
    s.phase, s._mask = P.ACT, None
    play(s, A.MOVE_BATTLESHIPS, place(anchor, True))
    assert sorted(a - A.NATIONS for a in s.legal_actions()) == sorted([sea(3), sea(4), sea(6), sea(7)])
    play(s, at_sea(7), A.AMOUNT_ALL, aim("battleship", "battleship"))
    assert (s.sea_owner[sea(7)], s.bs[sea(7)]) == (0, 2)


def test_book_jet_bomber_rolling_8_on_troops_kills_8():
    """'8 — The defender loses eight troops.'"""
    s = position(nations={"Spain": (1, 12)}, hands={0: {"jet_bomber": 1}}, rolls=[RED[8]])
    play(s, CARD["jet_bomber"], place(SPAIN))
    assert s.troops[SPAIN] == 4


def test_book_jet_bomber_rolling_6_on_ships_sinks_3_battleships_never_submarines():
    """'6 — The amount shown on the red die is divided by two. The defender loses three battleships.'"""
    s = position(seas={2: (1, 5, 2), 3: (1, 0, 4)}, hands={0: {"jet_bomber": 1}}, rolls=[RED[6]])
    play(s, CARD["jet_bomber"])
    assert at_sea(3) not in s.legal_actions(), "jet bombers cannot attack submarines"
    play(s, at_sea(2))
    assert (s.bs[sea(2)], s.subs[sea(2)]) == (2, 2)


def test_book_laser_rolling_28_kills_28_troops_and_the_defender_keeps_one():
    """'28 — The defender loses 28 troops.' and 'the defender is always allowed to maintain one troop'."""
    s = position(nations={"Spain": (1, 40), "Italy": (1, 20)}, rolls=[BLACK[28], BLACK[28]])
    s.lasers[0] = 2
    play(s, A.LASER, place(SPAIN))
    assert s.troops[SPAIN] == 12 and s.lasers[0] == 1, "fired once and removed"
    play(s, A.LASER, place(nation("Italy")))
    assert s.troops[nation("Italy")] == 1


def test_book_laser_rolling_20_on_a_blockade_sinks_10_vessels_battleships_first():
    """'20 — The amount shown on the black die is divided by two. The defender loses 10 vessels.
    Battleships are removed first.'"""
    s = position(seas={2: (1, 8, 4)}, rolls=[BLACK[20]])
    s.lasers[0] = 1
    play(s, A.LASER, at_sea(2))
    assert (s.bs[sea(2)], s.subs[sea(2)]) == (0, 2)


def test_book_four_battleships_on_an_anchor_attack_all_at_once_or_one_at_a_time():
    """'You may either move all four battleships in at once and attack or you may move one battleship in at
    a time and attack ... once naval vessel(s) are moved onto an enemy naval blockade, they must attack
    until successful or defeated.'"""
    s = position(seas={(2, 5, 7): (0, 4, 0), 2: (1, 3, 0)}, rolls=[GREEN["LOSE"]])
    play(s, A.MOVE_BATTLESHIPS, at_sea((2, 5, 7)), at_sea(2), A.AMOUNT_ONE)
    assert A.STOP not in s.legal_actions()
    play(s, A.BLITZ)
    assert s.bs[sea((2, 5, 7))] == 3 and s.sea_owner[sea(2)] == 1, "the one battleship was lost"
    s.rng.rolls = [GREEN["WIN"]] * 3
    play(s, A.MOVE_BATTLESHIPS, at_sea((2, 5, 7)), at_sea(2), A.AMOUNT_ALL, A.BLITZ)
    assert (s.sea_owner[sea(2)], s.bs[sea(2)]) == (0, 3)


def test_book_two_players_win_with_oil_and_two_more_alliances():
    """'The rules for two are the same ... except to win, a player must occupy the Oil Alliance along
    with any two of the following Alliances; Peace, Western or Communist.'"""
    holdings = {W.names[x]: (0, 3) for a in (1, 3) for x in W.members[a]}
    holdings["Iraq"], holdings["Iran"] = (1, 1), (0, 10)
    s = position(n=2, nations=holdings, rolls=[BLACK[28], BLACK[2]])
    play(s, A.ATTACK, place(nation("Iran")), place(nation("Iraq")), A.ROLL, A.AMOUNT_ONE, A.DONE)
    assert not s.is_terminal(), "Oil and Communist are not enough for two players"
    holdings.update({W.names[x]: (0, 1) for x in W.members[2]})
    holdings["Iraq"], holdings["India"], holdings["China"] = (0, 3), (1, 1), (0, 10)
    s = position(n=2, nations=holdings, rolls=[BLACK[28], BLACK[2]])
    play(s, A.ATTACK, place(nation("China")), place(nation("India")), A.ROLL, A.AMOUNT_ONE)
    assert s.is_terminal() and s.winners == [0] and s.returns() == [1.0, -1.0]
