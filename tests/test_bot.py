"""``python bot.py``'s arguments: ``--sync`` registers the slash commands only when asked (no
network here: the Discord start is where the arguments end)."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot
from local.table import EXIT_USAGE


@pytest.fixture
def no_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, no_env: None) -> list[tuple[str, bool]]:
    """The Discord starts asked for, instead of connecting (the boundary of these tests)."""
    calls: list[tuple[str, bool]] = []

    def start_discord(token: str, *, sync: bool = False) -> int:
        calls.append((token, sync))
        return 0

    monkeypatch.setattr(bot, "start_discord", start_discord)
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    return calls


def test_the_normal_start_does_not_sync(started: list[tuple[str, bool]]) -> None:
    assert bot.main([]) == 0
    assert started == [("a-token", False)]


def test_sync_on_request(started: list[tuple[str, bool]]) -> None:
    assert bot.main(["--sync"]) == 0
    assert started == [("a-token", True)]


def test_sync_is_no_local_table_flag(
    no_env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bot.main(["--sync", "--local"]) == EXIT_USAGE
    assert "not with --local" in capsys.readouterr().err


def test_sync_needs_a_token(no_env: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert bot.main(["--sync"]) == EXIT_USAGE
    assert "--sync needs DISCORD_TOKEN" in capsys.readouterr().err


def test_sync_is_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        bot.main(["--help"])
    assert "--sync" in capsys.readouterr().out
