"""Rule 18 of the book, player alliances, as a protocol of masked decisions: diplomacy windows at the
start of every turn of the attack option, proposals answered by everyone who would be allied, pooled
chips, battles directed in turn, prizes and booty shared, records kept apart, breaks for good."""

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world import phases as P
from ultimata.envs.conquest_of_the_world import terms as T
from ultimata.envs.conquest_of_the_world.observation import COUNTRY_BLOCK, PLAYER_FEATURES

from .positions import (
    LOSE_TWO,
    PLANE,
    STEADY,
    SUB,
    TANK,
    WIN_TWO,
    ally,
    attacker_wins,
    c,
    close_diplomacy,
    counted_to,
    edited,
    fight,
    fill_board,
    hold,
    opening,
)

THREE = ["China", "United States", "U.S.S.R."]
"""first=2: player_2 China, player_0 the U.S., player_1 the U.S.S.R. (the last chooser, with the option)."""
FOUR = ["China", "United States", "West Germany", "Japan"]
"""first=3: player_3 China, player_0 the U.S., player_1 West Germany, player_2 Japan (with the option)."""


def _no_proposal_is_possible(s) -> bool:
    return not any(s.may_propose(p, q) for p in range(s.n) for q in range(s.n))


def test_rule_18_no_player_alliances_with_two_players():
    s = opening(["United States", "U.S.S.R."], diplomacy=True)
    assert s.phase == P.TURN and not any(A.PROPOSE <= a <= A.BREAK for a in s.legal_actions())


def test_rule_18a_each_player_who_can_act_gets_a_window_at_the_turn_start_from_the_option_holder():
    s = opening(THREE, first=2, diplomacy=True)
    assert s.phase == P.DIPLOMACY and s.option == 1
    seen = []
    while s.phase == P.DIPLOMACY:
        seen.append(s.current_player)
        assert s.legal_actions() == [A.propose_action(1), A.propose_action(2), A.DONE]
        s.apply(A.DONE)
    assert seen == [1, 2, 0] and s.phase == P.TURN and s.current_player == 1
    s.apply(A.DONE)  # the option passes: a new round from player_2
    assert s.phase == P.DIPLOMACY and s.current_player == 2


def test_rule_18a_a_proposal_is_answered_by_the_addressee_then_the_window_returns():
    s = opening(THREE, first=2, diplomacy=True)
    s.apply(A.propose_action(1))  # player_1 to player_2
    assert s.phase == P.RESPOND and s.current_player == 2 and s.legal_actions() == [A.ACCEPT, A.DECLINE]
    s.apply(A.ACCEPT)
    assert s.allied[1][2] and s.allied[2][1] and not s.allied[1][0]
    # player_1 may not take in player_0 too (an alliance of every living player), but may break
    assert s.current_player == 1 and s.legal_actions() == [A.BREAK, A.DONE]


def test_rule_18a_a_declined_proposal_waits_for_the_next_round():
    s = opening(THREE, first=2, diplomacy=True)
    s.apply(A.propose_action(2))  # player_1 to player_0
    s.apply(A.DECLINE)
    assert not s.allied[1][0] and s.current_player == 1
    assert s.legal_actions() == [A.propose_action(1), A.DONE]
    close_diplomacy(s)
    s.apply(A.DONE)
    close_diplomacy(s)
    s.apply(A.DONE)  # player_2's turn passes; player_0's round
    assert s.current_player == 0 and s.phase == P.DIPLOMACY
    s.apply(A.DONE)
    assert s.current_player == 1 and A.propose_action(2) in s.legal_actions()  # a new round


def test_rule_18a_joining_an_alliance_needs_every_member_to_agree():
    s = opening(["China", "United States", "U.S.S.R.", "Japan"], first=3, diplomacy=True)  # option: player_2
    close_diplomacy(s)
    ally(s, 0, 1)
    s.phase, s.window, s.round_left = P.DIPLOMACY, 2, []
    edited(s).apply(A.propose_action(2))
    assert s.proposal == [2, 0] and s.answers == [0, 1]
    s.apply(A.ACCEPT)
    assert s.current_player == 1 and not s.allied[2][0]
    s.apply(A.DECLINE)  # player_1 refuses the newcomer
    assert not s.allied[2][0] and not s.allied[2][1] and s.allied[0][1]


