"""Rules 1-9 of the book: start up, order of play, homelands, in-zone alliances and their record, half
values, the zone domination bonus, the last chooser's first turn, buying alliances. Every worked
example of these rules is a test here."""

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world import phases as P
from ultimata.envs.conquest_of_the_world import terms as T
from ultimata.envs.conquest_of_the_world.text import record_text

from .positions import attacker_wins, c, edited, hold, new_state, opening


def test_rule_1_players_start_with_no_chips_and_an_empty_record():
    s = new_state(4)
    assert s.chips == [0, 0, 0, 0] and s.record == [0, 0, 0, 0] and all(h < 0 for h in s.holder)


def test_rule_2_the_first_player_is_a_seeded_draw_and_homelands_go_clockwise():
    s = new_state(3, first=2)
    assert s.first == 2 and s.current_player == 2
    s.apply(A.PICK + c("China"))
    assert s.current_player == 0
    s.apply(A.PICK + c("United States"))
    assert s.current_player == 1
    from ultimata.envs.conquest_of_the_world.game import ConquestGame
    from ultimata.envs.core.rng import Rng

    game = ConquestGame.from_config({"num_players": 4})
    assert {game.new_initial_state(Rng(seed)).first for seed in range(40)} == {0, 1, 2, 3}


def test_rule_3_any_unoccupied_country_may_be_a_homeland_even_in_a_taken_zone():
    s = new_state(2)
    s.apply(A.PICK + c("United States"))
    legal = s.legal_actions()
    assert A.PICK + c("United States") not in legal
    assert A.PICK + c("Canada") in legal and A.PICK + c("U.S.S.R.") in legal
    s.apply(A.PICK + c("Canada"))
    assert s.homeland == [c("United States"), c("Canada")] and s.kind[c("Canada")] == T.HOME


def test_rule_3_option_one_homeland_per_zone():
    s = new_state(2, one_homeland_per_zone=True)
    s.apply(A.PICK + c("United States"))
    assert A.PICK + c("Canada") not in s.legal_actions() and A.PICK + c("U.S.S.R.") in s.legal_actions()


def test_rule_4_5_7_example_1_the_us_allies_with_canada_and_mexico_records_6_and_gets_2000():
    s = new_state(2)
    s.apply(A.PICK + c("United States"))
    s.apply(A.PICK + c("U.S.S.R."))
    assert A.PICK + c("Canada") in s.legal_actions() and A.PICK + c("Mexico") in s.legal_actions()
    s.apply(A.PICK + c("Canada"))
    assert s.record[0] == 7 and s.chips[0] == 0  # 7 / 2 = 3.5: no bonus before the zone is full
    s.apply(A.PICK + c("Mexico"))
    assert s.record[0] == 12 and record_text(s.record[0]) == "6"  # (7 + 5) / 2 = 6
    assert s.chips[0] == 2000  # rule 7: 1000 for each country of the zone except the homeland
    assert s.kind[c("Canada")] == s.kind[c("Mexico")] == T.ALLY


def test_rule_4_5_example_2_west_germany_allies_with_spain_italy_greece_and_records_5():
    s = new_state(2)
    s.apply(A.PICK + c("West Germany"))
    s.apply(A.PICK + c("United States"))
    for name in ("Spain", "Italy", "Greece"):
        assert A.PICK + c(name) in s.legal_actions()
        s.apply(A.PICK + c(name))
    assert s.legal_actions() == [A.DONE]  # 4 + 5 + 1 = 10: nothing more fits West Germany's 10
    assert s.record[0] == 10 and record_text(s.record[0]) == "5"  # 10 / 2 = 5
    assert s.chips[0] == 0  # France, the United Kingdom and Norway are not held: no bonus


def test_rule_4a_in_zone_alliances_never_exceed_the_homelands_value():
    s = new_state(2)
    s.apply(A.PICK + c("West Germany"))
    s.apply(A.PICK + c("United States"))
    s.apply(A.PICK + c("France"))  # 8 of 10
    legal = s.legal_actions()
    assert A.PICK + c("Greece") in legal and A.PICK + c("Norway") in legal  # 1 and 2 fit
    assert A.PICK + c("Spain") not in legal and A.PICK + c("Italy") not in legal  # 4 and 5 do not
    assert A.PICK + c("Canada") not in legal  # only the home zone (4A)


def test_rule_6_half_values_are_half_spaces_9_over_2_is_4_5():
    s = new_state(2)
    s.apply(A.PICK + c("West Germany"))
    s.apply(A.PICK + c("United States"))
    s.apply(A.PICK + c("Spain"))
    s.apply(A.PICK + c("Italy"))
    assert s.record[0] == 9 and record_text(s.record[0]) == "4.5"  # (4 + 5) / 2 = 4.5


