"""Moving certificates: buying, selling, and the change of president that may follow."""

from __future__ import annotations

from typing import Optional

from .entities import Entity, ShareBundle, ShareHolder
from .errors import GameError


class SharePool(Entity, ShareHolder):
    """The open market (bank pool). It also carries out every share transfer."""

    is_share_pool = True
    name = "Market"
    id = "market"
    cash = 0

    def __init__(self, game, allow_president_sale: bool = False) -> None:
        self.game = game
        self.allow_president_sale = allow_president_sale
        self.init_shares()

    @property
    def owner(self):
        return None

    @property
    def spender(self):
        return self.game.bank

    def fit_in_bank(self, bundle: ShareBundle) -> bool:
        """Would the market hold no more than its limit after receiving ``bundle``?"""
        return (bundle.percent + self.percent_of(bundle.corporation)
                <= self.game.market_share_limit(bundle.corporation))

    # -- buying and selling ----------------------------------------------------------------

    def buy_shares(self, entity, bundle, exchange=None, exchange_price: Optional[int] = None,
                   swap=None, allow_president_change: bool = True, silent: bool = False) -> None:
        """``entity`` takes ``bundle``; it pays the price unless this is an exchange."""
        game = self.game
        if not isinstance(bundle, ShareBundle):
            bundle = ShareBundle(bundle if isinstance(bundle, list) else [bundle])
        if bundle.owner.is_player and not game.can_gain_from_player(entity, bundle):
            raise GameError("cannot buy a share from a player")
        corporation = bundle.corporation
        ipoed = corporation.ipoed
        floated = corporation.floated()
        if bundle.presidents_share or (corporation.owner is not None and corporation.owner.is_player):
            corporation.ipoed = True
        price = bundle.price
        par_price = corporation.par_price.price if corporation.par_price else None
        if ipoed != corporation.ipoed and par_price and not silent:
            game.log(f"{entity.name} pars {corporation.name} at {game.format_currency(par_price)}")
        if exchange:
            price = exchange_price or 0
            if not silent:
                game.log(f"{entity.name} receives a {bundle.percent}% share of {corporation.name}")
        else:
            if swap is not None:
                price -= swap.price
            if not silent:
                game.log(f"{entity.name} buys a {bundle.percent}% share of {corporation.name} "
                         f"for {game.format_currency(price)}")
        if price == 0:
            self.transfer_shares(bundle, entity, allow_president_change=allow_president_change)
        else:
            owner = bundle.owner
            if ((corporation.capitalization in ("escrow", "incremental") and owner.is_corporation)
                    or (owner.is_corporation and corporation.ipo_owner is not corporation)
                    or (owner.is_corporation and owner is not corporation)
                    or owner.is_player):
                receiver = owner
            else:
                receiver = game.bank
            self.transfer_shares(bundle, entity, spender=game.bank if entity is self else entity,
                                 receiver=receiver, price=price, swap=swap,
                                 swap_to_entity=self if swap is not None else None,
                                 allow_president_change=allow_president_change)
        if corporation.floatable and floated != corporation.floated():
            game.float_corporation(corporation)

    def sell_shares(self, bundle: ShareBundle, allow_president_change: bool = True, swap=None,
                    silent: bool = False) -> None:
        """The owner of ``bundle`` sells it to the market (or back to the corporation)."""
        game = self.game
        entity = bundle.owner
        price = bundle.price
        if swap is not None:
            price -= swap.price
        if not silent:
            game.log(f"{entity.name} sells {bundle.num_shares()} share(s) of "
                     f"{bundle.corporation.name} for {game.format_currency(price)}")
        to = bundle.corporation if game.sold_shares_destination(bundle.corporation) == "corporation" \
            else self
        self.transfer_shares(bundle, to, spender=game.bank, receiver=entity, price=price,
                             allow_president_change=allow_president_change, swap=swap,
                             swap_to_entity=entity if swap is not None else None)

    # -- the transfer itself ---------------------------------------------------------------

    def transfer_shares(self, bundle: ShareBundle, to_entity, spender=None, receiver=None,
                        price: Optional[int] = None, allow_president_change: bool = True,
                        swap=None, swap_to_entity=None, corporate_transfer: bool = False) -> None:
        """Move the certificates of ``bundle`` to ``to_entity``, pay for them, and hand the
        presidency to the new majority holder if it changed."""
        game = self.game
        corporation = bundle.corporation
        owner = bundle.owner
        previous_president = corporation.owner
        if price is None:
            price = bundle.price
        holders = corporation.share_holders
        holders[owner] = holders.get(owner, 0) - bundle.percent
        holders[to_entity] = holders.get(to_entity, 0) + bundle.percent
        if swap is not None:
            holders[swap.owner] = holders.get(swap.owner, 0) - swap.percent
            holders[swap_to_entity] = holders.get(swap_to_entity, 0) + swap.percent
            move_share(swap, swap_to_entity)
        if spender is not None and receiver is not None and price > 0:
            spender.spend(price, receiver)
        for s in bundle.shares:
            move_share(s, to_entity)
        if not allow_president_change:
            return

        presidency = self.presidency_check_shares(corporation)
        max_shares = max(presidency.values()) if presidency else 0

        if (self.allow_president_sale and max_shares < corporation.presidents_percent
                and bundle.presidents_share and to_entity is self):
            corporation.owner = self
            game.log(f"President's share sold to pool. {corporation.name} enters receivership")
            if bundle.partial():
                self.handle_partial(bundle, self, owner)
            return
        if self.allow_president_sale and owner is self and bundle.presidents_share:
            corporation.owner = to_entity
            game.log(f"{to_entity.name} becomes the president of {corporation.name}")
            self.handle_partial(bundle, to_entity, self)
            return
        if self.allow_president_sale and max_shares < corporation.presidents_percent:
            return

        majority = [h for h, p in presidency.items() if p == max_shares]
        if previous_president is not None and any(h is previous_president for h in majority):
            return
        president = None
        if previous_president is None:
            president = next((h for h in majority if h is corporation.presidents_share.owner), None)
        if president is None:
            eligible = [h for h in majority
                        if h.percent_of(corporation) >= corporation.presidents_percent]
            if eligible:
                if previous_president is self:
                    president = eligible[0]
                else:
                    president = min(eligible, key=lambda p: self.distance(previous_president, p))
        if president is None:
            return
        corporation.owner = president
        game.log(f"{president.name} becomes the president of {corporation.name}")

        if (to_entity is president and previous_president is owner and bundle.presidents_share
                and not bundle.partial()):
            return
        if (owner is corporation and not bundle.presidents_share
                and game.can_swap_for_presidents_share_directly_from_corporation()):
            previous_president = previous_president or corporation
        if owner is president or previous_president is None:
            return
        presidents_share = bundle.presidents_share or next(
            (s for s in previous_president.shares_of(corporation) if s.president), None)
        if presidents_share is None:
            return
        if ((owner.is_player and to_entity.is_player) or corporate_transfer) \
                and bundle.presidents_share:
            transfer_to = to_entity
            swap_to = to_entity
        else:
            transfer_to = corporation if game.sold_shares_destination(corporation) == "corporation" \
                else self
            swap_to = previous_president if previous_president.percent_of(corporation) >= \
                presidents_share.percent else transfer_to
        self.change_president(presidents_share, swap_to, president, previous_president)
        if bundle.partial():
            self.handle_partial(bundle, transfer_to, owner)

    def handle_partial(self, bundle: ShareBundle, source, to) -> None:
        corp = bundle.corporation
        difference = sum(s.percent for s in bundle.shares) - bundle.percent
        for _ in range(difference // corp.share_percent):
            move_share(source.shares_of(corp)[0], to)

    def change_president(self, presidents_share, swap_to, president, previous_president=None):
        """Give the president's certificate to ``president``, who hands over certificates of
        the same total percentage to ``swap_to``."""
        corporation = presidents_share.corporation
        num_shares = presidents_share.percent // corporation.share_percent
        for s in self.game.shares_for_presidency_swap(list(president.shares_of(corporation)),
                                                      num_shares):
            move_share(s, swap_to)
        move_share(presidents_share, president)

    def presidency_check_shares(self, corporation) -> dict:
        return corporation.player_share_holders()

    def distance(self, a, b) -> int:
        """How many seats after player ``a`` player ``b`` sits."""
        if a is None or b is None:
            return 0
        entities = self.game.possible_presidents()
        ia, ib = entities.index(a), entities.index(b)
        return ib - ia if ia < ib else ib - (ia - len(entities))


def move_share(share, to_entity) -> None:
    """Move one certificate to a new holder (percentages in ``share_holders`` are the
    caller's business)."""
    corporation = share.corporation
    held = share.owner.shares_of(corporation)
    for i, s in enumerate(held):
        if s is share:
            del held[i]
            break
    to_entity.shares_of(corporation).append(share)
    share.owner = to_entity
