"""Rule variants of ULTIMADE. Every default is the book's rule or our flagged gap choice
(see docs/games/ultimade.md, where each key is listed next to the rule it completes)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from ultimata.envs.core.config import GameConfig


class UltimadeConfig(GameConfig):
    endzone_depth: int = Field(3, ge=1, le=8)
    """Rows in each endzone (gap): 18 m of a 100 m real pitch is 3.24 of 18 rows, so 3."""
    run_length: int = Field(4, ge=1, le=8)
    """Most fields one player runs per step (book: 4)."""
    run_through: Literal["empty", "team", "any"] = "empty"
    """What a run may pass through (gap): only empty fields, also team-mates, or anyone."""
    throw_needs_free_field: bool = True
    """Book: a throw 'must go at least over one free field'. False: over any field, team-mates too."""
    monster_defense: bool = True
    """The optional Monster-Defense rule (book: 'omit the Monster-Defense rule' is a variant)."""
    monster_turn_faces: tuple[int, ...] = (1, 6)
    """Faces of the d6 that make a Monster-Defense roll a turn (book: 1 or 6)."""
    monster_defense_in_endzone: bool = True
    """Book, literal: a catch in the attacking endzone next to a defender also gives the defense the roll
    (the point stands unless the roll is a turn). False: such a catch scores at once (v1's rule)."""
    straight_pull: bool = True
    """Book, literal ('the disc is always thrown straight-lined'): the pull flies a straight throwing line
    from the puller, not over a receiver. False: the pull may land on any empty field of the endzone."""
    points_to_win: int = Field(3, ge=1, le=99)
    """The game ends when a team has scored this many points (gap: the book names no target)."""
    max_cycles: int = Field(200, ge=1, le=100_000)
    """Time cap (gap): after this many cycles (run, run, throw) the game ends on the score."""
    first_receiver: Literal["player_0", "player_1", "random"] = "player_0"
    """Which team receives the first pull (gap: real Ultimate flips a disc)."""

    @field_validator("monster_turn_faces")
    @classmethod
    def _faces_of_a_d6(cls, faces: tuple[int, ...]) -> tuple[int, ...]:
        if any(not 1 <= f <= 6 for f in faces) or len(set(faces)) != len(faces):
            raise ValueError("monster_turn_faces must be distinct faces 1..6 of a six-sided die")
        return tuple(sorted(faces))
