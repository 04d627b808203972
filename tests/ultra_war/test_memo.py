"""Ultra War's per-decision memo (envs/ultra_war/memo.py): a value is computed once while the memo is open,
afresh while it is closed, and it is open only inside `with memo:`, so no value outlives the position."""

from __future__ import annotations

import pytest

from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war.game import UltraWarGame
from ultimata.envs.ultra_war.memo import Memo, memoized


def test_a_value_is_computed_once_while_open_and_afresh_while_closed():
    memo, calls = Memo(), []

    def compute(x: int) -> int:
        calls.append(x)
        return 2 * x

    assert memo.get(("double", 3), compute, 3) == 6 and memo.get(("double", 3), compute, 3) == 6
    assert calls == [3, 3]  # closed: every call computes
    with memo:
        assert [memo.get(("double", 3), compute, 3) for _ in range(3)] == [6, 6, 6]
        assert memo.get(("double", 4), compute, 4) == 8
        assert calls == [3, 3, 3, 4]  # open: once per key
    memo.get(("double", 3), compute, 3)
    assert calls == [3, 3, 3, 4, 3]


def test_the_memo_closes_when_its_block_raises():
    memo = Memo()
    with pytest.raises(KeyError), memo:
        memo.get("probe", list)
        raise KeyError("the legal set failed")
    assert memo.get("probe", dict) == {}  # closed: computed afresh


def test_memoized_methods_are_kept_per_argument():
    class Counter:
        def __init__(self) -> None:
            self.memo, self.calls = Memo(), 0

        @memoized
        def none(self) -> int:
            self.calls += 1
            return -1

        @memoized
        def one(self, side: int) -> int:
            self.calls += 1
            return side

        @memoized
        def two(self, a: int, b: int) -> int:
            self.calls += 1
            return a + b

    c = Counter()
    with c.memo:
        for _ in range(2):
            assert (c.none(), c.one(0), c.one(1), c.two(1, 2), c.two(2, 1)) == (-1, 0, 1, 3, 3)
        assert c.calls == 5 and c.one.__name__ == "one"
    c.one(0)
    assert c.calls == 6


def test_the_legal_set_leaves_the_memo_closed():
    """Ultra War opens the memo only while it computes the legal set: a rule called afterwards, on a position
    changed by hand (as the scripted bot does to look ahead), sees the change; and a clone has its own memo."""
    st = UltraWarGame.from_config({}).new_initial_state(Rng(0))
    st.legal_actions()
    u = next(x for x in st.units if x.on_map)
    before = st.occupied_map()
    saved, u.pos = u.pos, next(f for f in range(144) if f not in before and not st.board.solid(f, st.breached))
    assert u.pos in st.occupied_map() and saved not in st.occupied_map()
    u.pos = saved
    assert st.clone().memo is not st.memo
