"""Rules 10-17 and 19 of the book: wars on unoccupied and occupied countries, the best of three battles,
energy prizes, conquests and alliances won, homelands and their booty. Battles are forced with
ScriptedRng: per battle one draw for the woods (99 = open ground), then per exchange one draw per side,
side 0 (the attacking side) first, a hit when the draw is below the hit chance."""


from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world import phases as P
from ultimata.envs.conquest_of_the_world import terms as T
from ultimata.envs.conquest_of_the_world.terms import round_to

from .positions import (
    ALL_OUT,
    CAUTIOUS,
    PLANE,
    STEADY,
    SUB,
    TANK,
    B,
    ally,
    attacker_wins,
    c,
    close_diplomacy,
    defender_wins,
    edited,
    fight,
    hold,
    opening,
)


def test_rule_10a_any_unoccupied_country_may_be_attacked_for_free_wherever_it_lies():
    s = opening(["United States", "U.S.S.R."])
    free = [i for i in range(B.size) if s.holder[i] < 0]
    assert [a - A.ATTACK for a in s.legal_actions() if A.ATTACK <= a < A.WEAPON] == free
    s.apply(A.ATTACK + c("Australia"))
    assert s.chips == [0, 0] and s.phase == P.WEAPON and s.target == c("Australia")


def test_rule_10b_11b_both_sides_get_2500_energy_for_the_whole_war():
    s = opening(["United States", "U.S.S.R."])
    s.apply(A.ATTACK + c("Brazil"))
    assert s.energy == [2500, 2500]
    fight(s, [99, 0, 99], (TANK, ALL_OUT), (PLANE, CAUTIOUS))
    assert s.energy == [2500 - 300, 2500 - 150]  # the energy carries over into the next battle


def test_rule_11a_the_defender_is_the_attackers_left():
    s = opening(["China", "United States", "U.S.S.R."], first=2)  # p2 China, p0 US, p1 USSR
    assert s.option == 1
    s.apply(A.ATTACK + c("Brazil"))
    assert s.fighters == [1, 2] and s.current_player == 1  # the attacker chooses first


def test_rule_12a_the_first_to_win_two_battles_wins_the_war():
    s = opening(["United States", "U.S.S.R."])
    s.apply(A.ATTACK + c("Brazil"))
    fight(s, [99, 0, 99], (TANK, STEADY), (TANK, STEADY))
    assert s.wins == [1, 0] and s.phase == P.WEAPON
    fight(s, [99, 0, 99], (SUB, STEADY), (PLANE, STEADY))
    assert s.holder[c("Brazil")] == 1 and s.phase == P.TURN


def test_rule_12b_c_a_mutual_kill_is_a_tie_and_one_win_each_goes_to_the_energy_left():
    s = opening(["United States", "U.S.S.R."])
    s.apply(A.ATTACK + c("Brazil"))
    fight(s, [99, 0, 99], (TANK, CAUTIOUS), (TANK, ALL_OUT))
    fight(s, [99, 99, 0], (SUB, CAUTIOUS), (PLANE, ALL_OUT))
    assert s.wins == [1, 1]
    fight(s, [99, 0, 0], (TANK, CAUTIOUS), (SUB, ALL_OUT))  # both destroyed
    # attacker 2500 - 100 - 125 - 100 = 2175 left, defender 2500 - 300 - 450 - 375 = 1375
    assert s.holder[c("Brazil")] == 1 and s.chips[1] == 1400


def test_rule_12c_gap_equal_energy_after_three_battles_goes_to_the_defender():
    s = opening(["United States", "U.S.S.R."])
    s.apply(A.ATTACK + c("Brazil"))
    fight(s, [99, 0, 0], (TANK, STEADY), (TANK, STEADY))  # tie: both tanks barred
    fight(s, [99, 0, 0], (SUB, STEADY), (SUB, STEADY))  # tie
    fight(s, [99, 0, 0], (PLANE, STEADY), (PLANE, STEADY))  # tie, energy 1750 each
    assert s.holder[c("Brazil")] == 0 and s.kind[c("Brazil")] == T.ALLY and s.chips[0] == 1800


