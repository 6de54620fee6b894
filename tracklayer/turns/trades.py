"""Which certificate trades a player may make in their stock round turn.

Each trade is a named rule below, its docstring the rule, with the title's settings
choosing among the variants (``spec/settings.py``: ``trade_order``, ``sell_in_blocks``,
``largest_sale``, ``sales_in_first_stock_round``, ``holding_limit_forces_sale``,
``buys_after_start``, ``frozen_cells``, ``short_selling``,
``privates_count_for_limit``). ``TRADES`` is the table of the trades a turn offers, in
the order they are offered: each kind of action with the rule saying whether the player
may make one now. The stock turn's handlers judge an action by the same rules, so one
check decides both what is legal and what is listed.

``turn`` is the stock turn (``turns/stock.py``): it keeps what was done in the turn and
the round, and holds the hooks where a title's rules truly differ (what a player may
spend, ``StockTurn.cash_for``; what they may hold, ``may_take``; 1893's FdSD and 1817's
acting for a corporation on ``may_buy`` and ``may_sell_bundle``), besides
``Variant.may_start`` and ``Variant.start_cells``.
"""

from __future__ import annotations

from typing import Iterator, Optional

from ..rules import certificates, powers, trading
from ..rules.certificates import Bundle, bundle_price
from ..spec.settings import TradeOrder
from ..state.model import PlayerState

PURCHASES = ("buy_company", "buy_shares", "par")


# -- the turn so far ------------------------------------------------------------------------


def bought(turn) -> bool:
    """Has the player bought something (a share, a start, a company) this turn?"""
    for action in turn.round.notes.turn_actions:   # (few: a plain loop is quickest)
        if action.kind in PURCHASES:
            return True
    return False


def sold_this_round(turn, entity) -> dict:
    """What ``entity`` sold this round, by corporation (or stack of companies):
    "now" for this turn, "prev" for an earlier one (1817: "short" for a short)."""
    return turn.round.notes.sold.setdefault(entity, {})


def frozen(table, corporation) -> bool:
    """Is the corporation on a cell whose shares are neither bought nor sold
    (``Settings.frozen_cells``: 1817's acquisition and liquidation zones)?"""
    kinds = table.settings.frozen_cells
    if not kinds:
        return False
    cell = table.cell(corporation.price)
    return cell is not None and cell.kind in kinds


# -- buying shares --------------------------------------------------------------------------


def may_buy_shares(turn, entity, bundle: Optional[Bundle]) -> bool:
    """A player may buy a bundle on offer to them (:func:`on_offer`), at a point of the
    turn that allows it (:func:`may_buy_now`), with the cash, and within their limits
    (:func:`may_pay_and_hold`)."""
    return on_offer(turn, entity, bundle) and \
        may_buy_now(turn, entity, bundle.corporation) and \
        may_pay_and_hold(turn, entity, bundle)


def on_offer(turn, entity, bundle: Optional[Bundle]) -> bool:
    """A bundle that someone else holds, every certificate buyable and none a short; of a
    corporation not yet started only its president's certificate, from its treasury (that
    is, by starting it); a certificate marked last (1849) only as the last of its pile
    (``trading.last_goes_last``)."""
    if bundle is None or entity is bundle.owner:
        return False
    for c in bundle.certificates:     # (few: a plain loop is quickest)
        if not c.buyable or c.percent < 0:
            return False
    corporation = bundle.corporation
    if not corporation.started and not (bundle.owner is corporation and
                                        bundle.president_certificate is not None):
        return False
    return trading.last_goes_last(turn.table, bundle)


def may_pay_and_hold(turn, entity, bundle: Bundle) -> bool:
    """The player may pay for the bundle (:func:`may_pay`) and may hold it
    (``turn.may_take``)."""
    return may_pay(turn, entity, bundle) and turn.may_take(entity, bundle)


def may_pay(turn, entity, bundle: Bundle) -> bool:
    """The player has the cash for the bundle (``turn.cash_for``)."""
    return turn.cash_for(entity) >= bundle_price(turn.table, bundle)


def may_buy_now(turn, entity, corporation) -> bool:
    """Not shares of a corporation the player sold this round; after a purchase, only
    another that :func:`may_buy_another` allows."""
    return not turn.round.notes.sold.get(entity, {}).get(corporation) and (
        not bought(turn) or may_buy_another(turn, entity, corporation))


