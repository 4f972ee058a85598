"""mail.auth: real DKIM signatures made with a test key, SPF and DMARC through a test resolver."""

from __future__ import annotations

from email.message import EmailMessage

import dkim
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mail.auth import (
    AddrLookup,
    AuthVerdict,
    TxtLookup,
    check_auth,
    check_auth_results,
    dns_addrs,
    dns_txt,
)
from tests.mail._rsakey import rsa_key

DKIM_FAILS = (
    "The DKIM signature of x.org on your mail does not verify (the mail was changed on its way, "
    "or not signed with x.org's key), so it was refused; send it again straight from your x.org "
    "mailbox, not through a forwarder or list."
)
DMARC_REJECTS = (
    "x.org asks receivers to reject mail that passes neither DKIM nor SPF for x.org (DMARC), and "
    "yours passed neither, so it was refused; send it again straight from your x.org mailbox, not "
    "through a forwarder or list."
)
DKIM_REQUIRED = (
    "This referee takes only mail signed with DKIM by the sender's domain, and yours has no valid "
    "DKIM signature of x.org; send it from a mail provider that signs its mail (most hosted "
    "providers do) or ask the game's owner."
)
SPF_FAILS = (
    "The server 127.0.0.2 that delivered your mail is not allowed to send mail for x.org (SPF), so "
    "it was refused; send it again through your own mail provider's servers."
)


@pytest.fixture(scope="module")
def key() -> tuple[bytes, str]:
    """A 2048-bit RSA key made here: (private key PEM, the p= of its DKIM key record)."""
    return rsa_key(seed=17)


def resolver(records: dict[str, list[str]]) -> TxtLookup:
    """A TXT lookup answered from a dict, as a DNS server would (names case-insensitive)."""
    return lambda name: records.get(name.lower().rstrip("."), [])


def mail(sender: str = "Alice <alice@x.org>", body: str = "buy 3 infantry\n") -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "umpire+g12@referee.org"
    msg["Subject"] = "[Umpire g12] orders"
    msg["Message-ID"] = "<m1@x.org>"
    msg.set_content(body)
    return bytes(msg)


def sign(raw: bytes, private: bytes, domain: str = "x.org", selector: str = "s1") -> bytes:
    header: bytes = dkim.sign(
        raw, selector.encode(), domain.encode(), private,
        include_headers=[b"from", b"to", b"subject", b"message-id"],
    )
    return header + raw


def dns(p: str) -> dict[str, list[str]]:
    """x.org's DKIM key s1 published."""
    return {"s1._domainkey.x.org": [f"v=DKIM1; k=rsa; p={p}"]}


def test_a_signed_mail_passes(key: tuple[bytes, str]) -> None:
    private, p = key
    got = check_auth(sign(mail(), private), "alice@x.org", txt=resolver(dns(p)))
    assert got == AuthVerdict(
        ok=True, dkim="pass", dkim_domains=("x.org",), spf="skipped", dmarc="none", reason=""
    )


def test_a_signed_mail_passes_dmarc_reject(key: tuple[bytes, str]) -> None:
    private, p = key
    records = dns(p) | {"_dmarc.x.org": ["v=DMARC1; p=reject; rua=mailto:d@x.org"]}
    got = check_auth(sign(mail(), private), "alice@x.org", txt=resolver(records))
    assert (got.ok, got.dkim, got.dmarc) == (True, "pass", "pass")


def test_a_body_changed_after_signing_is_refused(key: tuple[bytes, str]) -> None:
    private, p = key
    signed = sign(mail(), private).replace(b"buy 3 infantry", b"buy 9 bombers!")
    got = check_auth(signed, "alice@x.org", txt=resolver(dns(p)))
    assert (got.ok, got.dkim, got.dkim_domains) == (False, "fail", ())
    assert got.reason == DKIM_FAILS


def test_a_header_changed_after_signing_is_refused(key: tuple[bytes, str]) -> None:
    private, p = key
    signed = sign(mail(), private).replace(b"[Umpire g12]", b"[Umpire g13]")
    got = check_auth(signed, "alice@x.org", txt=resolver(dns(p)))
    assert (got.ok, got.reason) == (False, DKIM_FAILS)