def test_rule_12_one_win_and_two_ties_wins_the_war():
    s = opening(["United States", "U.S.S.R."])
    s.apply(A.ATTACK + c("Brazil"))
    fight(s, [99, 0, 0], (TANK, STEADY), (TANK, STEADY))
    fight(s, [99, 0, 0], (SUB, STEADY), (SUB, STEADY))
    fight(s, [99, 99, 0], (PLANE, ALL_OUT), (PLANE, CAUTIOUS))  # the defender wins the third
    assert s.holder[c("Brazil")] == 0 and s.kind[c("Brazil")] == T.ALLY


def test_rule_12f_a_destroyed_weapon_is_barred_for_the_rest_of_the_war():
    s = opening(["United States", "U.S.S.R."])
    s.apply(A.ATTACK + c("Brazil"))
    fight(s, [99, 0, 99], (TANK, STEADY), (PLANE, STEADY))  # the defender's plane is destroyed
    assert s.legal_actions() == [A.weapon_action(w, k) for w in range(3) for k in range(3)]
    s.apply(A.weapon_action(SUB, STEADY))
    assert A.weapon_action(PLANE, CAUTIOUS) not in s.legal_actions()
    assert A.weapon_action(TANK, CAUTIOUS) in s.legal_actions()
    fight(s, [99, 99, 0], (TANK, STEADY))  # the attacker's sub is destroyed; the defender's plane stays barred
    assert s.barred == [1 << SUB, 1 << PLANE]


def test_rule_12g_running_out_of_energy_loses_the_war_and_rule_14_the_defender_gets_an_ally():
    s = opening(["United States", "U.S.S.R."], war_energy=200)
    s.apply(A.ATTACK + c("Indonesia"))
    fight(s, [99], (PLANE, ALL_OUT), (TANK, CAUTIOUS))  # 450 > 200: the attacker cannot pay
    assert s.holder[c("Indonesia")] == 0 and s.kind[c("Indonesia")] == T.ALLY  # rule 14B
    assert s.record[0] == 6  # rule 14C: half of 6
    assert s.chips[0] == 200  # rule 14A: the attacker's 200 left
    assert s.phase == P.TURN and s.option == 0  # rule 14D: the option passes to the loser's left


def test_rule_13a_example_1355_energy_left_becomes_1400_chips():
    assert round_to(1355, 100) == 1400 and round_to(1349, 100) == 1300 and round_to(1350, 100) == 1400
    s = opening(["United States", "U.S.S.R."], war_energy=1955)
    assert s.option == 1
    s.apply(A.ATTACK + c("Brazil"))
    assert s.fighters == [1, 0]
    fight(s, [99, 0, 99, 99, 0, 99], (TANK, ALL_OUT), (TANK, ALL_OUT), (SUB, CAUTIOUS), (PLANE, STEADY))
    assert s.chips[1] == 1400  # the defender kept 1955 - 300 - 300 = 1355 on the screen


def test_rule_13bcde_the_winner_conquers_may_buy_and_attacks_on_with_the_defence_passing_left():
    s = opening(["China", "United States", "U.S.S.R."], first=2)  # p2 China, p0 US, p1 USSR
    s.apply(A.ATTACK + c("Brazil"))
    assert s.fighters == [1, 2]
    attacker_wins(s)
    assert s.holder[c("Brazil")] == 1 and s.kind[c("Brazil")] == T.CONQUEST and s.record[1] == 12  # full value
    assert s.option == 1 and s.buys == 2 and s.chips[1] == 2000
    close_diplomacy(s)  # 18: the windows before the attacker's next move
    s.apply(A.ATTACK + c("Argentina"))
    assert s.fighters == [1, 0]  # the left of the last defender
    attacker_wins(s)
    close_diplomacy(s)
    s.apply(A.ATTACK + c("Columbia"))
    assert s.fighters == [1, 2]  # the attacker itself is skipped