def test_rule_18a_a_new_member_is_allied_with_the_whole_alliance():
    s = opening(["China", "United States", "U.S.S.R.", "Japan"], first=3)
    ally(s, 0, 1)
    s.phase, s.window, s.round_left = P.DIPLOMACY, 2, []
    edited(s).apply(A.propose_action(3))  # to player_1
    assert s.answers == [1, 0]
    s.apply(A.ACCEPT)
    s.apply(A.ACCEPT)
    assert s.group(2) == [2, 0, 1] and s.allied[0][2] and s.allied[1][2]


def test_rule_18b_allies_pool_their_chips_the_payer_first():
    s = opening(THREE, first=2)
    ally(s, 1, 2)
    s.chips[1], s.chips[2] = 1000, 4000
    assert A.BUY + c("Japan") in edited(s).legal_actions()  # 5000 together
    s.apply(A.BUY + c("Japan"))
    assert s.chips == [0, 0, 0] and s.holder[c("Japan")] == 1 and s.record[1] == 10


def test_rule_18b_the_allies_take_turns_directing_the_battles_of_a_war():
    s = opening(THREE, first=2)
    ally(s, 1, 2)
    s.apply(A.ATTACK + c("Brazil"))
    assert s.fighters == [1, 0]  # player_2 is an ally: the defence passes over it (18C)
    assert s.current_player == 1
    fight(s, [99, 99, 0], (TANK, STEADY), (TANK, STEADY))  # battle 1 directed by player_1: lost
    assert s.current_player == 2  # battle 2 by its ally player_2
    s.apply(A.weapon_action(SUB, STEADY))
    assert s.current_player == 0
    fight(s, [99, 0, 99], (PLANE, STEADY))
    assert s.current_player == 1  # battle 3: the declarer again
    fight(s, [99, 0, 99], (PLANE, STEADY), (SUB, STEADY))
    assert s.holder[c("Brazil")] == 1 and s.kind[c("Brazil")] == T.CONQUEST  # the declarer's marker


def test_rule_18b_option_the_declarer_directs_every_battle():
    s = opening(THREE, first=2, alliance_battles="declarer")
    ally(s, 1, 2)
    s.apply(A.ATTACK + c("Brazil"))
    fight(s, [99, 99, 0], (TANK, STEADY), (TANK, STEADY))
    assert s.current_player == 1


def test_rule_18c_allies_never_attack_each_other_and_never_duel():
    s = opening(THREE, first=2)
    ally(s, 1, 2)
    hold(s, 2, ["Brazil"], T.CONQUEST)
    hold(s, 0, ["Argentina"], T.CONQUEST)
    s.turn, s.chips[1] = 2, 20000
    legal = edited(s).legal_actions()
    assert A.ATTACK + c("Brazil") not in legal and A.ATTACK + c("Argentina") in legal


def test_rule_18d_onscreen_gains_are_divided_equally_and_18e_records_stay_apart():
    s = opening(THREE, first=2)
    ally(s, 1, 2)
    s.apply(A.ATTACK + c("Argentina"))
    attacker_wins(s)  # the defender keeps 2000
    assert s.chips[1] == 1000 and s.chips[2] == 1000
    assert s.record == [0, 10, 0]  # only the declarer records the conquest


def test_rule_18d_a_defending_ally_shares_its_prize_too():
    s = opening(THREE, first=2)
    ally(s, 0, 2)
    s.apply(A.ATTACK + c("Argentina"))
    assert s.fighters == [1, 2]
    fight(s, LOSE_TWO, (TANK, STEADY), (TANK, STEADY), (SUB, STEADY), (TANK, STEADY))
    # the attacker has 2500 - 200 - 250 = 2050 left: 2100 to share, 1000 each, the odd 100 to the winner
    assert s.chips == [1000, 0, 1100] and s.holder[c("Argentina")] == 2


def test_rule_18d_prizes_split_in_hundreds_the_odd_ones_to_the_winner():
    s = opening(["China", "United States", "U.S.S.R.", "Japan"], first=3)  # option: player_2
    ally(s, 0, 1, 2)
    s.apply(A.ATTACK + c("Brazil"))
    fight(s, WIN_TWO, (TANK, STEADY), (TANK, STEADY), (SUB, STEADY), (PLANE, STEADY))
    assert sorted(s.chips) == [0, 600, 600, 800] and s.chips[2] == 800  # 2000 / 3


