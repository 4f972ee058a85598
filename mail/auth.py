"""Who sent a mail, checked where the receiving side can: DKIM, SPF and DMARC; never raises.

Two ways in. The built-in SMTP receiver has the raw mail and the connecting IP: `check_auth`
verifies the DKIM signatures itself, evaluates SPF for that IP and reads the sender's DMARC policy,
all through a TXT lookup (the real resolver in service, a dict in tests). A hosted mailbox read
over IMAP has no IP: `check_auth_results` trusts the provider's Authentication-Results header and
nothing else. Neither is the whole story: the seat's bound address and token decide; these checks
only refuse mail that its own domain says is not from it.

The organizational domain of RFC 7489 needs the Public Suffix List; `_org_domain` approximates it
with the last two labels (three under a two-letter country code with a common second level such as
co.uk or com.au). Where it errs, it errs towards "not aligned", except under registry suffixes it
does not know, where two unrelated registrants could look aligned; the token still stands.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass
from email import policy
from email.parser import BytesHeaderParser

import dkim
import dkim.util
import dns.exception
import dns.resolver

TxtLookup = Callable[[str], list[str]]
"""The TXT records of a DNS name, each as one string ([] when none or on any error)."""

AddrLookup = Callable[[str, str], list[str]]
"""Records of a DNS name by type: "A", "AAAA" (addresses) or "MX" (host names); [] when none."""

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_MAX_SIGNATURES = 5  # each costs a DNS lookup and an RSA verification
_MAX_HEADER_BYTES = 256_000
_SPF_LOOKUPS = 10  # RFC 7208 4.6.4: include, a, mx, ptr, exists and redirect count
_SPF_RESULTS = {"+": "pass", "-": "fail", "~": "softfail", "?": "neutral"}
_SPF_VOIDS = 2  # RFC 7208 4.6.4: lookups that find nothing
_SPF_MX_HOSTS = 10
_UNKNOWN = "unknown"  # internal SPF result: a mechanism this side could not evaluate decided it
_HAS_ED25519 = importlib.util.find_spec("nacl") is not None  # dkimpy verifies ed25519 with PyNaCl


@dataclass(frozen=True)
class AuthVerdict:
    """What the sender's domain says about a mail."""

    ok: bool  # False: refuse the mail
    dkim: str  # "pass" (a signature verified) | "fail" (signatures, none verified) | "none"
    dkim_domains: tuple[str, ...]  # d= of the signatures that verified
    spf: str  # pass | fail | softfail | neutral | none | skipped | temperror | permerror
    dmarc: str  # "pass" | "fail" | "none" (no policy published, or none reported)
    reason: str  # for a refusal: one sentence to the sender, what failed and what to do


@dataclass(frozen=True)
class _Dmarc:
    policy: str  # "none" | "quarantine" | "reject" | "" (not known)
    strict_dkim: bool = False
    strict_spf: bool = False
    result: str | None = None  # as reported by a trusted Authentication-Results header


def check_auth(
    raw: bytes,
    sender: str,
    *,
    txt: TxtLookup,
    peer_ip: str | None = None,
    mail_from: str | None = None,
    helo: str | None = None,
    require_dkim: bool = False,
    addrs: AddrLookup | None = None,
) -> AuthVerdict:
    """Check DKIM, SPF (when the connecting IP is known) and DMARC of a raw mail from sender.

    mail_from is the SMTP envelope sender ("" for a bounce, then the HELO name is checked); None
    means not known, and the From address stands in for it. addrs answers the SPF mechanisms a,
    mx and exists; without it they are not evaluated (see the SPF section). Blocking (DNS, RSA):
    run it in a thread.
    """
    domain = _domain(sender)
    if not domain:
        if _local(sender):
            return _local_verdict(require_dkim)
        return _no_sender()
    txt = _guarded_txt(txt)
    addrs = _guarded_addrs(addrs) if addrs is not None else None
    try:
        signatures = _dkim_signatures(raw, txt)
    except Exception:  # dkimpy on a mail it cannot even split into headers and body
        signatures = []
    spf, spf_domain, ip = "skipped", "", None
    if peer_ip is not None:
        try:
            ip = _ip(peer_ip)
        except ValueError:
            ip = None
        if ip is not None:
            spf, spf_domain = _spf(ip, sender, mail_from, helo, txt, addrs)
    dmarc = _dmarc_policy(domain, txt)
    return _judge(domain, signatures, spf, spf_domain, ip, dmarc, require_dkim)