def test_rule_13e_only_defenders_of_unoccupied_countries_move_the_defence_on():
    """"The next defender is the first player to the left of the first defender. If the attacking player
    keeps winning, the defense of the unoccupied country will always pass to the left of the last
    defending player": ours, the last player who defended an unoccupied country; the holder who defends
    its own country in between (15B) is not taking a turn at that defence and does not move it."""
    s = opening(["China", "United States", "West Germany", "Japan"], first=3)  # option: player_2
    hold(s, 1, ["Spain"], T.ALLY)
    s.chips[2], s.turn = 4000, 2
    edited(s).apply(A.ATTACK + c("Brazil"))
    assert s.fighters == [2, 3]
    attacker_wins(s)
    close_diplomacy(s)
    s.apply(A.ATTACK + c("Spain"))
    assert s.fighters == [2, 1]  # 15B: the holder defends
    attacker_wins(s)
    close_diplomacy(s)
    s.apply(A.ATTACK + c("Argentina"))
    assert s.fighters == [2, 0]  # left of player_3, the last defender of an unoccupied country (not of player_1)


def test_rule_13_the_attackers_own_leftover_energy_is_lost():
    s = opening(["United States", "U.S.S.R."])
    s.apply(A.ATTACK + c("Brazil"))
    attacker_wins(s)
    assert s.chips == [0, 2000]  # only the defender's 2000 left is paid, to the winner


def test_rule_14d_after_a_lost_war_the_defence_starts_left_of_the_new_attacker():
    s = opening(["China", "United States", "U.S.S.R."], first=2)
    s.apply(A.ATTACK + c("Brazil"))  # player_1 attacks, player_2 defends
    defender_wins(s)
    assert s.holder[c("Brazil")] == 2 and s.option == 2
    close_diplomacy(s)
    s.apply(A.ATTACK + c("Argentina"))
    assert s.fighters == [2, 0]


def test_rule_15_16_attacking_an_ally_costs_its_value_and_the_loser_drops_half():
    s = opening(["United States", "U.S.S.R."], [["Canada", "Mexico"], []])
    s.apply(A.DONE)
    s.apply(A.DONE)
    assert s.option == 1 and s.turn == 3
    assert A.ATTACK + c("Canada") not in s.legal_actions()  # rule 15A: 7000 needed, none held
    s.chips[1] = 7000
    edited(s).apply(A.ATTACK + c("Canada"))
    assert s.chips[1] == 0 and s.fighters == [1, 0]  # rule 15B: the holder defends
    attacker_wins(s)
    assert s.holder[c("Canada")] == 1 and s.kind[c("Canada")] == T.CONQUEST  # 16A
    assert s.record == [12 - 7, 14]  # 16B full value to the victor, 16C half from the loser
    assert s.chips[1] == 2000  # 16D: the prize, no refund of the 7000
    assert s.buys == 2  # 16E: one more to the turn's own (9A)


def test_rule_16c_17_a_lost_conquest_drops_the_full_value_and_a_defender_keeps_its_country():
    s = opening(["United States", "U.S.S.R."])
    hold(s, 0, ["Brazil"], T.CONQUEST)
    s.turn, s.chips[1] = 2, 12000
    edited(s).apply(A.ATTACK + c("Brazil"))
    defender_wins(s)
    assert s.holder[c("Brazil")] == 0 and s.chips[0] == 2100  # 17A keeps it, 17B the prize (2050 -> 2100)
    assert s.option == 0 and s.chips[1] == 6000
    s.apply(A.DONE)
    close_diplomacy(s)
    s.apply(A.ATTACK + c("Brazil"))
    attacker_wins(s)
    assert s.record[0] == 0 and s.holder[c("Brazil")] == 1 and s.record[1] == 12


def _besiege_us(s, chips: int = 30000) -> None:
    """Give player_1 the United States' neighbours as conquests and the chips to attack."""
    hold(s, 1, ["Canada", "Mexico", "Cuba"], T.CONQUEST)
    s.chips[1] = chips
    s.turn = 2
    edited(s)


