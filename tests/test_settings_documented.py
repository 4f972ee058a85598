"""Every setting is listed in `.env.example` with a comment (the house rule: no setting a
newcomer cannot find), and an empty value there means the default."""

from __future__ import annotations

from pathlib import Path

import pytest

from settings import Settings

EXAMPLE = Path(__file__).resolve().parents[1] / ".env.example"


def test_every_setting_is_in_env_example_with_a_comment() -> None:
    lines = EXAMPLE.read_text("utf-8").splitlines()
    keys = {ln.split("=", 1)[0]: i for i, ln in enumerate(lines) if "=" in ln
            and not ln.startswith("#")}
    for name in Settings.model_fields:
        key = name.upper()
        assert key in keys, f"{key} is not in .env.example"
        # A comment right above it, or above the group of keys it stands in.
        above = keys[key] - 1
        while above >= 0 and lines[above].split("=", 1)[0] in keys:
            above -= 1
        assert above >= 0 and lines[above].startswith("#"), f"{key} has no comment above it"


def test_the_example_as_it_is_reads_as_the_defaults(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    example = tmp_path / ".env"
    example.write_text(EXAMPLE.read_text("utf-8").replace("LOG_LEVEL=INFO", "LOG_LEVEL="),
                       "utf-8")
    got = Settings(_env_file=example)
    assert got == Settings(_env_file=None)
    assert not got.has_mail and got.mail_listen == "127.0.0.1:2525"
