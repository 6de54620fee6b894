"""Companies that operate: floating, the home station, the operating order, closing.

A corporation floats once enough of its shares are sold (those in the market counting
as unsold where the title says so); fully capitalised, it then receives its whole par
value from the bank. Corporations operate in order of share price, highest first; on the
same price, the one further right, then higher up, then the one that arrived first.
"""

from __future__ import annotations

import math
from typing import List, Optional

from ..spec.data import Timing
from ..spec.settings import Capitalization, HomeTokenTiming
from ..state.model import CorporationState, MinorState
from . import board, certificates, market, money, powers, tokens
from .table import Table


# -- floating ---------------------------------------------------------------------------------


def float_threshold(table: Table, corporation: CorporationState) -> int:
    """At most this percentage may remain unsold for the corporation to float."""
    threshold = 100 - corporation.spec.float_percent
    if corporation.spec.float_excludes_market:
        threshold -= certificates.market_percent(table, corporation)
    if corporation.spec.float_includes_reserved:
        threshold += sum(c.percent for c in certificates.treasury(corporation) if not c.buyable)
    return threshold


def float_condition(table: Table, corporation: CorporationState) -> bool:
    return corporation.floatable and \
        certificates.percent_of(corporation, corporation) <= float_threshold(table, corporation)


def has_floated(table: Table, corporation) -> bool:
    """Has the corporation floated? (Once it has, it stays floated until it closes.)"""
    if isinstance(corporation, MinorState):
        return corporation.floated
    if not corporation.floated and float_condition(table, corporation):
        corporation.floated = True
    return corporation.floated


def percent_to_float(table: Table, corporation: CorporationState) -> int:
    if corporation.floated:
        return 0
    return certificates.percent_of(corporation, corporation) - float_threshold(table, corporation)


def par_value(table: Table, corporation: CorporationState) -> int:
    """The price of one share from the corporation's treasury."""
    at = corporation.price if corporation.spec.market_price_as_par else corporation.par
    return table.spec.cells[at].price


def capitalization(table: Table, corporation: CorporationState) -> Capitalization:
    kind = corporation.spec.capitalization
    return Capitalization(kind) if kind else table.settings.capitalization


def receive_capital(table: Table, corporation: CorporationState) -> None:
    """The corporation floats: fully capitalised, it receives its shares' par value."""
    table.log(f"{corporation.name} floats")
    if capitalization(table, corporation) is not Capitalization.FULL:
        return
    money.pay(table, table.state.bank, corporation,
              par_value(table, corporation) * certificates.total_shares(corporation))
    table.log(f"{corporation.name} receives {table.money(corporation.cash)}")


def after_start(table: Table, corporation: CorporationState) -> None:
    """A corporation has been started (parred). Where the title says, its certificates
    but the president's go to the market. With incremental capitalisation it receives the
    par value of certificates that came with private companies; companies that close when
    it starts close; its home token may go on the map."""
    if table.settings.shares_start_in_market:
        offer_in_market(table, corporation)
    if capitalization(table, corporation) is Capitalization.INCREMENTAL:
        _capital_for_company_certificates(table, corporation)
    powers.close_on(table, corporation, Timing.STARTED)
    if table.settings.home_token is HomeTokenTiming.START:
        place_home_token(table, corporation)


def _capital_for_company_certificates(table: Table, corporation: CorporationState) -> None:
    """The bank pays the corporation the par value of each of its certificates that a
    private company brings."""
    for company in table.state.companies:
        for p in powers.powers(table, company, "shares"):
            cert = table.find("share", p.certificate)
            if cert is not None and cert.corporation is corporation:
                shares = math.ceil(cert.percent / certificates.share_percent(corporation))
                money.pay(table, table.state.bank, corporation,
                          par_value(table, corporation) * shares)


def offer_in_market(table: Table, corporation: CorporationState) -> None:
    """The certificates left in the corporation's treasury go to the market (unpaid)."""
    for c in list(corporation.certificates):
        if c.buyable and c.owner is corporation:
            certificates.change_hands(table, certificates.Bundle.of([c]), table.state.market,
                                      price=0, presidency_may_change=False)


# -- the home station -------------------------------------------------------------------------


def home_hexes(table: Table, operator) -> List[str]:
    home = operator.spec.home
    if home is None:
        return []
    return [home] if isinstance(home, str) else list(home)


def place_home_token(table: Table, operator) -> bool:
    """The operator's first token goes to its home city, unless it has one on the map
    already. Where the home is not one hex, or is reserved for it on a hex whose track
    is laid (so that the city is to be chosen), the operator chooses later. Returns
    False when there was nothing to do (the position is as it was)."""
    if tokens.any_unplaced(operator) is None or \
            (operator.tokens and operator.tokens[0].where is not None):
        return False
    homes = home_hexes(table, operator)
    hex_id = homes[0] if homes else None
    if hex_id is None or (board.reserved_here(table, hex_id, operator)
                          and board.view(table, hex_id).rails):
        _choose_home_later(table, operator, hex_id)
    else:
        _token_at_home(table, operator, hex_id)
    return True