def test_a_signature_with_a_body_length_limit_vouches_for_nothing(key: tuple[bytes, str]) -> None:
    private, p = key
    header: bytes = dkim.sign(mail(), b"s1", b"x.org", private, length=True,
                              include_headers=[b"from", b"to", b"subject", b"message-id"])
    assert b"l=" in header
    appended = header + mail() + b"buy 9 bombers\r\n"
    assert dkim.verify(appended, dnsfunc=lambda name, timeout=5: f"v=DKIM1; p={p}".encode())
    got = check_auth(appended, "alice@x.org", txt=resolver(dns(p)))
    assert (got.ok, got.dkim, got.dkim_domains) == (True, "none", ())
    got = check_auth(appended, "alice@x.org", txt=resolver(dns(p)), require_dkim=True)
    assert (got.ok, got.reason) == (False, DKIM_REQUIRED)


def test_a_lookup_that_raises_finds_nothing(key: tuple[bytes, str]) -> None:
    private, _ = key

    def broken(name: str) -> list[str]:
        raise OSError("resolver down")

    def broken_addrs(name: str, kind: str) -> list[str]:
        raise OSError("resolver down")

    got = check_auth(sign(mail(), private), "alice@x.org", txt=broken, peer_ip="127.0.0.1",
                     addrs=broken_addrs)
    assert (got.ok, got.dkim, got.spf, got.dmarc) == (False, "fail", "none", "none")
    assert got.reason == DKIM_FAILS


def test_a_signature_whose_key_is_not_published_is_refused(key: tuple[bytes, str]) -> None:
    private, p = key
    got = check_auth(sign(mail(), private, selector="gone"), "alice@x.org", txt=resolver(dns(p)))
    assert (got.ok, got.dkim, got.reason) == (False, "fail", DKIM_FAILS)


def test_a_signature_of_another_domain_is_not_aligned(key: tuple[bytes, str]) -> None:
    private, p = key
    records = dns(p) | {"s1._domainkey.evil.org": [f"v=DKIM1; k=rsa; p={p}"]}
    forged = sign(mail('"alice@x.org" <alice@x.org>'), private, domain="evil.org")
    # It verifies, for evil.org; x.org publishes nothing, so nothing refuses it here.
    got = check_auth(forged, "alice@x.org", txt=resolver(records))
    assert (got.ok, got.dkim, got.dkim_domains, got.dmarc) == (True, "pass", ("evil.org",), "none")
    # With x.org's DMARC policy, it is refused; and when the referee requires DKIM.
    records["_dmarc.x.org"] = ["v=DMARC1; p=reject"]
    got = check_auth(forged, "alice@x.org", txt=resolver(records))
    assert (got.ok, got.dmarc, got.reason) == (False, "fail", DMARC_REJECTS)
    del records["_dmarc.x.org"]
    got = check_auth(forged, "alice@x.org", txt=resolver(records), require_dkim=True)
    assert (got.ok, got.reason) == (False, DKIM_REQUIRED)


def test_a_failing_signature_of_another_domain_is_not_a_forgery_of_x(
    key: tuple[bytes, str],
) -> None:
    private, p = key
    signed = sign(mail(), private, domain="list.example").replace(b"buy 3", b"buy 4")
    got = check_auth(signed, "alice@x.org", txt=resolver(dns(p)))
    assert (got.ok, got.dkim) == (True, "fail")


def test_a_subdomain_signature_aligns_relaxed_not_strict(key: tuple[bytes, str]) -> None:
    private, p = key
    records = {"s1._domainkey.mail.x.org": [f"v=DKIM1; p={p}"], "_dmarc.x.org": ["v=DMARC1; p=reject"]}
    signed = sign(mail(), private, domain="mail.x.org")
    assert check_auth(signed, "alice@x.org", txt=resolver(records)).dmarc == "pass"
    records["_dmarc.x.org"] = ["v=DMARC1; p=reject; adkim=s"]
    got = check_auth(signed, "alice@x.org", txt=resolver(records))
    assert (got.ok, got.dmarc, got.reason) == (False, "fail", DMARC_REJECTS)


