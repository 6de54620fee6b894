"""Legal moves: concrete actions (18xx.games format) the players may take in a position.

:func:`legal_actions` lists, for every entity that may act now, the actions the rules allow,
built from the active steps' own predicates (``can_buy``, ``can_sell``, legal tile rotations,
tokenable cities, buyable trains …). Continuous choices are sampled: a bid or a price paid to
another company is offered at its minimum, its maximum and a value in between; runs of
trains are offered as the best route set (the route finder's).

Two rules are left to processing: whether the new track of an upgrade is reached by the
company (the track restriction counts only reached track, known once the tile is laid), and
the cost of crossing a river or other priced border. Such a tile lay is listed and
:meth:`Game.process_action` refuses it cleanly, leaving the game unchanged; or, with
``legal_actions(game, exact=True)``, it is tried on a copy of the game first and listed only
if accepted.
"""

from __future__ import annotations

import random as _random
from typing import Iterable, List, Optional

from .actions import action_hash
from .errors import GameError


def acting_entities(game) -> list:
    """Entities that may act now: the round's active ones, their owners (who may sell
    shares to help), and companies with usable powers."""
    out = []
    for e in game.round.active_entities():
        if e is not None and e not in out:
            out.append(e)
            owner = getattr(e, "owner", None)
            if owner is not None and owner.is_player and owner not in out:
                out.append(owner)
    for c in game.companies:
        owner = c.owner
        if not c.closed and owner is not None and (owner.is_player or owner.is_corporation):
            out.append(c)
    return out


# What a private company itself can do: be exchanged for shares, or use a power on a hex.
COMPANY_ACTIONS = ("buy_shares", "assign")


def legal_actions(game, rng: Optional[_random.Random] = None, exact: bool = False) -> List[dict]:
    """Concrete legal actions in the current position (see the module docstring). With
    ``exact``, the tile lays left to processing are tried on a copy of the game and only the
    accepted ones are listed (a few milliseconds per such lay)."""
    out = _candidates(game, rng or _random.Random(0))
    if exact:
        out = _keep_accepted(game, out)
    return out


def _needs_trial(game, h: dict) -> bool:
    """Is ``h`` a tile lay whose legality the listing could not settle (an upgrade of track,
    or a lay across a priced border)?"""
    if h["type"] != "lay_tile":
        return False
    hex = game.hex_by_id(h["hex"])
    return bool(hex.tile.paths) or any(b.cost for b in hex.tile.borders)


def _keep_accepted(game, actions: List[dict]) -> List[dict]:
    """``actions`` without the tile lays a copy of the game refuses."""
    import pickle

    doubtful = [h for h in actions if _needs_trial(game, h)]
    if not doubtful:
        return actions
    try:
        frozen = pickle.dumps(game)
    except (pickle.PicklingError, TypeError, AttributeError):
        return actions  # cannot copy this position: leave the check to processing
    refused = set()
    for h in doubtful:
        trial = pickle.loads(frozen)
        trial.restore_on_error = False
        try:
            trial.process_action(dict(h, id=len(game.actions) + 1))
        except GameError:
            refused.add(id(h))
    return [h for h in actions if id(h) not in refused]


def _candidates(game, rng) -> List[dict]:
    """Actions built from the active steps' own predicates (see the module docstring)."""
    if game.finished:
        return []
    out: List[dict] = []
    for entity in acting_entities(game):
        for type_ in game.round.actions_for(entity):
            if type_ in ("message", "end_game") or type_.startswith("program_"):
                continue
            if entity.is_company and type_ not in COMPANY_ACTIONS:
                continue
            step = game.round.step_for(entity, type_)
            if step is None:
                continue
            maker = _MAKERS.get(type_)
            if maker is None:
                continue
            out.extend(maker(game, step, entity, rng))
    return out


# ----------------------------------------------------------------------------------------------
# Generators, one per action type


def _pass(game, step, entity, rng):
    return [action_hash("pass", entity)]


