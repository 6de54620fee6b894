"""What a guide says of the rules every title shares, written from its settings and data:
the stock round, the operating round, capitalisation, floating and holding limits, and
the common part of emergency money."""

from __future__ import annotations

from typing import List

from ..spec.settings import (Capitalization, HomeTokenTiming, MinorDividend, PoolDrop,
                             PriorityDeal, SaleMovement, SaleTiming, TradeOrder, TrainDuty)
from .facts import Facts, listing, per_players, plural

TRADE_ORDER = {
    TradeOrder.SELL_THEN_BUY: "A turn: sell any shares, then buy one certificate (or pass).",
    TradeOrder.SELL_BUY_OR_BUY_SELL: "A turn: sell and buy one certificate, in either order "
                                     "(or pass).",
    TradeOrder.SELL_BUY_SELL: "A turn: sell, buy one certificate, and sell again (or pass).",
}
SALE_TIMING = {
    SaleTiming.AFTER_FIRST_STOCK_ROUND: "Nothing may be sold in the first stock round.",
    SaleTiming.AFTER_IT_OPERATED: "Shares of a corporation that has not yet operated cannot "
                                  "be sold.",
    SaleTiming.OPERATED_OR_IN_OPERATING_ROUND: "Shares of a corporation that has not yet "
                                               "operated can be sold only in an operating "
                                               "round.",
    SaleTiming.ANY_TIME: "Shares may be sold at any time.",
}
SALE_MOVEMENT = {
    SaleMovement.DOWN_PER_SHARE: "Each share sold moves the price one row down.",
    SaleMovement.DOWN_PER_SALE: "A sale moves the price one row down, however many shares it "
                                "holds.",
    SaleMovement.DOWN_PER_10_PERCENT: "The price moves one row down for each 10% sold.",
    SaleMovement.LEFT_PER_SHARE: "Each share sold moves the price one column left.",
    SaleMovement.LEFT_PER_SALE: "A sale moves the price one column left.",
    SaleMovement.NONE: "A sale does not move the price.",
}
POOL_DROP = {
    PoolDrop.NONE: None,
    PoolDrop.DOWN_ONE: "At the end of the round a corporation with shares in the market drops "
                       "one row.",
    PoolDrop.DOWN_PER_SHARE: "At the end of the round a corporation drops once for each of its "
                             "shares in the market.",
    PoolDrop.LEFT_ONE: "At the end of the round a corporation with shares in the market moves "
                       "one column left.",
}
PRIORITY = {
    PriorityDeal.AFTER_LAST_TO_ACT: "The priority deal goes to the player after the last to "
                                    "act.",
    PriorityDeal.FIRST_TO_PASS: "The priority deal goes to the first player to pass.",
    PriorityDeal.MOST_CASH: "The player with the most cash goes first.",
    PriorityDeal.LEAST_CASH: "The player with the least cash goes first.",
}
HOME_TOKEN = {
    HomeTokenTiming.FIRST_OPERATION: "when it first operates",
    HomeTokenTiming.FLOAT: "when it floats",
    HomeTokenTiming.START: "when it is started",
    HomeTokenTiming.OPERATING_ROUND: "at the start of the next operating round",
}
TRAIN_DUTY = {
    TrainDuty.ALWAYS: "A corporation must always own a train.",
    TrainDuty.WITH_ROUTE: "A floated corporation with a route must own a train.",
    TrainDuty.NEVER: "A corporation never has to own a train.",
}


def _one_row(f: Facts, text: str) -> str:
    """On a market of one row, prices move by cells: down is left, up is right."""
    if not f.spec.one_row_market:
        return text
    return text.replace("one row down", "one cell left").replace("rises one row",
                                                                 "moves one cell right") \
        .replace("drops one row", "moves one cell left").replace("drops once", "moves left once")


def stock_round(f: Facts) -> List[str]:
    return [_one_row(f, line) for line in _stock_round(f)]


def _stock_round(f: Facts) -> List[str]:
    s = f.settings
    out = [TRADE_ORDER[s.trade_order], SALE_TIMING[s.sale_timing],
           SALE_MOVEMENT[s.sale_movement]]
    if s.sell_in_blocks:
        out.append("A corporation's shares are sold once a turn, as one block.")
    if s.market_limit < 100:
        out.append(f"At most {s.market_limit}% of a corporation may lie in the market.")
    if s.shares_start_in_market:
        out.append("There is no pool: unsold and sold shares lie in the market and are bought "
                   "from there.")
    drop = POOL_DROP[s.pool_drop]
    if drop:
        out.append(drop)
    if s.sold_out_rises:
        out.append("At the end of the round a sold-out corporation rises one row.")
    out.append(PRIORITY[s.priority_deal])
    return out


def tile_lays(f: Facts) -> str:
    lays = f.settings.tile_lays
    if len(lays) == 1:
        lay = lays[0]
        cost = f" for {f.money(lay.cost)}" if lay.cost else ""
        return f"Track: one yellow tile or one upgrade{cost}."
    words = []
    for i, lay in enumerate(lays):
        what = "a yellow tile or an upgrade" if lay.upgrade else "a yellow tile"
        cost = f"{f.money(lay.cost)}" if lay.cost else "free"
        words.append(f"{what} ({cost})")
    note = ""
    if any(lay.not_after_upgrade for lay in lays):
        note = "; nothing more once it has upgraded"
    elif any(lay.no_upgrade_after_upgrade for lay in lays):
        note = "; only one upgrade"
    return f"Track: up to {plural(len(lays), 'tile')}: " + ", then ".join(words) + note + "."