def test_country_second_levels_are_not_one_organization(key: tuple[bytes, str]) -> None:
    private, p = key
    records = {
        "s1._domainkey.evil.co.uk": [f"v=DKIM1; p={p}"],
        "_dmarc.bank.co.uk": ["v=DMARC1; p=quarantine"],
    }
    got = check_auth(sign(mail("a@bank.co.uk"), private, domain="evil.co.uk"), "a@bank.co.uk",
                     txt=resolver(records))
    assert (got.ok, got.dkim, got.dmarc) == (False, "pass", "fail")
    assert got.reason.startswith("bank.co.uk asks receivers to quarantine mail")


@pytest.mark.parametrize(
    ("record", "ok"),
    [
        ("v=DMARC1; p=none", True),
        ("v=DMARC1; p=quarantine; pct=10", False),
        ("v=DMARC1; p=reject", False),
        ("v=DMARC1; p=bogus", True),  # a bad p= counts as none
        ("v=spf1 -all", True),  # not a DMARC record
    ],
)
def test_dmarc_policy_decides_an_unsigned_mail(record: str, ok: bool) -> None:
    got = check_auth(mail(), "alice@x.org", txt=resolver({"_dmarc.x.org": [record]}))
    assert got.ok is ok
    assert got.dmarc == ("none" if record.startswith("v=spf1") else "fail")


def test_two_dmarc_records_are_no_policy() -> None:
    records = {"_dmarc.x.org": ["v=DMARC1; p=reject", "v=DMARC1; p=none"]}
    assert check_auth(mail(), "alice@x.org", txt=resolver(records)).dmarc == "none"


def test_the_organizational_policy_and_its_subdomain_policy() -> None:
    records = {"_dmarc.x.org": ["v=DMARC1; p=none; sp=reject"]}
    got = check_auth(mail("a@games.x.org"), "a@games.x.org", txt=resolver(records))
    assert (got.ok, got.dmarc) == (False, "fail")
    assert got.reason.startswith("games.x.org asks receivers to reject mail")
    assert check_auth(mail(), "alice@x.org", txt=resolver(records)).ok


def test_no_records_at_all_is_ok_unless_dkim_is_required() -> None:
    nothing = resolver({})
    assert check_auth(mail(), "alice@x.org", txt=nothing) == AuthVerdict(
        ok=True, dkim="none", dkim_domains=(), spf="skipped", dmarc="none", reason=""
    )
    got = check_auth(mail(), "alice@x.org", txt=nothing, require_dkim=True)
    assert (got.ok, got.reason) == (False, DKIM_REQUIRED)


def test_no_sender_is_refused() -> None:
    got = check_auth(mail(), "", txt=resolver({}))
    assert got.reason == (
        "Your mail has no single valid From address, so who sent it cannot be checked; send it "
        "again from your registered address alone."
    )
    assert not check_auth_results(mail(), "nobody", authserv_id="mx.example").ok


# --- SPF -------------------------------------------------------------------------------------


def spf(records: dict[str, list[str]], ip: str = "127.0.0.1", mail_from: str | None = None,
        helo: str | None = None) -> str:
    return check_auth(mail(), "alice@x.org", txt=resolver(records), peer_ip=ip,
                      mail_from=mail_from, helo=helo).spf


def test_spf_pass_and_fail_for_loopback() -> None:
    records = {"x.org": ["some other text", "v=spf1 ip4:127.0.0.1 -all"],
               "_dmarc.x.org": ["v=DMARC1; p=reject"]}
    good = check_auth(mail(), "alice@x.org", txt=resolver(records), peer_ip="127.0.0.1",
                      mail_from="alice@x.org")
    assert (good.ok, good.spf, good.dmarc) == (True, "pass", "pass")
    bad = check_auth(mail(), "alice@x.org", txt=resolver(records), peer_ip="127.0.0.2",
                     mail_from="alice@x.org")
    assert (bad.ok, bad.spf, bad.dmarc, bad.reason) == (False, "fail", "fail", DMARC_REJECTS)
    del records["_dmarc.x.org"]
    bad = check_auth(mail(), "alice@x.org", txt=resolver(records), peer_ip="127.0.0.2")
    assert (bad.ok, bad.spf, bad.reason) == (False, "fail", SPF_FAILS)


