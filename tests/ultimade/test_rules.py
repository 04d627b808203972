"""One test per ULTIMADE rule (book rules and our flagged gap choices), on set positions with forced dice.

Field names are absolute: columns a-i, row 1 = team A's (player_0's) back line, row 18 = team B's.
"""

from __future__ import annotations

import pytest

from ultimata.envs.core.errors import IllegalActionError
from ultimata.envs.core.rng import Rng, ScriptedRng
from ultimata.envs.ultimade.actions import DONE, NO_ROLL, to_field
from ultimata.envs.ultimade.board import FIELDS, chebyshev, name, parse
from ultimata.envs.ultimade.game import UltimadeGame
from ultimata.envs.ultimade.phases import MONSTER, OVER, PLACE, PULL, RUN, SELECT, THROW
from ultimata.envs.ultimade.players import PLAYER_NAMES
from ultimata.envs.ultimade.view import view

from .positions import field_action, player_at, position


def game(**config) -> UltimadeGame:
    return UltimadeGame.from_config(config)


def fields(state) -> set[str]:
    """The legal field actions of the player to move, as absolute field names."""
    return {name(to_field(a, state.current_player)) for a in state.legal_actions() if a < FIELDS}


def do(state, *fields_or_done: str) -> None:
    for step in fields_or_done:
        state.apply(DONE if step == "done" else NO_ROLL if step == "no roll" else field_action(state, step))


def run(state, player_field: str, to: str) -> None:
    do(state, player_field, to)


# -- the pitch -------------------------------------------------------------------------------------
def test_pitch_is_9_by_18_with_endzones_at_both_ends():
    g = game()
    assert FIELDS == 9 * 18
    assert g.config.endzone_depth == 3  # gap: 18 m of a 100 m pitch
    assert g.endzone[0].bit_count() == 27 and g.endzone[1].bit_count() == 27
    assert g.endzone[0] & (1 << parse("i3")) and not g.endzone[0] & (1 << parse("a4"))
    assert g.endzone[1] & (1 << parse("a16")) and not g.endzone[1] & (1 << parse("a15"))
    assert g.attack_zone == (g.endzone[1], g.endzone[0])
    assert game(endzone_depth=2).endzone[1].bit_count() == 18


# -- set-up and pull -------------------------------------------------------------------------------
def test_setup_team_without_the_disc_places_first_in_its_endzone():
    state = game(straight_pull=False).new_initial_state(Rng(0))
    assert (state.phase, state.current_player) == (PLACE, 0)
    assert fields(state) == {f"{c}{r}" for c in "abcdefghi" for r in (1, 2, 3)}
    do(state, "b3", "d3", "f3", "h3")
    assert (state.phase, state.current_player) == (PLACE, 1)
    assert fields(state) == {f"{c}{r}" for c in "abcdefghi" for r in (16, 17, 18)}
    do(state, "e16", "a18", "c17", "i16")
    assert (state.phase, state.current_player) == (PULL, 1)
    assert player_at(state, "e16") == "B1" and state.holder == 4  # gap: first placed holds the disc


def test_setup_other_first_receiver_by_config():
    state = game(first_receiver="player_1").new_initial_state(Rng(0))
    assert state.current_player == 1 and state.offense == 1


def _set_up(g, a: list[str], b: list[str]):
    state = g.new_initial_state(Rng(0))
    do(state, *a, *b)
    assert (state.phase, state.current_player) == (PULL, 1)
    return state


def test_pull_anywhere_in_the_receiving_endzone_when_straight_pull_is_off():
    """The issue's reproduction: from a typical set-up the pull may land on 23 fields, over the receiver
    A1 (c1 behind c3) and on no straight line at all (i2)."""
    state = _set_up(game(straight_pull=False), ["c3", "d1", "f2", "h3"], ["b16", "a18", "c17", "i16"])
    legal = fields(state)
    assert len(legal) == 27 - 4 and {"c1", "i2"} <= legal and "c3" not in legal and "e5" not in legal
    with pytest.raises(IllegalActionError):
        state.apply(field_action(state, "c3"))
    do(state, "i2")
    assert state.holder == -1 and name(state.disc) == "i2"
    assert (state.phase, state.current_player) == (SELECT, 0)  # the receivers run first


