"""The names this scorekeeper is served under. A page of another site whose name an attacker
points at this server's address (DNS rebinding) reaches it under that name: its writes are
refused, and links made for other phones never carry the name.

Trusted: an IP address (a browser only sends one as Host when it opened that very address),
`localhost`, this computer's own names, and the names in `ALLOWED_HOSTS`.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from typing import Any
from urllib.parse import urlsplit

from flask import current_app, request, url_for

# A name that resolves to no one: connecting a UDP socket to it sends nothing, yet picks the
# address this computer would use on its network.
PROBE_ADDRESS = ("10.254.254.254", 1)
SHOWN_HOST_LENGTH = 100


def own_names() -> set[str]:
    """This computer's names, as a phone on its network might reach it."""
    hostname = socket.gethostname().lower()
    names = {"localhost", hostname, f"{hostname}.local"}
    with contextlib.suppress(OSError):
        names.add(socket.getfqdn().lower())
    return {name for name in names if name}


def names(text: str) -> list[str]:
    """Host names from a comma-separated list, as `ALLOWED_HOSTS` gives them."""
    return [name for name in (part.strip().lower() for part in text.split(",")) if name]


def hostname(host: str) -> str | None:
    """The name or address of a Host header's value (`name:port`, `[::1]:5000`), or None when
    it is not one."""
    try:
        return urlsplit(f"//{host}").hostname
    except ValueError:
        return None


def is_ip_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def is_trusted(host: str) -> bool:
    name = hostname(host)
    if not name:
        return False
    return (
        is_ip_address(name)
        or name.endswith(".localhost")
        or name in current_app.config["ALLOWED_HOSTS"]
    )


def shown(host: str) -> str:
    """A Host header's value fit to quote in a sentence."""
    text = host.encode("ascii", "replace").decode()
    return text if len(text) <= SHOWN_HOST_LENGTH else text[:SHOWN_HOST_LENGTH] + "..."


def lan_address() -> str:
    """The address of this computer on its network, or 127.0.0.1 without one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(PROBE_ADDRESS)
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def external_url(endpoint: str, **values: Any) -> str:
    """The full address of a page, for another phone: under the name this page was opened with
    when it is trusted, else under this computer's network address."""
    if is_trusted(request.host):
        return url_for(endpoint, _external=True, **values)
    return _on_lan_address(lan_address(), endpoint, values)


def lan_url(endpoint: str, **values: Any) -> str:
    """As `external_url`, but a page opened on this computer itself (`localhost`) gives the
    address for another phone on the network, whenever the server listens on the network.
    `LISTENS_ON_NETWORK` is False when it listens on this computer alone (gunicorn bound to
    127.0.0.1)."""
    if is_loopback(hostname(request.host) or "") and current_app.config["LISTENS_ON_NETWORK"]:
        address = lan_address()
        if not is_loopback(address):
            return _on_lan_address(address, endpoint, values)
    return external_url(endpoint, **values)


def is_loopback(name: str) -> bool:
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _on_lan_address(address: str, endpoint: str, values: dict[str, Any]) -> str:
    port = request.environ.get("SERVER_PORT", "")
    default = {"http": "80", "https": "443"}.get(request.scheme)
    host = address + (f":{port}" if port and port != default else "")
    return f"{request.scheme}://{host}{url_for(endpoint, **values)}"