def test_spf_fail_with_an_aligned_dkim_pass_is_forwarding_not_forgery(
    key: tuple[bytes, str],
) -> None:
    private, p = key
    records = dns(p) | {"x.org": ["v=spf1 ip4:192.0.2.0/24 -all"]}
    got = check_auth(sign(mail(), private), "alice@x.org", txt=resolver(records),
                     peer_ip="127.0.0.1")
    assert (got.ok, got.spf, got.dkim) == (True, "fail", "pass")


def test_spf_of_an_envelope_sender_of_another_domain_is_not_aligned() -> None:
    records = {"bounces.example": ["v=spf1 -all"]}
    got = check_auth(mail(), "alice@x.org", txt=resolver(records), peer_ip="127.0.0.1",
                     mail_from="list@bounces.example")
    assert (got.ok, got.spf) == (True, "fail")


@pytest.mark.parametrize(
    ("records", "ip", "result"),
    [
        ({}, "127.0.0.1", "none"),
        ({"x.org": ["v=spf1 ip4:127.0.0.0/8 ~all"]}, "127.9.9.9", "pass"),
        ({"x.org": ["v=spf1 ip4:10.0.0.0/8 ~all"]}, "127.0.0.1", "softfail"),
        ({"x.org": ["v=spf1 ip4:10.0.0.0/8 ?all"]}, "127.0.0.1", "neutral"),
        ({"x.org": ["v=spf1 ip4:10.0.0.0/8"]}, "127.0.0.1", "neutral"),
        ({"x.org": ["v=spf1 ip6:::1 -all"]}, "::1", "pass"),
        ({"x.org": ["v=spf1 ip6:2001:db8::/32 -all"]}, "2001:db8::5", "pass"),
        ({"x.org": ["v=spf1 ip4:127.0.0.1 -all"]}, "::ffff:127.0.0.1", "pass"),
        ({"x.org": ["v=spf1 ip6:::1 -all"]}, "127.0.0.1", "fail"),
        ({"x.org": ["v=spf1 include:_spf.mail.example -all"],
          "_spf.mail.example": ["v=spf1 ip4:127.0.0.1 -all"]}, "127.0.0.1", "pass"),
        ({"x.org": ["v=spf1 include:_spf.mail.example -all"],
          "_spf.mail.example": ["v=spf1 ip4:127.0.0.1 -all"]}, "127.0.0.3", "fail"),
        ({"x.org": ["v=spf1 include:nothing.example -all"]}, "127.0.0.1", "permerror"),
        ({"x.org": ["v=spf1 redirect=_spf.x.org"],
          "_spf.x.org": ["v=spf1 ip4:127.0.0.1 -all"]}, "127.0.0.1", "pass"),
        ({"x.org": ["v=spf1 redirect=_spf.x.org"],
          "_spf.x.org": ["v=spf1 ip4:127.0.0.1 -all"]}, "127.0.0.4", "fail"),
        ({"x.org": ["v=spf1 include:_spf.%{d} -all"],
          "_spf.x.org": ["v=spf1 ip4:127.0.0.1 -all"]}, "127.0.0.1", "pass"),
        ({"x.org": ["v=spf1 include:%{ir}.%{l}.ip.x.org -all"],
          "1.0.0.127.alice.ip.x.org": ["v=spf1 +all"]}, "127.0.0.1", "pass"),
        ({"x.org": ["v=spf1 include:x.org -all"]}, "127.0.0.1", "permerror"),  # a loop
        ({"x.org": ["v=spf1 -all", "v=spf1 +all"]}, "127.0.0.1", "permerror"),
        ({"x.org": ["v=spf1 ip4:999.0.0.1 -all"]}, "127.0.0.1", "permerror"),
        ({"x.org": ["v=spf1 foo:bar -all"]}, "127.0.0.1", "permerror"),
        ({"x.org": ["v=spf1 include:%{z} -all"]}, "127.0.0.1", "permerror"),
        ({"x.org": ["v=spf1 exp=explain.x.org unknown-mod=1 ip4:127.0.0.1 -all"]}, "127.0.0.1",
         "pass"),
        ({"x.org": ["V=SPF1 IP4:127.0.0.1 -ALL"]}, "127.0.0.1", "pass"),
        # a and mx need A/MX lookups, which a TXT lookup cannot give: where they could have
        # decided, the result is neutral; where they could not have changed it, it stands.
        ({"x.org": ["v=spf1 mx a ip4:127.0.0.1 -all"]}, "127.0.0.1", "pass"),
        ({"x.org": ["v=spf1 mx -all"]}, "127.0.0.1", "neutral"),
        ({"x.org": ["v=spf1 -a ip4:127.0.0.1 -all"]}, "127.0.0.1", "neutral"),
        ({"x.org": ["v=spf1 -mx -all"]}, "127.0.0.1", "fail"),
        ({"x.org": ["v=spf1 " + " ".join(["a"] * 11) + " -all"]}, "127.0.0.1", "permerror"),
    ],
)
def test_spf_evaluation(records: dict[str, list[str]], ip: str, result: str) -> None:
    assert spf(records, ip=ip, mail_from="alice@x.org") == result


