"""Any legal action in words for a person: who acts, what they do, with the names of the
companies, corporations, trains, cities and certificates it touches, and what it costs or
brings — "Ann buys a 10% share of Dürener Eisenbahn (DE) from the market for 90M",
"Köln-Bonner Eisenbahn (KBE) lays tile #57 on Köln (L3) (yellow, rotation 2), for 40M".

:func:`describe` reads the action against the game (``actions.read``), so the words name
what the engine will do; the step taking it says what a bid, a choice or a pass means
there (a draft's bid buys at face value, an acquisition's bid offers to buy a corporation,
a pass in a track step lays no more track). Names come from :mod:`.names`, prices from
:mod:`.costs`.
"""

from __future__ import annotations

from typing import Callable, Dict

from ..actions import Action, OffMap
from ..game import Game
from ..rules import board, certificates, operators
from ..rules.table import Table
from ..state.model import CompanyState, CorporationState, MinorState, PlayerState
from ..titles.cologne.stock import CologneStockTurn
from ..titles.family1817.acquisition import Acquire
from ..titles.family1817.founding import FoundingTurn
from ..titles.family1849.steps import LoanChoice, SmsTeleport, SwapChoice
from ..titles.old_prince.auction import PileAuction
from ..titles.old_prince.split import SplitStep
from ..turns.auction import PendingPar, WaterfallAuction
from ..turns.companies import PlayerCompanyTrade
from ..turns.draft import FaceValueDraft, FallingPriceAuction
from ..turns.listing import value_range
from ..turns.mergers import Vote
from ..turns.operating import DividendStep, HomeTokenStep
from .costs import lay_income, lay_price, president_price, reading
from .names import card_name, name_of, owner_words, place_name, route_stops, share_source, \
    train_name
from .splitting import split_choice

# The steps' own words for a pass, by the step's name (a step not named here "passes").
PASSES = {
    "Lay Track": "lays no more track",
    "Place a Token": "places no station token",
    "Place Home Token": "places no home token",
    "Buy Trains": "buys no more trains",
    "Buy Companies": "buys no private company",
    "Discard Trains": "keeps its trains",
    "Optional Discard of Any Trains": "keeps its trains",
    "Pay or Withhold Dividends": "passes on the dividend",
    "Run Routes": "runs no trains",
    "Buy or Sell Shares": "passes (ends the stock turn)",
    "Sell then Buy Shares": "passes (ends the stock turn)",
    "Buy/Sell Shares Post Conversion": "buys no more of the new shares",
    "Bid on Companies": "passes (no bid now)",
    "Draft": "passes (out of the draft)",
    "Convert or Merge": "neither converts nor merges",
    "Take Loans": "takes no more loans",
    "Taking Loans": "takes no more loans",
    "Issue or Redeem Shares": "issues and redeems no shares",
    "Assign": "uses no private company power now",
    "Hunslet Train Purchase": "does not use the Hunslet",
}


def describe(game: Game, h: dict) -> str:
    """``h`` (a legal action, listed or made concrete) as one sentence that names whoever
    acts and everything the action touches."""
    return Words(game.table).sentence(h)