def check_auth_results(
    raw: bytes, sender: str, *, authserv_id: str, require_dkim: bool = False
) -> AuthVerdict:
    """Judge a mail by the Authentication-Results of the mailbox provider (IMAP mode).

    Only the topmost header whose authserv-id is the provider's counts: the provider prepends its
    own on delivery, so anything below it (a header with the same id included) was written before,
    possibly by the sender. Results other than pass/fail for DKIM (neutral, policy, temperror...)
    count as no signature. A provider that writes no such header leaves everything "none".
    """
    domain = _domain(sender)
    if not domain:
        return _no_sender()
    results = _trusted_results(raw, authserv_id)
    signatures: list[tuple[str, str]] = []
    spf, spf_domain = "none", ""
    dmarc: _Dmarc | None = None
    for method, result, props, comments in results:
        if method == "dkim" and result in ("pass", "fail"):
            signed = props.get("header.d") or props.get("header.i", "").rpartition("@")[2]
            signatures.append((signed.lower(), result))
        elif method == "spf" and spf == "none":
            spf = {"hardfail": "fail"}.get(result, result)
            if spf not in ("pass", "fail", "softfail", "neutral", "temperror", "permerror"):
                spf = "none"
            identity = props.get("smtp.mailfrom") or props.get("smtp.helo", "")
            spf_domain = identity.rpartition("@")[2].lower()
        elif method == "dmarc" and dmarc is None:
            about = props.get("header.from", domain).lower()
            if about == domain and result in ("pass", "fail"):
                dmarc = _Dmarc(policy=_reported_policy(props, comments), result=result)
    return _judge(domain, signatures, spf, spf_domain, None, dmarc, require_dkim)


def dns_txt(timeout: float = 3.0) -> TxtLookup:
    """The real TXT lookup (dnspython, the system's resolvers), giving up after timeout seconds."""
    try:
        resolver: dns.resolver.Resolver | None = dns.resolver.Resolver()
    except Exception:  # no resolv.conf: every lookup finds nothing
        resolver = None
    if resolver is not None:
        resolver.lifetime = timeout

    def lookup(name: str) -> list[str]:
        if resolver is None:
            return []
        try:
            answer = resolver.resolve(name, "TXT")
        except (dns.exception.DNSException, ValueError, UnicodeError):
            return []
        return [
            b"".join(getattr(record, "strings", ())).decode("utf-8", errors="replace")
            for record in answer
        ]

    return lookup


def dns_addrs(timeout: float = 3.0) -> AddrLookup:
    """The real A/AAAA/MX lookup (dnspython), giving up after timeout seconds; errors give []."""
    try:
        resolver: dns.resolver.Resolver | None = dns.resolver.Resolver()
    except Exception:
        resolver = None
    if resolver is not None:
        resolver.lifetime = timeout

    def lookup(name: str, kind: str) -> list[str]:
        if resolver is None or kind not in ("A", "AAAA", "MX"):
            return []
        try:
            answer = resolver.resolve(name, kind)
        except (dns.exception.DNSException, ValueError, UnicodeError):
            return []
        if kind == "MX":
            return [str(getattr(r, "exchange", "")).rstrip(".") for r in answer]
        return [str(getattr(r, "address", "")) for r in answer]

    return lookup


def _guarded_txt(txt: TxtLookup) -> TxtLookup:
    """The lookup, with an error of its own read as "nothing found" (the checks never raise)."""

    def lookup(name: str) -> list[str]:
        try:
            return [str(record) for record in txt(name)]
        except Exception:
            return []

    return lookup