def addresses(records: dict[tuple[str, str], list[str]]) -> AddrLookup:
    """An A/AAAA/MX lookup answered from a dict."""
    return lambda name, kind: records.get((name.lower().rstrip("."), kind), [])


X_ADDRESSES = {
    ("x.org", "MX"): ["mx1.x.org", "mx2.x.org"],
    ("mx1.x.org", "A"): ["192.0.2.1"],
    ("mx2.x.org", "A"): ["127.0.0.1"],
    ("mx2.x.org", "AAAA"): ["::1"],
    ("x.org", "A"): ["192.0.2.80"],
    ("web.x.org", "A"): ["127.0.0.7"],
    ("127.0.0.1.allow.x.org", "A"): ["127.0.0.2"],
}


@pytest.mark.parametrize(
    ("record", "ip", "result"),
    [
        ("v=spf1 mx -all", "127.0.0.1", "pass"),
        ("v=spf1 mx -all", "::1", "pass"),
        ("v=spf1 mx -all", "127.0.0.3", "fail"),
        ("v=spf1 a -all", "192.0.2.80", "pass"),
        ("v=spf1 a -all", "127.0.0.1", "fail"),
        ("v=spf1 a:web.x.org -all", "127.0.0.7", "pass"),
        ("v=spf1 a:web.x.org/24 -all", "127.0.0.200", "pass"),
        ("v=spf1 a/24//64 -all", "192.0.2.5", "pass"),
        ("v=spf1 mx:x.org/8 -all", "127.1.2.3", "pass"),
        ("v=spf1 exists:%{i}.allow.x.org -all", "127.0.0.1", "pass"),
        ("v=spf1 exists:%{i}.allow.x.org -all", "192.0.2.9", "fail"),
        ("v=spf1 a/33 -all", "127.0.0.1", "permerror"),
        ("v=spf1 exists -all", "127.0.0.1", "permerror"),
        ("v=spf1 a:n1.x.org a:n2.x.org a:n3.x.org -all", "127.0.0.1", "permerror"),  # 3 voids
        ("v=spf1 ptr -all", "127.0.0.1", "neutral"),  # ptr is never evaluated
    ],
)
def test_spf_a_mx_exists_with_an_address_lookup(record: str, ip: str, result: str) -> None:
    got = check_auth(mail(), "alice@x.org", txt=resolver({"x.org": [record]}), peer_ip=ip,
                     addrs=addresses(X_ADDRESSES))
    assert got.spf == result