def test_pull_flies_a_straight_throwing_line_by_default():
    """Book: 'The disc is always thrown straight-lined ... not over players of the opposing team', and
    'In the beginning a pull is made into one of the empty fields of the opposing endzone'. From B1 on d16
    only column d reaches A's endzone; A2 on d1 stands at its end."""
    assert game().config.straight_pull
    state = _set_up(game(), ["c3", "d1", "f2", "h3"], ["d16", "a18", "c17", "i16"])
    assert fields(state) == {"d2", "d3"}  # d1 is taken; no diagonal from d16 reaches rows 1-3
    with pytest.raises(IllegalActionError):
        state.apply(field_action(state, "i2"))  # no straight line from d16
    do(state, "d2")
    assert name(state.disc) == "d2" and state.last_throw == [parse("d16"), parse("d2")]


def test_straight_pull_may_not_fly_over_a_receiver():
    state = _set_up(game(), ["c2", "d1", "f2", "h3"], ["c16", "a18", "e17", "i16"])
    assert fields(state) == {"c3"}  # c1 lies behind A1 on c2


def test_straight_pull_may_fly_over_the_pullers_team_mates():
    state = _set_up(game(), ["a3", "b3", "d3", "f3"], ["c18", "c17", "c16", "i16"])
    assert fields(state) == {"c1", "c2", "c3"}


def test_straight_pull_puts_the_puller_where_a_pull_can_fly():
    """Under straight_pull the first player the pulling team places holds the disc, so he may stand only
    where some pull reaches the receiving endzone: not behind a receiver on its front row. The others
    stand anywhere."""
    state = game().new_initial_state(Rng(0))
    do(state, "b3", "d3", "f3", "h3")
    assert fields(state) == {f"{c}{r}" for c in "acegi" for r in (16, 17, 18)}
    do(state, "e16")
    assert {"b16", "d17", "h18"} <= fields(state)


def test_straight_pull_reaches_diagonally_where_the_endzones_are_deep():
    state = _set_up(game(endzone_depth=8), ["a1", "b1", "c1", "d1"], ["e11", "a18", "b18", "c18"])
    legal = fields(state)
    assert {"e8", "e1", "b8", "h8"} <= legal  # the column and both diagonals from e11
    assert "f8" not in legal  # three rows and one column: no straight line
def test_receivers_must_pick_up_the_pulled_disc_when_one_can_reach_it():
    state = game().new_initial_state(Rng(0))
    do(state, "b3", "d3", "f3", "h3", "a16", "e18", "c17", "i16", "a1")
    assert DONE not in state.legal_actions()
    assert fields(state) == {"b3", "d3"}  # within 4 king steps of a1
    do(state, "d3")
    assert state.phase == RUN and fields(state) == {"a1"}
    do(state, "a1")
    assert player_at(state, "a1") == "A2" and state.holder == 1
    assert DONE in state.legal_actions()  # the others may now run or stay


def test_receivers_must_run_toward_a_disc_out_of_reach():
    g = game()
    state = position(g, ["a1", "b1", "c1", "d1"], ["e16", "a18", "c17", "i16"], holder=None, disc="i3")
    assert DONE not in state.legal_actions()
    assert fields(state) == {"d1"}  # only d1 gets within 1 field of i3
    do(state, "d1")
    assert fields(state) == {"h2", "h3", "h4"}  # as close as any run can get: 1 field
    do(state, "h3")
    assert state.holder == -1 and DONE in state.legal_actions()


def test_a_disc_nobody_picked_up_means_no_throw_and_a_new_cycle():
    """Gap (ours; the book is silent): when no receiver reaches the disc in the offense's step, the defense
    still runs, nobody throws, no turn happens, and the next cycle starts with the offense's runs."""
    state = position(game(), ["a1", "b1", "c1", "d1"], ["e16", "a18", "c17", "i16"], holder=None, disc="i3")
    run(state, "d1", "h3")
    do(state, "done")
    assert state.current_player == 1 and state.holder == -1
    run(state, "e16", "e12")
    do(state, "done")
    assert (state.phase, state.current_player, state.offense, state.cycle) == (SELECT, 0, 0, 2)
    assert state.holder == -1 and name(state.disc) == "i3" and not state.last_event.startswith("turn")
    assert fields(state) == {"h3"} and DONE not in state.legal_actions()  # the chase goes on: h3 reaches i3


