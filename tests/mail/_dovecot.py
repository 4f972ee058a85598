"""A private Dovecot IMAP server on loopback for the tests, from a config written into a temp folder.

No system service is touched: its own base_dir, state_dir, log, passwd-file user and maildir,
listening on 127.0.0.1 only (plain/STARTTLS on one port, implicit TLS on another), started with
``dovecot -F -c CONF`` and stopped at the end. When ``dovecot`` is not installed the IMAP tests
skip with a message, unless ``CI`` is set: then they fail (``.ci/run`` installs it).
"""

from __future__ import annotations

import getpass
import imaplib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.mail._tls import Cert, make_cert

USER, PASSWORD = "umpire", "s3cret"


def _quoted(folder: str) -> str:
    """A folder name as an IMAP quoted string (imaplib sends arguments as they are)."""
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


@dataclass
class Dovecot:
    """A running private Dovecot: its ports, certificate and a way to fill a folder."""

    port: int  # IMAP: plain text or STARTTLS
    ssl_port: int  # IMAPS: implicit TLS
    cert: Cert
    folder_dir: Path
    config: Path
    _folders: Iterator[int]

    def session(self) -> imaplib.IMAP4:
        """A logged-in imaplib session (the test's own client, not the code under test)."""
        imap = imaplib.IMAP4("127.0.0.1", self.port, timeout=10)
        imap.login(USER, PASSWORD)
        return imap

    def new_folder(self, prefix: str = "T") -> str:
        """A fresh, empty folder for one test."""
        name = f"{prefix}{next(self._folders)}"
        with self._logged_in() as imap:
            status, _ = imap.create(_quoted(name))
            assert status == "OK", f"cannot create folder {name}"
        return name

    def append(self, folder: str, raw: bytes) -> None:
        """Deliver a mail into ``folder`` (APPEND, no flags: unseen)."""
        with self._logged_in() as imap:
            status, answer = imap.append(_quoted(folder), None, None, raw)
            assert status == "OK", answer

    def seen(self, folder: str) -> dict[bytes, bool]:
        """Each mail's Subject header → whether it is flagged \\Seen."""
        with self._logged_in() as imap:
            imap.select(_quoted(folder), readonly=True)
            status, data = imap.fetch("1:*", "(FLAGS BODY.PEEK[HEADER.FIELDS (SUBJECT)])")
            if status != "OK" or data == [None]:
                return {}
            result: dict[bytes, bool] = {}
            for item in data:
                if isinstance(item, tuple):
                    subject = item[1].split(b":", 1)[1].strip()
                    result[subject] = b"\\Seen" in item[0]
            return result

    def kick(self) -> None:
        """Disconnect the user's sessions, as a server restart or a network cut would."""
        subprocess.run(
            ["doveadm", "-c", str(self.config), "kick", USER], check=True, capture_output=True
        )

    def _logged_in(self) -> _Session:
        return _Session(self)


class _Session:
    def __init__(self, server: Dovecot) -> None:
        self._server = server

    def __enter__(self) -> imaplib.IMAP4:
        self._imap = self._server.session()
        return self._imap

    def __exit__(self, *exc: object) -> None:
        self._imap.logout()


def _config(root: Path, port: int, ssl_port: int, cert: Cert) -> str:
    if os.geteuid() == 0:
        # Dovecot will not run mail processes as root: use the users its package creates.
        internal, login, mail_user = "dovecot", "dovenull", "dovecot"
    else:
        internal = login = mail_user = getpass.getuser()
    return f"""
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <{cert.cert}
ssl_key = <{cert.key}
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
first_valid_uid = 1
default_internal_user = {internal}
default_login_user = {login}
mail_location = maildir:~/Maildir
mailbox_idle_check_interval = 1 secs
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={mail_user} gid={pwd.getpwnam(mail_user).pw_gid} home={root}/home/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {ssl_port}
    ssl = yes
  }}
}}
# No auth penalty: after the wrong-password test every later login from 127.0.0.1 would wait
# seconds. The auth process cannot open this socket, and then it applies no penalty.
service anvil {{
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service stats {{
  unix_listener stats-reader {{
    mode = 0666
  }}
  unix_listener stats-writer {{
    mode = 0666
  }}
}}
"""


def start_dovecot() -> Iterator[Dovecot]:
    """Run a private Dovecot for the duration of the generator (a session fixture's body)."""
    binary = shutil.which("dovecot") or (
        "/usr/sbin/dovecot" if Path("/usr/sbin/dovecot").exists() else None
    )
    if binary is None:
        message = "dovecot is not installed (apt-get install dovecot-imapd; .ci/run does it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    # Not under pytest's tmp folders: those are private to us, and Dovecot's mail processes
    # run as another user that must reach the maildir.
    root = Path(tempfile.mkdtemp(prefix="umpire-dovecot-"))
    process: subprocess.Popen[bytes] | None = None
    try:
        root.chmod(0o755)
        for sub in ("run", "state", "home", "tls"):
            (root / sub).mkdir()
        cert = make_cert(root / "tls")
        if os.geteuid() == 0:
            entry = pwd.getpwnam("dovecot")
            os.chown(root / "home", entry.pw_uid, entry.pw_gid)
        (root / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}::::::\n")
        config = root / "dovecot.conf"
        # A port found free may be taken by another test process before Dovecot binds it:
        # then Dovecot stops at once, and another pair of ports is tried.
        for _attempt in range(3):
            port, ssl_port = _free_port(), _free_port()
            config.write_text(_config(root, port, ssl_port, cert))
            with (root / "stdout.log").open("ab") as output:
                process = subprocess.Popen(
                    [binary, "-F", "-c", str(config)], stdout=output, stderr=subprocess.STDOUT
                )
            if _ready(process, root, port, ssl_port):
                break
            _stop(process)
            process = None
        else:
            pytest.fail(f"dovecot did not start:\n{_logs(root)}")
        yield Dovecot(port, ssl_port, cert, root / "home", config, itertools.count(1))
    finally:
        if process is not None:
            _stop(process)
        shutil.rmtree(root, ignore_errors=True)


def _ready(process: subprocess.Popen[bytes], root: Path, port: int, ssl_port: int) -> bool:
    """Wait (bounded, generously) until both listeners answer; False if Dovecot stopped."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None or "Fatal:" in _logs(root):
            return False
        if _answers(port) and _answers(ssl_port):
            return True
        time.sleep(0.05)
    return False


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _logs(root: Path) -> str:
    return "".join(
        path.read_text(errors="replace")
        for path in (root / "stdout.log", root / "dovecot.log")
        if path.exists()
    )