def operating_round(f: Facts, dividend_moves: str = "") -> List[str]:
    """The operating round's order of business (``dividend_moves``: how revenue moves the
    price, where the title has its own rule)."""
    s = f.settings
    out = []
    if f.data.companies and any(c.revenue for c in f.data.companies):
        out.append("Private companies pay their owners first.")
    if f.data.minors:
        out.append("Minors operate first (in number order), then corporations by share price.")
    else:
        out.append("Corporations operate by share price, highest first.")
    out.append(tile_lays(f))
    token_prices = sorted({p for c in f.data.corporations for p in c.tokens[1:] if p})
    if token_prices:
        out.append("One station token a turn, for " + listing(
            [f.money(p) for p in token_prices], "or") + "; the home station "
            f"is placed {HOME_TOKEN[s.home_token]}.")
    elif any(c.token_fee for c in f.data.corporations):
        out.append("One station token a turn (paid for when the corporation started); the "
                   f"home station is placed {HOME_TOKEN[s.home_token]}.")
    out.append("Run trains; no two trains of a company may share track.")
    if f.data.minors and s.minor_dividend is MinorDividend.HALF:
        out.append("Minors pay half their revenue to their owner and keep half.")
    out.append(dividend_moves or "Corporations pay out (the price moves right) or withhold "
                                 "(it moves left).")
    if not s.market_shares_pay:
        out.append("Dividends on shares lying in the market stay in the bank.")
    out.append("Buy trains. " + TRAIN_DUTY[s.train_duty])
    if s.trade_ins_per_turn:
        out.append(f"A company may trade in {plural(s.trade_ins_per_turn, 'train')} a turn "
                   "against a new one, at the discount the trains table gives.")
    return out


CAPITAL_OF = {"none": "no capital from their shares (what they start with comes from "
                       "the corporation they split from)",
              "incremental": "incremental capitalisation", "full": "full capitalisation"}


def capitalization(f: Facts) -> List[str]:
    kind = f.settings.capitalization
    floats = sorted({c.float_percent for c in f.data.corporations
                     if c.floatable and c.float_percent})
    if kind is Capitalization.FULL:
        times = sorted({sum(c.shares) // min(c.shares) for c in f.data.corporations
                        if c.floatable and c.float_percent})
        text = (f"Full capitalisation: a corporation receives {listing(times, 'or')} times its "
                f"starting price when it floats ({listing([str(p) + '%' for p in floats], 'or')}"
                " sold).")
    else:
        text = ("Incremental capitalisation: a corporation receives the price of each share "
                "sold from its treasury, as it is sold.")
    out = [text]
    others = sorted({c.capitalization for c in f.data.corporations if c.capitalization})
    for other in others:
        syms = [c.sym for c in f.data.corporations if c.capitalization == other]
        out.append(f"{listing(syms)}: " + CAPITAL_OF.get(other, f"{other} capitalisation") + ".")
    return out


def floating_and_limits(f: Facts) -> List[str]:
    out = []
    floats: dict = {}
    for c in f.data.corporations:
        if c.floatable:
            floats.setdefault(c.float_percent, []).append(c.sym)
    for percent, syms in sorted(floats.items()):
        excl = any(c.float_excludes_market for c in f.data.corporations
                   if c.sym in syms)
        if not percent:
            out.append(f"{listing(syms)}: floated from the start.")
            continue
        out.append(f"{listing(syms)} float once {percent}% is sold"
                   + (" (shares in the market count as unsold)." if excl else "."))
    limits: dict = {}
    for c in f.data.corporations:
        limits.setdefault(c.max_ownership, []).append(c.sym)
    for percent, syms in sorted(limits.items()):
        who = "any corporation" if len(limits) == 1 else listing(syms)
        out.append(f"A player may hold at most {percent}% of {who}.")
    out.append("Certificate limit: " + ", ".join(
        f"{d.cert_limit} with {n} players" for n, d in sorted(f.by_players.items())) + ".")
    if f.data.companies and not f.settings.privates_count_for_limit:
        out.append("Private companies do not count against the certificate limit.")
    return out


def starting_cash(f: Facts) -> List[str]:
    out = [f"{n} players: {f.money(d.starting_cash)} each." for n, d in
           sorted(f.by_players.items())]
    bank = per_players(f, lambda d: f.money(d.bank_cash))
    out.append(f"The bank: {bank}" + (" whatever the number of players." if
                                      "players" not in bank else "."))
    return out


def emergency(f: Facts) -> List[str]:
    s = f.settings
    if s.train_duty is TrainDuty.NEVER:
        return ["No company is ever forced to buy a train, so there is no emergency train "
                "purchase."]
    out = ["A corporation that must buy a train pays from its treasury; its president pays "
           "what is missing from their own cash, then sells shares to raise the rest."]
    if s.emergency_from_others.value == "never":
        out.append("In an emergency the train comes from the bank, not from another company.")
    elif s.emergency_from_others.value == "value":
        out.append("In an emergency a train may be bought from another company for at most "
                   "its face value.")
    if s.owner_pays_minor_first_train:
        out.append("A minor that needs a train and cannot afford one: its owner pays what "
                   "it lacks from their own cash, with no share sale.")
    return out