def test_defender_may_not_end_a_run_on_the_disc_on_the_ground():
    g = game()
    state = position(g, ["a1", "b1", "c1", "d1"], ["h6", "a18", "c17", "i16"], holder=None, disc="i3", step="defense")
    run(state, "h6", "h5")
    state = position(g, ["a1", "b1", "c1", "d1"], ["h6", "a18", "c17", "i16"], holder=None, disc="i3", step="defense")
    do(state, "h6")
    assert "i3" not in fields(state) and "i4" in fields(state) and "h3" in fields(state)


# -- running ---------------------------------------------------------------------------------------
def test_run_is_zero_to_four_king_steps():
    g = game()
    state = position(g, ["e3", "e9", "a3", "i3"], ["a16", "c16", "g16", "i16"])
    do(state, "e9")
    legal = fields(state)
    assert len(legal) == 80  # the 9 x 9 square around e9, minus e9
    assert {"a5", "i13", "e13", "a9"} <= legal
    assert "e14" not in legal and "e9" not in legal
    state = position(g, ["e3", "e9", "a3", "i3"], ["a16", "c16", "g16", "i16"])
    do(state, "done")  # everyone stays: a run of 0 fields
    assert state.current_player == 1 and name(state.pos[1]) == "e9"


def test_run_may_not_pass_through_occupied_fields():
    a = ["e3", "a10", "a9", "a11"]
    b = ["b9", "b10", "b11", "i16"]
    state = position(game(), a, b)
    assert "a10" not in fields(state)  # boxed in by two team-mates and three opponents
    state = position(game(run_through="team"), a, b)
    do(state, "a10")
    assert {"a8", "a12", "d10"} <= fields(state)  # around via the team-mates a9 / a11
    assert "e10" not in fields(state)  # 4 steps only straight through the opponent on b10
    state = position(game(run_through="any"), a, b)
    do(state, "a10")
    assert "e10" in fields(state)


def test_run_ends_on_an_empty_field():
    state = position(game(run_through="any"), ["e3", "e9", "a3", "i3"], ["e10", "c16", "g16", "i16"])
    do(state, "e9")
    assert "e10" not in fields(state) and "e11" in fields(state)


def test_disc_holder_cannot_run():
    state = position(game(), ["e8", "e10", "a3", "i3"], ["a16", "c16", "g16", "i16"], holder="A1")
    assert "e8" not in fields(state) and {"e10", "a3", "i3"} == fields(state)
    with pytest.raises(IllegalActionError):
        state.apply(field_action(state, "e8"))


def test_offense_runs_first_then_defense_then_the_throw():
    state = position(game(), ["e8", "e10", "a3", "i3"], ["a16", "c16", "g16", "i16"])
    assert (state.phase, state.current_player) == (SELECT, 0)
    run(state, "e10", "e11")
    run(state, "a3", "a7")
    run(state, "i3", "i7")
    assert (state.phase, state.current_player) == (SELECT, 1)  # all three ran: the step ends itself
    run(state, "a16", "b13")
    do(state, "done")
    assert (state.phase, state.current_player) == (THROW, 0)


def test_each_player_runs_at_most_once_per_step():
    state = position(game(), ["e8", "e10", "a3", "i3"], ["a16", "c16", "g16", "i16"])
    run(state, "e10", "e11")
    assert "e11" not in fields(state)


# -- throwing --------------------------------------------------------------------------------------
def test_throws_go_straight_along_rows_columns_and_diagonals():
    state = position(game(), ["e8", "e10", "g10", "f11"], ["a16", "c16", "g16", "i16"], step="throw")
    assert state.phase == THROW
    assert fields(state) == {"e10", "g10"}  # f11 is a knight's move away: no straight line


def test_distance_one_throw_is_refused():
    state = position(game(), ["e8", "e9", "c8", "i3"], ["a16", "c16", "g16", "i16"], step="throw")
    assert fields(state) == {"c8"}
    with pytest.raises(IllegalActionError, match="not legal"):
        state.apply(field_action(state, "e9"))


def test_throw_over_a_team_mate_is_allowed():
    state = position(game(), ["e5", "e6", "e8", "b1"], ["a16", "c16", "g16", "i16"], step="throw")
    assert fields(state) == {"e8"}  # over team-mate e6 and the free field e7


