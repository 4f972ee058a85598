"""A test RSA key made in pure Python (no openssl, no cryptography package): PEM and DKIM p=."""

from __future__ import annotations

import base64
import random

_SMALL_PRIMES = [p for p in range(3, 2000) if all(p % d for d in range(2, int(p**0.5) + 1))]


def _probably_prime(n: int, rng: random.Random, rounds: int = 24) -> bool:
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for _ in range(rounds):
        x = pow(rng.randrange(2, n - 2), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


def _prime(rng: random.Random, bits: int) -> int:
    while True:
        n = rng.getrandbits(bits) | (3 << (bits - 2)) | 1  # top two bits: n = p*q has 2*bits
        if all(n % p for p in _SMALL_PRIMES) and _probably_prime(n, rng):
            return n


def _der(tag: int, body: bytes) -> bytes:
    if len(body) < 0x80:
        return bytes([tag, len(body)]) + body
    size = len(body).to_bytes((len(body).bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(size)]) + size + body


def _int(value: int) -> bytes:
    return _der(0x02, value.to_bytes(value.bit_length() // 8 + 1, "big"))


def rsa_key(seed: int, bits: int = 2048) -> tuple[bytes, str]:
    """(PKCS#1 private key PEM, base64 SubjectPublicKeyInfo for a DKIM record's p=)."""
    rng = random.Random(seed)
    e = 65537
    while True:
        p, q = _prime(rng, bits // 2), _prime(rng, bits // 2)
        phi = (p - 1) * (q - 1)
        if p != q and phi % e:
            break
    n, d = p * q, pow(e, -1, phi)
    private = _der(0x30, b"".join(_int(x) for x in (
        0, n, e, d, p, q, d % (p - 1), d % (q - 1), pow(q, -1, p))))
    public = _der(0x30, _int(n) + _int(e))
    rsa_oid = bytes.fromhex("06092a864886f70d0101010500")  # rsaEncryption, NULL parameters
    spki = _der(0x30, _der(0x30, rsa_oid) + _der(0x03, b"\x00" + public))
    body = base64.encodebytes(private).decode().replace("\n", "")
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    pem = "\n".join(["-----BEGIN RSA PRIVATE KEY-----", *lines, "-----END RSA PRIVATE KEY-----", ""])
    return pem.encode(), base64.b64encode(spki).decode()
