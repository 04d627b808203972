"""Without chromium the browser tests skip on a developer's machine and fail in CI, never silently."""

import pytest

from . import browser


@pytest.mark.parametrize(("ci", "outcome"), [("", pytest.skip.Exception), ("true", pytest.fail.Exception)])
def test_missing_chromium_skips_locally_and_fails_in_ci(monkeypatch, ci, outcome):
    monkeypatch.setattr(browser.shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="chromium is not installed"), browser.chromium_page():
        pass