def test_rule_19a_a_homeland_needs_every_neighbour_conquered_first():
    s = opening(["China", "United States", "U.S.S.R."], first=2)  # p0 US, p1 USSR
    _besiege_us(s)
    assert A.ATTACK + c("United States") in s.legal_actions()
    s.kind[c("Cuba")] = T.ALLY
    s.record[1] -= 1
    assert A.ATTACK + c("United States") not in edited(s).legal_actions()  # Cuba is only allied
    s.chips[1] = 29900
    s.kind[c("Cuba")] = T.CONQUEST
    s.record[1] += 1
    assert A.ATTACK + c("United States") not in edited(s).legal_actions()  # 19B: 30000 needed


def test_rule_19a_option_held_accepts_allied_neighbours():
    s = opening(["China", "United States", "U.S.S.R."], first=2, homeland_siege="held")
    _besiege_us(s)
    s.kind[c("Cuba")] = T.ALLY
    s.record[1] -= 1
    assert A.ATTACK + c("United States") in edited(s).legal_actions()


USSR_AND_US_NEIGHBOURS = ["Canada", "Mexico", "Cuba", "Romania", "Poland", "Czechoslovakia", "China", "North Korea",
                          "Norway", "Iran", "Afghanistan", "Japan"]
"""Every neighbour of the U.S. and the U.S.S.R. but each other (the Bering Strait)."""


def _west_germany_besieges_both(**config):
    """player_0 the U.S., player_1 the U.S.S.R., player_2 West Germany (with the option) has conquered every
    other neighbour of both homelands and holds 1,000,000 chips."""
    s = opening(["United States", "U.S.S.R.", "West Germany"], **config)
    hold(s, 2, USSR_AND_US_NEIGHBOURS, T.CONQUEST)
    s.chips[2], s.turn = 1_000_000, 2
    return edited(s)


def test_rule_19ab_neighbouring_homelands_do_not_shield_each_other():
    """"The countries bordering each side of the enemy HOMELAND must first be conquered" and "Once these
    countries are occupied": not by whom. A neighbour held by anyone but the homeland's owner no longer
    shields, another homeland included."""
    s = _west_germany_besieges_both()
    legal = s.legal_actions()
    assert A.ATTACK + c("United States") in legal and A.ATTACK + c("U.S.S.R.") in legal
    s.apply(A.ATTACK + c("U.S.S.R."))
    attacker_wins(s)
    assert not s.alive[1] and s.holder[c("U.S.S.R.")] == 2


def test_rule_19ab_option_attacker_the_attackers_alliance_must_hold_every_neighbour():
    s = _west_germany_besieges_both(homeland_siege_by="attacker")
    legal = s.legal_actions()
    assert A.ATTACK + c("United States") not in legal and A.ATTACK + c("U.S.S.R.") not in legal  # the lock
    ally(s, 1, 2)  # the U.S.S.R. in West Germany's alliance: the U.S. falls to the alliance
    assert A.ATTACK + c("United States") in s.legal_actions()


def test_rule_19a_the_owners_own_neighbours_shield_its_homeland_whoever_attacks():
    s = _west_germany_besieges_both()
    s.holder[c("Cuba")] = 0  # the U.S. holds Cuba as a conquest: a shield
    s.record[2] -= 2
    s.record[0] += 2
    assert A.ATTACK + c("United States") not in edited(s).legal_actions()
    assert A.ATTACK + c("U.S.S.R.") in s.legal_actions()  # Cuba does not border the U.S.S.R.


def test_rule_19c_a_fallen_homeland_eliminates_its_player_and_the_victor_takes_the_booty():
    s = opening(["China", "United States", "U.S.S.R."], first=2)
    hold(s, 0, ["Brazil"], T.ALLY)
    hold(s, 0, ["Argentina"], T.CONQUEST)
    s.chips[0] = 3000
    _besiege_us(s)
    before = s.record[1]
    s.apply(A.ATTACK + c("United States"))
    assert s.chips[1] == 0  # 19B: the full value x 1000
    attacker_wins(s)
    assert not s.alive[0] and s.eliminated == [0] and s.homeland[0] == -1
    assert s.holder[c("United States")] == 1 and s.kind[c("United States")] == T.CONQUEST
    assert s.holder[c("Argentina")] == 1 and s.holder[c("Brazil")] == -1  # allies return to unoccupied
    assert s.record[1] == before + 2 * 30 + 2 * 5  # the homeland and the conquests at full value
    assert s.chips[1] == 3000 + 2000 + 1000 * 3  # the loser's chips + the prize + zone 1's bonus
    assert s.current_player == 1 and s.buys == 2