def test_throw_must_pass_over_at_least_one_free_field():
    a, b = ["e5", "e6", "e7", "b1"], ["a16", "c16", "g16", "i16"]
    state = position(game(), a, b, step="throw")
    assert "e7" not in fields(state)  # only a team-mate in between, no free field
    state = position(game(throw_needs_free_field=False), a, b, step="throw")
    assert fields(state) == {"e7"}


def test_throw_over_an_opponent_is_refused():
    state = position(game(), ["e5", "e9", "c7", "b1"], ["e7", "c16", "g16", "i16"], step="throw")
    assert fields(state) == {"c7"}
    with pytest.raises(IllegalActionError):
        state.apply(field_action(state, "e9"))


def test_marker_blocks_the_lane_he_stands_in():
    state = position(game(), ["e5", "e8", "c7", "b1"], ["e6", "c16", "g16", "i16"], step="throw")
    assert fields(state) == {"c7"}  # e6 closes the whole column upward; the diagonal stays open


def test_catch_hands_the_disc_to_the_catcher():
    state = position(game(), ["e5", "e8", "c7", "a1"], ["e6", "c16", "g16", "i16"], step="throw")
    do(state, "c7")
    assert player_at(state, "c7") == "A3" and state.holder == 2 and name(state.disc) == "c7"
    assert state.last_throw == [parse("e5"), parse("c7")]
    assert (state.phase, state.current_player) == (SELECT, 0)  # no defender next to c7: next cycle


# -- marking ---------------------------------------------------------------------------------------
def test_only_one_defender_may_mark_a_player():
    state = position(game(), ["e8", "a3", "c3", "i3"], ["e9", "b12", "g16", "i16"], step="defense")
    do(state, "b12")
    legal = fields(state)
    around_holder = {"d7", "d8", "d9", "f7", "f8", "f9", "e7"}
    assert not legal & around_holder  # e9 already marks the holder e8
    assert "d10" in legal and "c9" in legal


def test_one_marker_limit_holds_around_every_offense_player():
    state = position(game(), ["e8", "a6", "c3", "i3"], ["b6", "b12", "g16", "i16"], step="defense")
    do(state, "b12")
    assert not fields(state) & {"a5", "a7", "b5", "b7"}  # b6 already marks a6


def test_the_marker_may_move_around_his_player():
    state = position(game(), ["e8", "a3", "c3", "i3"], ["e9", "b12", "g16", "i16"], step="defense")
    do(state, "e9")
    assert {"d9", "f9", "d7", "e7"} <= fields(state)


def test_offense_may_step_between_two_defenders_who_may_stay():
    g = game()
    state = position(g, ["e5", "e10", "a3", "i3"], ["d12", "f12", "g16", "i16"])
    run(state, "e10", "e11")  # next to both d12 and f12: allowed for the offense
    do(state, "done")
    assert state.current_player == 1
    legal = state.legal_actions()
    assert DONE in legal  # both may remain (no 'double team' call)
    do(state, "d12")
    assert not fields(state) & {"d10", "d11", "e10", "e12", "f10", "f11"}  # e11's other neighbours
    assert "c12" in fields(state)  # once he moves he must leave e11's side


# -- turns -----------------------------------------------------------------------------------------
def test_turn_when_the_thrower_finds_no_free_team_mate():
    g = game()
    state = position(g, ["e5", "e8", "b1", "h1"], ["e6", "h9", "b16", "i16"], step="throw")
    # e8 is blocked by the marker e6; b1 and h1 are not on a line from e5.
    assert state.offense == 1 and player_at(state, "e6") == "B1" and state.holder == 4
    assert (state.phase, state.current_player) == (SELECT, 1)
    assert "turn" in state.last_event
    assert not state.surplus, "one marker (e5) around the new holder: nobody has to leave"


def test_turn_gives_the_disc_to_the_nearest_defender_straight_before_diagonal():
    g = game()
    state = position(g, ["e5", "b9", "b1", "h1"], ["f6", "e7", "b16", "i16"], step="throw")
    # nobody of A is free. f6 (diagonal) and e7 are 1 and 2 king steps away: f6 takes it.
    assert state.holder == 4
    state = position(g, ["e5", "b9", "b1", "h1"], ["f6", "e6", "b16", "i16"], step="throw")
    # e6 and f6 are both 1 king step away; e6 is straight ahead, nearer on the pitch
    assert state.holder == 5