def _bid(game, step, entity, rng):
    kind = step.type
    if hasattr(step, "companies") and kind == "waterfall_auction":
        out = []
        auction = step.active_auction()
        targets = [step.auctioning] if auction else list(step.companies)
        for c in targets:
            low, high = step.min_bid(c), step.max_bid(entity, c)
            if low > high:
                continue
            prices = {low} if step.may_purchase(c) else {low, high, low + 5 * rng.randint(0, max(0, (high - low) // 5))}
            out += [action_hash("bid", entity, company=c.id, price=p) for p in sorted(prices)
                    if p <= high]
        return out
    # A starting package: the initial draft sells at face value, the forced auction at
    # the item's current (possibly reduced) price.
    forced = hasattr(step, "auctioning")
    items = step.available() if forced else game.draftables()
    out = []
    for c in items:
        price = c.min_bid if forced else c.value
        if price <= entity.cash or (forced and step.auctioning is None):
            out.append(action_hash("bid", entity, company=c.id, price=price))
    return out


def _par(game, step, entity, rng):
    out = []
    pending = getattr(game.round, "companies_pending_par", None)
    if step.type == "company_pending_par" and pending:
        company = pending[0]
        for a in game.abilities(company, "shares"):
            for s in a.shares:
                if s.president:
                    for p in step.get_par_prices(entity, s.corporation):
                        out.append(action_hash("par", entity, corporation=s.corporation.id,
                                           share_price=p.id))
        return out
    for c in game.corporations:
        if not game.can_par(c, entity) or not hasattr(step, "get_par_prices"):
            continue
        if not step.can_buy(entity, c.all_shares[0].to_bundle()) and \
                not getattr(step, "rag_exchangable", lambda *a: False)(entity, c):
            continue
        for p in step.get_par_prices(entity, c):
            out.append(action_hash("par", entity, corporation=c.id, share_price=p.id))
    return out


def _share_choices(shares: Iterable) -> list:
    """One certificate of each size, the first of each."""
    seen, out = set(), []
    for s in shares:
        if s.percent not in seen:
            seen.add(s.percent)
            out.append(s)
    return out


def _buy_shares(game, step, entity, rng):
    out = []
    if entity.is_company:  # an exchange, e.g. 1893's FdSD for RAG shares
        for s in _share_choices(game.share_pool.shares):
            out.append(action_hash("buy_shares", entity, shares=[s.id], percent=s.percent))
        return out
    if entity.is_corporation and hasattr(step, "redeemable_shares"):
        return [action_hash("buy_shares", entity, shares=[s.id for s in b.shares], percent=b.percent)
                for b in step.redeemable_shares(entity)]
    if not hasattr(step, "can_buy"):
        return out
    for c in game.corporations:
        pools = [c.ipo_owner.shares_of(c), game.share_pool.shares_of(c)]
        for shares in pools:
            if shares is pools[0] and c.share_price is None:
                continue  # an unstarted company's IPO opens with its par
            for s in _share_choices([x for x in shares if x.buyable]):
                bundle = s.to_bundle()
                if step.can_buy(entity, bundle):
                    out.append(action_hash("buy_shares", entity, shares=[s.id], percent=s.percent))
    return out


def _sell_shares(game, step, entity, rng):
    out = []
    if entity.is_corporation and hasattr(step, "issuable_shares") and \
            entity is step.current_entity():
        return [action_hash("sell_shares", entity, shares=[s.id for s in b.shares], percent=b.percent)
                for b in step.issuable_shares(entity)]
    if not hasattr(step, "can_sell"):
        return out
    for c, shares in list(entity.shares_by_corporation.items()):
        if not shares or c.closed:
            continue
        for b in game.bundles_for_corporation(entity, c):
            try:
                ok = step.can_sell(entity, b)
            except GameError:
                ok = False
            if ok:
                out.append(action_hash("sell_shares", entity, shares=[s.id for s in b.shares],
                                   percent=b.percent))
    return out


def _buy_company(game, step, entity, rng):
    out = []
    if step.type == "buy_sell_par_shares":
        for c in game.buyable_bank_owned_companies():
            try:
                ok = step.can_buy_company(entity, c)
            except TypeError:
                ok = False
            if ok:
                out.append(action_hash("buy_company", entity, company=c.id, price=c.value))
        return out
    buyer = entity if not hasattr(step, "spender") else step.spender(entity)
    for c in game.purchasable_companies(buyer):
        low = c.min_price if not hasattr(step, "spender") else 1
        high = min(c.max_price(buyer) if not hasattr(step, "spender") else buyer.cash,
                   game.buying_power(buyer))
        if low > high:
            continue
        for p in sorted({low, high, rng.randint(low, high)}):
            out.append(action_hash("buy_company", entity, company=c.id, price=p))
    return out


def _sell_company(game, step, entity, rng):
    if not hasattr(step, "sellable_companies"):
        return []
    return [action_hash("sell_company", entity, company=c.id, price=c.value)
            for c in step.sellable_companies(entity)]


def _lay_tile(game, step, entity, rng):
    out = []
    hexes = game.graph_for_entity(entity).connected_hexes(entity)
    sms = getattr(entity, "sms_hexes", None)
    candidates = [game.hex_by_id(h) for h in sms] if sms else [h for h in hexes if h is not None]
    for hex in candidates:
        if step.tracker_available_hex(entity, hex) is None and not sms:
            continue
        try:
            tiles = step.potential_tiles(entity, hex)
        except GameError:
            continue  # the hex is closed to tiles for now
        for tile in tiles:
            if _tile_cost(step, entity, hex, tile) > entity.cash:
                continue
            try:
                rotations = [r for r in step.legal_tile_rotations(entity, hex, tile)
                             if _may_restrict(step, entity, hex, tile, r)]
            except GameError:
                rotations = []
            finally:
                tile.rotate(0)
            for r in rotations:
                out.append(action_hash("lay_tile", entity, hex=hex.id, tile=tile.id, rotation=r))
    return out


def _may_restrict(step, entity, hex, tile, rotation) -> bool:
    """Could the lay pass the track restriction? Only if it would with all its track reached
    (whether it is reached is left to processing)."""
    if not entity.is_operator or not hex.tile.paths or \
            not hasattr(step, "track_restriction_problem"):
        return True
    tile.rotate(rotation)
    return step.track_restriction_problem(hex.tile, tile, lambda path: True) is None


def _tile_cost(step, entity, hex, tile) -> int:
    """What laying ``tile`` on ``hex`` costs an operator, before border crossings (0 for a
    company using its power: its lays are paid by others)."""
    if not entity.is_operator or not hasattr(step, "get_tile_lay"):
        return 0
    lay = step.get_tile_lay(entity)
    if lay is None:
        return 0
    return step.tile_cost(hex.tile, tile, hex, entity, entity, step.lay_cost(lay, tile))


def _place_token(game, step, entity, rng):
    out = []
    if step.type == "home_token":
        pending = step.pending_token()
        token = pending.get("token")
        for hex in pending.get("hexes", []):
            for city in hex.tile.cities:
                if city.tokenable(token.corporation, [token], free=True):
                    out.append(action_hash("place_token", entity, city=city.id))
        return out
    sms = getattr(entity, "sms_hexes", None)
    if sms:
        cities = [c for h in sms for c in game.hex_by_id(h).tile.cities]
    else:
        cities = [n for n in game.token_graph_for_entity(entity).connected_nodes(entity)
                  if n.is_city]
    tokens = entity.tokens_by_type()
    for city in cities:
        if city.tokenable(entity, tokens):
            out.append(action_hash("place_token", entity, city=city.id))
    return out


def _run_routes(game, step, entity, rng):
    from ..routes.finder import find_best_routes  # noqa: F401  (optional component)
    result = find_best_routes(game, entity)
    # With no route to run the trains earn nothing (an empty run is still the move).
    return [action_hash("run_routes", entity, routes=result.routes, extra_revenue=0, subsidy=0)]


def _dividend(game, step, entity, rng):
    return [action_hash("dividend", entity, kind=k) for k in step.DIVIDEND_TYPES]


def _buy_train(game, step, entity, rng):
    out = []
    trains = step.buyable_trains(entity)
    power = game.buying_power(entity)
    helped = step.president_may_contribute(entity)
    owner_cash = entity.owner.cash if helped and entity.owner is not None else 0
    for train in trains:
        if train.from_depot():
            for name, v in train.variants.items():
                price = v["price"]
                assisted = game.president_assisted_buy(entity, train, price)[0] > 0
                if price > power and not assisted and not _cheapest(step, train):
                    continue  # the president pays only towards the cheapest train
                if price <= power or (helped and price <= power + owner_cash) or assisted:
                    out.append(action_hash("buy_train", entity, train=train.id, price=price,
                                       variant=name))
        else:
            low, high = step.spend_minmax(entity, train)
            if not helped:
                high = min(high, power)  # without the president only the company's money
            if low > high:
                continue
            for p in sorted({low, high, rng.randint(low, high)}):
                out.append(action_hash("buy_train", entity, train=train.id, price=p,
                                   variant=train.name))
    if step.discountable_trains_allowed(entity):
        for own, dt, name, price in game.discountable_trains_for(entity):
            if price <= game.buying_power(entity):
                out.append(action_hash("buy_train", entity, train=dt.id, price=price, variant=name,
                                   exchange=own.id))
    return out


def _cheapest(step, train) -> bool:
    """May ``train`` be bought with the president's help (the cheapest-train rule)?"""
    try:
        step.check_for_cheapest_train(train)
    except GameError:
        return False
    return True


def _discard_train(game, step, entity, rng):
    return [action_hash("discard_train", entity, train=t.id) for t in entity.trains]


def _special_buy(game, step, entity, rng):
    items = step.buyable_items(entity) if hasattr(step, "buyable_items") else []
    return [action_hash("special_buy", entity, description=i.description, cost=i.cost) for i in items]


def _choose(game, step, entity, rng):
    return [action_hash("choose", entity, choice=c) for c in step.choices()]


def _assign(game, step, entity, rng):
    if entity.is_player:  # 1893: pay for parring RAG by exchanging FdSD
        return [action_hash("assign", entity, target=c.id, target_type="company")
                for c in step.available_subsidiaries(entity)]
    out = []
    for a in game.abilities(entity, "assign_hexes"):
        for h in a.hexes:
            out.append(action_hash("assign", entity, target=h, target_type="hex"))
    return out


def _bankrupt(game, step, entity, rng):
    player = game.acting_for_entity(entity.owner) if entity.owner is not None else None
    if player is not None and game.can_go_bankrupt(player, entity):
        return [action_hash("bankrupt", entity)]
    return []


_MAKERS = {
    "pass": _pass,
    "bid": _bid,
    "par": _par,
    "buy_shares": _buy_shares,
    "sell_shares": _sell_shares,
    "buy_company": _buy_company,
    "sell_company": _sell_company,
    "lay_tile": _lay_tile,
    "place_token": _place_token,
    "run_routes": _run_routes,
    "dividend": _dividend,
    "buy_train": _buy_train,
    "discard_train": _discard_train,
    "special_buy": _special_buy,
    "choose": _choose,
    "assign": _assign,
    "bankrupt": _bankrupt,
}