def _guarded_addrs(addrs: AddrLookup) -> AddrLookup:
    def lookup(name: str, kind: str) -> list[str]:
        try:
            return [str(record) for record in addrs(name, kind)]
        except Exception:
            return []

    return lookup


# --- the verdict -----------------------------------------------------------------------------


def _judge(
    domain: str,
    signatures: list[tuple[str, str]],
    spf: str,
    spf_domain: str,
    ip: IpAddress | None,
    dmarc: _Dmarc | None,
    require_dkim: bool,
) -> AuthVerdict:
    passed = tuple(dict.fromkeys(d for d, result in signatures if result == "pass"))
    dkim_result = "pass" if passed else "fail" if signatures else "none"
    aligned_pass = any(_aligned(d, domain, strict=False) for d in passed)
    aligned_fail = [d for d, r in signatures if r == "fail" and _aligned(d, domain, strict=False)]
    spf_aligned = spf_domain and _aligned(spf_domain, domain, strict=False)

    dmarc_result = "none"
    if dmarc is not None:
        dmarc_result = dmarc.result or (
            "pass"
            if any(_aligned(d, domain, strict=dmarc.strict_dkim) for d in passed)
            or (spf == "pass" and spf_domain and _aligned(spf_domain, domain, dmarc.strict_spf))
            else "fail"
        )

    def verdict(reason: str = "") -> AuthVerdict:
        return AuthVerdict(not reason, dkim_result, passed, spf, dmarc_result, reason)

    # A failing signature beside a passing one of the same domain (a key being rotated, an
    # algorithm this side cannot check) is not a forgery: the passing one vouches for the mail.
    if aligned_fail and not aligned_pass:
        return verdict(
            f"The DKIM signature of {aligned_fail[0]} on your mail does not verify (the mail was "
            f"changed on its way, or not signed with {aligned_fail[0]}'s key), so it was refused; "
            f"send it again straight from your {domain} mailbox, not through a forwarder or list."
        )
    if dmarc is not None and dmarc_result == "fail" and dmarc.policy in ("reject", "quarantine"):
        return verdict(
            f"{domain} asks receivers to {dmarc.policy} mail that passes neither DKIM nor SPF for "
            f"{domain} (DMARC), and yours passed neither, so it was refused; send it again "
            f"straight from your {domain} mailbox, not through a forwarder or list."
        )
    if spf == "fail" and spf_aligned and not aligned_pass:
        server = f"The server {ip}" if ip is not None else "The server"
        return verdict(
            f"{server} that delivered your mail is not allowed to send mail for {spf_domain} "
            f"(SPF), so it was refused; send it again through your own mail provider's servers."
        )
    if require_dkim and not aligned_pass:
        return verdict(
            f"This referee takes only mail signed with DKIM by the sender's domain, and yours has "
            f"no valid DKIM signature of {domain}; send it from a mail provider that signs its "
            f"mail (most hosted providers do) or ask the game's owner."
        )
    return verdict()


def _local(address: str) -> bool:
    """An address of a single-label domain (alice@localhost): a user of a host, not of the
    DNS; nothing can be looked up for it (a game by mail on one machine, docs/mail.md)."""
    local, at, domain = address.strip().lower().rpartition("@")
    return bool(at and local and _LABEL.fullmatch(domain.rstrip(".")))


def _local_verdict(require_dkim: bool) -> AuthVerdict:
    reason = ("This referee takes only mail signed with DKIM by the sender's domain, and a "
              "local address (no domain in the DNS) cannot be signed." if require_dkim else "")
    return AuthVerdict(ok=not require_dkim, dkim="none", dkim_domains=(), spf="skipped",
                       dmarc="none", reason=reason)


def _no_sender() -> AuthVerdict:
    return AuthVerdict(
        ok=False,
        dkim="none",
        dkim_domains=(),
        spf="skipped",
        dmarc="none",
        reason="Your mail has no single valid From address, so who sent it cannot be checked; "
        "send it again from your registered address alone.",
    )


