"""The words that keep a person from losing the disc to an unseen rule (issue 42): why a field is no move
now, the warning in a run's or 'done''s label when the holder is left with no free team-mate, what the
turn blamed, and what the Monster-Defense die does."""

from __future__ import annotations

from ultimata.envs.core.rng import Rng, ScriptedRng
from ultimata.envs.ultimade.actions import DONE, NO_ROLL
from ultimata.envs.ultimade.board import FIELDS, NAMES
from ultimata.envs.ultimade.explain import why_not
from ultimata.envs.ultimade.game import UltimadeGame

from .positions import field_action, position


def game(**config) -> UltimadeGame:
    return UltimadeGame.from_config(config)


def reasons(state) -> dict[str, str]:
    return {NAMES[f]: why for f, why in why_not(state).items()}


def do(state, *fields: str) -> None:
    for f in fields:
        state.apply(DONE if f == "done" else field_action(state, f))


def test_every_field_that_is_no_move_has_a_reason_and_no_legal_one_has() -> None:
    state = position(game(), ["e5", "e8", "b1", "h1"], ["c16", "g16", "i16", "a16"])
    for step in (None, "e8"):
        if step:
            do(state, step)
        legal = {a for a in state.legal_actions() if a < FIELDS}
        explained = {field_action(state, f) for f in reasons(state)}
        assert explained.isdisjoint(legal) and len(explained | legal) == FIELDS
        assert all(reasons(state).values())


def test_set_up_and_pull_reasons() -> None:
    state = game().new_initial_state(Rng(0))
    do(state, "c3")
    assert reasons(state)["c3"] == "A1 stands there"
    assert reasons(state)["c4"] == "set up in your own endzone (rows 1-3)"
    do(state, "d1", "f2", "h3")
    assert "no straight pull could fly from here" in reasons(state)["c16"]  # A1 on c3 closes column c
    do(state, "d16", "a18", "c17", "i16")
    why = reasons(state)
    assert why["i2"] == "pull: not on a straight line (row, column or diagonal) from d16"
    assert why["d1"] == "A2 stands there" and why["d5"] == "the pull lands in team A's endzone (rows 1-3)"


def test_select_reasons() -> None:
    state = position(game(), ["e5", "e8", "b1", "h1"], ["c16", "g16", "i16", "a16"])
    do(state, "e8", "e10")
    why = reasons(state)
    assert why["e5"] == "A1 holds the disc, and the player with the disc must not move"
    assert why["e10"] == "A2 has run already in this step"
    assert why["c16"] == "B1 plays for the other team"
    chase = position(game(), ["a1", "b1", "c1", "d1"], ["e16", "a18", "c17", "i16"], holder=None, disc="i3")
    assert "the disc lies on i3" in reasons(chase)["a1"]
    frozen = position(game(), ["e5", "e8", "a1", "i1"], ["f9", "c16", "g16", "i16"], step="defense",
                      marker_only="B1")  # fmt: skip
    assert reasons(frozen)["c16"] == "after the failed Monster-Defense roll only B1 may run in this step"


def test_run_reasons() -> None:
    state = position(game(), ["e8", "a3", "c3", "i3"], ["e9", "b12", "g16", "i16"], step="defense")
    do(state, "b12")
    why = reasons(state)
    assert why["b17"] == "5 fields from b12: a run is 4 fields at most"
    assert why["d9"].startswith("A1 on e8 is marked by B1 already: only one defender")
    ground = position(game(), ["a1", "b1", "c1", "d1"], ["h6", "a18", "c17", "i16"], holder=None, disc="i3",
                      step="defense")  # fmt: skip
    do(ground, "h6")
    assert reasons(ground)["i3"] == "the disc lies here: defenders may not stand on it"
    boxed = position(game(), ["e3", "a10", "a9", "a11"], ["b9", "b10", "b11", "i16"])
    do(boxed, "a9")
    # b12 is 3 fields from a9, but the way round b9-b11 is longer than 4
    assert reasons(boxed)["b12"] == "no way there in 4 steps through empty fields"


def test_throw_and_monster_reasons() -> None:
    state = position(game(), ["e5", "e9", "c7", "b1"], ["e7", "c16", "g16", "i16"], step="throw")
    why = reasons(state)
    assert why["e9"] == "A2 is not free: B1 on e7 in the way: a throw may not pass over an opponent"
    assert why["b1"] == "A4 is not free: not on a straight line (row, column or diagonal) from e5"
    state = position(game(), ["e5", "e8", "a1", "i1"], ["f9", "c16", "g16", "i16"], step="throw")
    do(state, "e8")
    assert reasons(state)["c16"] == "only a defender next to the catcher A2 on e8 may roll the Monster-Defense die"


def test_run_and_done_labels_warn_before_a_turn() -> None:
    state = position(game(), ["e5", "e8", "b1", "h1"], ["c16", "g16", "i16", "a16"])
    assert state.action_to_string(DONE) == "done (who has not run stays)"  # A2 on e8 is free
    do(state, "e8")
    assert state.action_to_string(field_action(state, "e10")) == "run A2 e8->e10"
    assert state.action_to_string(field_action(state, "f10")) == "run A2 e8->f10 - then A1 has no free team-mate"
    do(state, "f10")
    assert state.action_to_string(DONE).endswith(
        "A1 has no free team-mate: unless one is free after the defense's runs, a turn follows")
    do(state, "done")  # A's step ends; B (the defense) knows what its 'done' does
    assert state.action_to_string(DONE).endswith("A1 has no free team-mate: a turn, B1 takes the disc")


def test_the_turn_says_what_blocked_each_team_mate() -> None:
    state = position(game(), ["e5", "e8", "b1", "h1"], ["e6", "h9", "b16", "i16"], step="throw")
    assert state.last_event == (
        "turn: A1 on e5 finds no free team-mate (A2 on e8: B1 on e6 in the way: a throw may not pass over an "
        "opponent; A3 on b1: not on a straight line (row, column or diagonal) from e5; A4 on h1: not on a "
        "straight line (row, column or diagonal) from e5), so B1, the nearest defender, takes the disc")


def test_monster_defense_labels_and_events_say_what_each_roll_does() -> None:
    state = position(game(), ["e5", "e8", "a1", "i1"], ["f9", "c16", "g16", "i16"], step="throw",
                     rng=ScriptedRng([4]))  # fmt: skip
    do(state, "e8")
    assert state.action_to_string(field_action(state, "f9")) == (
        "Monster-Defense: B1 at f9 rolls the die (1 or 6: a turn, B1 takes the disc; 2, 3, 4, 5: A2 keeps it "
        "and only B1 may run next step)")
    assert state.action_to_string(NO_ROLL) == "no Monster-Defense roll"
    do(state, "f9")
    assert state.last_event == ("Monster-Defense: B1 rolls 4, no turn (that needs 1 or 6): A2 keeps the disc, "
                                "and in the defense's next step only B1 may run")
    scoring = position(game(), ["e14", "e16", "a1", "i1"], ["f17", "c10", "g10", "i10"], step="throw")
    do(scoring, "e16")
    assert scoring.action_to_string(field_action(scoring, "f17")).endswith("(1 or 6: a turn, no point; "
                                                                           "2, 3, 4, 5: the catch scores)")
    assert scoring.action_to_string(NO_ROLL) == "no Monster-Defense roll (the catch scores)"
