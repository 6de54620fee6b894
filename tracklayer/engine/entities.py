"""The things that own money, shares, trains and tokens: players, the bank, the market,
corporations, minors and private companies."""

from __future__ import annotations

import math
from typing import Dict, List, Optional

from .abilities import AbilityHolder
from .errors import GameError


class Entity:
    """Base of everything that can own or act."""

    is_player = is_corporation = is_minor = is_company = is_bank = is_share_pool = False
    is_operator = is_depot = False
    name = ""

    @property
    def closed(self) -> bool:
        return False

    @property
    def player(self):
        """The player ultimately in control (None for the bank)."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {getattr(self, 'id', self.name)}>"


class CashHolder(Entity):
    """An entity with cash; money only moves with :meth:`spend`, so it is never created or lost."""

    cash: int = 0
    debt: int = 0

    @property
    def spender(self) -> "CashHolder":
        return self

    def spend(self, amount: int, receiver: Entity, check_cash: bool = True,
              check_positive: bool = True) -> None:
        """Pay ``amount`` to ``receiver``."""
        receiver = receiver.spender
        if receiver is self:
            raise GameError(f"{self.name} cannot pay itself {amount}")
        if check_cash:
            self.check_cash(amount)
        if check_positive and amount <= 0:
            raise GameError(f"cannot spend {amount}: amounts must be positive")
        self.cash -= amount
        receiver.cash += amount

    def check_cash(self, amount: int) -> None:
        if self.cash - amount < 0:
            raise GameError(f"{self.name} has {self.cash} and cannot spend {amount}")

    def set_cash(self, amount: int, other: "CashHolder") -> None:
        """Make this entity's cash exactly ``amount``, settling the difference with ``other``."""
        other.spend(amount - self.cash, self, check_cash=False, check_positive=False)


class ShareHolder:
    """Mixin for entities that hold shares: ``shares_by_corporation`` keeps them in the
    order they were received, which decides which certificates move in a presidency swap."""

    def init_shares(self) -> None:
        self.shares_by_corporation: Dict = {}

    @property
    def shares(self) -> list:
        return [s for shares in self.shares_by_corporation.values() for s in shares]

    def shares_of(self, corporation) -> list:
        if corporation is None:
            return []
        shares = self.shares_by_corporation.get(corporation)
        if shares is None:
            shares = self.shares_by_corporation[corporation] = []
        return shares

    def percent_of(self, corporation) -> int:
        if corporation is None:
            return 0
        return sum(s.percent for s in self.shares_by_corporation.get(corporation, ()))

    def common_percent_of(self, corporation) -> int:
        if corporation is None:
            return 0
        return sum(s.percent for s in self.shares_by_corporation.get(corporation, ())
                   if not s.preferred)

    def num_shares_of(self, corporation, ceil: bool = True):
        num = self.percent_of(corporation) / corporation.share_percent
        return math.ceil(num) if ceil else num


class Player(CashHolder, ShareHolder):
    is_player = True

    def __init__(self, id, name: str) -> None:
        self.id = id
        self.name = name
        self.cash = 0
        self.debt = 0
        self.penalty = 0
        self.companies: list = []
        self.bankrupt = False
        self.passed = False
        self.init_shares()

    @property
    def player(self):
        return self

    @property
    def owner(self):
        return self

    def pass_(self) -> None:
        self.passed = True

    def unpass(self) -> None:
        self.passed = False

    def value(self) -> int:
        """Cash plus shares at market price plus companies, less debts and penalties."""
        shares = sum(s.price for s in self.shares if s.corporation.ipoed)
        return self.cash + shares + sum(c.value for c in self.companies) - self.debt - self.penalty


