"""Certificates and the presidency: the only place certificates change hands.

A holder (player, corporation treasury, the market) keeps its certificates of each
corporation in the order it received them. Each corporation also keeps what percentage
each holder has, in the order holders first got some; that order breaks ties for the
presidency when the president's certificate is in the market.

The presidency goes to the player holding most, when that is more than the president
holds and at least the president's certificate: the new president takes the president's
certificate and hands over certificates worth as much (to the old president, or to the
market when the old president no longer has that much), the first ones received. When
several players could take it, the one sitting first after the old president does.
"""

from __future__ import annotations

import math
from typing import List, NamedTuple, Optional, Sequence, Tuple

from ..errors import GameError
from ..state.model import Certificate, CorporationState, PlayerState
from . import money
from .table import Table


class Bundle(NamedTuple):
    """Certificates of one corporation, from one holder, traded together. ``percent`` is
    theirs, or less when a president's certificate is sold in part. (Immutable, and
    made often while moves are weighed: a named tuple is quick to make.)"""

    certificates: Tuple[Certificate, ...]
    percent: int

    @classmethod
    def of(cls, certificates: Sequence[Certificate], percent: Optional[int] = None) -> "Bundle":
        certificates = tuple(certificates)
        if not certificates:
            raise GameError("a share bundle must contain at least one share")
        first = certificates[0]
        for c in certificates:
            if c.corporation is not first.corporation:
                raise GameError("all shares of a bundle must be of the same corporation")
            if c.owner is not first.owner:
                raise GameError("all shares of a bundle must have the same owner")
        return cls.whole(certificates) if percent is None else cls(certificates, percent)

    @classmethod
    def whole(cls, certificates: Sequence[Certificate]) -> "Bundle":
        """Certificates known to be one holder's of one corporation (not checked, as
        :meth:`of` does), at their full percent."""
        certificates = tuple(certificates)
        total = 0
        for c in certificates:      # (a loop: cheaper than sum(map()))
            total += c.percent
        return cls(certificates, total)

    @property
    def corporation(self) -> CorporationState:
        return self.certificates[0].corporation

    @property
    def owner(self):
        return self.certificates[0].owner

    @property
    def president_certificate(self) -> Optional[Certificate]:
        for c in self.certificates:
            if c.president:
                return c
        return None

    @property
    def in_part(self) -> bool:
        return self.percent != sum(c.percent for c in self.certificates)

    @property
    def shares(self) -> float:
        return self.percent / share_percent(self.corporation)

    def ids(self) -> List[str]:
        return [c.id for c in self.certificates]


# -- sizes and prices -------------------------------------------------------------------------


def share_percent(corporation: CorporationState) -> int:
    """The percentage of one (ordinary) share."""
    certs = corporation.certificates
    return certs[1].percent if len(certs) > 1 else certs[0].percent // 2


def president_percent(corporation: CorporationState) -> int:
    return corporation.certificates[0].percent


def total_shares(corporation: CorporationState) -> int:
    return 100 // share_percent(corporation)


def held(holder, corporation: CorporationState) -> List[Certificate]:
    """The certificates of ``corporation`` that ``holder`` has, in the order received."""
    return holder.shares.get(corporation.sym, [])


def percent_of(holder, corporation: CorporationState) -> int:
    """The percentage of the corporation ``holder`` has."""
    total = 0
    for c in holder.shares.get(corporation.sym, ()):   # (a loop: cheaper than sum(map()))
        total += c.percent
    return total


def shares_of(holder, corporation: CorporationState) -> float:
    return percent_of(holder, corporation) / share_percent(corporation)


def treasury(corporation: CorporationState) -> List[Certificate]:
    """The corporation's unsold certificates (its IPO or treasury)."""
    return corporation.shares.get(corporation.sym, [])


def market_percent(table: Table, corporation: CorporationState) -> int:
    return percent_of(table.state.market, corporation)


def share_value(table: Table, certificate: Certificate) -> int:
    """What one share of this certificate's pile sells for: the start price for the
    corporation's own certificates (unless it always trades at the market price), else
    the market price."""
    corporation = certificate.corporation
    at = corporation.par if (certificate.owner is corporation
                             and not corporation.spec.market_price_as_par) else corporation.price
    cell = table.spec.cells.get(at) if at is not None else None
    if cell is None:
        return min_par(table)
    return cell.price


def min_par(table: Table) -> int:
    cells = table.spec.starting_cells()
    return min(c.price for c in cells) if cells else 0


def certificate_price(table: Table, certificate: Certificate) -> int:
    return math.ceil(share_value(table, certificate) * certificate.percent
                     / share_percent(certificate.corporation))


