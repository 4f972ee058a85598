"""A self-signed certificate for 127.0.0.1, made by the openssl command line, for TLS on loopback."""

from __future__ import annotations

import shutil
import ssl
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class Cert:
    """A certificate and its key as files, with the contexts for a server and a trusting client."""

    cert: Path
    key: Path

    def server_context(self) -> ssl.SSLContext:
        """A server side context presenting this certificate."""
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert, self.key)
        return context

    def client_context(self) -> ssl.SSLContext:
        """A client context that trusts this certificate only (hostname checks stay on)."""
        return ssl.create_default_context(cafile=str(self.cert))


def make_cert(folder: Path) -> Cert:
    """Make a self-signed EC certificate valid for 127.0.0.1 and localhost."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.fail("the openssl command is needed to make a test certificate")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ],
        check=True,
        capture_output=True,
    )
    return Cert(cert=cert, key=key)
