"""A company's public identifiers as users type them: ISIN (ISO 6166) and LEI (ISO 17442).

Registry matching trusts an identifier above any name, so a mistyped one must be refused rather
than matched to nothing (or to someone else): both carry check digits, and both are checked here.
"""

from __future__ import annotations

import re

#: The longest identifier accepted as typed (with spaces between groups); longer is refused unread.
MAX_IDENTIFIER_CHARS = 40
_ISIN = re.compile(r"^[A-Z]{2}[A-Z0-9]{9}[0-9]$")
_LEI = re.compile(r"^[A-Z0-9]{18}[0-9]{2}$")


class InvalidIdentifier(ValueError):
    """An identifier that is not well formed or fails its check digits; the message says which."""


def _digits(text: str) -> str:
    """Letters as numbers (A=10 … Z=35), as both standards compute their check digits."""
    return "".join(str(int(char, 36)) for char in text)


def _luhn_valid(digits: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char) * (2 if position % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0


def clean_isin(value: str | None) -> str | None:
    """The ISIN in upper case without spaces, None when blank.

    Raises:
        InvalidIdentifier: Not two letters, nine letters or digits and a check digit that holds.
    """
    isin = "".join((value or "")[: MAX_IDENTIFIER_CHARS + 1].split()).upper()
    if not isin:
        return None
    if len(value or "") > MAX_IDENTIFIER_CHARS or not _ISIN.match(isin) or not _luhn_valid(_digits(isin)):
        raise InvalidIdentifier(
            f"{_shown(value)} is not an ISIN: 12 characters (country code, 9 letters or digits, check digit) "
            "whose check digit holds, e.g. DE0007236101."
        )
    return isin


def clean_lei(value: str | None) -> str | None:
    """The LEI in upper case without spaces, None when blank.

    Raises:
        InvalidIdentifier: Not 20 letters and digits whose ISO 7064 (mod 97) check holds.
    """
    lei = "".join((value or "")[: MAX_IDENTIFIER_CHARS + 1].split()).upper()
    if not lei:
        return None
    if len(value or "") > MAX_IDENTIFIER_CHARS or not _LEI.match(lei) or int(_digits(lei)) % 97 != 1:
        raise InvalidIdentifier(
            f"{_shown(value)} is not an LEI: 20 letters and digits ending in two check digits that hold, "
            "e.g. W38RGI023J3WT1HWRP32."
        )
    return lei


def _shown(value: str | None) -> str:
    """The value as a refusal quotes it: never more than the longest identifier accepted."""
    text = value or ""
    return repr(text) if len(text) <= MAX_IDENTIFIER_CHARS else f"{text[:MAX_IDENTIFIER_CHARS]!r}…"