class Bank(CashHolder, ShareHolder):
    """The bank. It may run out ("break"); games then end on their schedule."""

    is_bank = True
    name = "The Bank"
    id = "bank"

    def __init__(self, cash: int, check: bool = True, unlimited: bool = False) -> None:
        self.cash = cash
        self.broken = False
        self.check = check
        self.unlimited = unlimited
        self.companies: list = []
        self.debt = 0
        self.init_shares()
        self.on_break = None

    def check_cash(self, amount: int) -> None:
        if self.check and self.cash - amount < 0 and not self.broken:
            self.broken = True
            if self.on_break:
                self.on_break()


class Token:
    """A station marker of a corporation or minor."""

    __slots__ = ("corporation", "price", "type", "used", "city", "hex", "extra", "cheater",
                 "location")

    def __init__(self, corporation, price: int = 0, type: str = "normal") -> None:
        self.corporation = corporation
        self.price = price
        self.type = type
        self.used = False
        self.city = None
        self.hex = None
        self.extra = False
        self.cheater = False
        self.location = None

    def place(self, city, extra=False, cheater=False) -> None:
        self.used = True
        self.city = city
        self.hex = city.hex
        self.location = "city"
        self.extra = extra
        self.cheater = cheater

    def remove(self) -> None:
        """Take the token off the map (it can be placed again)."""
        if self.location == "city" and self.city is not None:
            city = self.city
            city.tokens = [None if t is self else t for t in city.tokens]
            if self in city.extra_tokens:
                city.extra_tokens.remove(self)
        self.city = None
        self.hex = None
        self.used = False
        self.extra = False
        self.cheater = False
        self.location = None

    def __repr__(self) -> str:
        where = self.city.hex.id if self.city and self.city.hex else "-"
        return f"<Token {self.corporation.id} {where}>"


class Operator(CashHolder, AbilityHolder):
    """What corporations and minors share: treasury, trains, tokens, operating history."""

    is_operator = True

    def init_operator(self, tokens, coordinates=None, city=None) -> None:
        self.cash = 0
        self.debt = 0
        self.trains: list = []
        self.operating_history: dict = {}
        self.coordinates = coordinates
        self.city = city
        self.tokens = [Token(self, price=p) for p in tokens]
        self.loans: list = []
        self.passed = False
        self.owner = None
        self.assignments: dict = {}

    @property
    def player(self):
        owner = self.owner
        seen = set()
        while owner is not None and not owner.is_player:
            if id(owner) in seen or owner.is_share_pool:
                return None
            seen.add(id(owner))
            owner = getattr(owner, "owner", None)
        return owner

    def runnable_trains(self) -> list:
        return [t for t in self.trains if not t.operated]

    def operated(self) -> bool:
        return bool(self.operating_history)

    def next_token(self):
        for t in self.tokens:
            if not t.used:
                return t
        return None

    def find_token_by_type(self, type: Optional[str] = None):
        type = type or "normal"
        for t in self.tokens:
            if not t.used and t.type == type:
                return t
        return None

    def tokens_by_type(self) -> list:
        seen, out = set(), []
        for t in self.tokens:
            if not t.used and t.type not in seen:
                seen.add(t.type)
                out.append(t)
        return out

    def pass_(self) -> None:
        self.passed = True

    def unpass(self) -> None:
        self.passed = False

    @property
    def companies(self) -> list:
        return self._companies

    def president_of(self, player) -> bool:
        return player is not None and self.owner is player