@pytest.mark.parametrize(("b", "taker"), [(["d6", "f6"], 4), (["f6", "d6"], 5)])
def test_a_tied_turn_goes_by_what_both_seats_see_not_by_player_number(b, taker):
    """d6 and f6 are equally near the thrower at e5. The tie goes to the lower column in the new
    offense's frame (the mirror flips rows, so columns read the same for both seats): d6, whichever
    player number stands there."""
    state = position(game(), ["e5", "b9", "b1", "h1"], [*b, "b16", "i16"], step="throw")
    assert state.offense == 1 and state.holder == taker and player_at(state, "d6") == PLAYER_NAMES[taker]


def test_a_point_in_the_last_allowed_cycle_ends_the_game_at_once():
    state = position(game(max_cycles=5, points_to_win=3), ["e14", "e16", "a1", "i1"], ["h9", "c10", "g10", "i10"],
                     step="throw", cycle=5)  # fmt: skip
    do(state, "e16")
    assert state.is_terminal() and state.score == [1, 0] and state.returns() == [1.0, -1.0]


def test_surplus_markers_must_depart_after_a_turn():
    g = game()
    # A throws nowhere: B1 at e6 takes over; A2 (e7) and A1 (e5) now surround B1 as two markers.
    state = position(g, ["e5", "e7", "b1", "h1"], ["e6", "b16", "c16", "i16"], step="throw")
    assert state.offense == 1 and state.holder == 4 and state.surplus
    do(state, "done")  # B's other players stay
    assert state.current_player == 0
    assert DONE not in state.legal_actions()  # two markers around the new holder: one must leave
    assert {"e5", "e7"} <= fields(state)
    do(state, "e7")
    assert not fields(state) & {"d5", "d6", "d7", "f5", "f6", "f7", "e5", "e7"}
    do(state, "e9")
    assert DONE in state.legal_actions()  # one marker left


def test_surplus_markers_flag_is_on_only_while_two_markers_stand_next_to_the_new_holder():
    """The observation and the JSON view say 'surplus markers must leave' while it is true, not for the
    rest of the defense's step after one of them has left."""
    state = position(game(), ["e5", "e7", "b1", "h1"], ["e6", "b16", "c16", "i16"], step="throw")
    flag = state.game.obs_layout.scalars["surplus_markers_must_leave"]

    def shown() -> list[bool]:
        return [bool(state.observation(seat)[flag]) for seat in (0, 1)] + [view(state, 0)["surplus_markers_must_leave"]]

    do(state, "done")  # B (the new offense) stays; A's two markers e5 and e7 surround B1 at e6
    assert shown() == [True, True, True]
    do(state, "e7", "e9")  # one marker leaves: e5 alone marks B1, A may stop
    assert DONE in state.legal_actions()
    assert shown() == [False, False, False]


def test_surplus_markers_are_fine_when_an_offense_player_stepped_between_them():
    state = position(game(), ["e5", "e7", "a1", "i1"], ["d8", "f8", "c16", "i16"], step="defense")
    assert DONE in state.legal_actions()


# -- Monster-Defense -------------------------------------------------------------------------------
def _catch_next_to_a_defender(rolls: list[int], **config):
    state = position(
        game(**config), ["e5", "e8", "a1", "i1"], ["f9", "c16", "g16", "i16"], step="throw", rng=ScriptedRng(rolls)
    )
    do(state, "e8")  # A2 catches at e8, next to B1 at f9
    return state


def test_monster_defense_choice_after_a_catch_next_to_a_defender():
    state = _catch_next_to_a_defender([])
    assert (state.phase, state.current_player) == (MONSTER, 1)
    assert fields(state) == {"f9"} and NO_ROLL in state.legal_actions()
    do(state, "no roll")
    assert (state.phase, state.current_player, state.offense) == (SELECT, 0, 0)


@pytest.mark.parametrize("roll", [1, 6])
def test_monster_defense_roll_of_1_or_6_is_a_turn(roll: int):
    state = _catch_next_to_a_defender([roll])
    do(state, "f9")
    assert state.last_roll == roll
    assert state.offense == 1 and player_at(state, "f9") == "B1" and state.holder == 4
    assert (state.phase, state.current_player) == (SELECT, 1)


