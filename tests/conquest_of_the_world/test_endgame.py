"""Rules 20-22 and the variants: the last round once the board is filled, chips to the record, the
end-game ladder of duels, the winner and the returns, the turn cap and the target record."""

import pytest

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world import phases as P
from ultimata.envs.conquest_of_the_world import terms as T

from .positions import (
    ALL_OUT,
    CAUTIOUS,
    PLANE,
    STEADY,
    SUB,
    TANK,
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


def test_rule_20ab_the_filled_board_gives_each_one_more_turn_of_attacks_on_occupied_countries():
    s = opening(["United States", "U.S.S.R."], end_game=False)
    fill_board(s, 0)
    s.chips = [1300, 1200]
    edited(s).apply(A.DONE)
    assert s.stage == T.FINAL and s.option == 0
    assert not any(A.BUY <= a < A.ATTACK for a in s.legal_actions())  # no alliance to buy in the last round
    s.apply(A.DONE)  # 20B: player_0 chooses not to attack
    assert s.option == 1
    s.apply(A.DONE)
    assert s.is_terminal()


def test_rule_20c_chips_go_to_the_record_rounded_to_the_nearest_500():
    s = opening(["United States", "U.S.S.R."], end_game=False)
    fill_board(s, 0)
    s.chips = [1300, 1200]
    before = list(edited(s).record)
    s.apply(A.DONE)
    s.apply(A.DONE)
    s.apply(A.DONE)
    assert s.record == [before[0] + 3, before[1] + 2] and s.chips == [0, 0]  # 1300 -> 1.5 spaces; 1200 -> 1


def test_rule_20a_the_last_round_continues_after_a_won_war_and_16e_may_buy_a_freed_country():
    s = opening(["China", "United States", "U.S.S.R."], first=2, end_game=False)  # p0 US, p1 USSR
    hold(s, 0, ["Brazil"], T.ALLY)
    hold(s, 1, ["Canada", "Mexico", "Cuba"], T.CONQUEST)
    fill_board(s, 2)
    s.chips[1] = 40000
    edited(s).apply(A.DONE)  # the board is full: the last round starts with player_2
    assert s.stage == T.FINAL and s.option == 2
    s.apply(A.DONE)
    assert s.option == 0
    s.apply(A.DONE)
    assert s.option == 1 and s.buys == 0
    s.apply(A.ATTACK + c("United States"))
    attacker_wins(s)
    assert not s.alive[0] and s.holder[c("Brazil")] == -1 and s.option == 1
    assert A.ATTACK + c("Brazil") not in s.legal_actions()  # 20A: only occupied countries are attacked
    s.apply(A.BUY + c("Brazil"))  # 16E: the conqueror may form an alliance
    assert s.holder[c("Brazil")] == 1
    s.apply(A.DONE)
    assert s.is_terminal()  # player_0 is out: its last turn is gone


def test_rule_21_the_end_game_ladder():
    s = opening(["United States", "U.S.S.R."], max_turns=1)
    counted_to(s, [10, 20])
    s.apply(A.DONE)  # the turn cap: chips to record, then the end game
    assert s.stage == T.LADDER and s.fighters == [0, 1] and s.energy == [500, 1000]  # 21C: record x 100
    assert s.current_player == 0  # 21C: the low player enters first
    fight(s, [99, 0, 99], (TANK, ALL_OUT), (TANK, CAUTIOUS))
    assert s.record == [12, 18] and s.energy == [200, 900]  # 21D: +1 and -1 space
    assert s.current_player == 1  # 21E: attack and defence alternate
    assert A.weapon_action(TANK, STEADY) not in s.legal_actions()  # 21F: the lost tank, next battle only
    fight(s, [99], (SUB, STEADY), (TANK, ALL_OUT))  # player_0 cannot pay 300 of 200
    assert s.is_terminal() and s.record == [12, 20]  # 21G: 900 left -> 1000 -> one space
    assert s.returns() == [-1.0, 1.0]  # 22


def test_rule_21f_a_lost_weapon_comes_back_after_one_battle():
    s = opening(["United States", "U.S.S.R."], max_turns=1)
    counted_to(s, [40, 40])
    s.apply(A.DONE)
    fight(s, [99, 0, 99], (TANK, STEADY), (TANK, STEADY))  # player_1 loses its tank
    assert A.weapon_action(TANK, STEADY) not in s.legal_actions() and s.current_player == 1
    fight(s, [99, 0, 99], (SUB, STEADY), (PLANE, STEADY))  # player_1 (side 1) chose first; side 0 wins again
    assert s.current_player == 0 and s.barred == [0, 1 << 1]
    assert A.weapon_action(TANK, STEADY) in s.legal_actions()


def test_rule_21b_h_the_lowest_challenges_upward_and_the_winner_goes_on():
    s = opening(["United States", "U.S.S.R.", "China"], max_turns=1)
    counted_to(s, [12, 8, 20])  # 6, 4 and 10 spaces
    s.apply(A.DONE)
    assert s.fighters == [1, 0] and s.ladder == [2]  # the lowest (player_1) challenges the next highest
    assert s.energy == [400, 600]
    fight(s, [99, 99, 0], (TANK, CAUTIOUS), (TANK, STEADY))  # player_0 wins the battle
    assert s.record[:2] == [14, 6] and s.energy == [300, 400]
    assert s.current_player == 0  # it chooses first in the second battle
    fight(s, [99, 99, 99], (SUB, CAUTIOUS), (SUB, STEADY))  # both miss; then player_1 cannot pay 250 of 50
    assert s.record[:2] == [14 + 1, 6]  # player_0's 275 left round to 500: half a space
    assert s.phase == P.WEAPON and s.fighters == [0, 2]  # the higher record goes on, against the next


def _run_out(s, loser: int) -> None:
    """One battle of the duel under way: the side `loser` fights with an all-out plane (450 an exchange),
    the other with a cautious tank (100), on open ground, every shot missing, until the plane cannot pay."""
    picks = [(PLANE, ALL_OUT), (TANK, CAUTIOUS)]
    fight(s, [99] * 41, *(picks if loser == 0 else picks[::-1]))


def test_rule_21h_an_ally_passed_over_competes_later():
    """4 players on 10 / 5 / 7 / 15 spaces, players 1 and 2 allied: player_1 challenges player_0, passing
    over its ally player_2, who then meets the winner: every player competes."""
    s = opening(["United States", "U.S.S.R.", "China", "Japan"], max_turns=1)
    ally(s, 1, 2)
    counted_to(s, [20, 10, 14, 30])
    s.apply(A.DONE)  # the turn cap: chips to the record (none), then the end game
    close_diplomacy(s)
    assert s.fighters == [1, 0] and s.ladder == [2, 3]  # player_2 keeps its place
    _run_out(s, 0)  # player_0 keeps 900 of 1000: +1 space
    close_diplomacy(s)
    assert s.record[:2] == [22, 10] and s.fighters == [0, 2] and s.ladder == [3]
    _run_out(s, 1)  # player_2's 700 cannot pay twice; player_0 keeps 1000 of 1100
    close_diplomacy(s)
    assert s.record[0] == 24 and s.fighters == [0, 3] and s.ladder == []
    _run_out(s, 1)
    assert s.is_terminal() and s.record == [26, 10, 14, 30]
    assert {f"end game: player_{a} challenges player_{d}" for a, d in ((1, 0), (0, 2), (0, 3))} <= set(s.events)


def test_rule_21h_gap_when_only_allies_are_left_the_lowest_challenges_the_nearest_other_player():
    s = opening(["United States", "U.S.S.R.", "China", "Japan"], max_turns=1)
    ally(s, 1, 2)
    counted_to(s, [8, 20, 24, 12])  # ladder: player_0, player_3, player_1, player_2
    s.apply(A.DONE)
    close_diplomacy(s)
    assert s.fighters == [0, 3]
    _run_out(s, 0)  # player_0 cannot pay a first exchange: player_3 keeps 600, half a space
    close_diplomacy(s)
    assert s.record[3] == 13 and s.fighters == [3, 1]
    _run_out(s, 0)  # player_1 keeps 900 of 1000: +1 space, and goes on with only its ally left
    close_diplomacy(s)
    assert s.record[1] == 22 and s.ladder == []
    assert s.fighters == [2, 3] and s.challenger == 2  # nobody above player_2 but its ally: the next one down
    _run_out(s, 1)
    assert s.is_terminal()


def test_rule_21b_players_tied_for_last_play_off():
    s = opening(["United States", "U.S.S.R.", "China"], max_turns=1)
    counted_to(s, [4, 8, 4])
    s.apply(A.DONE)
    assert s.fighters == [0, 2] and s.ladder == [1]


def test_rule_22_returns_are_zero_sum_by_rank_with_ties_shared():
    s = opening(["United States", "U.S.S.R.", "China"], max_turns=1, end_game=False)
    counted_to(s, [4, 4, 2])
    s.apply(A.DONE)
    assert s.returns() == [0.5, 0.5, -1.0]


def test_rule_22_eliminated_players_rank_below_the_living_last_out_highest():
    s = opening(["United States", "U.S.S.R.", "China", "Japan"], max_turns=1, end_game=False)
    s.alive[0] = s.alive[3] = False
    s.eliminated = [3, 0]
    for p in (0, 3):
        s.holder[s.homeland[p]], s.kind[s.homeland[p]], s.homeland[p] = -1, T.NONE, -1
    s.record = [50, 0, 0, 50]  # the eliminated keep the record they had
    s.option = 1
    counted_to(s, [50, 2, 4, 50]).apply(A.DONE)
    assert s.returns() == pytest.approx([-1 / 3, 1 / 3, 1.0, -1.0])


def test_variant_1_the_turn_cap_ends_play():
    s = opening(["United States", "U.S.S.R.", "China"], max_turns=3, end_game=False)
    for _ in range(3):
        close_diplomacy(s)
        s.apply(A.DONE)
    assert s.is_terminal()


def test_variant_2_the_target_record_wins_at_once():
    s = opening(["U.S.S.R.", "United States"], [[], ["Canada", "Mexico"]], target_record=7)
    s.apply(A.BUY + c("Bangladesh"))
    assert s.is_terminal() and s.returns() == [-1.0, 1.0]


def test_the_shaping_potential_is_what_rule_20c_would_record_now_relative_to_the_table():
    s = opening(["United States", "U.S.S.R.", "China"], end_game=False)
    s.record, s.chips = [10, 4, 4], [0, 1000, 0]
    values = s.potentials()
    assert sum(values) == pytest.approx(0.0)
    assert values == pytest.approx([(10 - 20 / 3) / 20, (6 - 20 / 3) / 20, (4 - 20 / 3) / 20])
    s.alive[2] = False
    assert s.potentials()[2] < s.potentials()[1], "an eliminated player counts nothing"