class Share:
    """A certificate: ``percent`` of a corporation; the president's certificate is index 0."""

    __slots__ = ("corporation", "owner", "president", "percent", "index", "buyable",
                 "counts_for_limit", "cert_size", "last_cert", "double_cert", "preferred", "id")

    def __init__(self, corporation, owner, president: bool, percent: int, index: int) -> None:
        self.corporation = corporation
        self.owner = owner
        self.president = president
        self.percent = percent
        self.index = index
        self.buyable = True
        self.counts_for_limit = True
        self.cert_size = 1
        self.last_cert = False
        self.double_cert = False
        self.preferred = False
        self.id = f"{corporation.id}_{index}"

    def num_shares(self, ceil: bool = True):
        num = self.percent / self.corporation.share_percent
        return math.ceil(num) if ceil else num

    @property
    def price_per_share(self):
        corp = self.corporation
        sp = corp.par_price if self.owner is corp.ipo_owner else corp.share_price
        if sp is not None:
            return sp.price * corp.price_multiplier
        return corp.min_price

    @property
    def price(self) -> int:
        return math.ceil(self.price_per_share * self.num_shares(ceil=False))

    @property
    def common_percent(self) -> int:
        return 0 if self.preferred else self.percent

    def to_bundle(self, percent: Optional[int] = None) -> "ShareBundle":
        return ShareBundle([self], percent)

    def __repr__(self) -> str:
        return f"<Share {self.id} {self.percent}%>"


class ShareBundle:
    """Certificates of one corporation, from one owner, bought or sold together."""

    __slots__ = ("shares", "percent", "share_price")

    def __init__(self, shares, percent: Optional[int] = None) -> None:
        shares = list(shares)
        if not shares:
            raise GameError("a share bundle must contain at least one share")
        first = shares[0]
        total = 0
        for s in shares:
            if s.corporation is not first.corporation:
                raise GameError("all shares of a bundle must be of the same corporation")
            if s.owner is not first.owner:
                raise GameError("all shares of a bundle must have the same owner")
            total += s.percent
        self.shares = shares
        self.percent = percent if percent is not None else total
        self.share_price = None

    @property
    def corporation(self):
        return self.shares[0].corporation

    @property
    def owner(self):
        return self.shares[0].owner

    @property
    def presidents_share(self):
        for s in self.shares:
            if s.president:
                return s
        return None

    def partial(self) -> bool:
        return self.percent != sum(s.percent for s in self.shares)

    def num_shares(self, ceil: bool = True):
        num = self.percent / self.corporation.share_percent
        return math.ceil(num) if ceil else num

    @property
    def price_per_share(self):
        return self.share_price if self.share_price is not None else self.shares[0].price_per_share

    @property
    def price(self) -> int:
        return math.ceil(self.price_per_share * self.num_shares(ceil=False))

    @property
    def buyable(self) -> bool:
        return all(s.buyable for s in self.shares)

    @property
    def common_percent(self) -> int:
        return sum(s.percent for s in self.shares if not s.preferred)

    def can_dump(self, entity) -> bool:
        """Can ``entity`` sell this bundle without leaving the corporation presidentless?"""
        pres = self.presidents_share
        if pres is None:
            return True
        holders = self.corporation.player_share_holders(corporate=True)
        others = [p for h, p in holders.items() if h is not entity]
        return (max(others) if others else 0) >= pres.percent

    def __repr__(self) -> str:
        return f"<Bundle {[s.id for s in self.shares]} {self.percent}%>"


