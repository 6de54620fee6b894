"""Friendly mergers in the 1817 merger and conversion round.

A corporation may merge with another of its size (2 or 5 shares) in the white zone that
has not converted or merged this round. It takes the other's cash, companies, loans,
trains and tokens (one of two tokens in a city goes back to its charter). Its new price
is the dearest cell at most the two prices added (2-share) or their average (5-share);
a survivor whose price is unchanged keeps its place in the cell's stack (operating order).
Two 2-share corporations make a 5-share one: if their presidents differ, the survivor's
president pays the new price into its treasury and the other receives a 20% share. Two
5-share corporations make a 10-share one: every 20% (or short) of either becomes 10% of
the survivor, the other's treasury shares its own; the player holding most presides
(the president keeps it on a tie), and a player's shorts cancel against their shares.
The other corporation is put back unstarted.
"""

from __future__ import annotations

from ...errors import GameError
from ...rules import board, certificates, finance, market, money, network, operators, setup, trains
from ...rules.certificates import Bundle
from ...state.model import PlayerState
from . import shares
from .founding import price_for_bid
from .stock import in_zone

TOKEN_LIMIT = 8


def normal(table, corporation) -> bool:
    cell = table.cell(corporation.price)
    return cell is not None and cell.kind != "liquidation"


def merged_price(table, corporation, other):
    a, b = market.price(table, corporation), market.price(table, other)
    total = a + b if shares.size_of(corporation) == 2 else (a + b) // 2
    return price_for_bid(table, 2 * total)


def partners(table, corporation, done: list) -> list:
    """The corporations ``corporation`` may merge with now: a floated one of the same size
    (2 or 5 shares: a 10-share corporation merges no more), open, not converted or merged
    this round, out of the liquidation cell and the acquisition zone; two 5-share ones
    only when some player holds 40% of the two together; two 2-share ones with different
    presidents only when the survivor's president can pay the merged price."""
    size = shares.size_of(corporation)
    if size == 10 or not operators.has_floated(table, corporation) or \
            not normal(table, corporation):
        return []
    out = []
    for other in table.state.corporations:
        if other is corporation or other.closed or other in done or \
                shares.size_of(other) != size or not operators.has_floated(table, other) or \
                not normal(table, other) or in_zone(table, other):
            continue
        if size == 5 and most_held(corporation, other) < 40:
            continue
        if size == 2 and corporation.owner is not other.owner and \
                money.spendable(corporation.owner) < merged_price(table, corporation, other).price:
            continue
        out.append(other)
    return out


def most_held(corporation, other) -> int:
    held = {}
    for c in (corporation, other):
        for player, percent in certificates.player_holders(c).items():
            held[player] = held.get(player, 0) + percent
    return max(held.values(), default=0)


def take_assets(table, buyer, corporation) -> "TokensToReduce | None":
    """In a merger or an acquisition the buyer takes all the corporation has: its cash,
    private companies, loans, trains and stations (those as ``take_over_tokens`` says;
    returns the token reduction the buyer must make)."""
    if corporation.cash > 0:
        money.pay(table, corporation, buyer, corporation.cash)
    for company in list(corporation.companies):
        corporation.companies.remove(company)
        company.owner = buyer
        buyer.companies.append(company)
    finance.take_over_loans(table, buyer, corporation)
    trains.move_all(table, corporation, buyer)
    return take_over_tokens(table, buyer, corporation)


def merge(table, corporation, other) -> "TokensToReduce | None":
    """``corporation`` takes ``other`` over (see the module docstring)."""
    pending = take_assets(table, corporation, other)
    cell = merged_price(table, corporation, other)
    old = corporation.price
    market.place(table, corporation, cell.at)
    table.log(f"{corporation.name} merges with {other.name} at share price "
              f"{table.money(cell.price)}")
    market.report_move(table, corporation, old)
    if shares.size_of(corporation) == 2:
        two_into_five(table, corporation, other, cell.price)
    else:
        five_into_ten(table, corporation, other)
    reset(table, other, pending)
    return pending


def two_into_five(table, corporation, other, price: int) -> None:
    owner, other_owner = corporation.owner, other.owner
    shares.convert(table, corporation)
    if owner is other_owner:
        return
    money.pay(table, owner, corporation, price)
    share = [c for c in certificates.treasury(corporation) if c.percent > 0][0]
    certificates.change_hands(table, Bundle.of([share]), other_owner, price=0)
    table.log(f"{owner.name} buys a {share.percent}% share for {table.money(price)} and "
              f"receives the president's share")


