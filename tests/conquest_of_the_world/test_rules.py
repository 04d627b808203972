"""One test per rule of the book (rule numbers in the names' docstrings), with its worked examples and
the battle dice forced. Weapons: 0 tank, 1 submarine, 2 plane; spends: 0 cautious, 1 steady, 2 all-out."""

import pytest

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world import state as S
from ultimata.envs.conquest_of_the_world.board import parse_board
from ultimata.envs.conquest_of_the_world.state import round_to
from ultimata.envs.conquest_of_the_world.text import record_text
from ultimata.envs.core.errors import ConfigError

from .position import B, c, fight, new_state, opening

TANK, SUB, PLANE = 0, 1, 2
CAUTIOUS, STEADY, ALL_OUT = 0, 1, 2
BOOK = {
    1: {"Canada": 7, "United States": 30, "Mexico": 5},
    2: {"Romania": 2, "Poland": 3, "U.S.S.R.": 30, "Czechoslovakia": 1, "East Germany": 2, "Cuba": 1},
    3: {"Vietnam": 3, "China": 13, "North Korea": 2},
    4: {"Greece": 1, "Italy": 5, "West Germany": 10, "Spain": 4, "France": 8, "United Kingdom": 8, "Norway": 2},
    5: {"Iran": 5, "Saudi Arabia": 4, "Iraq": 3, "Syria": 1, "Jordan": 1, "Israel": 3, "Egypt": 5, "Libya": 3},
    6: {"Afghanistan": 2, "Pakistan": 4, "India": 6, "Bangladesh": 2},
    7: {"Philippines": 3, "Indonesia": 6},
    8: {"Taiwan": 3, "Japan": 10, "South Korea": 3},
    9: {"Venezuela": 2, "Columbia": 3, "Brazil": 6, "Argentina": 5},
    10: {"South Africa": 4, "Nigeria": 5},
    11: {"Australia": 4},
}


def test_board_has_the_books_43_countries_in_11_zones_with_each_value():
    assert B.size == 43 and len(B.zone_members) == 11
    for zone, countries in BOOK.items():
        assert [B.names[i] for i in B.zone_members[zone - 1]] == list(countries)
        for name, value in countries.items():
            assert B.value[c(name)] == value and B.zone[c(name)] == zone - 1


def test_neighbours_are_symmetric_and_every_country_has_one():
    for i, near in enumerate(B.neighbours):
        assert near and all(i in B.neighbours[j] for j in near)
    assert set(B.neighbours[c("United States")]) == {c("Canada"), c("Mexico"), c("Cuba"), c("U.S.S.R.")}


def test_board_validator_names_the_file_entry_and_field():
    raw = {"zones": {k: dict(v) for k, v in BOOK.items()}, "neighbours": {"Canada": ["Atlantis"]}}
    with pytest.raises(ConfigError, match="board.yaml: entry 'neighbours', field 'Canada'"):
        parse_board(raw)
    raw["zones"][1]["Canada"] = 0
    with pytest.raises(ConfigError, match="entry 'zone 1', field 'Canada'"):
        parse_board(raw)
    del raw["zones"][11]
    with pytest.raises(ConfigError, match="zones must be numbered"):
        parse_board(raw)


def test_rule_2_start_order_is_a_seeded_draw_and_homelands_go_clockwise():
    s = new_state(3, first=2)
    assert s.first == 2 and s.current_player == 2
    s.apply(A.PICK + c("China"))
    assert s.current_player == 0
    s.apply(A.PICK + c("United States"))
    assert s.current_player == 1


def test_rule_3_one_homeland_per_country_and_per_zone():
    s = new_state(2)
    s.apply(A.PICK + c("United States"))
    legal = s.legal_actions()
    assert A.PICK + c("United States") not in legal and A.PICK + c("Canada") not in legal
    assert A.PICK + c("U.S.S.R.") in legal


def test_rule_4_5_7_us_allied_with_canada_and_mexico_records_6_and_gets_a_2000_bonus():
    s = opening(["United States", "U.S.S.R."], [["Canada", "Mexico"], []])
    assert s.record[0] == 12 and record_text(s.record[0]) == "6"
    assert s.chips[0] == 2000 and s.kind[c("Canada")] == S.ALLY


def test_rule_4_5_west_germany_with_spain_italy_greece_records_5_and_no_more_room():
    s = new_state(2)
    s.apply(A.PICK + c("West Germany"))
    s.apply(A.PICK + c("United States"))
    for name in ("Spain", "Italy", "Greece"):
        assert A.PICK + c(name) in s.legal_actions()
        s.apply(A.PICK + c(name))
    assert s.legal_actions() == [A.DONE]  # France (8) and the rest exceed West Germany's 10
    assert s.record[0] == 10 and record_text(s.record[0]) == "5"