@pytest.mark.parametrize("roll", [2, 3, 4, 5])
def test_monster_defense_other_rolls_let_only_the_marker_run(roll: int):
    state = _catch_next_to_a_defender([roll])
    do(state, "f9")
    assert state.offense == 0 and state.holder == 1 and state.marker_only == 4
    do(state, "done")  # A stays
    assert state.current_player == 1
    assert fields(state) == {"f9"}  # c16, g16, i16 keep their space
    do(state, "done")
    assert state.marker_only == -1  # only for one step


def test_monster_defense_faces_are_configurable():
    state = _catch_next_to_a_defender([3], monster_turn_faces=(3,))
    do(state, "f9")
    assert state.offense == 1


def test_monster_defense_can_be_switched_off():
    state = _catch_next_to_a_defender([], monster_defense=False)
    assert (state.phase, state.current_player) == (SELECT, 0)


def _catch_in_the_endzone_next_to_a_defender(rolls: list[int], **config):
    """A1 on e14 throws to A2 on e16, in the endzone A attacks; B1 on f17 stands next to the catcher."""
    state = position(game(**config), ["e14", "e16", "a1", "i1"], ["f17", "c10", "g10", "i10"], step="throw",
                     rng=ScriptedRng(rolls))  # fmt: skip
    do(state, "e16")
    return state


def test_a_catch_in_the_endzone_next_to_a_defender_gives_the_defense_the_roll_by_default():
    """Book: 'If one defender stands in one of the neighbouring fields of the catcher of the disk, then the
    defense team may decide whether it wants to throw a dice' - with no exception for the endzone."""
    state = _catch_in_the_endzone_next_to_a_defender([])
    assert state.game.config.monster_defense_in_endzone
    assert (state.phase, state.current_player, state.score) == (MONSTER, 1, [0, 0])
    assert fields(state) == {"f17"} and NO_ROLL in state.legal_actions()
    do(state, "no roll")
    assert state.score == [1, 0] and (state.phase, state.offense) == (PLACE, 1)  # the catch stands


@pytest.mark.parametrize("roll", [2, 3, 4, 5])
def test_a_failed_roll_in_the_endzone_lets_the_point_stand(roll: int):
    state = _catch_in_the_endzone_next_to_a_defender([roll])
    do(state, "f17")
    assert state.last_roll == roll and state.score == [1, 0] and (state.phase, state.offense) == (PLACE, 1)
    assert "no turn" in state.last_event and "point for A" in state.last_event


@pytest.mark.parametrize("roll", [1, 6])
def test_a_roll_of_1_or_6_in_the_endzone_is_a_turn_and_no_point(roll: int):
    state = _catch_in_the_endzone_next_to_a_defender([roll])
    do(state, "f17")
    assert state.score == [0, 0] and state.offense == 1 and state.holder == 4 and player_at(state, "f17") == "B1"
    assert (state.phase, state.current_player) == (SELECT, 1)


@pytest.mark.parametrize("config", [{"monster_defense_in_endzone": False}, {"monster_defense": False}])
def test_a_catch_in_the_endzone_scores_at_once_without_monster_defense_there(config):
    state = _catch_in_the_endzone_next_to_a_defender([], **config)
    assert state.score == [1, 0] and (state.phase, state.offense) == (PLACE, 1)


def test_a_point_after_the_roll_in_the_last_allowed_cycle_ends_the_game():
    state = _catch_in_the_endzone_next_to_a_defender([4], max_cycles=1)
    do(state, "f17")
    assert state.is_terminal() and state.score == [1, 0]


def test_no_monster_defense_without_a_defender_next_to_the_catcher():
    state = position(game(), ["e5", "e8", "a1", "i1"], ["h9", "c16", "g16", "i16"], step="throw")
    do(state, "e8")
    assert state.phase == SELECT


# -- scoring and the end ---------------------------------------------------------------------------
def test_catch_in_the_attacking_endzone_scores_and_the_scorer_pulls_next():
    state = position(game(), ["e14", "e16", "a1", "i1"], ["h9", "c10", "g10", "i10"], step="throw")
    do(state, "e16")
    assert state.score == [1, 0]
    # book: 'the winner team always starts as defense team': B receives and sets up first
    assert (state.phase, state.current_player, state.offense) == (PLACE, 1, 1)
    assert all(f == -1 for f in state.pos)
    do(state, "a16", "c16", "e16", "g16")
    assert state.current_player == 0
    do(state, "b1", "c1", "e1", "g1")
    assert (state.phase, state.current_player) == (PULL, 0)
    assert fields(state) == {"b16", "b17", "b18"}  # straight up column b, into B's endzone