def may_buy_another(turn, entity, corporation) -> bool:
    """A second certificate in a turn: of the same corporation, on a cell that allows
    several, and not after starting one; or, where the title allows
    (``Settings.buys_after_start``), up to that many shares of a corporation its president
    just started."""
    cell = turn.table.cell(corporation.price)
    actions = turn.round.notes.turn_actions
    if cell is not None and cell.multiple_buy and \
            not any(a.kind == "par" for a in actions) and \
            not any(a.kind == "buy_shares" and a.bundle.corporation is not corporation
                    for a in actions):
        return True
    allowed = turn.table.settings.buys_after_start
    if not allowed or corporation.owner is not entity:
        return False
    started = any(a.kind == "par" and a.corporation is corporation for a in actions)
    more = sum(1 for a in actions
               if a.kind == "buy_shares" and a.bundle.corporation is corporation)
    return started and more < allowed


def open_to_buy(turn, entity) -> Iterator:
    """The started corporations whose shares the player may buy now (:func:`may_buy_now`),
    each found when asked for. Before a purchase in the turn, those they did not sell
    this round. Once they have bought a share or started a corporation in the turn, only
    a corporation they bought or started may be bought again (:func:`may_buy_another`),
    so no other is weighed."""
    notes = turn.round.notes
    sold = notes.sold.get(entity, {})
    corporations = turn.table.state.corporations
    if not bought(turn):
        for c in corporations:
            if c.started and not sold.get(c):
                yield c
        return
    bought_or_started = {a.bundle.corporation if a.kind == "buy_shares" else a.corporation
                         for a in notes.turn_actions if a.kind in ("buy_shares", "par")}
    for c in corporations:
        if c.started and (not bought_or_started or c in bought_or_started) and \
                not sold.get(c) and may_buy_another(turn, entity, c):
            yield c


def smallest_affordable(table, pile, cash: int):
    """The smallest buyable certificate of ``pile`` (one holder's certificates of one
    corporation; the first of the smallest) if ``cash`` covers its price, else None."""
    smallest = None
    for c in pile:
        if c.buyable and (smallest is None or c.percent < smallest.percent):
            smallest = c
    if smallest is None or cash < certificates.price_of(table, smallest, smallest.percent):
        return None
    return smallest


def at_certificate_limit(turn, entity) -> bool:
    """The player holds as many certificates as the limit allows, or more."""
    return turn.certificate_count(entity) >= trading.certificate_limit(turn.table, entity)


def no_room_for(turn, entity, corporation) -> bool:
    """A player at the certificate limit may buy no certificate that counts toward it
    (``trading.counts_for_limit``), unless closing a short of the corporation
    (``StockTurn.closes_short``): ``turn.may_take`` refuses every certificate of it."""
    return trading.counts_for_limit(turn.table, corporation) and \
        not turn.closes_short(entity, corporation)


def may_buy_some_share(turn, entity) -> bool:
    """Some certificate from the market, or from the treasury of a started corporation
    (of a corporation open to the player now, :func:`open_to_buy`): the smallest buyable
    one of some pile, which the player may pay for (:func:`smallest_affordable`; what they
    may spend, ``turn.cash_for``, the same for every pile, is asked once, and first, as
    it is what most often lacks), may hold (``turn.may_take``) and which is on offer
    (:func:`on_offer`). Whether the player is at the certificate limit is asked once, at
    the first pile they may pay for; if they are, the piles of a corporation
    :func:`no_room_for` names are not read."""
    table = turn.table
    market = table.state.market
    cash = turn.cash_for(entity)
    full = None
    for c in open_to_buy(turn, entity):
        if full and no_room_for(turn, entity, c):
            continue
        for pile in (certificates.held(market, c), certificates.treasury(c)):
            smallest = smallest_affordable(table, pile, cash) if pile else None
            if smallest is None:
                continue
            if full is None:
                full = at_certificate_limit(turn, entity)
                if full and no_room_for(turn, entity, c):
                    break
            bundle = Bundle((smallest,), smallest.percent)
            if on_offer(turn, entity, bundle) and turn.may_take(entity, bundle):
                return True
    return False