def test_rule_18f_a_broken_alliance_is_never_renewed():
    s = opening(THREE, first=2, diplomacy=True)
    s.apply(A.propose_action(1))
    s.apply(A.ACCEPT)
    s.apply(A.BREAK)
    assert not s.allied[1][2] and s.broken[1][2] and s.broken[2][1]
    assert s.current_player == 1 and s.legal_actions() == [A.propose_action(2), A.DONE]
    s.apply(A.DONE)
    assert s.current_player == 2 and s.legal_actions() == [A.propose_action(1), A.DONE]  # only player_0


def test_rule_18f_one_member_leaving_a_three_player_alliance_leaves_the_others_allied():
    s = opening(["China", "United States", "U.S.S.R.", "Japan"], first=3)
    ally(s, 0, 1, 2)
    s.phase, s.window, s.round_left = P.DIPLOMACY, 1, []
    s.apply(A.BREAK)
    assert s.group(0) == [0, 2] and s.group(1) == [1] and s.broken[1][0] and s.broken[1][2]
    assert not s.broken[0][2]


def test_rule_18f_no_joining_an_alliance_holding_a_player_you_broke_with():
    s = opening(["China", "United States", "U.S.S.R.", "Japan", "Brazil"], first=4)
    ally(s, 0, 1)
    s.broken[2][1] = s.broken[1][2] = True
    s.phase, s.window, s.round_left = P.DIPLOMACY, 2, []
    legal = edited(s).legal_actions()
    assert A.propose_action(3) not in legal and A.propose_action(4) not in legal  # player_0, player_1
    assert A.propose_action(1) in legal  # player_3


def test_rule_18a_no_proposals_once_the_board_is_filled_but_breaks_any_time():
    s = opening(THREE, first=2, end_game=False)
    ally(s, 1, 2)
    fill_board(s, 0)
    s.apply(A.DONE)
    assert s.stage == T.FINAL and s.phase == P.DIPLOMACY and s.current_player == 2
    assert s.legal_actions() == [A.BREAK, A.DONE]
    s.apply(A.DONE)
    assert s.current_player == 1 and s.legal_actions() == [A.BREAK, A.DONE]
    s.apply(A.DONE)
    assert s.phase == P.TURN and s.current_player == 2  # player_0 can do nothing: no window


def test_rule_18a_no_proposal_from_the_moment_a_buy_fills_the_board():
    """"at any time during the game until the board is filled": the holder's turn goes on, its windows
    offer no proposal."""
    s = opening(FOUR, first=3)
    fill_board(s, 3, leave=("Australia",))
    s.chips[2] = 2000
    assert edited(s).may_propose(2, 0) and s.stage == T.PLAY
    s.apply(A.BUY + c("Australia"))
    assert s.stage == T.FINAL and _no_proposal_is_possible(s)
    assert s.phase == P.TURN and s.current_player == 2  # no window: no one may propose, no one is allied
    assert s.final_left == [3, 0, 1, 2]  # rule 20A: one more turn each, from the holder's left
    assert "the board is filled" in s.events[-1]


def test_rule_18a_no_proposal_from_the_moment_a_conquest_fills_the_board():
    s = opening(FOUR, first=3)
    ally(s, 0, 1)
    fill_board(s, 3, leave=("Australia",))
    s.apply(A.ATTACK + c("Australia"))
    assert s.fighters == [2, 3]
    attacker_wins(s)
    assert s.holder[c("Australia")] == 2 and s.stage == T.FINAL and _no_proposal_is_possible(s)
    assert s.phase == P.DIPLOMACY and s.legal_actions() == [A.BREAK, A.DONE]  # player_0 may still break
    close_diplomacy(s)
    assert s.phase == P.TURN and s.current_player == 2