def test_catch_in_the_own_endzone_is_no_point():
    state = position(game(), ["e4", "e2", "a9", "i9"], ["h9", "c10", "g10", "i10"], step="throw")
    do(state, "e2")
    assert state.score == [0, 0] and state.phase == SELECT


def test_getting_the_disc_by_a_turn_in_the_endzone_is_no_point():
    state = position(game(), ["e17", "b9", "b1", "h1"], ["e16", "b12", "c10", "i10"], step="throw", offense=1,
                     holder="B1")  # fmt: skip
    # B1 (e16) reaches nobody: A1, next to him in B's endzone, takes the disc. Only a catch scores.
    assert state.offense == 0 and state.holder == 0 and state.score == [0, 0]
    assert state.phase == SELECT


def test_game_ends_at_points_to_win():
    state = position(game(points_to_win=3), ["e14", "e16", "a1", "i1"], ["h9", "c10", "g10", "i10"],
                     step="throw", score=(2, 1))  # fmt: skip
    do(state, "e16")
    assert state.phase == OVER and state.is_terminal() and state.current_player == -1
    assert state.returns() == [1.0, -1.0] and state.legal_actions() == []


def test_time_cap_ends_the_game_on_the_score():
    g = game(max_cycles=5)
    state = position(g, ["e5", "e8", "a1", "i1"], ["h9", "c16", "g16", "i16"], cycle=5, score=(0, 1))
    do(state, "done", "done")
    assert state.phase == THROW
    do(state, "e8")
    assert state.is_terminal() and state.returns() == [-1.0, 1.0] and state.cycle == 5
    state = position(g, ["e5", "e8", "a1", "i1"], ["h9", "c16", "g16", "i16"], cycle=5)
    do(state, "done", "done", "e8")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]  # equal score: a draw


# -- the action layout -----------------------------------------------------------------------------
def test_field_actions_are_in_the_acting_seats_frame():
    state = position(game(), ["e5", "e8", "b1", "h1"], ["e14", "c16", "g16", "i16"], offense=1, holder="B1")
    assert fields(state) == {"c16", "g16", "i16"}
    # player_1 names c16 by the index of its mirror image c3: row 16 is B's row 3 from its own end
    assert parse("c3") in state.legal_actions() and parse("c16") not in state.legal_actions()
    assert to_field(parse("c3"), 1) == parse("c16")


def test_action_strings_read_like_the_book():
    state = position(game(), ["e7", "b8", "g11", "i1"], ["a16", "c16", "g16", "i16"], offense=0)
    assert state.action_to_string(field_action(state, "b8")) == "pick A2 at b8 to run"
    do(state, "b8")
    assert state.action_to_string(field_action(state, "c9")) == "run A2 b8->c9"  # A1 on e7 can throw to c9
    assert state.action_to_string(field_action(state, "c10")) == "run A2 b8->c10 - then A1 has no free team-mate"
    state = position(game(), ["e7", "b8", "g9", "i1"], ["a16", "c16", "g16", "i16"], step="throw")
    assert state.action_to_string(field_action(state, "g9")) == "throw A1 -> A3 at g9"
    assert state.action_to_string(DONE).startswith("done")
    assert state.action_to_string(NO_ROLL) == "no Monster-Defense roll"
    new = game().new_initial_state(Rng(0))
    assert new.action_to_string(field_action(new, "c2")) == "place A1 at c2"


def test_every_step_distance_is_king_distance():
    assert chebyshev(parse("a1"), parse("e5")) == 4 and chebyshev(parse("a1"), parse("b9")) == 8


def test_book_tactic_two_short_catchers_cannot_both_be_blocked():
    """The play-process page: short passes over two fields are the safe ones, and two catchers in
    different directions beat the defense. Both lanes are single fields next to the thrower, and only
    one defender may stand next to him, so no defense step can force a turn here."""
    import random

    pick = random.Random(0)
    g = game()
    for _ in range(200):
        state = position(g, ["e5", "e7", "g7", "b1"], ["c8", "h5", "f9", "d3"], step="defense")
        while state.phase != THROW and state.current_player == 1:
            state.apply(pick.choice(state.legal_actions()))
        assert state.phase == THROW and state.offense == 0
        assert fields(state) & {"e7", "g7"}