def _domain(address: str) -> str:
    local, at, domain = address.strip().lower().rpartition("@")
    return domain.rstrip(".") if at and local and _valid_domain(domain.rstrip(".")) else ""


_LABEL = re.compile(r"(?!-)[a-z0-9_-]{1,63}(?<!-)", re.IGNORECASE)


def _valid_domain(domain: str) -> bool:
    labels = domain.split(".")
    return len(domain) <= 253 and len(labels) >= 2 and all(_LABEL.fullmatch(x) for x in labels)


# Second levels under which country registries sell names (bank.co.uk, shop.com.au, ...).
_SECOND_LEVELS = frozenset(
    {"ac", "co", "com", "edu", "gob", "gov", "go", "gv", "ltd", "mil", "ne", "net", "nic", "nom",
     "or", "org", "plc", "sch"}
)


def _org_domain(domain: str) -> str:
    """The organizational domain, approximated without the Public Suffix List (see the top)."""
    labels = domain.lower().rstrip(".").split(".")
    keep = 3 if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _SECOND_LEVELS else 2
    return ".".join(labels[-keep:])


def _aligned(signed: str, from_domain: str, strict: bool) -> bool:
    signed = signed.lower().rstrip(".")
    if strict:
        return signed == from_domain
    return _org_domain(signed) == _org_domain(from_domain)


# --- DKIM ------------------------------------------------------------------------------------


def _dkim_signatures(raw: bytes, txt: TxtLookup) -> list[tuple[str, str]]:
    """(d=, "pass" | "fail") for each DKIM signature this side can verify."""
    checker = dkim.DKIM(raw)
    headers = [value for name, value in checker.headers if name.lower() == b"dkim-signature"]
    found: list[tuple[str, str]] = []
    for index, value in enumerate(headers[:_MAX_SIGNATURES]):
        try:
            tags = dkim.util.parse_tag_value(value)
        except Exception:
            tags = {}
        signed = bytes(tags.get(b"d", b"")).decode("ascii", errors="replace").strip().lower()
        algorithm = bytes(tags.get(b"a", b"")).strip().lower()
        if algorithm.startswith(b"ed25519") and not _HAS_ED25519:
            continue  # not checkable here: neither pass nor fail
        if b"l" in tags:
            # A body length limit lets anyone append text (orders) below the signed part and keep
            # the signature valid: such a signature vouches for nothing here, either way.
            continue
        try:
            good = bool(checker.verify(idx=index, dnsfunc=_dkim_dns(txt)))
        except Exception:  # dkimpy raises on a malformed signature or key: a failed signature
            good = False
        found.append((signed, "pass" if good else "fail"))
    return found


def _dkim_dns(txt: TxtLookup) -> Callable[..., bytes | None]:
    """The lookup dkimpy calls (a bytes name, a timeout) answered by txt."""

    def lookup(name: bytes, timeout: float = 5) -> bytes | None:
        try:
            host = name.decode("ascii").rstrip(".")
        except UnicodeDecodeError:
            return None
        records = txt(host)
        keys = [r for r in records if "p=" in r] or records
        return keys[0].encode("utf-8", errors="replace") if keys else None

    return lookup


# --- DMARC -----------------------------------------------------------------------------------


def _dmarc_policy(domain: str, txt: TxtLookup) -> _Dmarc | None:
    """The DMARC policy for mail from domain: its own record, else its organizational domain's."""
    tags = _dmarc_record(txt(f"_dmarc.{domain}"))
    subdomain = False
    if tags is None and _org_domain(domain) != domain:
        tags = _dmarc_record(txt(f"_dmarc.{_org_domain(domain)}"))
        subdomain = True
    if tags is None:
        return None
    requested = (tags.get("sp") if subdomain else None) or tags.get("p", "")
    # RFC 7489 6.6.3: a record with a bad p= still counts, as p=none (pct= is not applied).
    policy_ = requested if requested in ("none", "quarantine", "reject") else "none"
    return _Dmarc(
        policy=policy_,
        strict_dkim=tags.get("adkim") == "s",
        strict_spf=tags.get("aspf") == "s",
    )


