"""1817's share certificates: corporations of 2, 5 and 10 shares, and short positions.

A 2-share corporation has one certificate, the president's, for both shares. As 5 shares
the president's is 40% and three 20% shares join the treasury; as 10 shares the
president's is 20% and eight (from 5 shares, five more) 10% shares. A 5- or 10-share
corporation may be held up to 60% by a player.

A short is a negative holding: the short seller holds a certificate of minus one share
and the market one of plus one share, which the seller later buys back to close the
short.
"""

from __future__ import annotations

from dataclasses import replace
from typing import List

from ...errors import GameError
from ...rules import certificates
from ...state.model import Certificate, CorporationState

HOLDING_LIMIT = 60
SIZES = (2, 5, 10)


def size_of(corporation: CorporationState) -> int:
    return certificates.total_shares(corporation)


def add(table, corporation: CorporationState, percent: int, owner, index: int = None,
         buyable: bool = True) -> Certificate:
    """A new certificate of the corporation, held by ``owner``."""
    if index is None:       # after the 9 ordinary ones (18xx.games numbers them so)
        index = max(max(c.index for c in corporation.certificates), 9) + 1
    cert = Certificate(corporation, index, percent, False, owner, buyable=buyable)
    corporation.certificates.append(cert)
    owner.shares.setdefault(corporation.sym, []).append(cert)
    corporation.holders[owner] = corporation.holders.get(owner, 0) + percent
    table.index_certificate(cert)
    return cert


def remove(table, certificate: Certificate) -> None:
    """A certificate leaves the game (a short closed, with the share that closes it)."""
    corporation = certificate.corporation
    owner = certificate.owner
    pile = owner.shares.get(corporation.sym, [])
    pile[:] = [c for c in pile if c is not certificate]
    corporation.certificates[:] = [c for c in corporation.certificates if c is not certificate]
    corporation.holders[owner] = corporation.holders.get(owner, 0) - certificate.percent
    table.forget_index()


def recount(corporation: CorporationState) -> None:
    holders = {}
    for cert in corporation.certificates:
        holders[cert.owner] = holders.get(cert.owner, 0) + cert.percent
    for holder in list(corporation.holders):
        corporation.holders[holder] = holders.pop(holder, 0)
    corporation.holders.update(holders)


def _limit_for_size(corporation: CorporationState) -> None:
    if corporation.spec.max_ownership != HOLDING_LIMIT:
        corporation.spec = replace(corporation.spec, max_ownership=HOLDING_LIMIT)


def resize(table, corporation: CorporationState, size: int) -> List[Certificate]:
    """A 2-share corporation becomes one of ``size`` shares (at its founding, or by
    conversion to 5): the new shares go to its treasury. Returns them."""
    if size_of(corporation) != 2 or size not in (5, 10):
        raise GameError(f"{corporation.name} cannot become a {size}-share corporation")
    share = 100 // size
    corporation.certificates[0].percent = 2 * share
    recount(corporation)
    made = [add(table, corporation, share, corporation, index=i + 1)
            for i in range(size - 2)]
    _limit_for_size(corporation)
    return made


def to_ten(table, corporation: CorporationState) -> List[Certificate]:
    """A 5-share corporation becomes a 10-share one: each 20% (and each short) counts as
    10% (the president's 20%); five new 10% shares go to its treasury. Returns them."""
    if size_of(corporation) != 5:
        raise GameError(f"{corporation.name} is not a 5-share corporation")
    for cert in corporation.certificates:
        cert.percent = 10 if cert.percent > 0 else -10
    corporation.certificates[0].percent = 20
    recount(corporation)
    made = [add(table, corporation, 10, corporation, index=4 + i) for i in range(5)]
    _limit_for_size(corporation)
    return made


def convert(table, corporation: CorporationState) -> List[Certificate]:
    """2 → 5 or 5 → 10 shares."""
    if size_of(corporation) == 2:
        return resize(table, corporation, 5)
    return to_ten(table, corporation)


# -- shorts -------------------------------------------------------------------------------


def shorts_of(corporation: CorporationState) -> List[Certificate]:
    return [c for c in corporation.certificates if c.percent < 0]


def holder_shorts(holder, corporation: CorporationState) -> List[Certificate]:
    return [c for c in certificates.held(holder, corporation) if c.percent < 0]


def open_short(table, player, corporation: CorporationState) -> None:
    """``player`` sells a share they do not have: the market gets a share, the player a
    negative one, and the price of a share from the bank."""
    percent = certificates.share_percent(corporation)
    top = max(max(c.index for c in corporation.certificates), 9)
    # the short is made first (the reference's order, which later migrations follow)
    add(table, corporation, -percent, player, index=top + 2, buyable=False)
    add(table, corporation, percent, table.state.market, index=top + 1)


def close_short(table, holder, share: Certificate) -> None:
    """``holder`` has a share (``share``) to close one of its shorts with: both go."""
    short = next(c for c in holder_shorts(holder, share.corporation)
                 if c.percent == -share.percent)
    remove(table, share)
    remove(table, short)


__all__ = ["resize", "convert", "to_ten", "open_short", "close_short", "shorts_of",
           "holder_shorts", "size_of", "SIZES", "HOLDING_LIMIT"]
