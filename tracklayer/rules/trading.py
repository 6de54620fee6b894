"""Trading shares: what a player may hold, what may be sold and when, and the trades.

* **Limits.** A player holds at most the certificate limit (certificates of corporations
  in cells that do not count are free) and at most a corporation's holding limit of it.
* **Timing.** Shares of a corporation may be sold from the title's moment on: after the
  first stock round, or once the corporation has operated.
* **Room.** The market takes shares up to its limit of each corporation.
* **Presidency.** A president's certificate goes only if another player can take over.
* **Price.** Shares sold move the price as the title says (:mod:`.market`).

What depends on the turn (one sale per corporation, sell before buy …) is the stock
round's; what depends on raising money for a train is :mod:`.finance`'s. Both ask here.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Iterable, Iterator, List, Optional

from ..spec.settings import HomeTokenTiming, SaleTiming
from ..state.model import Certificate, CorporationState, MarketState, PlayerState
from . import certificates, market, operators, powers
from .certificates import Bundle, bundle_price, held, percent_of
from .table import Table

# -- limits ---------------------------------------------------------------------------------

# Cells where a player may hold any percentage of a corporation.
UNLIMITED_HOLDING = ("multiple_buy", "unlimited")


def counts_for_limit(table: Table, corporation: CorporationState) -> bool:
    """Do the corporation's certificates count against the limit (not in a cell that
    frees them)?"""
    if not table.spec.frees_from_limit:
        return True
    at = corporation.price
    cell = table.spec.cells.get(at) if at is not None else None
    return cell.counts_for_limit if cell is not None else True


def certificate_count(table: Table, holder) -> int:
    """Certificates that count against the limit (privates too, where the title says);
    a short position (a negative holding, 1817) does not count. Where no cell frees a
    corporation's certificates and nobody sells short, every certificate counts."""
    shorts = table.settings.short_selling
    if not shorts and not table.spec.frees_from_limit:
        count = sum(map(len, holder.shares.values()))
    else:
        count = 0
        cells = table.spec.cells
        for certs in holder.shares.values():
            if not certs:
                continue
            at = certs[0].corporation.price
            cell = cells.get(at) if at is not None else None
            if cell is None or cell.counts_for_limit:
                if not shorts:
                    count += len(certs)
                    continue
                for c in certs:     # (a loop: asked again and again, cheaper than sum())
                    if c.percent > 0:
                        count += 1
    if table.settings.privates_count_for_limit:
        count += len(holder.companies)
    return count


def certificate_limit(table: Table, holder=None) -> int:
    return table.variant.certificate_limit(table, holder)


def holding_allowed(table: Table, holder, corporation: CorporationState,
                    extra_percent: int = 0) -> bool:
    """May ``holder`` own its shares of the corporation plus ``extra_percent``? (A
    corporation may own any part of itself.)"""
    return holder is corporation or within_holding_limit(
        table, corporation, percent_of(holder, corporation) + extra_percent)


def within_holding_limit(table: Table, corporation: CorporationState, percent: int) -> bool:
    """May a holder own ``percent`` of the corporation: up to its holding limit, or any
    part while it is on a cell of unlimited holding?"""
    if percent <= corporation.spec.max_ownership:
        return True
    at = corporation.price
    cell = table.spec.cells.get(at) if at is not None else None
    return cell is not None and cell.kind in UNLIMITED_HOLDING


def may_take(table: Table, buyer, bundle: Bundle, exchange: bool = False,
             count: Optional[int] = None) -> bool:
    """Would owning ``bundle`` keep ``buyer`` within its limits? (``count``: the buyer's
    :func:`certificate_count`, if known.)"""
    if bundle is None or buyer is None:
        return False
    if isinstance(bundle.owner, PlayerState):
        return False
    corporation = bundle.corporation
    return holding_allowed(table, buyer, corporation, bundle.percent) and (
        not counts_for_limit(table, corporation) or exchange
        or (certificate_count(table, buyer) if count is None else count)
        < certificate_limit(table, buyer))


def last_goes_last(table: Table, bundle: Bundle) -> bool:
    """A certificate marked last (``CorporationSpec.last_certificate_last``, 1849) goes
    only when it is the last one left where it is."""
    for c in bundle.certificates:     # (few: a plain loop is quickest)
        if c.last:
            break
    else:
        return True
    corporation = bundle.corporation
    pile = held(table.state.market, corporation) \
        if bundle.owner is table.state.market else certificates.treasury(corporation)
    return len(pile) == len(bundle.certificates)


