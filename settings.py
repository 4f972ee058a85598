"""Umpire's configuration, read from the environment and an optional `.env` file.

Build one `Settings` in `bot.py` and pass it down; nothing else reads the environment.
Every field is documented in `.env.example`.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]

SQLITE_FILE_NAME = "umpire.sqlite3"


class Settings(BaseSettings):
    """Runtime settings; environment variables win over `.env`, which wins over defaults."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        frozen=True,
    )

    discord_token: SecretStr | None = Field(
        default=None,
        description="Discord bot token. Empty or unset: run the local terminal table instead.",
    )
    database_url: str | None = Field(
        default=None,
        repr=False,  # may hold a password
        description=(
            "SQLAlchemy async URL, e.g. postgresql+asyncpg://user:pw@host/db. "
            "Empty or unset: a SQLite file under the data directory."
        ),
    )
    dev_guild_id: int | None = Field(
        default=None,
        description="Guild to sync slash commands to instantly while developing; unset: global.",
    )
    log_level: LogLevel = Field(default="INFO", description="Python logging level name.")
    umpire_data_dir: Path = Field(
        default=Path("data"),
        description="Where local files go: the SQLite database, rendered maps, exports.",
    )
    held_games: int = Field(
        default=2000,
        ge=1,
        description="Games a process holds in memory (their log and state), the least recently "
        "played let go first; a game let go is read again from its latest snapshot when played.",
    )

    # --- the e-mail gateway (mail/, issue 17); off while mail_address is empty ----------------
    mail_address: str | None = Field(
        default=None,
        description="The referee's own address (umpire@example.org); a game's is its plus "
        "address (umpire+g12@example.org). Empty: no e-mail gateway.",
    )
    mail_inbound: Literal["smtp", "imap"] = Field(
        default="smtp",
        description="How mail comes in: the built-in SMTP receiver (smtp) or a hosted "
        "mailbox polled over IMAP (imap).",
    )
    mail_listen: str = Field(
        default="127.0.0.1:2525", description="host:port of the built-in SMTP receiver."
    )
    mail_imap_host: str | None = Field(default=None, description="IMAP server of the mailbox.")
    mail_imap_port: int = Field(default=993, description="IMAP port (993 with ssl).")
    mail_imap_user: str | None = Field(default=None, description="IMAP login.")
    mail_imap_password: SecretStr | None = Field(default=None, description="IMAP password.")
    mail_imap_folder: str = Field(default="INBOX", description="The folder polled.")
    mail_imap_tls: Literal["ssl", "starttls", "none"] = Field(
        default="ssl", description="IMAP transport security."
    )
    mail_authserv_id: str | None = Field(
        default=None,
        description="IMAP: the mailbox provider's authserv-id; its Authentication-Results "
        "header (DKIM/SPF/DMARC as it checked them) is trusted, any other ignored.",
    )
    mail_smtp_host: str | None = Field(default=None, description="SMTP server for sending.")
    mail_smtp_port: int = Field(default=587, description="SMTP port (587 with starttls).")
    mail_smtp_user: str | None = Field(default=None, description="SMTP login.")
    mail_smtp_password: SecretStr | None = Field(default=None, description="SMTP password.")
    mail_smtp_tls: Literal["starttls", "ssl", "none"] = Field(
        default="starttls", description="SMTP transport security."
    )
    mail_require_dkim: bool = Field(
        default=False, description="Refuse mail without a valid DKIM signature of its From."
    )
    mail_rate_per_hour: int = Field(default=30, ge=1, description="Mails an address may send "
                                    "an hour; the rest are dropped after one notice.")

    # --- the web pages (web/, issue 19); off unless web_enabled ----------------------------------
    web_enabled: bool = Field(
        default=False,
        description="Serve each game's web page (the live board; a seat's orders through its "
        "private link) beside the bot.",
    )
    web_host: str = Field(default="127.0.0.1", description="Address the web server listens on.")
    web_port: int = Field(default=8080, ge=0, le=65535, description="Port of the web server.")
    web_public_url: str | None = Field(
        default=None,
        description="How players reach the web server (https://umpire.example.org), used in "
        "the links the referee gives; empty: http://WEB_HOST:WEB_PORT. With https the session "
        "cookie is Secure.",
    )
    web_link_days: int = Field(
        default=90, ge=1, description="Days a seat's private link stays valid."
    )
    web_orders_per_minute: int = Field(
        default=30, ge=1, description="Orders a player's session may send a minute (429 beyond)."
    )
    web_requests_per_minute: int = Field(
        default=600, ge=1, description="Requests one client address may make a minute."
    )

    @field_validator("web_public_url", mode="before")
    @classmethod
    def _empty_web_url_is_unset(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator(
        "web_enabled", "web_host", "web_port", "web_link_days", "web_orders_per_minute",
        "web_requests_per_minute", mode="before",
    )
    @classmethod
    def _empty_web_is_default(cls, value: object, info: Any) -> object:
        if isinstance(value, str) and not value.strip():
            return cls.model_fields[info.field_name].default
        return value

    @field_validator(
        "mail_address", "mail_imap_host", "mail_imap_user", "mail_imap_password",
        "mail_authserv_id", "mail_smtp_host", "mail_smtp_user", "mail_smtp_password",
        mode="before",
    )
    @classmethod
    def _empty_mail_is_unset(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator(
        "mail_inbound", "mail_listen", "mail_imap_folder", "mail_imap_tls", "mail_smtp_tls",
        "mail_imap_port", "mail_smtp_port", "mail_require_dkim", "mail_rate_per_hour",
        mode="before",
    )
    @classmethod
    def _empty_mail_is_default(cls, value: object, info: Any) -> object:
        # `.env.example` lists every key empty: `KEY=` means the default.
        if isinstance(value, str) and not value.strip():
            return cls.model_fields[info.field_name].default
        return value

    @field_validator("discord_token", "database_url", "dev_guild_id", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        # `.env.example` lists every key with an empty value; `KEY=` must mean "not set".
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_log_level(cls, value: object) -> object:
        if isinstance(value, str):
            return value.strip().upper() or "INFO"
        return value

    @field_validator("umpire_data_dir", mode="before")
    @classmethod
    def _empty_data_dir_is_default(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return Path("data")
        return value

    @property
    def has_mail(self) -> bool:
        """Whether the e-mail gateway is configured (``mail_address`` set)."""
        return self.mail_address is not None

    @property
    def has_discord_token(self) -> bool:
        """Whether a non-empty Discord token is configured (else: local table)."""
        return self.discord_token is not None and bool(self.discord_token.get_secret_value())

    @property
    def sqlite_path(self) -> Path:
        """The SQLite file used when no `database_url` is given."""
        return self.umpire_data_dir / SQLITE_FILE_NAME

    @property
    def effective_database_url(self) -> str:
        """`database_url` if set, else an aiosqlite URL for `sqlite_path`."""
        if self.database_url is not None:
            return self.database_url
        return f"sqlite+aiosqlite:///{self.sqlite_path.resolve().as_posix()}"

    @property
    def log_level_number(self) -> int:
        """The `logging` module's number for `log_level`."""
        return logging.getLevelNamesMapping()[self.log_level]