def five_into_ten(table, corporation, other) -> None:
    fresh = shares.to_ten(table, corporation)
    for cert in list(other.certificates):
        holder = corporation if cert.owner is other else cert.owner
        for _ in range(abs(cert.percent) // 20):
            if cert.percent > 0 and fresh:
                new = fresh.pop(0)
                certificates.change_hands(table, Bundle.of([new]), holder, price=0,
                                          presidency_may_change=False)
            else:
                shares.add(table, corporation, 10 if cert.percent > 0 else -10, holder,
                           buyable=cert.percent > 0)
    held = certificates.player_holders(corporation)
    most = max((p for p in held.values()), default=0)
    if most < 20:
        raise GameError("At least one player must have more than 20% to allow a merge")
    leaders = [p for p, v in held.items() if v == most and isinstance(p, PlayerState)]
    president = corporation.owner
    if president not in leaders:
        able = [p for p in leaders
                if v_of(held, p) >= certificates.president_percent(corporation)]
        new = min(able, key=lambda p: certificates.seats_after(table, president, p))
        given = [c for c in certificates.held(new, corporation)
                 if c.percent == 10 and not c.president][:2]
        for c in given:
            certificates.move_certificate(c, president)
        certificates.move_certificate(corporation.certificates[0], new)
        shares.recount(corporation)
        corporation.owner = new
        table.log(f"{new.name} becomes the president of {corporation.name}")
    for holder in list(corporation.holders):
        while shares.holder_shorts(holder, corporation):
            tens = [c for c in certificates.held(holder, corporation)
                    if c.percent == 10 and not c.president]
            if not tens:
                break
            shares.close_short(table, holder, tens[0])


def v_of(held: dict, player) -> int:
    return held.get(player, 0)


class TokensToReduce:
    """A survivor that must take tokens off the map before it takes the other's: two in
    one hex (a city's duplicates go back to the charter by themselves), or more than eight
    on the map. ``theirs``: the other corporation's tokens."""

    def __init__(self, survivor, theirs: list) -> None:
        self.survivor = survivor
        self.theirs = theirs


def hexes_of(tokens) -> list:
    return [t.where[0] for t in tokens if t.where is not None]


def too_many_tokens(survivor, theirs: list) -> bool:
    mine = hexes_of(survivor.tokens)
    other = hexes_of(theirs)
    return len(mine) != len(set(mine)) or bool(set(mine) & set(other)) or \
        len(mine) + len(other) > TOKEN_LIMIT


def take_over_tokens(table, buyer, corporation) -> "TokensToReduce | None":
    """The acquired corporation's tokens become the buyer's (placed ones where they are;
    a buyer's token in a city the acquired one also holds goes back to its charter). If
    the buyer must first take tokens off the map, what it must reduce is returned and
    nothing moves yet."""
    theirs = {t.where for t in corporation.tokens if t.where is not None}
    for token in buyer.tokens:
        if token.where is not None and token.where in theirs:
            board.lift_token(table, token)
    if too_many_tokens(buyer, corporation.tokens):
        table.log(f"{buyer.name} will be above token limit and must decide which tokens to "
                  f"remove")
        return TokensToReduce(buyer, list(corporation.tokens))
    join_tokens(table, buyer, list(corporation.tokens))
    corporation.tokens = []
    return None


def join_tokens(table, buyer, theirs: list) -> None:
    """The other's tokens join the buyer's: placed ones first, then the charter's (the
    cheapest first), eight at most. A placed token is exchanged for one of the buyer's in
    its city: it takes the city's first free slot, as on 18xx.games (where later actions
    name the slot). Whether the buyer has a route is then worked out afresh: with other
    stations it may have lost the one it had (:func:`network.forget_route`)."""
    placed = [t for t in buyer.tokens if t.where is not None]
    spare = [t for t in buyer.tokens if t.where is None]
    for token in theirs:
        token.owner = buyer
        if token.where is not None:
            (hex_id, city_index), extra = token.where, token.extra
            board.lift_token(table, token)
            board.put_token(table, hex_id, city_index, token, extra=extra)
        (placed if token.where is not None else spare).append(token)
    if len(placed) > TOKEN_LIMIT:
        raise GameError("Used token above limit")
    spare.sort(key=lambda t: t.price)
    buyer.tokens = (placed + spare)[:TOKEN_LIMIT]
    network.forget(table)
    network.forget_route(buyer)


def reset(table, corporation, pending: "TokensToReduce | None" = None) -> None:
    """The corporation closes and is put back unstarted, where it was in the list (tokens
    still to be taken over stay on the map, held for the survivor)."""
    state = table.state
    if pending is not None:
        for token in pending.theirs:
            token.owner = pending.survivor
        corporation.tokens = [t for t in corporation.tokens if t not in pending.theirs]
        network.forget(table)   # tokens changed hands on the map: whose cities are open
    at = state.corporations.index(corporation)
    operators.close_corporation(table, corporation, quiet=True)
    fresh = setup.fresh_corporation(table.spec.corporations[corporation.sym])
    state.corporations.insert(at, fresh)
    table.forget_index()
