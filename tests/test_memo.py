"""The per-decision memo (envs/core/memo.py): a value is computed once while the memo is open, afresh while it
is closed, and never outlives the position: State.apply clears it."""

from __future__ import annotations

from ultimata.envs.core.memo import Memo, memoized
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war.game import UltraWarGame


def test_a_value_is_computed_once_while_open_and_afresh_while_closed():
    memo, calls = Memo(), []

    def compute(x: int) -> int:
        calls.append(x)
        return 2 * x

    assert memo.get(("double", 3), compute, 3) == 6 and memo.get(("double", 3), compute, 3) == 6
    assert calls == [3, 3]  # closed: every call computes
    memo.open()
    assert [memo.get(("double", 3), compute, 3) for _ in range(3)] == [6, 6, 6]
    assert memo.get(("double", 4), compute, 4) == 8
    assert calls == [3, 3, 3, 4]  # open: once per key
    memo.clear()
    memo.get(("double", 3), compute, 3)
    assert calls == [3, 3, 3, 4, 3]


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
    c.memo.open()
    for _ in range(2):
        assert (c.none(), c.one(0), c.one(1), c.two(1, 2), c.two(2, 1)) == (-1, 0, 1, 3, 3)
    assert c.calls == 5 and c.one.__name__ == "one"
    c.memo.clear()
    c.one(0)
    assert c.calls == 6


def test_apply_clears_the_memo_and_the_legal_set_leaves_it_closed():
    """Ultra War opens the memo only while it computes the legal set: a rule called afterwards, on a position
    changed by hand (as the scripted bot does to look ahead), sees the change."""
    st = UltraWarGame.from_config({}).new_initial_state(Rng(0))
    st.legal_actions()
    u = next(x for x in st.units if x.on_map)
    before = st.occupied_map()
    saved, u.pos = u.pos, next(f for f in range(144) if f not in before and not st.board.solid(f, st.breached))
    assert u.pos in st.occupied_map() and saved not in st.occupied_map()
    u.pos = saved
    st.memo.open()
    st.memo.get("probe", list)
    st.apply(st.legal_actions()[0])
    assert st.memo.get("probe", dict) == {}  # cleared and closed: computed afresh
