"""Install on a phone: the page that shows a phone how to trust the scorekeeper's own certificate
authority once and install the app, and the authority's root certificate it offers."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper.web import hosts

# A root certificate made for these tests (openssl req -x509, EC P-256), and its SHA-256
# fingerprint as `openssl x509 -fingerprint -sha256` prints it.
ROOT = """-----BEGIN CERTIFICATE-----
MIIBljCCATugAwIBAgIUBlIj5H3XuQL3HC+Cr7Xr2Kgw4MYwCgYIKoZIzj0EAwIw
HzEdMBsGA1UEAwwUVGVzdCBMb2NhbCBBdXRob3JpdHkwIBcNMjYxMTI4MTcyMTQw
WhgPMjEyNjExMDQxNzIxNDBaMB8xHTAbBgNVBAMMFFRlc3QgTG9jYWwgQXV0aG9y
aXR5MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEd6+uJLanu7Sa9vUPsGCYmSYR
4s7K2TJmASg0rEIP+hf2LP4PmgxfuLCxVQRIskau8LAinzgDnzKRBOa7nUdRPaNT
MFEwHQYDVR0OBBYEFCl8S/a6ZXccvYn01Kc7TtsCIiIzMB8GA1UdIwQYMBaAFCl8
S/a6ZXccvYn01Kc7TtsCIiIzMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwID
SQAwRgIhANY4CeUWFoeuJHD5GPxRv/RoZEvxxJEfHf8HLtpbw7K0AiEAtjozgEE9
ONOhspZEjNJfHBs20JpFmeDga1pdMPt19bQ=
-----END CERTIFICATE-----
"""
FINGERPRINT = (
    "5F:77:D6:A3:AB:05:A5:02:A0:AD:EF:43:5C:C9:BF:F9:"
    "31:09:41:4D:A9:AC:5E:28:14:6F:E5:61:D1:60:35:FE"
)
NO_AUTHORITY = (
    "This scorekeeper has no certificate authority of its own: "
    "served with make run HTTPS=1, it has one."
)


@pytest.fixture
def root(app: Flask, tmp_path: Path) -> Path:
    path = tmp_path / "root.crt"
    path.write_text(ROOT)
    app.config["CA_ROOT"] = str(path)
    return path


def qr_named(page: str) -> str:
    """The address the page's QR code holds, as its label names it."""
    found = re.search(r'<svg role="img" aria-label="([^"]+)"', page)
    assert found is not None, page
    return html.unescape(found[1])


def test_the_page_offers_the_authority_s_root_and_the_steps_of_each_phone(
    client: FlaskClient, root: Path
) -> None:
    page = client.get("/install", base_url="http://192.0.2.2:8080")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert text.count("<h1>") == 1 and "<h1>Install on a phone</h1>" in text
    # The code takes another phone to this very page.
    assert qr_named(text) == "http://192.0.2.2:8080/install"
    assert '<a href="http://192.0.2.2:8080/install">http://192.0.2.2:8080/install</a>' in text
    assert '<a class="btn primary wide" href="/install/root.crt" download>' in text
    assert FINGERPRINT.replace(":", " ") in text
    for step in (
        "Encryption &amp; credentials, Install a certificate, CA certificate",
        "choose <strong>scorekeeper-root.crt</strong> from Downloads",
        "VPN &amp; Device Management",
        "Certificate Trust Settings, and turn on full trust",
        "Tap Install app (or Add to Home screen), then Install.",
        "Tap Add to Home Screen, then Add.",
    ):
        assert step in text, step
    # Over plain http the way on is the https address, where the proxy sends "/".
    assert '<a class="btn primary wide" href="/">Open over https</a>' in text
    secure = client.get("/install", base_url="https://192.0.2.2:8443").get_data(as_text=True)
    assert qr_named(secure) == "https://192.0.2.2:8443/install"
    assert "Open over https" not in secure


def test_the_root_certificate_downloads_as_a_file_a_phone_installs(
    client: FlaskClient, root: Path
) -> None:
    answer = client.get("/install/root.crt")
    assert answer.status_code == 200
    assert answer.mimetype == "application/x-x509-ca-cert"
    assert answer.headers["Content-Disposition"] == "attachment; filename=scorekeeper-root.crt"
    assert answer.get_data(as_text=True) == ROOT


def test_without_an_authority_of_its_own_the_page_says_how_to_have_one(
    client: FlaskClient,
) -> None:
    text = client.get("/install").get_data(as_text=True)
    assert "Download the certificate" not in text and "/install/root.crt" not in text
    assert "served over plain http, where a phone can't install it" in text
    assert "<code>make run HTTPS=1</code>" in text
    missing = client.get("/install/root.crt", headers={"Accept": "application/json"})
    assert missing.status_code == 404
    assert NO_AUTHORITY in missing.get_data(as_text=True)
    # Over https with a certificate the phone already trusts, the app installs from the menu.
    secure = client.get("/install", base_url="https://scores.example.org").get_data(as_text=True)
    assert "Tap Add to Home Screen, then Add." in secure and "plain http" not in secure


def test_a_root_named_but_missing_is_no_authority(app: Flask, tmp_path: Path) -> None:
    app.config["CA_ROOT"] = str(tmp_path / "not-yet.crt")
    client = app.test_client()
    assert client.get("/install/root.crt").status_code == 404
    assert "Download the certificate" not in client.get("/install").get_data(as_text=True)


def test_a_phone_not_signed_in_reaches_both(
    client: FlaskClient, runner: FlaskCliRunner, root: Path
) -> None:
    done = runner.invoke(
        args=["access", "set-passcode", "--role", "reader", "--passcode", "Sheep-1234"]
    )
    assert done.exit_code == 0, done.output
    assert client.get("/").status_code == 303
    assert client.get("/install").status_code == 200
    assert client.get("/install/root.crt").status_code == 200


def test_opened_on_the_computer_itself_the_code_names_its_network_address(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hosts, "lan_address", lambda: "192.0.2.2")
    page = client.get("/install", environ_overrides={"SERVER_PORT": "5000"})
    assert qr_named(page.get_data(as_text=True)) == "http://192.0.2.2:5000/install"
