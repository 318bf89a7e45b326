"""The console's room settings forms: the address the QR codes use, and the hotspot.

Terms:
    address choice  one of this machine's LAN addresses, or "" for the automatic choice
                    (tournament.reads.room: address picker).
    hotspot         the Wi-Fi network phones join: its name (SSID, at most 32 bytes), its
                    password (8 to 63 characters for WPA; none for an open network) and
                    its security (tournament.models.WifiSecurity).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.models import WIFI_NAME_MAX_LENGTH, WIFI_PASSWORD_MAX_LENGTH, WifiSecurity

WPA_PASSWORD_MIN_LENGTH = 8


class PhoneAddressForm(forms.Form):
    address = forms.CharField(required=False, max_length=64)

    def __init__(self, *args, addresses: list[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.addresses = addresses

    def clean_address(self) -> str:
        address = self.cleaned_data["address"].strip()
        if address and address not in self.addresses:
            raise forms.ValidationError(
                _(
                    "%(address)s is not an address of this laptop (any more): pick one from "
                    "the list."
                )
                % {"address": address}
            )
        return address


class HotspotForm(forms.Form):
    wifi_name = forms.CharField(
        label=gettext_lazy("Network name (SSID)"), max_length=WIFI_NAME_MAX_LENGTH
    )
    wifi_password = forms.CharField(
        label=gettext_lazy("Password"),
        required=False,
        strip=False,
        max_length=WIFI_PASSWORD_MAX_LENGTH,
        help_text=gettext_lazy("Leave it empty for an open network."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    wifi_security = forms.ChoiceField(
        label=gettext_lazy("Security"), choices=WifiSecurity.choices, initial=WifiSecurity.WPA
    )

    def clean_wifi_name(self) -> str:
        name = self.cleaned_data["wifi_name"].strip()
        if len(name.encode("utf-8")) > WIFI_NAME_MAX_LENGTH:
            raise forms.ValidationError(
                _("A Wi-Fi name has at most %(count)s bytes: shorten it.")
                % {"count": WIFI_NAME_MAX_LENGTH}
            )
        return name

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what super().clean() returns
        password = data.get("wifi_password") or ""
        if (
            data.get("wifi_security") == WifiSecurity.WPA
            and password
            and len(password) < WPA_PASSWORD_MIN_LENGTH
        ):
            self.add_error(
                "wifi_password",
                _("A WPA password has at least %(count)s characters: check it on the hotspot.")
                % {"count": WPA_PASSWORD_MIN_LENGTH},
            )
        return data