# -- starting a corporation ------------------------------------------------------------------


def start_prices(turn, entity, corporation) -> list:
    """The cells the corporation may start at (``Variant.start_cells``) whose price buys
    two shares."""
    table = turn.table
    return [c for c in table.variant.start_cells(table, corporation, entity)
            if c.price * 2 <= turn.cash_for(entity)]


def may_start_some(turn, entity) -> bool:
    """Not after a purchase; a corporation the title lets the player start
    (``Variant.may_start``) whose president's certificate they may buy."""
    if bought(turn):
        return False
    return any(turn.may_start(c, entity) and c.certificates and
               turn.may_buy(entity, Bundle.whole((c.certificates[0],)))
               for c in turn.table.state.corporations)


# -- selling shares --------------------------------------------------------------------------


def order_allows_sale(turn) -> bool:
    """As the title's trade order says: selling then buying (no sale after a purchase),
    selling, buying and selling again, or either order (but not a third change between
    selling and buying)."""
    order = turn.table.settings.trade_order
    if order is TradeOrder.SELL_BUY_OR_BUY_SELL:
        actions = turn.round.notes.turn_actions
        if not actions:
            return True
        kinds = {a.kind for a in actions}
        return not (len(kinds) == 2 and actions[-1].kind in PURCHASES)
    if order is TradeOrder.SELL_THEN_BUY:
        return not bought(turn)
    return True


def may_sell_in_turn(turn, entity, corporation) -> bool:
    """Sales of ``corporation`` are open in this turn: sales open in the turn at all
    (:func:`sales_open`) and of this corporation (:func:`sales_of_open`)."""
    return sales_open(turn) and sales_of_open(turn, entity, corporation)


def sales_open(turn) -> bool:
    """Sales are open in the turn, whatever the corporation: not in the first stock round
    where the title forbids it, and the trade order allowing a sale."""
    table = turn.table
    if not table.settings.sales_in_first_stock_round and table.turn <= 1:
        return False
    return order_allows_sale(turn)


def sales_of_open(turn, entity, corporation) -> bool:
    """Where sales are open in the turn, those of ``corporation``: not on a frozen cell,
    and not a second sale of it in the turn where the title sells in blocks."""
    table = turn.table
    if frozen(table, corporation):
        return False
    return not (table.settings.sell_in_blocks and
                sold_this_round(turn, entity).get(corporation) == "now")


def may_sell_shares(turn, entity, bundle: Optional[Bundle]) -> bool:
    """A player may sell a bundle of their own when sales of its corporation are open in
    the turn (:func:`may_sell_in_turn`) and the bundle may go (``turn.may_sell_bundle``)."""
    if bundle is None or entity is not bundle.owner:
        return False
    return may_sell_in_turn(turn, entity, bundle.corporation) and \
        turn.may_sell_bundle(entity, bundle)


def may_sell_bundle(turn, entity, bundle: Bundle) -> bool:
    """A bundle (of a corporation whose sales are open in the turn) may go: no short, no
    more than the title's largest sale, and the common sale rules allowing it
    (``trading.sale_problem``)."""
    for c in bundle.certificates:     # (few: a plain loop is quickest)
        if c.percent < 0:
            return False
    largest = turn.table.settings.largest_sale
    if largest and bundle.percent > largest:
        return False
    return trading.sale_problem(turn.table, entity, bundle) is None


def may_sell_some_of(turn, entity, corporation) -> bool:
    """Sales of ``corporation`` open in the turn (:func:`may_sell_in_turn`, asked once),
    and some bundle of it the player holds that may go (:func:`some_bundle_may_go`)."""
    return may_sell_in_turn(turn, entity, corporation) and \
        some_bundle_may_go(turn, entity, corporation)


def some_bundle_may_go(turn, entity, corporation) -> bool:
    """The moment to sell the corporation's shares has come, and some bundle of it the
    player holds may go (``turn.may_sell_bundle``; the first found is enough)."""
    table = turn.table
    if not trading.sale_timing_allows(table, corporation):
        return False
    for b in trading.sale_candidates(table, entity, corporation):
        if turn.may_sell_bundle(entity, b):
            return True
    return False