def bundle_price(table: Table, bundle: Bundle) -> int:
    return price_of(table, bundle.certificates[0], bundle.percent)


def price_of(table: Table, certificate: Certificate, percent: int) -> int:
    """What ``percent`` of the certificate's corporation costs at the certificate's value,
    rounded up (a bundle's price, :func:`bundle_price`, without making the bundle)."""
    return math.ceil(share_value(table, certificate) *
                     (percent / share_percent(certificate.corporation)))


def player_holders(corporation: CorporationState, corporations_too: bool = False) -> dict:
    """Percent held by each player (and other corporations), in order of arrival."""
    return {h: p for h, p in corporation.holders.items()
            if isinstance(h, PlayerState) or (corporations_too and isinstance(h, CorporationState)
                                              and h is not corporation)}


def can_leave_president(bundle: Bundle, seller) -> bool:
    """Can ``seller`` part with this bundle? Not the president's certificate unless
    another holder has at least as much to take it over."""
    pres = bundle.president_certificate
    if pres is None:
        return True
    others = [p for h, p in player_holders(bundle.corporation, True).items() if h is not seller]
    return (max(others) if others else 0) >= pres.percent


# -- moving ------------------------------------------------------------------------------------


def move_certificate(certificate: Certificate, to) -> None:
    """One certificate to a new holder (its percentage is the caller's bookkeeping)."""
    pile = certificate.owner.shares.get(certificate.corporation.sym)
    if pile is not None:
        for i, c in enumerate(pile):
            if c is certificate:
                del pile[i]
                break
    to.shares.setdefault(certificate.corporation.sym, []).append(certificate)
    certificate.owner = to


def _pass_on(certificates: Sequence[Certificate], percent: int, giver, taker) -> None:
    """``certificates`` go from ``giver`` to ``taker``, and with them ``percent`` in the
    corporation's record of holdings (a holder new to the record goes last)."""
    holders = certificates[0].corporation.holders
    holders[giver] = holders.get(giver, 0) - percent
    holders[taker] = holders.get(taker, 0) + percent
    for c in certificates:
        move_certificate(c, taker)


def change_hands(table: Table, bundle: Bundle, to, *, payer=None, payee=None,
                 price: Optional[int] = None, presidency_may_change: bool = True,
                 swap: Optional[Certificate] = None, swap_to=None,
                 between_players: bool = False) -> None:
    """``bundle`` passes to ``to``, and ``swap`` (a certificate given in part payment)
    to ``swap_to``; ``payer`` pays ``payee`` the price (the bundle's, unless given).
    Then, unless told not to or while the president's certificate is kept back, the
    presidency follows the holdings (:func:`_settle_presidency`)."""
    corporation = bundle.corporation
    seller, old_president = bundle.owner, corporation.owner
    if price is None:
        price = bundle_price(table, bundle)
    _pass_on(bundle.certificates, bundle.percent, seller, to)
    if swap is not None:
        _pass_on((swap,), swap.percent, swap.owner, swap_to)
    if payer is not None and payee is not None and price > 0:
        money.pay(table, payer, payee, price)
    if presidency_may_change and corporation.certificates[0].buyable:
        _settle_presidency(table, bundle, to, seller, old_president, between_players)


# -- the presidency after a trade ---------------------------------------------------------------


def _leading_players(corporation: CorporationState) -> list:
    """The players holding most of the corporation, in the order they first held some."""
    holdings = player_holders(corporation)
    top = max(holdings.values()) if holdings else 0
    return [h for h, p in holdings.items() if p == top]


def _next_president(table: Table, corporation: CorporationState, old_president):
    """Who presides after a trade, or None if the presidency stays as it is.

    Of the players holding most: the president keeps it on a tie; with no president, the
    holder of the president's certificate takes it if among them; otherwise the one
    sitting nearest after the old president takes it, if they hold at least the
    president's certificate's percentage."""
    leaders = _leading_players(corporation)
    if old_president is not None and old_president in leaders:
        return None
    if old_president is None:
        holder = corporation.certificates[0].owner
        if any(h is holder for h in leaders):
            return holder
    able = [h for h in leaders if percent_of(h, corporation) >= president_percent(corporation)]
    return _nearest_after(table, old_president, able)


def _nearest_after(table: Table, player, candidates: list):
    """Of ``candidates``, the one sitting nearest after ``player`` (the first one listed
    when ``player`` is no player); None if there are none."""
    if not candidates:
        return None
    if not isinstance(player, PlayerState):
        return candidates[0]
    return min(candidates, key=lambda p: table.variant.presidency_distance(table, player, p))