class Corporation(Operator, ShareHolder):
    """A public company with shares, a share price and a president."""

    is_corporation = True

    def __init__(self, sym: str, name: str, tokens=(0,), shares=None, float_percent: int = 60,
                 float_excludes_market: bool = False, float_includes_reserved: bool = False,
                 floatable: bool = True, max_ownership_percent: int = 60,
                 always_market_price: bool = False, capitalization: str = "full",
                 type: Optional[str] = None, coordinates=None, city=None, abilities=None,
                 min_price=None, color=None, text_color=None, ipo_owner=None,
                 treasury_as_holding: bool = False, price_percent: Optional[int] = None,
                 needs_token_to_par: bool = False, reservation_color=None, **extra) -> None:
        self.id = sym
        self.sym = sym
        self.name = sym
        self.full_name = name
        self.extra = extra
        self.color = color
        self.init_shares()
        self.init_operator(tokens, coordinates, city)
        self.init_abilities(abilities)
        self._companies = []
        self.share_holders: Dict = {}
        self.ipo_owner = ipo_owner or self
        percents = shares or [20] + [10] * 8
        self.all_shares: List[Share] = []
        for index, percent in enumerate(percents):
            share = Share(self, self.ipo_owner, index == 0, percent, index)
            self.all_shares.append(share)
            self.ipo_owner.shares_of(self).append(share)
        self.share_holders[self.ipo_owner] = sum(percents)
        self.presidents_share = self.all_shares[0]
        self.second_share = self.all_shares[1] if len(self.all_shares) > 1 else None
        self.share_price = None
        self.par_price_ = None
        self.original_par_price = None
        self.ipoed = False
        self._floated = False
        self.floatable = floatable
        self.float_percent = float_percent
        self.float_excludes_market = float_excludes_market
        self.float_includes_reserved = float_includes_reserved
        self.max_ownership_percent = max_ownership_percent
        self.always_market_price = always_market_price
        self.capitalization = capitalization
        self.type = type
        self.min_price = min_price
        self.closed_ = False
        self.treasury_as_holding = treasury_as_holding
        self.needs_token_to_par = needs_token_to_par
        second = self.second_share.percent if self.second_share else self.presidents_share.percent // 2
        self.price_percent = price_percent or second
        self.price_multiplier = second // self.price_percent
        self.forced_share_percent = None
        self.par_via_exchange = None

    # -- shares ----------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self.closed_

    @property
    def presidents_percent(self) -> int:
        return self.presidents_share.percent

    @property
    def share_percent(self) -> int:
        if self.forced_share_percent:
            return self.forced_share_percent
        if self.second_share:
            return self.second_share.percent
        return self.presidents_percent // 2

    @property
    def total_shares(self) -> int:
        return 100 // self.share_percent

    @property
    def par_price(self):
        if self.closed_:
            return None
        return self.share_price if self.always_market_price else self.par_price_

    @par_price.setter
    def par_price(self, value) -> None:
        self.par_price_ = value

    def ipo_shares(self) -> list:
        return list(self.ipo_owner.shares_of(self))

    def reserved_shares(self) -> list:
        return [s for s in self.ipo_owner.shares_of(self) if not s.buyable]

    def num_market_shares(self) -> int:
        pct = sum(p for h, p in self.share_holders.items() if h.is_share_pool)
        return pct // self.share_percent

    def percent_in_market(self) -> int:
        return self.num_market_shares() * self.share_percent

    def player_share_holders(self, corporate: bool = False) -> dict:
        return {h: p for h, p in self.share_holders.items()
                if h.is_player or (corporate and h.is_corporation and h is not self)}

    def counts_for_limit(self) -> bool:
        return self.share_price.counts_for_limit if self.share_price else True

    def buy_multiple(self) -> bool:
        return self.share_price.buy_multiple if self.share_price else False

    def holding_ok(self, holder, extra_percent: int = 0) -> bool:
        """May ``holder`` own this much (its shares plus ``extra_percent``)?"""
        if holder is self:
            return True
        percent = holder.common_percent_of(self) + extra_percent
        if self.share_price and self.share_price.type in ("multiple_buy", "unlimited"):
            return True
        return percent <= self.max_ownership_percent

    def president_of(self, player) -> bool:
        return player is not None and self.owner is player

    @property
    def president(self):
        return self.owner

    def receivership(self) -> bool:
        return self.owner is not None and self.owner.is_share_pool

    # -- floating --------------------------------------------------------------------------

    def floated(self) -> bool:
        """Has the corporation floated? Once true it stays true (until it closes)."""
        if not self.floatable:
            return False
        if not self._floated:
            self._floated = self.ipo_owner.percent_of(self) <= self._float_threshold()
        return self._floated

    def _float_threshold(self) -> int:
        threshold = 100 - self.float_percent
        if self.float_excludes_market:
            threshold -= self.percent_in_market()
        if self.float_includes_reserved:
            threshold += sum(s.percent for s in self.reserved_shares())
        return threshold

    def floated_now(self) -> bool:
        """Whether the corporation has floated, without recording the answer."""
        if not self.floatable:
            return False
        return self._floated or self.ipo_owner.percent_of(self) <= self._float_threshold()

    def percent_to_float(self) -> int:
        if self._floated:
            return 0
        return self.ipo_owner.percent_of(self) - self._float_threshold()

    @property
    def all_abilities(self) -> list:
        out = [a for c in self._companies for a in c.all_abilities] + self.abilities
        owner = self.owner
        if owner is not None and hasattr(owner, "companies"):
            for c in owner.companies:
                out.extend(a for a in c.all_abilities if any("owning_player" in w for w in a.when))
        return out

    def close(self) -> None:
        if self.cash != 0:
            raise GameError(f"{self.name} cannot close with {self.cash} in its treasury")
        if self.share_price is not None and self in self.share_price.corporations:
            self.share_price.corporations.remove(self)
        self.closed_ = True
        self.ipoed = False
        self._floated = False
        self.owner = None

    def sort_key(self):
        """Operating order: higher price, further right, higher row, earlier arrival, name."""
        sp = self.share_price
        if sp is None:
            return None
        try:
            pos = sp.corporations.index(self)
        except ValueError:
            pos = 0
        return (-sp.price, -sp.coordinates[1], sp.coordinates[0], pos, self.name)