def test_spf_mx_with_too_many_hosts_is_a_permerror() -> None:
    many = {("x.org", "MX"): [f"mx{i}.x.org" for i in range(11)]}
    got = check_auth(mail(), "alice@x.org", txt=resolver({"x.org": ["v=spf1 mx -all"]}),
                     peer_ip="127.0.0.1", addrs=addresses(many))
    assert got.spf == "permerror"


def test_spf_pass_through_mx_lets_dmarc_pass_an_unsigned_mail() -> None:
    records = {"x.org": ["v=spf1 mx -all"], "_dmarc.x.org": ["v=DMARC1; p=reject"]}
    got = check_auth(mail(), "alice@x.org", txt=resolver(records), peer_ip="127.0.0.1",
                     addrs=addresses(X_ADDRESSES))
    assert (got.ok, got.spf, got.dmarc) == (True, "pass", "pass")
    # Without the address lookup the same mail cannot pass SPF, and DMARC refuses it.
    got = check_auth(mail(), "alice@x.org", txt=resolver(records), peer_ip="127.0.0.1")
    assert (got.ok, got.spf, got.reason) == (False, "neutral", DMARC_REJECTS)


def test_spf_identity_is_the_envelope_then_helo() -> None:
    records = {
        "x.org": ["v=spf1 -all"],
        "relay.example": ["v=spf1 ip4:127.0.0.1 -all"],
        "mx.relay.example": ["v=spf1 ip4:127.0.0.1 -all"],
    }
    assert spf(records) == "fail"  # no envelope known: the From address stands in
    assert spf(records, mail_from="<bounce@relay.example>") == "pass"
    assert spf(records, mail_from="", helo="mx.relay.example") == "pass"
    assert spf(records, mail_from="", helo=None) == "none"
    assert spf(records, ip="not an ip") == "skipped"


# --- Authentication-Results (IMAP mode) ------------------------------------------------------


def with_results(*headers: str, sender: str = "alice@x.org") -> bytes:
    lines = "".join(f"Authentication-Results: {h}\r\n" for h in headers)
    return lines.encode() + mail(sender)


PROVIDER = "mx.provider.example"


def test_provider_results_pass() -> None:
    raw = with_results(
        f"{PROVIDER}; dkim=pass (2048-bit key; secure) header.d=x.org header.s=s1 "
        'header.b="abc;def"; spf=pass (sender IP is 192.0.2.1) smtp.mailfrom=alice@x.org; '
        "dmarc=pass (p=REJECT sp=REJECT dis=NONE) header.from=x.org"
    )
    assert check_auth_results(raw, "alice@x.org", authserv_id=PROVIDER) == AuthVerdict(
        ok=True, dkim="pass", dkim_domains=("x.org",), spf="pass", dmarc="pass", reason=""
    )


def test_only_the_providers_topmost_header_is_trusted() -> None:
    raw = with_results(
        f"{PROVIDER.upper()}; dkim=none; spf=softfail smtp.mailfrom=x.org; "
        "dmarc=fail (p=REJECT sp=REJECT dis=NONE) header.from=x.org",
        # written by the sender, below the provider's: ignored, same id or not
        f"{PROVIDER}; dkim=pass header.d=x.org; dmarc=pass header.from=x.org",
        "evil.org; dkim=pass header.i=@x.org",
    )
    got = check_auth_results(raw, "alice@x.org", authserv_id=PROVIDER)
    assert (got.ok, got.dkim, got.spf, got.dmarc, got.reason) == (
        False, "none", "softfail", "fail", DMARC_REJECTS,
    )


def test_results_of_another_server_are_ignored() -> None:
    raw = with_results("evil.org; dkim=pass header.d=x.org; dmarc=pass header.from=x.org")
    got = check_auth_results(raw, "alice@x.org", authserv_id=PROVIDER)
    assert (got.ok, got.dkim, got.dmarc) == (True, "none", "none")
    got = check_auth_results(raw, "alice@x.org", authserv_id=PROVIDER, require_dkim=True)
    assert (got.ok, got.reason) == (False, DKIM_REQUIRED)


