"""Without a browser the browser tests skip, except under CI=true, where they must fail loudly."""

from __future__ import annotations

import pytest

from tests.web.conftest import no_browser


def test_without_a_browser_tests_skip_outside_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)

    with pytest.raises(pytest.skip.Exception, match="no chromium"):
        no_browser("no chromium on PATH")


@pytest.mark.parametrize("value", ["true", "1", "TRUE"])
def test_without_a_browser_tests_fail_under_ci(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("CI", value)

    with pytest.raises(pytest.fail.Exception, match="CI=true but no browser test can run: no chromium"):
        no_browser("no chromium on PATH")