class Minor(Operator):
    """A minor company: one owner, no shares; it operates like a small corporation."""

    is_minor = True

    def __init__(self, sym: str, name: str, tokens=(0,), type: Optional[str] = None,
                 coordinates=None, city=None, abilities=None, color=None, **extra) -> None:
        self.id = sym
        self.sym = sym
        self.name = sym
        self.full_name = name
        self.type = type
        self.color = color
        self.extra = extra
        self.init_operator(tokens, coordinates, city)
        self.init_abilities(abilities)
        self._companies = []
        self._floated = False
        self.closed_ = False
        self.share_price = None
        self.par_price = None

    @property
    def closed(self) -> bool:
        return self.closed_

    def floated(self) -> bool:
        return self._floated

    def float(self) -> None:
        self._floated = True

    @property
    def total_shares(self) -> int:
        return 1

    @property
    def share_percent(self) -> int:
        return 100

    def num_shares_of(self, corporation, ceil=True) -> int:
        return 0

    def percent_of(self, corporation) -> int:
        return 0

    def close(self) -> None:
        self.closed_ = True
        self._floated = False
        self.owner = None


class Company(Entity, AbilityHolder):
    """A private company (also used for bonds and for the cards of minors)."""

    is_company = True

    def __init__(self, sym: str, name: str, value: int, revenue: int = 0, desc: str = "",
                 abilities=None, discount: int = 0, min_price=None, max_price=None,
                 color=None, type=None, **extra) -> None:
        self.id = sym
        self.sym = sym
        self.name = name
        self.value = value
        self.revenue = revenue
        self.desc = desc
        self.discount = discount
        self.min_price = min_price if min_price is not None else math.ceil(value / 2)
        self.max_price_ = max_price if max_price is not None else value * 2
        self.color = color
        self.type = type
        self.extra = extra
        self.owner = None
        self.closed_ = False
        self.passed = False
        self.init_abilities(abilities)

    @property
    def closed(self) -> bool:
        return self.closed_

    @property
    def min_bid(self) -> int:
        return self.value - self.discount

    def max_price(self, buyer=None) -> int:
        return self.max_price_

    @property
    def player(self):
        owner = self.owner
        if owner is None:
            return None
        return owner if owner.is_player else owner.player

    def close(self) -> None:
        self.closed_ = True
        self.abilities = []
        if self.owner is not None:
            companies = getattr(self.owner, "companies", None)
            if companies is not None and self in companies:
                companies.remove(self)
            self.owner = None

    def pass_(self) -> None:
        self.passed = True

    def unpass(self) -> None:
        self.passed = False