class Words:
    """The words for the actions of one position of a game."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.steps: Dict[tuple, object] = {}

    def step_for(self, entity, kind: str):
        """The step that would take ``kind`` from ``entity`` (found once per position)."""
        key = (id(entity), kind)
        if key not in self.steps:
            self.steps[key] = self.table.round.step_for(entity, kind)
        return self.steps[key]

    def money(self, amount) -> str:
        return self.table.money(amount) if isinstance(amount, int) else str(amount)

    def sentence(self, h: dict) -> str:
        kind = h.get("type")
        a = reading(self.table, h)
        if a is None:
            return f"{h.get('entity')} {str(kind).replace('_', ' ')}"
        phrase = PHRASES.get(kind)
        words = phrase(self, a, h, self.step_for(a.entity, kind)) if phrase else \
            str(kind).replace("_", " ")
        return f"{name_of(a.entity)} {words}"

    def priced(self, h: dict, field: str = "price") -> str:
        """The amount of a listed action: its range when it has one."""
        found = value_range(h)
        if found is not None and found[0] == field:
            _, low, high, step = found
            each = f", in steps of {self.money(step)}" if step > 1 else ""
            return f"{self.money(low)} to {self.money(high)}{each}"
        return self.money(h.get(field))


# -- auctions and the stock round ---------------------------------------------------------------


def _bid(w: Words, a: Action, h: dict, step) -> str:
    price, target = w.priced(h), a.target
    if isinstance(target, CorporationState):
        if isinstance(step, Acquire):
            return f"bids to acquire {name_of(target)}: {price}"
        return f"bids to found {name_of(target)}: {price}"
    if isinstance(step, FaceValueDraft) or (isinstance(step, WaterfallAuction) and
                                            step.for_sale_now(target)):
        return f"buys {name_of(target)} for {price} (its face value)"
    if isinstance(step, FallingPriceAuction):
        if step.item is None:
            return f"puts {name_of(target)} up for auction, at {price}"
        return f"buys {name_of(target)} for {price}"
    return f"bids on {name_of(target)}: {price}"


def _pass(w: Words, a: Action, h: dict, step) -> str:
    if isinstance(step, Acquire):
        if step.offer is not None:
            return f"does not offer {name_of(step.offer)} for sale"
        if step.auction is not None:
            return f"drops out of the bidding for {name_of(step.auction.item)}"
        return "takes or repays no more loans"
    if isinstance(step, FoundingTurn):
        founding = step.founding
        if founding.winner is not None:
            return f"finishes founding {name_of(founding.corporation)}"
        if founding.auction is not None:
            return f"drops out of the bidding for {name_of(founding.corporation)}"
    if isinstance(step, FallingPriceAuction) and step.item is not None:
        return f"does not buy {name_of(step.item)} at {w.money(step.price(step.item))}"
    if isinstance(step, PileAuction) and step.lot is not None:
        return f"passes on {name_of(step.lot.company)} (no higher bid)"
    name = step.NAME if step is not None else ""
    return PASSES.get(name, f"passes ({name})" if name else "passes")


def _par(w: Words, a: Action, h: dict, step) -> str:
    out = f"starts {name_of(a.corporation)} at {w.money(a.cell.price)} a share"
    cost = president_price(a)
    if cost is not None:
        president = next(c for c in a.corporation.certificates if c.president)
        out += _president_words(w, a, step, f"the {president.percent}% president's "
                                            f"certificate", cost)
    return out + _for_whom(a)


def _president_words(w: Words, a: Action, step, certificate: str, cost: int) -> str:
    """How the starter comes by the president's certificate: with the company that carries
    it (1849's RSA: nothing to pay), bought, or bought with what 1893's FdSD brings in
    (the bank pays its owner the price and FdSD closes; at once for one short of cash)."""
    if isinstance(step, PendingPar) and step.round.notes.pending_par:
        return f", taking {certificate} that comes with " \
               f"{name_of(step.round.notes.pending_par[0])} (nothing to pay)"
    if isinstance(step, CologneStockTurn) and step.rag_by_fdsd(a.entity, a.corporation):
        company = name_of(step.fdsd(a.entity))
        if a.entity.cash < cost:
            return f", buying {certificate} for {w.money(cost)} paid by exchanging " \
                   f"{company} (it closes)"
        return f", buying {certificate} for {w.money(cost)} (or, chosen next, paid by " \
               f"exchanging {company}, which closes)"
    return f", buying {certificate} for {w.money(cost)}"


def _for_whom(a: Action) -> str:
    for_whom = a.purchase_for
    return f", for {name_of(for_whom)}" if for_whom is not None and for_whom is not a.entity \
        else ""


def bundle_words(bundle) -> str:
    """"a 10% share", "the 20% president's certificate", "2 shares (20%)"."""
    if bundle.president_certificate is not None:
        return f"the {bundle.percent}% president's certificate"
    if len(bundle.certificates) == 1:
        return f"a {bundle.percent}% share"
    return f"{len(bundle.certificates)} shares ({bundle.percent}%)"


def _buy_shares(w: Words, a: Action, h: dict, step) -> str:
    bundle = a.bundle
    what = f"{bundle_words(bundle)} of {name_of(bundle.corporation)}"
    where = share_source(w.table, bundle)
    if isinstance(a.entity, CompanyState):
        return f"is exchanged for {what} from {where}" + _for_whom(a)
    cost = certificates.bundle_price(w.table, bundle)
    return f"buys {what} from {where} for {w.money(cost)}" + _for_whom(a)


def _sell_shares(w: Words, a: Action, h: dict, step) -> str:
    bundle = a.bundle
    n = bundle.shares
    count = f"{n:g} share{'s' if n != 1 else ''} ({bundle.percent}%)"
    price = w.money(certificates.bundle_price(w.table, bundle))
    if a.entity is bundle.corporation:
        return f"issues {count} of its own to the market for {price}"
    return f"sells {count} of {name_of(bundle.corporation)} for {price}"


def _short(w: Words, a: Action, h: dict, step) -> str:
    """A short: the bank pays the share's value; the player owes a share back."""
    corporation = a.target
    price = operators.par_value(w.table, corporation)
    return (f"shorts a share of {name_of(corporation)}, receiving {w.money(price)} from the "
            "bank and owing the share")


def _company_trade(w: Words, a: Action, h: dict, step) -> str:
    company = a.company
    if a.kind == "sell_company":
        return f"sells {name_of(company)} to the bank for {w.priced(h)}"
    seller = company.owner
    source = f" from {name_of(seller)}" if isinstance(seller, PlayerState) else \
        " from the bank"
    buyer = step.buyer(a.entity) if isinstance(step, PlayerCompanyTrade) else a.entity
    verb = f"lets its owner {name_of(buyer)} buy" if buyer is not a.entity else "buys"
    return f"{verb} {name_of(company)}{source} for {w.priced(h)}"


def _buy_corporation(w: Words, a: Action, h: dict, step) -> str:
    card = w.table.find("company", h.get("minor"))
    return f"buys {name_of(card) if card else 'a minor'} for {w.priced(h)}"


def _offer(w: Words, a: Action, h: dict, step) -> str:
    company = w.table.find("company", h.get("company"))
    return f"offers {name_of(company)} for auction, face value {w.money(company.value)}"


def _split(w: Words, a: Action, h: dict, step) -> str:
    return f"splits {name_of(w.table.find('corporation', h.get('corporation')))}, " \
        "founding a Branch"


# -- the operating round ------------------------------------------------------------------------


def _lay_tile(w: Words, a: Action, h: dict, step) -> str:
    cost = lay_price(w.table, a, step)
    upgrade = board.tile_of(w.table, a.hex).color != "white"
    where = place_name(w.table, a.hex)
    what = f"upgrades {where} to tile #{a.tile.name}" if upgrade else \
        f"lays tile #{a.tile.name} on {where}"
    paid = f", for {w.money(cost)}" if cost else ", free"
    for company, income in lay_income(w.table, a):
        paid += f", and {name_of(company)} pays it {w.money(income)}"
    return f"{what} ({a.tile.color}, rotation {a.rotation}){paid}"


def _place_token(w: Words, a: Action, h: dict, step) -> str:
    price = a.token.price if a.token is not None else 0
    paid = f" for {w.money(price)}" if price else ""
    where = place_name(w.table, a.city.hex) if a.city is not None and \
        not isinstance(a.city, OffMap) else "a city off the map"
    if isinstance(step, HomeTokenStep):
        return f"places its home station in {where}{paid}"
    return f"places a station token in {where}{paid}"


def _remove_token(w: Words, a: Action, h: dict, step) -> str:
    return f"removes its station token from {place_name(w.table, a.city.hex)}"


def _run_routes(w: Words, a: Action, h: dict, step) -> str:
    parts, total = [], 0
    for r in h.get("routes") or []:
        train = w.table.find("train", r.get("train"))
        revenue = r.get("revenue")
        total += revenue if isinstance(revenue, int) else 0
        parts.append(f"{train_name(train) if train else 'a train'} "
                     f"{route_stops(w.table, r.get('hexes') or [])} ({w.money(revenue)})")
    if not parts:
        return "runs no trains"
    return f"runs {'; '.join(parts)}: {w.money(total)} in all"


def _dividend(w: Words, a: Action, h: dict, step) -> str:
    kind, operator = h.get("kind"), a.entity
    if not isinstance(step, DividendStep):
        return f"chooses to {kind}"
    revenue = step.revenue()
    kept, paid = step.split(operator, kind, revenue)
    if kind == "withhold":
        return f"withholds {w.money(revenue)} in its treasury"
    per = ""
    if isinstance(operator, CorporationState):
        shares = certificates.total_shares(operator)
        per = f" ({w.money(paid // shares)} a share)" if shares else ""
    if kind == "half":
        return f"pays {w.money(paid)} to its shareholders{per} and keeps {w.money(kept)}"
    to = " to its shareholders" if isinstance(operator, CorporationState) else ""
    return f"pays out {w.money(paid)}{to}{per}"


def _buy_train(w: Words, a: Action, h: dict, step) -> str:
    train, variant = a.train, h.get("variant")
    what = card_name(variant) if variant and variant != train.name else train_name(train)
    seller = train.owner
    where = " from the depot" if not isinstance(seller, (CorporationState, MinorState)) \
        else f" from {owner_words(seller)}"
    if train in w.table.state.depot.given_back:
        where = " from the bank's pool of discarded trains"
    trade = f", trading in its {a.exchange.name}-train" if a.exchange is not None else ""
    return f"buys {what}{where} for {w.priced(h)}{trade}" + _help_from_president(w, a, h)


def _help_from_president(w: Words, a: Action, h: dict) -> str:
    """An operator short of the price is helped by its president (emergency money)."""
    operator, price = a.entity, a.price
    president = operator.owner
    if not isinstance(price, int) or price <= operator.cash or \
            not isinstance(president, PlayerState) or value_range(h) is not None:
        return ""
    return (f": {w.money(operator.cash)} from its treasury and "
            f"{w.money(price - operator.cash)} from {president.name}")


def _discard_train(w: Words, a: Action, h: dict, step) -> str:
    return f"discards its {a.train.name}-train"


def _purchase_train(w: Words, a: Action, h: dict, step) -> str:
    upcoming = w.table.state.depot.upcoming
    train = upcoming[0] if upcoming else None
    what = f"{train_name(train)} for {w.money(train.variant.price)}" if train else "a train"
    return f"closes to let {name_of(a.entity.owner)} buy {what} from the depot"


def _loan(w: Words, a: Action, h: dict, step) -> str:
    terms = w.table.spec.data.loans
    value = w.money(terms.value) if terms is not None else "a loan"
    if a.kind == "take_loan":
        return f"takes a loan of {value} from the bank"
    return f"repays a loan of {value} to the bank"


def _convert(w: Words, a: Action, h: dict, step) -> str:
    size = certificates.total_shares(a.entity)
    grown = {2: 5, 5: 10}.get(size)
    return f"converts from {size} to {grown} shares" if grown else "converts"


def _merge(w: Words, a: Action, h: dict, step) -> str:
    if isinstance(step, Acquire):
        return f"names {name_of(a.target)} as the buyer of {name_of(step.auction_item())}"
    return f"merges with {name_of(a.target)}"


def _special_buy(w: Words, a: Action, h: dict, step) -> str:
    item = h.get("description")
    target = step.round.target() if isinstance(step, Vote) else None
    about = f" on forming {name_of(target)}" if target is not None else ""
    return f"votes {item}{about}" if item in ("yes", "no") else f"takes {item}{about}"


def _choose(w: Words, a: Action, h: dict, step) -> str:
    choice = h.get("choice")
    if isinstance(step, FoundingTurn):
        return f"makes {name_of(step.founding.corporation)} a {choice}-share corporation"
    if isinstance(step, SplitStep):
        return split_choice(w, step, h)
    if isinstance(step, SmsTeleport):
        return "closes SMS to build in a coastal city" if choice == "Close SMS" \
            else "keeps SMS for now"
    if isinstance(step, LoanChoice):
        v = w.table.variant
        return "leaves the game, bankrupt" if choice == "Leave game" else \
            (f"takes a loan of {w.money(v.LOAN)} to stay in the game "
             f"({w.money(v.LOAN_PENALTY)} off the final score)")
    if isinstance(step, SwapChoice):
        return f"takes {str(choice).lower()} in the swap"
    return f"chooses {choice}"


def _assign(w: Words, a: Action, h: dict, step) -> str:
    target, entity = a.target, a.entity
    if isinstance(step, Acquire):
        return f"offers {name_of(target)} for sale in the acquisition round"
    if isinstance(step, FoundingTurn) and isinstance(target, CompanyState):
        return (f"puts {name_of(target)} (worth {w.money(target.value)}) into "
                f"{name_of(step.founding.corporation)} towards the bid")
    power = f" ({entity.spec.text})" if isinstance(entity, CompanyState) and \
        entity.spec.text else ""
    if isinstance(target, str):
        return f"uses its power on {place_name(w.table, target)}{power}"
    if target is not None:
        return f"assigns its power to {name_of(target)}{power}"
    return f"uses its power{power}"


def _bankrupt(w: Words, a: Action, h: dict, step) -> str:
    if isinstance(a.entity, PlayerState):
        return "declares bankruptcy"
    return (f"goes bankrupt (its president {name_of(a.entity.owner)} cannot raise the "
            "money)")


PHRASES: Dict[str, Callable[[Words, Action, dict, object], str]] = {
    "bid": _bid, "pass": _pass, "par": _par, "buy_shares": _buy_shares,
    "sell_shares": _sell_shares, "short": _short, "buy_company": _company_trade,
    "sell_company": _company_trade, "buy_corporation": _buy_corporation,
    "lay_tile": _lay_tile, "place_token": _place_token, "remove_token": _remove_token,
    "run_routes": _run_routes, "dividend": _dividend, "buy_train": _buy_train,
    "discard_train": _discard_train, "purchase_train": _purchase_train,
    "take_loan": _loan, "payoff_loan": _loan, "convert": _convert, "merge": _merge,
    "special_buy": _special_buy, "choose": _choose, "assign": _assign, "offer": _offer,
    "split": _split, "bankrupt": _bankrupt,
    "end_game": lambda w, a, h, step: "ends the game now",
}