def test_rule_19c_the_last_player_standing_ends_the_game():
    s = opening(["United States", "U.S.S.R."])
    _besiege_us(s)
    s.apply(A.ATTACK + c("United States"))
    attacker_wins(s)
    assert s.is_terminal() and s.returns() == [-1.0, 1.0]


def _us_falls_to_an_alliance(conquests: list[str], chips: int = 0):
    """player_3 (the U.S.) holds `conquests` and `chips`; player_1 (the U.S.S.R., with the option) allied
    with player_2 (China) has besieged it."""
    s = opening(["China", "United States", "Japan", "U.S.S.R."], first=2)  # p2 China p3 US p0 Japan p1 USSR
    assert s.option == 1 and s.homeland[3] == c("United States")
    s.allied[1][2] = s.allied[2][1] = True
    hold(s, 3, conquests, T.CONQUEST)
    s.chips[3] = chips
    s.chips[2] = 15000
    _besiege_us(s, chips=15000)
    return s


def test_rule_19d_the_booty_of_an_alliance_is_divided_equally():
    s = _us_falls_to_an_alliance(["Brazil", "Argentina", "Nigeria"], chips=3100)  # 6, 5, 5 and the US 30
    rec = list(s.record)
    s.apply(A.ATTACK + c("United States"))
    attacker_wins(s)
    assert not s.alive[3] and s.holder[c("United States")] == 1  # the victor first: 30
    assert [s.holder[c(x)] for x in ("Brazil", "Argentina", "Nigeria")] == [2, 2, 2]  # 6 + 5 + 5 = 16 to the ally
    assert s.record[1] == rec[1] + 60 and s.record[2] == rec[2] + 32
    # paid 30000 from the pool (15000 each); the prize 2000 and the booty 3100 are split in whole
    # hundreds, the odd 100 to the victor; zone 1 is the victor's: 3000 bonus
    assert s.chips[1] == 1000 + 1600 + 3000 and s.chips[2] == 1000 + 1500


def test_rule_19d_booty_countries_go_to_the_ally_with_less_so_far():
    s = _us_falls_to_an_alliance(["Brazil", "Indonesia", "Argentina", "Nigeria", "South Africa", "Australia",
                                  "Egypt"])
    s.apply(A.ATTACK + c("United States"))
    attacker_wins(s)
    # most valuable first: the US 30 to the victor; then the ally has less until it passes 30: Indonesia 6,
    # Brazil 6, Egypt 5, Argentina 5, Nigeria 5 (27), South Africa 4 (31); then Australia 4 to the victor
    won = {q: {B.names[i] for i in range(B.size) if s.holder[i] == q and s.kind[i] == T.CONQUEST} for q in (1, 2)}
    assert won[2] == {"Brazil", "Indonesia", "Argentina", "Egypt", "Nigeria", "South Africa"}
    assert won[1] == {"United States", "Australia", "Canada", "Mexico", "Cuba"}


def test_rule_4_remark_allies_bordering_the_homeland_protect_it():
    """'It is critical to ally with countries bordering both sides of your HOMELAND to protect it from a
    direct enemy attack' (rule 4, pointing to rule 19)."""
    s = opening(["United States", "U.S.S.R."], [["Canada", "Mexico"], []])
    hold(s, 1, ["Cuba"], T.CONQUEST)
    s.chips[1], s.turn = 60_000, 2
    assert A.ATTACK + c("United States") not in edited(s).legal_actions()  # Canada, Mexico: the U.S.'s allies
    s.apply(A.ATTACK + c("Canada"))
    attacker_wins(s)
    s.apply(A.ATTACK + c("Mexico"))
    attacker_wins(s)
    assert A.ATTACK + c("United States") in s.legal_actions()
