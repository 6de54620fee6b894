"""Trains, the depot that sells them, and the phases their purchases bring."""

from __future__ import annotations

from typing import List, Optional

from .entities import Entity


class Train:
    """A train card. ``distance`` is a number of stops (or hexes), or a list of
    ``{"nodes": [...], "pay": n, "visit": n}`` rows for trains like ``8+x`` or ``2+2``."""

    __slots__ = ("sym", "name", "distance", "base_price", "index", "rusts_on", "obsolete_on",
                 "available_on", "discount", "salvage", "multiplier", "no_local", "buyable_",
                 "rusted", "obsolete", "operated", "ever_operated", "track_type", "events",
                 "reserved", "requires_token", "unlimited", "variants", "variant", "owner",
                 "spec", "_local", "extra")

    def __init__(self, name: str, distance, price: int, index: int = 0, num=None,
                 rusts_on=None, obsolete_on=None, available_on=None, discount=None, salvage=None,
                 multiplier=None, no_local=False, track_type="broad", events=(), reserved=False,
                 requires_token=True, variants=None, **extra) -> None:
        self.sym = name
        self.name = name
        self.distance = distance
        self.base_price = price
        self.index = index
        self.rusts_on = rusts_on
        self.obsolete_on = obsolete_on
        self.available_on = available_on
        self.discount = discount
        self.salvage = salvage
        self.multiplier = multiplier
        self.no_local = no_local
        self.buyable_ = True
        self.rusted = False
        self.obsolete = False
        self.operated = False
        self.ever_operated = False
        self.track_type = track_type
        self.events = [e for e in events if index == e.get("when", 1) - 1]
        self.reserved = reserved
        self.requires_token = requires_token
        self.unlimited = num == "unlimited"
        self.owner = None
        self.extra = extra
        self.spec = dict(name=name, distance=distance, price=price, num=num, rusts_on=rusts_on,
                         obsolete_on=obsolete_on, available_on=available_on, discount=discount,
                         salvage=salvage, multiplier=multiplier, no_local=no_local,
                         track_type=track_type, events=list(events), reserved=reserved,
                         requires_token=requires_token, variants=variants, **extra)
        self._local = None
        base = dict(name=name, distance=distance, multiplier=multiplier, price=price,
                    rusts_on=rusts_on, obsolete_on=obsolete_on, discount=discount,
                    salvage=salvage, track_type=track_type)
        self.variants = {name: base}
        for v in variants or []:
            merged = dict(base)
            merged.update(v)
            self.variants.setdefault(v["name"], merged)
        self.variant = base

    @property
    def id(self) -> str:
        return f"{self.sym}-{self.index}"

    @property
    def price(self) -> int:
        return self.variant["price"]

    def price_for(self, exchange_train=None, variant: Optional[dict] = None) -> int:
        """Price when ``exchange_train`` is traded in (its discount applies)."""
        discount = variant["discount"] if variant else self.discount
        price = variant["price"] if variant else self.price
        if discount and exchange_train is not None:
            price -= discount.get(exchange_train.name, 0)
        return price

    def set_variant(self, name: Optional[str]) -> None:
        if not name:
            return
        self.variant = self.variants[name]
        v = self.variant
        self.name = v["name"]
        self.distance = v["distance"]
        self.multiplier = v["multiplier"]
        self.rusts_on = v["rusts_on"]
        self.obsolete_on = v["obsolete_on"]
        self.discount = v["discount"]
        self.salvage = v["salvage"]
        self.track_type = v["track_type"]
        self._local = None

    def min_price(self) -> int:
        if not self.from_depot():
            return 1
        return min(v["price"] for v in self.variants.values())

    def from_depot(self) -> bool:
        return self.owner is not None and self.owner.is_depot

    def buyable(self, allow_obsolete: bool = False) -> bool:
        return self.buyable_ and (not self.obsolete or allow_obsolete)

    def set_operated(self, value: bool) -> None:
        self.ever_operated = self.ever_operated or value
        self.operated = value

    def local(self) -> bool:
        if self.no_local:
            return False
        if self._local is None:
            if isinstance(self.distance, int):
                self._local = self.distance == 1
            else:
                row = next((r for r in self.distance if "city" in r["nodes"]), None)
                self._local = bool(row) and row.get("visit", row["pay"]) == 1
        return self._local

    def clone_next(self) -> "Train":
        spec = dict(self.spec)
        name = spec.pop("name")
        distance = spec.pop("distance")
        price = spec.pop("price")
        return Train(name, distance, price, index=self.index + 1, **spec)

    def __repr__(self) -> str:
        return f"<Train {self.id}>"