def test_rule_7_a_zone_without_the_homeland_pays_for_every_country():
    s = opening(["United States", "U.S.S.R."])
    hold(s, 0, ["Philippines"], T.ALLY)
    s.chips[1] = 0
    s.option = 0
    s._gain(0, c("Indonesia"), T.CONQUEST)
    assert s.chips[0] == 2000  # zone 7: Philippines and Indonesia, no homeland there


def test_rule_7_the_bonus_is_paid_once_per_zone_by_default_and_again_with_the_option():
    for once, expected in ((True, 2000), (False, 4000)):
        s = opening(["United States", "U.S.S.R."], [["Canada", "Mexico"], []], zone_bonus_once=once)
        assert s.chips[0] == 2000
        s._lose(0, c("Canada"))
        s.record[0] += 7  # undo the half value _lose took, to keep the test about chips
        s._gain(0, c("Canada"), T.ALLY)
        assert s.chips[0] == expected


def test_rule_7_a_zone_already_held_is_not_paid_again_when_another_zone_changes():
    s = opening(["United States", "U.S.S.R.", "China"], [["Canada", "Mexico"], [], []], zone_bonus_once=False)
    assert s.chips[0] == 2000
    s._gain(0, c("Australia"), T.ALLY)
    assert s.chips[0] == 3000  # zone 11 only: zone 1 stays paid while it stays held


def test_rule_8_the_last_chooser_holds_the_first_attack_option():
    s = opening(["United States", "U.S.S.R.", "China"], first=1)  # player_1 US, player_2 USSR, player_0 China
    assert s.option == 0 and s.phase == P.TURN and s.turn == 1


def test_rule_8b_the_first_turn_attacks_only_unoccupied_countries():
    s = opening(["United States", "U.S.S.R."], [["Canada", "Mexico"], []])
    s.chips[1] = 50_000
    edited(s)
    legal = s.legal_actions()
    assert A.ATTACK + c("Brazil") in legal and A.ATTACK + c("Canada") not in legal
    s.apply(A.DONE)
    s.apply(A.DONE)
    assert s.turn == 3 and s.option == 1
    assert A.ATTACK + c("Canada") in s.legal_actions()  # rule 15 from the second turn on


def test_rule_9_the_us_buys_bangladesh_for_1000_and_advances_one_space():
    s = opening(["U.S.S.R.", "United States"], [[], ["Canada", "Mexico"]])
    assert s.option == 1 and s.chips[1] == 2000  # the zone bonus of rule 7's example
    s.apply(A.BUY + c("Bangladesh"))
    assert s.chips[1] == 1000 and s.record[1] == 12 + 2  # 6 + 1 space (2 / 2)
    assert s.holder[c("Bangladesh")] == 1 and s.kind[c("Bangladesh")] == T.ALLY


def test_rule_9a_one_alliance_per_turn_and_only_with_enough_chips():
    s = opening(["U.S.S.R.", "United States"], [[], ["Canada", "Mexico"]])
    legal = s.legal_actions()
    assert A.BUY + c("Japan") not in legal  # 5000 > 2000
    assert A.BUY + c("Indonesia") not in legal and A.BUY + c("Iraq") in legal  # 3000 > 2000 >= 1500
    s.apply(A.BUY + c("Bangladesh"))
    assert not any(A.BUY <= a < A.ATTACK for a in s.legal_actions())


def test_rule_9a_not_in_another_players_home_zone():
    s = opening(["U.S.S.R.", "United States"], [[], ["Canada"]])
    s.chips[1] = 3000
    legal = edited(s).legal_actions()
    assert A.BUY + c("Poland") not in legal  # the U.S.S.R.'s home zone
    assert A.BUY + c("Mexico") in legal and A.BUY + c("Afghanistan") in legal  # its own zone; a free zone


def test_rule_13d_each_won_war_adds_a_right_to_buy():
    s = opening(["U.S.S.R.", "United States"], [[], ["Canada", "Mexico"]])
    s.apply(A.ATTACK + c("Brazil"))
    attacker_wins(s)
    assert s.buys == 2 and s.chips[1] == 2000 + 2000
    s.apply(A.BUY + c("Bangladesh"))
    s.apply(A.BUY + c("Afghanistan"))
    assert s.buys == 0 and not any(A.BUY <= a < A.ATTACK for a in s.legal_actions())