def _dmarc_record(records: list[str]) -> dict[str, str] | None:
    found = [r for r in records if re.match(r"\s*v\s*=\s*DMARC1\s*(;|$)", r, re.IGNORECASE)]
    if len(found) != 1:  # none, or several: no policy (RFC 7489 6.6.3)
        return None
    tags: dict[str, str] = {}
    for part in found[0].split(";"):
        key, eq, value = part.partition("=")
        if eq:
            tags.setdefault(key.strip().lower(), value.strip().lower())
    return tags


# --- SPF -------------------------------------------------------------------------------------
# A small evaluator of RFC 7208 rather than pyspf: pyspf resolves through a module-wide DNS
# function (patching it is global to the process and races between concurrent checks), and it
# has no type hints. This one sees DNS only through TxtLookup and AddrLookup: it evaluates ip4,
# ip6, include, redirect, all, a, mx, exists and macros, with the lookup limits. ptr (deprecated:
# it needs reverse lookups) is not evaluated, nor are a, mx and exists without an AddrLookup: where
# such a mechanism could have decided the result, the result is "neutral" (neither pass nor fail,
# never a refusal); where it could not have changed it (all before and after agree), it stands.


@dataclass
class _SpfRun:
    ip: IpAddress
    sender: str
    helo: str
    txt: TxtLookup
    addrs: AddrLookup | None
    lookups: int = 0
    voids: int = 0

    def count(self) -> bool:
        """Count a DNS-querying term; False past the limit (permerror)."""
        self.lookups += 1
        return self.lookups <= _SPF_LOOKUPS

    def void(self, found: list[str]) -> bool:
        """Count an answer that found nothing; False past the limit (permerror)."""
        self.voids += not found
        return self.voids <= _SPF_VOIDS


def _ip(peer_ip: str) -> IpAddress:
    ip = ipaddress.ip_address(peer_ip.strip().strip("[]"))
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def _spf(
    ip: IpAddress,
    sender: str,
    mail_from: str | None,
    helo: str | None,
    txt: TxtLookup,
    addrs: AddrLookup | None,
) -> tuple[str, str]:
    """(SPF result, the domain checked) for the envelope sender, or the HELO name of a bounce."""
    identity = sender if mail_from is None else mail_from.strip().strip("<>")
    if not identity and helo:
        identity = "postmaster@" + helo.strip()
    if "@" not in identity and identity:
        identity = "postmaster@" + identity
    domain = _domain(identity)
    if not domain:
        return "none", ""
    run = _SpfRun(ip, identity.lower(), (helo or "").strip().lower(), txt, addrs)
    try:
        result = _check_host(run, domain, depth=0)
    except Exception:  # a record this evaluator trips over is the publisher's error
        result = "permerror"
    return ("neutral" if result == _UNKNOWN else result), domain