class Depot(Entity):
    """The bank's trains: the stack still for sale (``upcoming``) and trains given back
    (``discarded``), which may be bought again."""

    is_depot = True
    name = "The Depot"
    id = "depot"

    def __init__(self, trains: List[Train], game) -> None:
        self.game = game
        self.trains = list(trains)
        for t in self.trains:
            t.owner = self
        self.upcoming = list(self.trains)
        self.discarded: List[Train] = []
        self._depot_trains = None

    @property
    def spender(self):
        return self.game.bank

    def clear_cache(self) -> None:
        self._depot_trains = None

    def depot_trains(self, clear: bool = False) -> List[Train]:
        """Trains the depot sells now: the next train, trains already available in this
        phase, and one of each kind given back."""
        if clear or self._depot_trains is None:
            out, names = [], set()
            phase = self.game.phase
            first = self.upcoming[0] if self.upcoming else None
            candidates = ([first] if first else []) + [
                t for t in self.upcoming if t.available_on and phase.available(t.available_on)]
            for t in candidates:
                if t.name not in names:
                    names.add(t.name)
                    out.append(t)
            seen = set()
            for t in self.discarded:
                if t.name not in seen:
                    seen.add(t.name)
                    out.append(t)
            self._depot_trains = out
        return self._depot_trains

    def min_depot_train(self) -> Optional[Train]:
        trains = self.depot_trains()
        return min(trains, key=lambda t: t.price) if trains else None

    def min_depot_price(self) -> int:
        train = self.min_depot_train()
        if train is None:
            return 0
        return min(v["price"] for v in train.variants.values())

    def max_depot_price(self) -> int:
        trains = self.depot_trains()
        if not trains:
            return 0
        train = max(trains, key=lambda t: t.price)
        return max(v["price"] for v in train.variants.values())

    def other_trains(self, entity) -> List[Train]:
        """Trains of other operators that ``entity`` could buy."""
        game = self.game
        if not game.ALLOW_TRAIN_BUY_FROM_OTHERS:
            return []
        out = [t for t in self.trains
               if t.buyable(game.ALLOW_OBSOLETE_TRAIN_BUY)
               and t.owner is not None and t.owner is not entity and t.owner is not self]
        if game.ALLOW_TRAIN_BUY_FROM_OTHER_PLAYERS:
            return out
        return [t for t in out if t.owner.owner is entity.owner]

    def available(self, entity) -> List[Train]:
        return self.depot_trains() + self.other_trains(entity)

    def min_price(self, entity) -> Optional[int]:
        prices = [t.min_price() for t in self.available(entity)]
        return min(prices) if prices else None

    def remove_train(self, train: Train) -> None:
        self._delete_from_upcoming(train)
        if train in self.discarded:
            self.discarded.remove(train)
        self._depot_trains = None

    def _delete_from_upcoming(self, train: Train) -> None:
        if train not in self.upcoming:
            return
        index = self.upcoming.index(train)
        self.upcoming.remove(train)
        if not train.unlimited:
            return
        if index < len(self.upcoming) and self.upcoming[index].name == train.name:
            return
        clone = train.clone_next()
        self.insert_train(clone, index)
        self.game.index_trains()

    def insert_train(self, train: Train, index: int = 0) -> None:
        train.owner = self
        self.trains.append(train)
        self.upcoming.insert(index, train)
        self._depot_trains = None

    def reclaim_train(self, train: Train) -> None:
        """A train comes back to the bank (discarded or traded in)."""
        if train.owner is None:
            return
        self.game.remove_train(train)
        train.owner = self
        if self.game.DISCARDED_TRAINS == "discard" and not train.obsolete:
            self.discarded.append(train)
        self._depot_trains = None

    def export(self) -> None:
        train = self.upcoming[0]
        self.game.log(f"-- Event: A {train.name} train exports --")
        self.game.remove_train(train)
        self.game.phase.buying_train(None, train, self)

    def empty(self) -> bool:
        return not self.depot_trains()


class Phase:
    """The current phase: which tiles may be laid, train limits, number of operating rounds."""

    def __init__(self, phases: List[dict], game) -> None:
        self.phases = phases
        self.game = game
        self.index = 0
        self.setup()

    @property
    def current(self) -> dict:
        return self.phases[self.index]

    def setup(self) -> None:
        p = self.phases[self.index]
        self.name = p["name"]
        self.operating_rounds = p.get("operating_rounds")
        self.train_limit_spec = p.get("train_limit")
        self.tiles = list(p.get("tiles", []))
        self.status = list(p.get("status", []))
        self.corporation_sizes = p.get("corporation_sizes")
        nxt = self.phases[self.index + 1] if self.index + 1 < len(self.phases) else None
        on = nxt.get("on") if nxt else None
        self.next_on = [] if on is None else (list(on) if isinstance(on, (list, tuple)) else [on])
        self.game.log(f"-- Phase {self.name} --")
        self.game.on_phase_setup(self)

    def next(self) -> None:
        self.index += 1
        self.setup()

    def available(self, phase_name: Optional[str]) -> bool:
        if not phase_name:
            return False
        for i, p in enumerate(self.phases):
            if p["name"] == phase_name:
                return i <= self.index
        return False

    def train_limit(self, entity) -> int:
        spec = self.train_limit_spec
        if isinstance(spec, dict):
            return spec.get(entity.type, 0)
        return spec

    def buying_train(self, entity, train: Train, source) -> None:
        """A train was bought: advance phases, rust and obsolete trains, run its events."""
        while train.id in self.next_on or train.sym in self.next_on:
            self.next()
        self.game.rust_trains(train, entity)
        self.game.depot.depot_trains(clear=True)
        events = list(train.events)
        train.events = []
        for event in events:
            self.game.run_event(event["type"], train)
        self.game.after_buying_train(train, source)

    @property
    def future(self) -> List[dict]:
        return self.phases[self.index + 1:]

    @property
    def upcoming(self) -> Optional[dict]:
        return self.phases[self.index + 1] if self.index + 1 < len(self.phases) else None