def market_has_room(table: Table, bundle: Bundle) -> bool:
    """Would the market hold no more than its limit of the corporation after the sale?"""
    return bundle.percent + percent_of(table.state.market, bundle.corporation) \
        <= table.settings.market_limit


def over_a_holding_limit(table: Table, player) -> bool:
    """Does the player hold more of some corporation than its holding limit allows (of
    one they have shares of: nothing is over a holding limit)?"""
    for certs in player.shares.values():
        if certs and not within_holding_limit(table, certs[0].corporation,
                                              percent_of(player, certs[0].corporation)):
            return True
    return False


# -- selling -----------------------------------------------------------------------------------


def sale_timing_allows(table: Table, corporation: CorporationState) -> bool:
    """Has the moment come from which the corporation's shares may be sold?"""
    timing = table.settings.sale_timing
    if timing is SaleTiming.AFTER_FIRST_STOCK_ROUND:
        return table.turn > 1 or table.round.is_operating
    if timing is SaleTiming.AFTER_IT_OPERATED:
        return corporation.operated
    if timing is SaleTiming.OPERATED_OR_IN_OPERATING_ROUND:
        return corporation.operated or table.round.is_operating
    return True


def sale_problem(table: Table, seller, bundle: Bundle) -> Optional[str]:
    """Why ``seller`` cannot sell ``bundle`` now, whatever the turn, or None."""
    if bundle.owner is not seller:
        return f"{seller.name} does not own those shares"
    corporation = bundle.corporation
    if not sale_timing_allows(table, corporation):
        return f"{corporation.name}'s shares cannot be sold yet"
    if not market_has_room(table, bundle):
        return f"the market holds enough of {corporation.name}"
    if not table.variant.presidency_may_pass(table, bundle, seller):
        return f"nobody could take over {corporation.name}'s presidency"
    return table.variant.sale_problem(table, seller, bundle)


def growing_bundles(table: Table, holder, corporation: CorporationState,
                    certs: Optional[List[Certificate]] = None) -> List[Bundle]:
    """The common ways to sell (:func:`growing_candidates`), smallest first."""
    return smallest_first(growing_candidates(table, holder, corporation, certs))


def smallest_first(bundles: Iterable[Bundle]) -> List[Bundle]:
    """Bundles smallest first (the order sales, and 1849's issues and redemptions, are
    offered in)."""
    return sorted(bundles, key=attrgetter("percent"))


# The order certificates are added to a sale (:func:`growing_candidates`): the
# president's last, the smallest first (False before True; a C key, no call per certificate).
PRESIDENT_LAST_THEN_SMALLEST = attrgetter("president", "percent")