def test_rule_18a_an_elimination_after_the_board_is_filled_does_not_reopen_proposals():
    """An elimination frees the loser's allies (19C) but never fills the board; the board filled earlier in
    the turn stays filled for rule 18A: from that moment no proposal, though countries are free again."""
    s = opening(FOUR, first=3)
    hold(s, 0, ["Brazil"], T.ALLY)
    hold(s, 2, ["Canada", "Mexico", "Cuba", "U.S.S.R."], T.CONQUEST)
    fill_board(s, 3, leave=("Australia",))
    s.chips[2], s.turn = 30000, 2
    s.apply(A.ATTACK + c("Australia"))
    attacker_wins(s)
    assert s.stage == T.FINAL and s.phase == P.TURN
    s.apply(A.ATTACK + c("United States"))
    attacker_wins(s)
    assert not s.alive[0] and s.holder[c("Brazil")] == -1
    assert s.stage == T.FINAL and _no_proposal_is_possible(s) and s.phase == P.TURN
    assert A.ATTACK + c("Brazil") not in s.legal_actions() and A.BUY + c("Brazil") in s.legal_actions()  # 20A, 16E


def test_rule_18_a_window_is_never_offered_to_a_player_who_can_do_nothing():
    s = opening(THREE, first=2, diplomacy=True)
    for p in range(3):
        for q in range(3):
            s.broken[p][q] = p != q
    s._open_diplomacy(1)
    assert s.phase == P.TURN and s.current_player == 1


def test_rule_18_the_end_game_passes_over_allies():
    s = opening(["China", "United States", "U.S.S.R.", "Japan"], first=3, max_turns=1)
    ally(s, 0, 1)
    counted_to(s, [2, 4, 6, 8]).apply(A.DONE)
    close_diplomacy(s)  # neither ally breaks
    assert s.stage == T.LADDER and s.fighters == [0, 2]  # player_0 challenges player_2, not its ally player_1


def test_rule_18f_an_alliance_may_be_broken_before_each_war_of_a_turn():
    s = opening(THREE, first=2)
    ally(s, 1, 2)
    s.chips[1] = 1000
    edited(s).apply(A.BUY + c("Bangladesh"))  # player_1's turn goes on: first a window for each ally
    assert s.phase == P.DIPLOMACY and s.current_player == 1 and s.legal_actions() == [A.BREAK, A.DONE]
    close_diplomacy(s)
    s.apply(A.ATTACK + c("Brazil"))
    assert s.fighters == [1, 0]  # the defence passes over the ally player_2
    attacker_wins(s)
    assert s.phase == P.DIPLOMACY and s.current_player == 1 and s.option == 1  # before the next war
    s.apply(A.DONE)
    assert s.current_player == 2 and s.legal_actions() == [A.BREAK, A.DONE]
    s.apply(A.BREAK)
    assert not s.allied[1][2] and s.broken[1][2]
    close_diplomacy(s)  # player_0 may still make this turn's proposals
    assert s.phase == P.TURN and s.current_player == 1
    s.apply(A.ATTACK + c("Argentina"))
    assert s.fighters == [1, 2]  # no longer allied: player_2 is the next defender to the left of player_0


def test_rule_18f_an_alliance_may_be_broken_before_each_end_game_duel():
    s = opening(["China", "United States", "U.S.S.R.", "Japan"], first=3, max_turns=1)
    ally(s, 0, 1)
    counted_to(s, [2, 4, 6, 8]).apply(A.DONE)
    assert s.stage == T.LADDER and s.phase == P.DIPLOMACY and s.current_player == 0
    assert s.legal_actions() == [A.BREAK, A.DONE]  # 21A: no new alliances, but a break
    s.apply(A.BREAK)
    assert s.phase == P.WEAPON and s.fighters == [0, 1]  # player_1 has no alliance left: no window


def test_alliances_and_proposals_are_in_every_observation():
    s = opening(["China", "United States", "U.S.S.R.", "Japan"], first=3, diplomacy=True)
    assert s.current_player == 2
    s.apply(A.propose_action(1))  # player_2 to player_3
    for viewer in range(4):
        obs = s.observation(viewer)
        row = COUNTRY_BLOCK + ((2 - viewer) % 4) * PLAYER_FEATURES  # player_2's row
        assert obs[row + 16 + (3 - viewer) % 4] == 1.0  # proposed to player_3, as the viewer numbers seats
    s.apply(A.ACCEPT)
    for viewer in range(4):
        obs = s.observation(viewer)
        row = COUNTRY_BLOCK + ((3 - viewer) % 4) * PLAYER_FEATURES  # player_3's row
        assert obs[row + 4 + (2 - viewer) % 4] == 1.0  # allied with player_2
