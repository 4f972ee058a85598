"""The gateway as it is started: settings → receiver, sender and loop (``mail.run.serve``), and
``bot.py``'s choice of what to run."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

import bot
from db.repo import open_store
from local.table import EXIT_USAGE
from mail.run import serve
from service.games import GameService
from settings import Settings
from tests.mail.world import Catcher, plain_mail, text


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_serve_answers_a_mail_with_the_settings_it_is_given(tmp_path: Path) -> None:
    import aiosmtplib

    catcher = Catcher()
    await catcher.start()
    port = free_port()
    settings = Settings(
        _env_file=None, mail_address="umpire@example.org", mail_listen=f"127.0.0.1:{port}",
        mail_smtp_host="127.0.0.1", mail_smtp_port=catcher.port, mail_smtp_tls="none",
    )
    store = await open_store(f"sqlite+aiosqlite:///{(tmp_path / 'u.sqlite3').as_posix()}")
    stop = asyncio.Event()
    task = asyncio.create_task(serve(settings, GameService(store=store), stop))
    try:
        for _ in range(100):  # until the receiver listens
            try:
                await aiosmtplib.send(plain_mail("ann@example.com", "umpire@example.org", "help"),
                                      sender="ann@example.com",
                                      recipients=["umpire@example.org"],
                                      hostname="127.0.0.1", port=port, timeout=60)
                break
            except aiosmtplib.SMTPConnectError:
                await asyncio.sleep(0.05)
        answer = catcher.last("ann@example.com")
        assert str(answer["Subject"]) == "[Umpire] Help"
        assert "Start a game: send 'game new 1941'" in text(answer)
        # Mail for anyone else is refused at the door (not an open relay).
        with pytest.raises(aiosmtplib.SMTPRecipientsRefused):
            await aiosmtplib.send(plain_mail("ann@example.com", "bob@elsewhere.org", "hi"),
                                  sender="ann@example.com", recipients=["bob@elsewhere.org"],
                                  hostname="127.0.0.1", port=port, timeout=60)
    finally:
        stop.set()
        await asyncio.wait_for(task, 30)
        await store.close()
        await catcher.stop()


@pytest.fixture
def no_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    for key in ("DISCORD_TOKEN", "MAIL_ADDRESS", "MAIL_SMTP_HOST"):
        monkeypatch.delenv(key, raising=False)


def test_mail_without_a_server_to_send_by_says_which_setting(
        no_env: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MAIL_ADDRESS", "umpire@example.org")
    assert bot.main(["--mail"]) == EXIT_USAGE
    assert "MAIL_SMTP_HOST is empty" in capsys.readouterr().err


def test_without_a_token_a_mail_address_starts_the_gateway(
        no_env: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    started: list[str] = []
    monkeypatch.setattr(bot, "start_mail", lambda: started.append("mail") or 0)
    monkeypatch.setenv("MAIL_ADDRESS", "umpire@example.org")
    assert bot.main([]) == 0
    assert started == ["mail"]
    assert "starting the e-mail gateway alone" in capsys.readouterr().err
    assert bot.main(["--mail", "--local"]) == EXIT_USAGE