def test_rule_6_half_values_are_half_spaces():
    s = opening(["U.S.S.R.", "United States"], [["Poland", "Romania", "Czechoslovakia", "Cuba", "East Germany"], []])
    assert s.record[0] == 9 and record_text(s.record[0]) == "4.5"  # 9 / 2 = 4.5
    assert s.chips[0] == 5000  # zone 2 dominated: 5 countries besides the homeland


def test_rule_8_9_the_last_chooser_buys_bangladesh_for_1000_and_advances_one_space():
    s = opening(["U.S.S.R.", "United States"], [[], ["Canada", "Mexico"]])
    assert s.option == 1 and s.chips[1] == 2000
    s.apply(A.BUY + c("Bangladesh"))
    assert s.chips[1] == 1000 and s.record[1] == 12 + 2 and s.kind[c("Bangladesh")] == S.ALLY
    assert not any(A.BUY <= a < A.ATTACK for a in s.legal_actions())  # one alliance per turn


def test_rule_9_no_alliance_in_another_players_home_zone():
    s = opening(["U.S.S.R.", "United States"], [[], ["Canada", "Mexico"]])
    assert A.BUY + c("Poland") not in s.legal_actions() and A.BUY + c("Afghanistan") in s.legal_actions()


def test_rule_13a_1355_energy_left_becomes_1400_chips():
    assert round_to(1355, 100) == 1400
    s = opening(["United States", "U.S.S.R."], war_energy=1955)
    assert s.option == 1
    s.apply(A.ATTACK + c("Brazil"))
    assert s.fighters == [1, 0]  # rule 11A: the defender is the attacker's left
    # battle 1: open ground (99), the attacker hits (0 < 45), the defender misses; battle 2 likewise
    fight(s, [99, 0, 99, 99, 0, 99], (TANK, ALL_OUT), (TANK, ALL_OUT), (SUB, CAUTIOUS), (PLANE, STEADY))
    assert s.chips[1] == 1400  # the defender kept 1955 - 300 - 300 = 1355
    assert s.holder[c("Brazil")] == 1 and s.kind[c("Brazil")] == S.CONQUEST and s.record[1] == 12
    assert s.phase == S.TURN and s.option == 1 and s.buy_right  # rules 13D, 13E


def test_rule_12f_a_destroyed_weapon_is_barred_for_the_war():
    s = opening(["United States", "U.S.S.R."])
    s.apply(A.ATTACK + c("Brazil"))
    fight(s, [99, 0, 99], (TANK, STEADY), (PLANE, STEADY))
    s.apply(A.weapon_action(SUB, STEADY))
    assert A.weapon_action(PLANE, CAUTIOUS) not in s.legal_actions()
    assert A.weapon_action(TANK, CAUTIOUS) in s.legal_actions()


def test_rule_12bc_mutual_kill_is_a_tie_and_one_win_each_goes_to_the_energy_left():
    s = opening(["United States", "U.S.S.R."])
    s.apply(A.ATTACK + c("Brazil"))
    fight(s, [99, 0, 99], (TANK, CAUTIOUS), (TANK, ALL_OUT))
    fight(s, [99, 99, 0], (SUB, CAUTIOUS), (PLANE, ALL_OUT))
    assert s.wins == [1, 1]
    fight(s, [99, 0, 0], (TANK, CAUTIOUS), (SUB, ALL_OUT))
    # attacker 2500-100-125-100 = 2175 left, defender 2500-300-450-375 = 1375: the attacker wins
    assert s.holder[c("Brazil")] == 1 and s.chips[1] == 1400


def test_rule_12g_running_out_of_energy_loses_the_war_and_rule_14_the_defender_gets_an_ally():
    s = opening(["United States", "U.S.S.R."], war_energy=200)
    s.apply(A.ATTACK + c("Indonesia"))
    fight(s, [99], (PLANE, ALL_OUT), (TANK, CAUTIOUS))  # 450 > 200: the attacker cannot pay
    assert s.holder[c("Indonesia")] == 0 and s.kind[c("Indonesia")] == S.ALLY and s.record[0] == 6
    assert s.chips[0] == 200
    assert s.phase == S.TURN and s.option == 0  # rule 14D: the option passes to the loser's left


