"""Shared test settings: pygame draws off-screen, and the suite must leave the work tree as it found it.

Tests write under temporary folders only (tmp_path), never into the checkout or the user's `runs/` (their
record, their training runs). The work tree's files, tracked and ignored alike, are listed with their sizes
and modification times when the session starts and again when it ends; any file made, changed or removed
fails the run, named. Caches that tools keep in the tree (bytecode, pytest's and ruff's) are not compared."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parent.parent
CACHES = {".git", "__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache", ".hypothesis", ".venv", "venv",
          ".ci-venv", ".ci-floor-venv", "node_modules"}
"""Folders that tools (not the tests) write into as they run, or that hold an environment."""
Listing = dict[str, tuple[int, int] | None]


def work_tree() -> Listing:
    """Every file (size, mtime_ns) and folder (None) under the checkout, outside `CACHES` and egg-info."""
    found: Listing = {}
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in CACHES and not d.endswith(".egg-info")]
        here = Path(folder)
        for name in dirs:
            found[str((here / name).relative_to(ROOT)) + "/"] = None
        for name in files:
            path = here / name
            try:
                stat = path.lstat()
            except OSError:  # gone between listing and looking: it is not there
                continue
            found[str(path.relative_to(ROOT))] = (stat.st_size, stat.st_mtime_ns)
    return found


def tree_changes(before: Listing, after: Listing) -> list[str]:
    """What differs, one line per path: made, removed, or changed."""
    made = [f"made {p}" for p in sorted(set(after) - set(before))]
    removed = [f"removed {p}" for p in sorted(set(before) - set(after))]
    changed = [f"changed {p}" for p in sorted(set(before) & set(after)) if before[p] != after[p]]
    return made + removed + changed


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[_BEFORE] = work_tree()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    before = session.config.stash.get(_BEFORE, None)
    if before is None:
        return
    changes = tree_changes(before, work_tree())
    if not changes:
        return
    shown = "\n  ".join(changes[:20]) + (f"\n  ... and {len(changes) - 20} more" if len(changes) > 20 else "")
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    message = f"the tests changed the work tree (tests write under tmp_path only):\n  {shown}"
    if reporter is not None:
        reporter.write_line(message, red=True, bold=True)
    else:
        print(message)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


_BEFORE = pytest.StashKey[Listing]()


@pytest.fixture()
def one_torch_thread():
    """torch's thread pool only spins on the shared 2-core machine for the array engines' small test
    batches: their modules run on one thread (`pytestmark = pytest.mark.usefixtures("one_torch_thread")`)."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