def may_sell_some_share(turn, entity) -> bool:
    """Some share the player holds, of a corporation whose sales are open
    (:func:`may_sell_some_of`; what is the same for every corporation, :func:`sales_open`,
    asked once)."""
    if not sales_open(turn):
        return False
    for certs in list(entity.shares.values()):
        if certs:
            corporation = certs[0].corporation
            if not corporation.closed and sales_of_open(turn, entity, corporation) and \
                    some_bundle_may_go(turn, entity, corporation):
                return True
    return False


def must_sell(turn, entity) -> bool:
    """A player over the certificate limit, or (where the title says so) over a holding
    limit of a corporation they may sell, must sell first, if they can (may sell some
    share: ``StockTurn.may_sell_some``)."""
    table = turn.table
    if turn.certificate_count(entity) > trading.certificate_limit(table, entity):
        return turn.may_sell_some(entity)
    return table.settings.holding_limit_forces_sale and \
        trading.over_a_holding_limit(table, entity) and turn.may_sell_some(entity) and \
        any(not trading.holding_allowed(table, entity, c) and
            may_sell_some_of(turn, entity, c) for c in table.state.corporations)


# -- companies -------------------------------------------------------------------------------


def companies_from_players(turn, entity) -> list:
    """Companies other players own that may change hands now: in a phase that allows it,
    not after a purchase, for a player with cash."""
    if bought(turn) or turn.cash_for(entity) <= 0 or \
            not turn.table.phase_has("can_buy_companies_from_other_players"):
        return []
    return powers.buyable_from_players(turn.table, entity)


def companies_from_bank(turn, entity) -> list:
    """Companies the bank sells (``companies.bank_offer``) a player may buy now: not after
    a purchase, at face value, not after selling one of its stack this round, and, where
    companies count, with room under the certificate limit."""
    if not isinstance(entity, PlayerState) or bought(turn):
        return []
    table = turn.table
    if table.settings.privates_count_for_limit and \
            turn.certificate_count(entity) >= trading.certificate_limit(table):
        return []
    sold = sold_this_round(turn, entity)
    return [c for c in turn.bank_offer()
            if turn.cash_for(entity) >= c.value and
            not (c.spec.stack is not None and sold.get(c.spec.stack))]


def may_buy_some_company(turn, entity) -> bool:
    """From another player or from the bank."""
    return bool(companies_from_players(turn, entity) or companies_from_bank(turn, entity))


def companies_to_sell(turn, entity) -> list:
    """Companies the bank buys back (1893's bonds): from the second stock round on, in a
    turn without a purchase."""
    if not isinstance(entity, PlayerState) or turn.table.turn <= 1 or bought(turn):
        return []
    return [c for c in entity.companies if c.spec.bank_buys]


def may_sell_some_company(turn, entity) -> bool:
    """Some company the bank buys back (:func:`companies_to_sell`)."""
    return bool(companies_to_sell(turn, entity))


def may_sell_anything(turn, entity) -> bool:
    """A player who must sell may sell some share (:func:`must_sell` found one)."""
    return True


# The trades a stock turn offers, in order: each kind of action, and the rule saying
# whether the player may make one now (a player who must sell may only sell). Starting a
# corporation asks the turn (``StockTurn.may_start_some``: 1871 starts from the market).
ASKING_ORDER = ("sell_shares", "buy_shares", "par", "buy_company", "sell_company")
TRADES = (
    ("buy_shares", may_buy_some_share),
    ("par", lambda turn, entity: turn.may_start_some(entity)),
    ("buy_company", may_buy_some_company),
    ("sell_shares", may_sell_some_share),
    ("sell_company", may_sell_some_company),
)
# The same rules in the order to ask whether any is open, the quickest to answer first:
# whether the player may sell some share is told at once when they hold none or sales
# are closed, and found true sooner than a purchase, which reads the piles.
TRADES_TO_ASK = tuple(open_now for kind, open_now in
                      sorted(TRADES, key=lambda trade: ASKING_ORDER.index(trade[0])))
# What a player who must sell (:func:`must_sell`) may do.
FORCED_SALES = (
    ("sell_shares", may_sell_anything),
    ("sell_company", may_sell_some_company),
)