def test_rule_13e_the_winner_attacks_on_and_the_defence_passes_left():
    s = opening(["China", "United States", "U.S.S.R."], first=2)  # p2 China, p0 US, p1 USSR
    assert s.option == 1
    s.apply(A.ATTACK + c("Brazil"))
    assert s.fighters == [1, 2]
    fight(s, [99, 0, 99, 99, 0, 99], (TANK, STEADY), (TANK, STEADY), (SUB, STEADY), (PLANE, STEADY))
    s.apply(A.ATTACK + c("Argentina"))
    assert s.fighters == [1, 0]
    fight(s, [99, 0, 99, 99, 0, 99], (TANK, STEADY), (TANK, STEADY), (SUB, STEADY), (PLANE, STEADY))
    s.apply(A.ATTACK + c("Columbia"))
    assert s.fighters == [1, 2]  # the attacker itself is skipped


def test_rule_15_16_attacking_an_ally_costs_its_value_and_the_loser_drops_half():
    s = opening(["United States", "U.S.S.R."], [["Canada", "Mexico"], []])
    assert A.ATTACK + c("Canada") not in s.legal_actions()  # no chips yet
    s.chips[1] = 7000
    s._mask = None
    s.apply(A.ATTACK + c("Canada"))
    assert s.chips[1] == 0 and s.fighters == [1, 0]
    fight(s, [99, 0, 99, 99, 0, 99], (TANK, STEADY), (TANK, STEADY), (SUB, STEADY), (PLANE, STEADY))
    assert s.holder[c("Canada")] == 1 and s.kind[c("Canada")] == S.CONQUEST
    assert s.record == [12 - 7, 14] and s.chips[1] == 2500 - 200 - 300  # no refund of the 7000


def test_rule_16c_a_lost_conquest_drops_the_full_value_and_rule_17_the_defender_keeps_it():
    s = opening(["United States", "U.S.S.R."])
    s.holder[c("Brazil")], s.kind[c("Brazil")], s.record[0] = 0, S.CONQUEST, 12
    s.chips[1], s._mask = 12000, None
    s.apply(A.ATTACK + c("Brazil"))
    fight(s, [99, 99, 0, 99, 99, 0], (TANK, STEADY), (TANK, STEADY), (SUB, STEADY), (TANK, STEADY))
    assert s.holder[c("Brazil")] == 0 and s.option == 0 and s.chips[0] == 2100  # defender keeps it
    s.option, s.phase = 1, S.TURN
    s.apply(A.ATTACK + c("Brazil"))
    fight(s, [99, 0, 99, 99, 0, 99], (TANK, STEADY), (TANK, STEADY), (SUB, STEADY), (PLANE, STEADY))
    assert s.record[0] == 0 and s.holder[c("Brazil")] == 1


def _besiege_us(s) -> None:
    """Give player_1 the United States' neighbours as conquests and the chips to attack."""
    for name in ("Canada", "Mexico", "Cuba"):
        s.holder[c(name)], s.kind[c(name)] = 1, S.CONQUEST
        s.record[1] += 2 * B.value[c(name)]
    s.chips[1] = 30000
    s._mask = None


def test_rule_19_a_homeland_needs_its_neighbours_conquered_then_its_fall_eliminates():
    s = opening(["China", "United States", "U.S.S.R."], first=2)
    s.holder[c("Brazil")], s.kind[c("Brazil")], s.record[0] = 0, S.ALLY, 6
    s.holder[c("Argentina")], s.kind[c("Argentina")], s.record[0] = 0, S.CONQUEST, 16
    s.chips[0] = 3000
    _besiege_us(s)
    s.holder[c("Cuba")], s.kind[c("Cuba")] = 1, S.ALLY
    s._mask = None
    assert A.ATTACK + c("United States") not in s.legal_actions()  # Cuba is only allied
    s.kind[c("Cuba")] = S.CONQUEST
    s._mask = None
    assert A.ATTACK + c("United States") in s.legal_actions()
    before = s.record[1]
    s.apply(A.ATTACK + c("United States"))
    fight(s, [99, 0, 99, 99, 0, 99], (TANK, STEADY), (TANK, STEADY), (SUB, STEADY), (PLANE, STEADY))
    assert not s.alive[0] and s.eliminated == [0]
    assert s.holder[c("United States")] == 1 and s.holder[c("Argentina")] == 1
    assert s.holder[c("Brazil")] == -1  # allies return to unoccupied
    assert s.record[1] == before + 2 * 30 + 2 * 5
    assert s.chips[1] == 3000 + 2000 + 1000 * 3  # booty + the prize + zone 1's bonus (none is its homeland)