def growing_candidates(table: Table, holder, corporation: CorporationState,
                       certs: Optional[List[Certificate]] = None) -> Iterator[Bundle]:
    """The common ways to sell, each made when asked for: the smallest certificate first,
    adding the next each time (the president's certificate last, and also in part down
    to one share)."""
    if not corporation.started:
        return
    certs = list(certs if certs is not None else held(holder, corporation))
    if not certs:
        return
    if len(certs) > 1:
        certs.sort(key=PRESIDENT_LAST_THEN_SMALLEST)
    chosen, percent = [], 0
    for c in certs:
        chosen.append(c)
        percent += c.percent
        yield Bundle(tuple(chosen), percent)
    if certs[-1].president:
        normal = certificates.share_percent(corporation)
        extra = certificates.president_percent(corporation) - normal
        for n in range(1, extra // normal + 1):
            yield Bundle(tuple(chosen), percent - normal * n)


def sale_bundles(table: Table, holder, corporation: CorporationState) -> List[Bundle]:
    """Every bundle ``holder`` could sell of the corporation, smallest first."""
    return table.variant.sale_bundles(table, holder, corporation)


def sale_candidates(table: Table, holder, corporation: CorporationState) -> Iterator[Bundle]:
    """The bundles of :func:`sale_bundles` in any order, each made when asked for (to ask
    whether some bundle may be sold)."""
    return table.variant.sale_candidates(table, holder, corporation)


def sell(table: Table, bundle: Bundle, *, presidency_may_change: bool = True,
         swap: Optional[Certificate] = None, movement=None) -> None:
    """Sell ``bundle`` to the market; the bank pays; the price moves."""
    seller = bundle.owner
    price = bundle_price(table, bundle) - (certificates.certificate_price(table, swap)
                                           if swap is not None else 0)
    corporation = bundle.corporation
    if table.keep_log:
        table.log(f"{seller.name} sells {round_up(bundle.shares)} share(s) of "
                  f"{corporation.name} for {table.money(price)}")
    market_state = table.state.market
    certificates.change_hands(table, bundle, market_state, payer=table.state.bank, payee=seller,
                              price=price, presidency_may_change=presidency_may_change, swap=swap,
                              swap_to=seller if swap is not None else None)
    market.after_sale(table, corporation, round_up(bundle.shares), bundle.percent
                      - (swap.percent if swap is not None else 0), movement)


def round_up(x: float) -> int:
    n = int(x)
    return n if n == x else n + 1


# -- buying ------------------------------------------------------------------------------------


def buy(table: Table, buyer, bundle: Bundle, *, exchange_price: Optional[int] = None,
        exchange: bool = False, swap: Optional[Certificate] = None,
        presidency_may_change: bool = True, silent: bool = False) -> None:
    """``buyer`` takes ``bundle``, paying its price (nothing, or ``exchange_price``, in an
    exchange; less what ``swap`` is worth, a certificate given in part payment).
    Certificates from a corporation's own treasury pay the corporation if it is
    capitalised incrementally (else the bank); from the market, the bank; from a player
    or another corporation, the seller. The purchase may start the corporation, and
    may float it."""
    corporation = bundle.corporation
    was_floated = operators.has_floated(table, corporation)
    _start_with(table, buyer, bundle, silent)
    price = _price_to_pay(table, bundle, exchange, exchange_price, swap)
    if not silent and table.keep_log:
        table.log(_purchase_line(table, buyer, bundle, exchange, price))
    _pay_and_take(table, buyer, bundle, price, swap, presidency_may_change)
    if corporation.floatable and was_floated != operators.has_floated(table, corporation):
        operators.receive_capital(table, corporation)


def _start_with(table: Table, buyer, bundle: Bundle, silent: bool) -> None:
    """The corporation starts when its president's certificate is bought, or with any
    purchase once a player presides; the start is told at its par."""
    corporation = bundle.corporation
    if corporation.started or (bundle.president_certificate is None
                               and not isinstance(corporation.owner, PlayerState)):
        return
    corporation.started = True
    if corporation.par is not None and not silent:
        table.log(f"{buyer.name} pars {corporation.name} at "
                  f"{table.money(table.spec.cells[corporation.par].price)}")


def _price_to_pay(table: Table, bundle: Bundle, exchange: bool, exchange_price, swap) -> int:
    if exchange:
        return exchange_price or 0
    price = bundle_price(table, bundle)
    return price - certificates.certificate_price(table, swap) if swap is not None else price


def _purchase_line(table: Table, buyer, bundle: Bundle, exchange: bool, price: int) -> str:
    name = bundle.corporation.name
    if exchange:
        return f"{buyer.name} receives a {bundle.percent}% share of {name}"
    return f"{buyer.name} buys a {bundle.percent}% share of {name} for {table.money(price)}"


def _pay_and_take(table: Table, buyer, bundle: Bundle, price: int, swap,
                  presidency_may_change: bool) -> None:
    """The bundle (and, if paid for, the swapped certificate, to the market) changes
    hands; the market buying, the bank pays."""
    if price == 0:
        certificates.change_hands(table, bundle, buyer, price=0,
                                  presidency_may_change=presidency_may_change)
        return
    seller = bundle.owner
    certificates.change_hands(
        table, bundle, buyer,
        payer=table.state.bank if isinstance(buyer, MarketState) else buyer,
        payee=seller if _seller_is_paid(table, seller, bundle.corporation) else table.state.bank,
        price=price, presidency_may_change=presidency_may_change, swap=swap,
        swap_to=table.state.market if swap is not None else None)


def _seller_is_paid(table: Table, seller, corporation: CorporationState) -> bool:
    if isinstance(seller, PlayerState):
        return True
    if isinstance(seller, CorporationState):
        if seller is not corporation:
            return True
        return operators.capitalization(table, corporation).value == "incremental"
    return False


def place_home_after_buy(table: Table, corporation: CorporationState) -> None:
    """Where the home token goes on the map when the corporation floats (or starts)."""
    timing = table.settings.home_token
    if (timing is HomeTokenTiming.FLOAT and operators.has_floated(table, corporation)) or \
            (timing is HomeTokenTiming.START and corporation.started):
        operators.place_home_token(table, corporation)


def company_bought(table: Table, player, company) -> None:
    """A company bought that comes with certificates: a president's certificate waits for
    its buyer to set the par price; other certificates are handed over at once."""
    for p in powers.powers(table, company, "shares"):
        cert = table.find("share", p.certificate)
        if cert is None:
            continue
        if cert.president:
            table.round.notes.pending_par.append(company)
        else:
            buy(table, player, Bundle.of([cert]), exchange=True)
