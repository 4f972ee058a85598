"""Umpire's configuration, read from the environment and an optional `.env` file.

Build one `Settings` in `bot.py` and pass it down; nothing else reads the environment.
Every field is documented in `.env.example`.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Literal

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