@pytest.mark.parametrize(
    ("dmarc", "ok"),
    [
        ("dmarc=fail (p=NONE sp=NONE dis=NONE) header.from=x.org", True),
        ("dmarc=fail (p=QUARANTINE dis=QUARANTINE) header.from=x.org", False),
        ("dmarc=fail action=oreject header.from=x.org", False),  # Microsoft's wording
        ("dmarc=fail policy.dmarc=reject header.from=x.org", False),
        ("dmarc=fail header.from=x.org", True),  # policy not reported
        ("dmarc=fail (p=REJECT) header.from=other.example", True),  # about another From
    ],
)
def test_reported_dmarc_policy(dmarc: str, ok: bool) -> None:
    got = check_auth_results(with_results(f"{PROVIDER} 1; {dmarc}"), "alice@x.org",
                             authserv_id=PROVIDER)
    assert got.ok is ok
    if not ok:
        assert got.reason.startswith("x.org asks receivers to")


def test_reported_dkim_failure_of_the_from_domain_is_refused() -> None:
    raw = with_results(f"{PROVIDER}; dkim=fail (body hash did not verify) header.i=@x.org")
    got = check_auth_results(raw, "alice@x.org", authserv_id=PROVIDER)
    assert (got.ok, got.dkim, got.reason) == (False, "fail", DKIM_FAILS)
    raw = with_results(
        f"{PROVIDER}; dkim=fail header.d=x.org; dkim=pass header.d=x.org; dkim=neutral header.d=y"
    )
    got = check_auth_results(raw, "alice@x.org", authserv_id=PROVIDER)
    assert (got.ok, got.dkim_domains) == (True, ("x.org",))


def test_folded_results_header_with_nested_comments() -> None:
    raw = (
        f"Authentication-Results: {PROVIDER} (version (9.1));\r\n"
        "\tdkim=pass (good (really)) header.d=games.x.org;\r\n"
        "\tspf=hardfail smtp.mailfrom=x.org\r\n"
    ).encode() + mail()
    got = check_auth_results(raw, "alice@x.org", authserv_id=PROVIDER)
    assert (got.ok, got.dkim_domains, got.spf) == (True, ("games.x.org",), "fail")


# --- robustness ------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=2000), st.sampled_from(["alice@x.org", "", "x", "a@b"]))
def test_junk_never_raises(raw: bytes, sender: str) -> None:
    records = {"x.org": ["v=spf1 include:x.org"], "_dmarc.x.org": ["v=DMARC1; p=reject"]}
    for got in (
        check_auth(raw, sender, txt=resolver(records), peer_ip="127.0.0.1"),
        check_auth(b"DKIM-Signature: v=1; d=x.org; s=s1; b=;\r\n" + raw, sender,
                   txt=resolver(records)),
        check_auth_results(b"Authentication-Results: " + raw, sender, authserv_id="x"),
    ):
        assert isinstance(got, AuthVerdict)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300))
def test_any_spf_record_gives_a_result(record: str) -> None:
    got = spf({"x.org": ["v=spf1 " + record]}, mail_from="alice@x.org")
    assert got in ("pass", "fail", "softfail", "neutral", "none", "temperror", "permerror")


def test_dns_lookups_give_nothing_for_a_name_they_cannot_ask() -> None:
    lookup = dns_txt(timeout=0.5)
    assert lookup("a" * 300 + ".example") == []
    assert lookup("bad..name") == []
    addrs = dns_addrs(timeout=0.5)
    assert addrs("bad..name", "A") == []
    assert addrs("x.org", "TXT") == []


def test_a_local_address_has_nothing_to_check_unless_dkim_is_required() -> None:
    """alice@localhost (a game by mail on one machine): no DNS to ask, so nothing is refused
    for it, except where every mail must be signed."""
    raw = mail("alice@localhost")
    got = check_auth(raw, "alice@localhost", txt=resolver({}), peer_ip="127.0.0.1")
    assert got.ok and (got.dkim, got.spf, got.dmarc) == ("none", "skipped", "none")
    strict = check_auth(raw, "alice@localhost", txt=resolver({}), require_dkim=True)
    assert not strict.ok and "cannot be signed" in strict.reason
    assert not check_auth(raw, "@localhost", txt=resolver({})).ok