def _choose_home_later(table: Table, operator, hex_id: Optional[str]) -> None:
    """The operator joins the round's pending homes (once), to choose among the cities
    of its home hex, or of the hexes the title offers it."""
    pending = table.round.notes.pending_homes
    if pending is None or any(p[0] is operator for p in pending):
        return
    choices = [hex_id] if hex_id else table.variant.home_choices(table, operator)
    if not choices:
        return
    table.log(f"{operator.name} must choose city for home token")
    pending.append((operator, choices, tokens.next_token(operator)))


def _token_at_home(table: Table, operator, hex_id: str) -> None:
    """The token goes in the city of the hex reserved for the operator (else the first),
    if it may."""
    cities = board.view(table, hex_id).cities
    node = next((c for c in cities if board.reservation_slot(c.city, operator) is not None),
                None) or cities[0]
    token = tokens.next_token(operator)
    if tokens.tokenable(table, operator, node, [token]):
        table.log(f"{operator.name} places a token on {hex_id}")
        tokens.place(table, operator, node, token)


# -- the order of operating ---------------------------------------------------------------------


def price_order(table: Table, corporation: CorporationState):
    """Operating order key: higher price, further right, higher up, earlier on the cell."""
    at = corporation.price
    if at is None:
        return (1, ())
    cell = table.spec.cells[at]
    stack = table.state.cells.get(at, [])
    place = stack.index(corporation) if corporation in stack else 0
    return (0, (-cell.price, -cell.column, cell.row, place, corporation.name))


def by_price(table: Table, corporations) -> list:
    return sorted(corporations, key=lambda c: price_order(table, c))


def operating_order(table: Table) -> list:
    """Floated minors in their order, then floated corporations by price."""
    minors = [m for m in table.state.minors if m.floated]
    corps = [c for c in table.state.corporations if has_floated(table, c)]
    return minors + by_price(table, corps)


# -- closing ----------------------------------------------------------------------------------


def close_corporation(table: Table, corporation, quiet: bool = False) -> None:
    """A company leaves the game: it leaves the map, gives up its assets, and (once the
    round has moved past it) its certificates and place in the market are gone."""
    if not quiet:
        table.log(f"{corporation.name} closes")
    _leave_the_map(table, corporation)
    _give_up_assets(table, corporation)
    table.round.operator_closed(corporation)
    _leave_the_lists(table, corporation)
    corporation.closed = True
    corporation.floated = False
    corporation.owner = None
    table.forget_index()


def _leave_the_map(table: Table, operator) -> None:
    """Its station tokens come off the map; where the title says so, its reservations
    (of a city, or of the hex) are freed too."""
    frees = table.settings.closing_frees_reservations
    for h in table.state.hexes.values():
        for city in h.cities:
            for t in [t for t in city.slots if t is not None and t.owner is operator]:
                board.lift_token(table, t)
            if frees and board.reservation_slot(city, operator) is not None:
                city.reservations = [r for r in city.reservations if r is not operator]
        if frees and operator in h.reservations:
            h.reservations.remove(operator)


def _give_up_assets(table: Table, operator) -> None:
    """Its cash goes to the bank, its trains can no longer be bought, its companies
    close."""
    money.settle(table, operator, 0, table.state.bank)
    for t in operator.trains:
        t.saleable = False
    for c in list(operator.companies):
        powers.close_company(table, c)


def _leave_the_lists(table: Table, operator) -> None:
    """A corporation's certificates are retired, wherever they are, and it leaves the
    stock market and the corporations; a minor leaves the minors."""
    state = table.state
    if not isinstance(operator, CorporationState):
        state.minors.remove(operator)
        return
    for holder in list(operator.holders):
        holder.shares.pop(operator.sym, None)
    state.market.shares.pop(operator.sym, None)
    market.leave_market(table, operator)
    state.corporations.remove(operator)
    operator.started = False


def close_in_closing_cells(table: Table, but=None) -> bool:
    """Corporations whose price has fallen into a closing cell close, in the order of
    the corporations (``but``: one left to close after them)."""
    cells = table.spec.closing_cells
    if not cells:
        return False
    closing = [c for c in table.state.corporations if c.price in cells and c is not but]
    for c in closing:
        table.variant.close_corporation(table, c)
    return bool(closing)


def shares_in_market(table: Table, corporation: CorporationState) -> int:
    return certificates.market_percent(table, corporation) // \
        certificates.share_percent(corporation)


def sold_out(table: Table, corporation: CorporationState) -> bool:
    return sum(certificates.player_holders(corporation).values()) == 100


def market_for(table: Table, corporation) -> Optional[int]:
    return market.price(table, corporation)
