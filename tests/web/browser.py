"""The world of the page's browser tests: the real web server (``web.server.WebServer``) on
127.0.0.1 over a service on a real SQLite file, and headless Chromium from the system's packages
(``/usr/bin/chromium``, Debian's ``chromium``) driven by Playwright. No browser is downloaded.

Without Chromium the tests skip with the reason, except under CI (``CI=true``), where they fail:
``.ci/run`` installs the package when it is missing.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def chromium_or_skip() -> str:
    """The system's Chromium, else skip (fail under CI) with what to install."""
    path = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if path:
        return path
    message = ("Chromium is not installed (/usr/bin/chromium: apt-get install chromium; "
               ".ci/run does it)")
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


async def launch(path: str) -> AsyncIterator[Any]:
    """A headless Chromium for a module's tests. Playwright gives it a fresh temporary profile
    (user-data-dir) of its own, removed on close; each test opens its own context (cookies)."""
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=path, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            await browser.close()