def _check_host(run: _SpfRun, domain: str, depth: int) -> str:
    if not _valid_domain(domain):
        return "none"
    records = [r.strip() for r in run.txt(domain) if re.match(r"(?i)v=spf1(\s|$)", r.strip())]
    if not records:
        return "none"
    if len(records) > 1:
        return "permerror"
    redirect: str | None = None
    undecided: set[str] = set()  # qualifiers of mechanisms this side cannot evaluate
    for term in records[0].split()[1:]:
        modifier = re.fullmatch(r"([a-z][a-z0-9_.-]*)=(.*)", term, re.IGNORECASE)
        if modifier:
            if modifier.group(1).lower() == "redirect":
                if redirect is not None:
                    return "permerror"
                redirect = modifier.group(2)
            continue  # exp= and unknown modifiers change no result
        qualifier = term[0] if term[0] in _SPF_RESULTS else "+"
        mechanism = term[1:] if term[0] in _SPF_RESULTS else term
        parts = re.fullmatch(r"([a-z0-9]+)(?:([:/])(.*))?", mechanism, re.IGNORECASE)
        if parts is None:
            return "permerror"
        name, colon = parts.group(1).lower(), parts.group(2) == ":"
        argument = parts.group(3) or ""
        if name == "all" and parts.group(2) is None:
            matched = True
        elif name in ("ip4", "ip6") and colon:
            matched = _in_network(run.ip, name, argument)
        elif name in ("a", "mx", "exists") and run.addrs is not None:
            if not run.count():
                return "permerror"
            matched = _addresses_match(run, run.addrs, name, mechanism[len(name) :], domain)
        elif name == "include" and colon:
            if not run.count() or depth >= _SPF_LOOKUPS:
                return "permerror"
            inner = _check_host(run, _expand(argument, run, domain), depth + 1)
            if inner in ("none", "temperror", "permerror"):
                return "permerror" if inner == "none" else inner
            if inner == _UNKNOWN:
                undecided.add(qualifier)
                continue
            matched = inner == "pass"
        elif name in ("a", "mx", "ptr", "exists"):
            if not run.count():
                return "permerror"
            undecided.add(qualifier)
            continue
        else:
            return "permerror"
        if matched:
            return _settled(_SPF_RESULTS[qualifier], undecided)
    if redirect is not None:
        if not run.count() or depth >= _SPF_LOOKUPS:
            return "permerror"
        inner = _check_host(run, _expand(redirect, run, domain), depth + 1)
        return "permerror" if inner == "none" else _settled(inner, undecided)
    return _settled("neutral", undecided)


def _addresses_match(run: _SpfRun, addrs: AddrLookup, name: str, rest: str, domain: str) -> bool:
    """Whether a, mx or exists matches; a malformed term or too many lookups raises (permerror)."""
    if name == "exists":
        if not rest.startswith(":"):
            raise ValueError("exists needs a domain")
        found = addrs(_expand(rest[1:], run, domain), "A")
        if not run.void(found):
            raise ValueError("too many void lookups")
        return bool(found)
    term = re.fullmatch(r"(?::([^/]+))?(?:/(\d{1,2}))?(?://(\d{1,3}))?", rest)
    if term is None:
        raise ValueError(f"{name}{rest}")
    target = _expand(term.group(1), run, domain) if term.group(1) else domain
    v4, v6 = int(term.group(2) or 32), int(term.group(3) or 128)
    if v4 > 32 or v6 > 128:
        raise ValueError(f"{name}{rest}")
    hosts = [target]
    if name == "mx":
        hosts = addrs(target, "MX")
        if len(hosts) > _SPF_MX_HOSTS or not run.void(hosts):
            raise ValueError("too many MX hosts or void lookups")
    kind, prefix = ("A", v4) if run.ip.version == 4 else ("AAAA", v6)
    for host in hosts:
        found = addrs(host, kind)
        if name == "a" and not run.void(found):
            raise ValueError("too many void lookups")
        for address in found:
            try:
                if run.ip in ipaddress.ip_network(f"{address}/{prefix}", strict=False):
                    return True
            except ValueError:
                continue  # a bad record from the resolver matches nothing
    return False


def _settled(result: str, undecided: set[str]) -> str:
    """The result, unless a mechanism not evaluated before it could have given another."""
    if result == _UNKNOWN or any(_SPF_RESULTS[q] != result for q in undecided):
        return _UNKNOWN
    return result


def _in_network(ip: IpAddress, kind: str, argument: str) -> bool:
    """Whether ip is in an ip4:/ip6: network; a malformed one raises (permerror)."""
    network = ipaddress.ip_network(argument, strict=False)
    if (kind == "ip4") != (network.version == 4):
        raise ValueError(f"{kind}:{argument}")
    return ip.version == network.version and ip in network