def test_rule_18_player_alliances_propose_accept_pool_share_and_break_for_good():
    s = opening(["China", "United States", "U.S.S.R."], first=2)
    assert s.option == 1
    s.apply(A.PROPOSE + 1)  # to player_2
    assert s.phase == S.RESPOND and s.current_player == 2 and s.legal_actions() == [A.ACCEPT, A.DECLINE]
    s.apply(A.ACCEPT)
    assert s.allied[1][2] and s.current_player == 1
    assert A.ATTACK + c("Vietnam") in s.legal_actions()
    s.chips[2], s._mask = 3000, None
    s.apply(A.BUY + c("Brazil"))  # pooled chips
    assert s.chips[2] == 0 and s.holder[c("Brazil")] == 1
    s.apply(A.ATTACK + c("Argentina"))
    assert s.fighters == [1, 0]  # the ally does not defend against its ally
    fight(s, [99, 0, 99, 99, 0, 99], (TANK, STEADY), (TANK, STEADY), (SUB, STEADY), (SUB, STEADY))
    assert s.chips[1] == 1100 and s.chips[2] == 1000  # 2050 -> 2100 shared in hundreds, the odd 100 to the victor
    s.apply(A.BREAK + 1)
    assert not s.allied[1][2] and s.broken[2][1] and A.PROPOSE + 1 not in s.legal_actions()


def test_rule_18_a_declined_proposal_is_not_repeated_in_the_turn():
    s = opening(["China", "United States", "U.S.S.R."], first=2)
    s.apply(A.PROPOSE + 2)
    s.apply(A.DECLINE)
    assert not s.allied[1][0] and A.PROPOSE + 2 not in s.legal_actions()


def test_rule_18_no_player_alliances_with_two_players():
    s = opening(["United States", "U.S.S.R."])
    assert not any(A.PROPOSE <= a < A.ACCEPT for a in s.legal_actions())


def _fill_board(s, owner: int) -> None:
    for i in range(B.size):
        if s.holder[i] < 0:
            s.holder[i], s.kind[i] = owner, S.ALLY
    s._mask = None


def test_rule_20_the_filled_board_gives_each_one_last_attack_then_chips_go_to_the_record():
    s = opening(["United States", "U.S.S.R."], end_game=False)
    _fill_board(s, 0)
    s.chips, s.record = [1250, 1249], [0, 0]
    s.apply(A.DONE)
    assert s.stage == S.FINAL and s.option == 0
    assert not any(A.BUY <= a < A.ATTACK for a in s.legal_actions())
    s.apply(A.DONE)
    assert s.option == 1
    s.apply(A.DONE)
    assert s.is_terminal() and s.record == [3, 2] and s.chips == [0, 0]  # nearest 500: 1500, 1000


def test_rule_21_the_end_game_ladder():
    s = opening(["United States", "U.S.S.R."], max_turns=1)
    s.record = [10, 20]
    s.apply(A.DONE)  # the turn cap: chips to record, then the end game
    assert s.stage == S.LADDER and s.fighters == [0, 1] and s.energy == [500, 1000]  # record x 100
    fight(s, [99, 0, 99], (TANK, ALL_OUT), (TANK, CAUTIOUS))
    assert s.record == [12, 18] and s.energy == [200, 900]
    assert s.current_player == 1  # rule 21E: attack and defence alternate
    assert A.weapon_action(TANK, STEADY) not in s.legal_actions()  # rule 21F
    fight(s, [99], (SUB, STEADY), (TANK, ALL_OUT))  # player_0 cannot pay 300 of 200
    assert s.is_terminal() and s.record == [12, 20]  # 900 left -> 1000 -> one space
    assert s.returns() == [-1.0, 1.0]


def test_variant_2_the_target_record_wins_at_once():
    s = opening(["U.S.S.R.", "United States"], [[], ["Canada", "Mexico"]], target_record=7)
    s.apply(A.BUY + c("Bangladesh"))
    assert s.is_terminal() and s.returns() == [-1.0, 1.0]


def test_variant_1_the_turn_cap_ends_play():
    s = opening(["United States", "U.S.S.R.", "China"], max_turns=3, end_game=False)
    for _ in range(3):
        s.apply(A.DONE)
    assert s.is_terminal()


def test_returns_are_zero_sum_by_rank_with_ties_shared():
    s = opening(["United States", "U.S.S.R.", "China"], max_turns=1, end_game=False)
    s.record = [4, 4, 2]
    s.apply(A.DONE)
    assert s.returns() == [0.5, 0.5, -1.0]