def seats_after(table: Table, a, b) -> int:
    """How many seats after player ``a`` player ``b`` sits (bankrupt players not counted)."""
    if a is None or b is None:
        return 0
    seats = [p for p in table.state.players if not p.bankrupt]
    if a not in seats or b not in seats:
        seats = table.state.players       # a player who left the game still has a seat
    ia, ib = seats.index(a), seats.index(b)
    return ib - ia if ia < ib else ib - (ia - len(seats))


def _settle_presidency(table: Table, bundle: Bundle, to, seller, old_president,
                       between_players: bool) -> None:
    """After ``bundle`` went from ``seller`` to ``to``: a new president, if the holdings
    make one, takes over and the president's certificate changes hands for ordinary
    ones (:func:`_swap_for_presidency`)."""
    corporation = bundle.corporation
    president = _next_president(table, corporation, old_president)
    if president is None:
        return
    corporation.owner = president
    table.log(f"{president.name} becomes the president of {corporation.name}")
    if to is president and seller is old_president and not bundle.in_part \
            and bundle.president_certificate is not None:
        return      # the whole president's certificate came with the trade: nothing to swap
    _swap_for_presidency(table, bundle, to, seller, president,
                         _outgoing_holder(bundle, seller, old_president), between_players)


def _outgoing_holder(bundle: Bundle, seller, old_president):
    """Who gives up the president's certificate: the old president; with none, the
    corporation itself when the trade was of ordinary shares from its treasury."""
    if old_president is None and seller is bundle.corporation \
            and bundle.president_certificate is None:
        return bundle.corporation
    return old_president


def _swap_for_presidency(table: Table, bundle: Bundle, to, seller, president, outgoing,
                         between_players: bool) -> None:
    """The new president takes the president's certificate (the one traded, else the one
    ``outgoing`` holds) and gives ordinary certificates worth as much for it (see
    :func:`_swap_destinations`); a president's certificate sold in part, the seller then
    takes back the rest. Nothing to swap when the new president sold, or nobody held the
    presidency before."""
    if seller is president or outgoing is None:
        return
    corporation = bundle.corporation
    certificate = bundle.president_certificate or next(
        (c for c in held(outgoing, corporation) if c.president), None)
    if certificate is None:
        return
    swap_to, rest_from = _swap_destinations(table, bundle, to, seller, outgoing, certificate,
                                            between_players)
    hand_over_presidency(table, certificate, swap_to, president, outgoing)
    if bundle.in_part:
        table.variant.return_part(table, bundle, rest_from, seller)


def _swap_destinations(table: Table, bundle: Bundle, to, seller, outgoing,
                       certificate: Certificate, between_players: bool):
    """(where the certificates given for the president's go, where the seller of a
    president's certificate sold in part takes the rest back from): the buyer, when
    players trade the president's certificate between them; else the outgoing president
    if they still hold as much as the president's certificate (the market if not), and
    the market."""
    if bundle.president_certificate is not None and (
            between_players or (isinstance(seller, PlayerState) and isinstance(to, PlayerState))):
        return to, to
    market = table.state.market
    keeps_enough = percent_of(outgoing, bundle.corporation) >= certificate.percent
    return (outgoing if keeps_enough else market), market


def hand_over_presidency(table: Table, certificate: Certificate, swap_to, president,
                         old_president) -> None:
    """``president`` takes the president's certificate and gives certificates worth as
    much to ``swap_to`` (which ones: the title's rule)."""
    corporation = certificate.corporation
    count = certificate.percent // share_percent(corporation)
    given = table.variant.certificates_for_presidency(
        table, corporation, president, count, swap_to, old_president)
    for c in given:
        move_certificate(c, swap_to)
    move_certificate(certificate, president)


def worth_of_presidency(held: List[Certificate], count: int) -> List[Certificate]:
    """Of ``held`` (in the order received), certificates worth ``count`` shares for a
    presidency swap: the first ``count`` single shares, or a double (20%) certificate if
    ``held`` has no more than ``count`` certificates."""
    doubles = [c for c in held if not c.president and c.percent > share_percent(c.corporation)]
    if doubles and len(held) <= count:
        return doubles[:1]
    return [c for c in held if c not in doubles][:count]


def return_first(table: Table, bundle: Bundle, source, to) -> None:
    """After selling a president's certificate in part, the seller gets back the rest as
    ordinary shares: the first ones in ``source``."""
    corporation = bundle.corporation
    difference = sum(c.percent for c in bundle.certificates) - bundle.percent
    for _ in range(difference // share_percent(corporation)):
        move_certificate(held(source, corporation)[0], to)