def _expand(spec: str, run: _SpfRun, domain: str) -> str:
    """A domain-spec with its macros expanded (RFC 7208 7); a malformed one raises (permerror)."""
    local, _, sender_domain = run.sender.rpartition("@")
    if isinstance(run.ip, ipaddress.IPv4Address):
        ip_text, version = str(run.ip), "in-addr"
    else:
        ip_text, version = ".".join(run.ip.exploded.replace(":", "")), "ip6"
    values = {
        "s": run.sender, "l": local or "postmaster", "o": sender_domain, "d": domain,
        "i": ip_text, "p": "unknown", "v": version, "h": run.helo,
    }

    def macro(match: re.Match[str]) -> str:
        if match.group(0) in ("%%", "%_", "%-"):
            return {"%%": "%", "%_": " ", "%-": "%20"}[match.group(0)]
        letter, digits, reverse, delimiters = match.group(1, 2, 3, 4)
        parts = re.split("[" + re.escape(delimiters or ".") + "]", values[letter.lower()])
        if reverse:
            parts.reverse()
        if digits:
            if int(digits) == 0:
                raise ValueError("macro with zero parts")
            parts = parts[-int(digits) :]
        return ".".join(parts)

    expanded = re.sub(r"%\{([slodiphv])(\d*)(r?)([.\-+,/_=]*)\}|%%|%_|%-", macro, spec,
                      flags=re.IGNORECASE)
    if "%" in expanded:
        raise ValueError(f"bad macro in {spec}")
    return expanded.rstrip(".").lower()


# --- Authentication-Results ------------------------------------------------------------------

_Result = tuple[str, str, dict[str, str], list[str]]  # method, result, properties, comments


def _trusted_results(raw: bytes, authserv_id: str) -> list[_Result]:
    """The results of the topmost Authentication-Results header written by authserv_id."""
    try:
        head = raw[:_MAX_HEADER_BYTES]
        headers = BytesHeaderParser(policy=policy.compat32).parsebytes(head)
        values = [str(v) for v in headers.get_all("Authentication-Results") or []]
    except Exception:
        return []
    wanted = authserv_id.strip().lower()
    for value in values:
        parts = _split_outside(" ".join(value.split()), ";")
        if not parts:
            continue
        server = _uncommented(parts[0]).split()
        if server and server[0].lower() == wanted:
            return [r for r in (_resinfo(p) for p in parts[1:]) if r is not None]
    return []


def _resinfo(part: str) -> _Result | None:
    comments = re.findall(r"\(([^()]*)\)", part)
    words = _uncommented(part).split()
    if not words or "=" not in words[0]:
        return None  # "none": nothing was checked
    method, _, result = words[0].partition("=")
    props: dict[str, str] = {}
    for word in words[1:]:
        key, eq, value = word.partition("=")
        if eq:
            props.setdefault(key.lower(), value.strip('"'))
    return method.split("/")[0].lower(), result.lower(), props, comments


def _reported_policy(props: dict[str, str], comments: list[str]) -> str:
    """The DMARC policy an Authentication-Results entry reports, "" when it reports none."""
    candidates = [props.get("policy.dmarc", ""), props.get("policy.published-domain-policy", "")]
    candidates += re.findall(r"\bp=(\w+)", " ".join(comments), re.IGNORECASE)
    candidates.append(props.get("action", "").removeprefix("o"))  # Microsoft: action=oreject
    for candidate in candidates:
        if candidate.lower() in ("none", "quarantine", "reject"):
            return candidate.lower()
    return ""


def _uncommented(text: str) -> str:
    previous = None
    while previous != text:  # nested comments, innermost first
        previous, text = text, re.sub(r"\([^()]*\)", " ", text)
    return text


def _split_outside(text: str, separator: str) -> list[str]:
    """Split at separator where it is outside comments and quoted strings."""
    parts: list[str] = []
    current: list[str] = []
    depth, quoted = 0, False
    for char in text:
        if char == '"' and depth == 0:
            quoted = not quoted
        elif char == "(" and not quoted:
            depth += 1
        elif char == ")" and not quoted and depth:
            depth -= 1
        elif char == separator and depth == 0 and not quoted:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    parts.append("".join(current).strip())
    return [p for p in parts if p]
