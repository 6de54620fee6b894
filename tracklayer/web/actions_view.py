"""The viewing seat's legal actions as the page presents them, step by step in the game's
own words (as the 18xx.games page does): an auction as its items with their bids and who
leads; the stock round by corporation (its prices and what is left in the IPO and the
market, with buying, selling, starting and shorting); track laid on the map with each
tile's cost; tokens by city; routes drawn and changed on the map; trains by seller and
price; private companies by name and power; loans, conversions, mergers and votes in
words; bankruptcy behind a confirmation.

Every control carries its action (made concrete at its least value; a range gets a number
field), a label and, as its title, the full sentence of :mod:`tracklayer.play.describe`.
Whatever no panel takes is listed by its sentence."""

from __future__ import annotations

from typing import Dict, List

from ..game import Game
from ..play.costs import lay_price, reading
from ..play.describe import Words, bundle_words
from ..play.names import card_name, name_of, place_name, share_source
from ..play.standing import auction_standing
from ..rules import board, certificates, finance, operators, trains
from ..state.model import CompanyState, CorporationState, MinorState, OperatorState, \
    PlayerState
from ..turns.companies import PlayerCompanyTrade
from ..turns.listing import concrete, value_range
from ..turns.mergers import Vote
from . import svg
from .controls import control, own_words, without
from .routes_view import routes_panel

PANEL_OF = {"bid": "auction", "offer": "auction", "par": "shares", "buy_shares": "shares",
            "sell_shares": "shares", "short": "shares", "split": "shares",
            "buy_corporation": "bank", "sell_company": "bank", "dividend": "dividend",
            "buy_train": "trains", "discard_train": "trains", "purchase_train": "trains",
            "take_loan": "finance", "payoff_loan": "finance", "convert": "merger",
            "merge": "merger", "special_buy": "merger", "remove_token": "merger",
            "choose": "choices", "assign": "choices", "place_token": "tokens",
            "pass": "pass", "bankrupt": "bankrupt"}


def build_actions(game: Game, legal: List[dict], seat_name: str) -> Dict:
    """The panels of the actions ``legal`` (the viewing seat's), and what the map marks."""
    table = game.table
    words = Words(table)
    out: Dict = {"head": head(game, legal, seat_name), "auction": [], "shares": [],
                 "bank": [], "companies": [], "tokens": [], "dividend": [], "trains": None,
                 "finance": [], "merger": [], "choices": [], "pass": [], "bankrupt": [],
                 "other": [], "track": None, "routes": None, "map": {}}
    by_panel: Dict[str, List[dict]] = {}
    for h in legal:
        by_panel.setdefault(panel_of(table, h), []).append(h)
    if by_panel.get("auction"):
        out["auction"] = auction_rows(words, by_panel.pop("auction"))
    if by_panel.get("shares"):
        out["shares"] = share_rows(words, by_panel.pop("shares"))
    if by_panel.get("companies"):
        out["companies"] = company_rows(words, by_panel.pop("companies"))
    if by_panel.get("trains"):
        out["trains"] = train_panel(words, by_panel.pop("trains"))
    if by_panel.get("track"):
        out["track"] = track_panel(game, words, by_panel.pop("track"))
        out["map"]["tiles"] = out["track"]["tiles"]
    if by_panel.get("tokens"):
        out["tokens"] = [control(words, h) for h in by_panel["tokens"]]
        out["map"]["tokens"] = token_targets(game, by_panel.pop("tokens"))
    if by_panel.get("routes"):
        out["routes"] = routes_panel(game, words, by_panel.pop("routes")[0])
        out["map"]["routes"] = out["routes"]["trains"]
    for h in by_panel.pop("bankrupt", []):
        out["bankrupt"].append(control(
            words, h, "Declare bankruptcy…" if h["entity_type"] == "player"
            else "Go bankrupt…",
            confirm=f"{words.sentence(h)}: sure?"))
    for panel, found in by_panel.items():
        target = out["other"] if panel not in out or not isinstance(out[panel], list) \
            else out[panel]
        target.extend(control(words, h) for h in found)
    return out


def panel_of(table, h: dict) -> str:
    kind = h["type"]
    entity = table.find(h.get("entity_type"), h.get("entity"))
    if kind == "lay_tile":
        return "track"
    if kind == "run_routes":
        return "routes"
    if kind == "buy_company":
        company = table.find("company", h.get("company"))
        return "bank" if company is not None and not isinstance(
            company.owner, (PlayerState, CorporationState)) else "companies"
    if kind == "buy_shares" and isinstance(entity, CompanyState):
        return "companies"
    if kind == "assign" and isinstance(entity, CompanyState):
        return "companies"
    if kind == "sell_shares" and isinstance(entity, OperatorState):
        return "finance"
    return PANEL_OF.get(kind, "other")


# -- who acts, and with what --------------------------------------------------------------------


def head(game: Game, legal: List[dict], seat_name: str) -> Dict:
    """Who is to act and what for: the seat, the entity whose turn it is, the step, and
    that entity's card (cash, trains, stations, loans, privates)."""
    table = game.table
    step = table.round.active_step()
    acting = table.round.acting()
    facts = []
    if isinstance(acting, OperatorState):
        facts.append(("cash", table.money(acting.cash)))
        if isinstance(acting, CorporationState) and acting.price is not None:
            facts.append(("share price", table.money(table.spec.cell(acting.price).price)))
        facts.append(("trains", ", ".join(t.name for t in acting.trains) or "none"))
        left = [t for t in acting.tokens if t.where is None]
        if left:
            facts.append(("stations left", f"{len(left)}" + (
                f" (next {table.money(left[0].price)})" if left[0].price else "")))
        if acting.loans:
            facts.append(("loans", str(acting.loans)))
        if acting.companies:
            facts.append(("privates", ", ".join(name_of(c) for c in acting.companies)))
        if isinstance(acting.owner, PlayerState):
            facts.append(("president", f"{acting.owner.name} "
                                       f"(cash {table.money(acting.owner.cash)})"))
    elif isinstance(acting, PlayerState):
        facts.append(("cash", table.money(acting.cash)))
        if acting.cash < 0:         # a cash crisis (1817): the debt comes first
            facts.append(("to raise", f"{table.money(-acting.cash)}, selling shares, "
                                      "or go bankrupt if that cannot pay it"))
        if acting.companies:
            facts.append(("privates", ", ".join(name_of(c) for c in acting.companies)))
    if isinstance(step, Vote):
        facts.extend(vote_facts(step, acting))
    if table.spec.data.loans is not None and isinstance(acting, OperatorState):
        facts.append(("interest", f"{finance.interest_rate(table)}% a loan, "
                                  f"{finance.loans_left(table)} loans left at the bank"))
    return {"seat": seat_name, "entity": name_of(acting) if acting is not None else "",
            "step": step.describe() if step is not None else "", "facts": facts,
            "color": svg.color_of(acting) if isinstance(acting, (CorporationState,
                                                                MinorState)) else None}


def vote_facts(step: Vote, voter) -> list:
    """A merger vote: what forms from what, how the votes stand, what the voter holds."""
    r = step.round
    target = r.target()
    if target is None:
        return []
    minors = ", ".join(name_of(c) for c in r.exchanged(target) if c is not None)
    return [("the vote", f"forming {name_of(target)} from {minors}: it forms at 50% yes"),
            ("so far", f"yes {r.yes}%, no {r.no}%"),
            ("your vote", f"{r.votes.get(voter, 0)}%")]


# -- auctions -----------------------------------------------------------------------------------


def auction_rows(words: Words, found: List[dict]) -> List[Dict]:
    """One row per item on offer: its card, how the bidding stands, the seat's controls."""
    table = words.table
    rows: Dict[tuple, Dict] = {}
    for s in auction_standing(table):
        rows[_item_key(s.item)] = _item_row(table, s.item, s)
    for h in found:
        item = table.find("company", h["company"]) if h.get("company") else \
            table.find("corporation", h.get("corporation"))
        row = rows.setdefault(_item_key(item), _item_row(table, item, None))
        label = "Bid" if h["type"] == "bid" and value_range(h) else \
            without(own_words(words, h, words.sentence(h)), name_of(item))
        row["controls"].append(control(words, h, label))
    return sorted(rows.values(), key=lambda r: (not r["controls"], r["order"]))


def _item_key(item) -> tuple:
    """An item on offer by kind and letters: a corporation and a private may share their
    letters (1817NA's ME: Morristown and Erie Railway, Mountain Engineers)."""
    return isinstance(item, CompanyState), item.sym


def _item_row(table, item, standing) -> Dict:
    is_company = isinstance(item, CompanyState)
    state = ""
    if standing is not None:
        if standing.bids:
            state = f"{standing.leader.name} leads with {table.money(standing.top)}"
            if len(standing.bids) > 1:
                state += " (" + ", ".join(f"{p.name} {table.money(v)}"
                                          for p, v in standing.bids[1:]) + ")"
        elif standing.price is not None:
            state = f"for {table.money(standing.price)}"
        else:
            state = "no bids"
        if standing.note:
            state += f" — {standing.note}"
    return {"sym": item.sym, "name": item.spec.name, "order": item.value if is_company else 0,
            "text": item.spec.text if is_company else "",
            "value": table.money(item.value) if is_company else "",
            "revenue": table.money(item.spec.revenue) if is_company and item.spec.revenue
            else "", "state": state, "controls": [],
            "color": None if is_company else svg.color_of(item)}


# -- the stock round ----------------------------------------------------------------------------


def share_rows(words: Words, found: List[dict]) -> List[Dict]:
    """One row per corporation the seat may trade: its prices, what is left in the IPO and
    the market, what the seat holds; buying, selling, shorting, splitting, and starting
    it at a price chosen from a list."""
    table = words.table
    rows: Dict[str, Dict] = {}
    for h in found:
        corporation = _corporation_of(table, h)
        row = rows.get(corporation.sym)
        if row is None:
            row = rows[corporation.sym] = _corporation_row(table, corporation, h)
        if h["type"] == "par":
            a = reading(table, h)
            row["par"].append({"label": table.money(a.cell.price) + _for_label(a),
                               "action": concrete(h),
                               "title": words.sentence(h), "price": a.cell.price})
            continue
        row["controls"].append(control(words, h, _share_label(words, h)))
    for row in rows.values():
        row["par"].sort(key=lambda p: -p["price"])
    return list(rows.values())


def _corporation_of(table, h: dict):
    if h.get("corporation"):
        return table.find("corporation", h["corporation"])
    return table.find("share", h["shares"][0]).corporation


def _corporation_row(table, corporation, h: dict) -> Dict:
    player = table.find(h.get("entity_type"), h.get("entity"))
    cell = table.spec.cell(corporation.price) if corporation.price is not None else None
    par = table.spec.cell(corporation.par) if corporation.par is not None else None
    return {"sym": corporation.sym, "name": corporation.spec.name,
            "color": svg.color_of(corporation),
            "price": table.money(cell.price) if cell else "",
            "par": [], "par_price": table.money(par.price) if par else "",
            "ipo": certificates.percent_of(corporation, corporation),
            "market": certificates.market_percent(table, corporation),
            "mine": certificates.percent_of(player, corporation)
            if isinstance(player, PlayerState) else 0,
            "president": name_of(corporation.owner) if isinstance(corporation.owner,
                                                                   PlayerState) else "",
            "controls": []}


def _for_label(a) -> str:
    """" for Union Bank" when a purchase is made for another than the buyer (1871's Union
    Bank buys with its owner), so that it is told apart from the buyer's own."""
    who = a.purchase_for
    return f" for {name_of(who)}" if who is not None and who is not a.entity else ""


def _share_label(words: Words, h: dict) -> str:
    table = words.table
    a = reading(table, h)
    kind = h["type"]
    if kind == "buy_shares":
        price = certificates.bundle_price(table, a.bundle)
        return f"Buy {bundle_words(a.bundle)} from {share_source(table, a.bundle)}" \
               f"{_for_label(a)} · {table.money(price)}"
    if kind == "sell_shares":
        n = a.bundle.shares
        return f"Sell {n:g} ({a.bundle.percent}%) · " \
               f"{table.money(certificates.bundle_price(table, a.bundle))}"
    if kind == "short":
        return f"Short a share · get {table.money(operators.par_value(table, a.target))}"
    if kind == "split":
        return "Split into a Branch"
    return own_words(words, h, words.sentence(h))


# -- private companies --------------------------------------------------------------------------


def company_rows(words: Words, found: List[dict]) -> List[Dict]:
    """One row per private company the seat may buy or use: its name, owner and power."""
    table = words.table
    rows: Dict[str, Dict] = {}
    players_buying = {(h["company"], h["entity"]) for h in found
                      if h["type"] == "buy_company" and h["entity_type"] == "player"}
    for h in found:
        sym = h.get("company") if h["type"] == "buy_company" else h["entity"]
        company = table.find("company", sym)
        entity = table.find(h["entity_type"], h["entity"])
        if h["type"] == "buy_company" and isinstance(entity, OperatorState) and \
                isinstance(entity.owner, PlayerState) and \
                (sym, entity.owner.id) in players_buying and _bought_by_owner(words, h):
            continue        # the president buys it in person (1893's EVA): one control
        row = rows.setdefault(sym, {
            "sym": sym, "name": company.spec.name, "text": company.spec.text,
            "owner": name_of(company.owner), "value": table.money(company.value),
            "controls": []})
        label = "Buy" if h["type"] == "buy_company" and value_range(h) else \
            without(own_words(words, h, words.sentence(h), prefix=False), name_of(company)) \
            .replace(f" ({company.spec.text})", "")
        row["controls"].append(control(words, h, label))
    return list(rows.values())


def _bought_by_owner(words: Words, h: dict) -> bool:
    """Does the operator's purchase make its owner the buyer (1893's EVA)?"""
    entity = words.table.find(h["entity_type"], h["entity"])
    return isinstance(words.step_for(entity, "buy_company"), PlayerCompanyTrade)


# -- track and tokens ---------------------------------------------------------------------------


def track_panel(game: Game, words: Words, found: List[dict]) -> Dict:
    """The tiles that may go on each hex, by rotation, with what each lay costs; the hexes
    by name (also chosen on the map). Where a private company may lay track too (a
    special lay), its lays are a layer of their own beside the operator's."""
    table = game.table
    layers: Dict[str, Dict] = {}
    union: Dict[str, Dict[str, List[int]]] = {}
    lays: Dict[str, Dict] = {}
    for h in found:
        a = reading(table, h)
        key = f"{h['entity_type']}:{h['entity']}"
        layer = layers.setdefault(key, {
            "key": key, "name": name_of(a.entity), "tiles": {}, "hexes": [],
            "text": a.entity.spec.text if isinstance(a.entity, CompanyState) else "",
            "company": isinstance(a.entity, CompanyState)})
        layer["tiles"].setdefault(h["hex"], {}).setdefault(h["tile"], []).append(h["rotation"])
        rotations = union.setdefault(h["hex"], {}).setdefault(h["tile"], [])
        if h["rotation"] not in rotations:
            rotations.append(h["rotation"])
        cost = lay_price(table, a, words.step_for(a.entity, "lay_tile"))
        spent = table.money(cost) if cost else "free"
        lays[f"{key}|{h['hex']}|{h['tile']}|{h['rotation']}"] = {
            "cost": spent, "text": words.sentence(h),
            "entity": {"entity": h["entity"], "entity_type": h["entity_type"]},
            "label": f"Lay #{a.tile.name} on {place_name(table, h['hex'])}, rotation "
                     f"{h['rotation']} · {spent}"}
    costs = {}
    for key, layer in layers.items():
        layer["hexes"] = sorted(((hx, place_name(table, hx)) for hx in layer["tiles"]),
                                key=lambda kv: kv[1])
        for hx, by_tile in layer["tiles"].items():
            for t, rots in by_tile.items():
                spent = sorted({lays[f"{key}|{hx}|{t}|{r}"]["cost"] for r in rots})
                costs[f"{key}|{hx}|{t}"] = " or ".join(spent)
    ordered = sorted(layers.values(), key=lambda layer: layer["company"])
    return {"tiles": union, "layers": {layer["key"]: layer for layer in ordered},
            "order": [layer["key"] for layer in ordered], "lays": lays, "costs": costs,
            "previews": {f"{hx}|{t}|{r}": svg.draw_tile(game, hx, t, r)
                         for hx, by_tile in union.items() for t, rots in by_tile.items()
                         for r in rots},
            "tile_names": {t: board.supply_tile(table, t).name
                           for by_tile in union.values() for t in by_tile}}


def token_targets(game: Game, found: List[dict]) -> Dict[str, dict]:
    """The city slots the map marks for a token: ``"hex|city index"`` → the action."""
    out: Dict[str, dict] = {}
    hex_of_tile = {h.tile: h.id for h in game.state.hexes.values()}
    for h in found:
        city = h.get("city")
        if not isinstance(city, str):
            continue
        tile_id, _, part = city.rpartition("-")
        hex_id = hex_of_tile.get(tile_id)
        if hex_id is None or not part.isdigit():
            continue
        tile = board.tile_of(game.table, hex_id)
        index = next((i for i, c in enumerate(tile.cities) if c.index == int(part)), None)
        if index is not None:
            out.setdefault(f"{hex_id}|{index}", concrete(h))
    return out


# -- trains -------------------------------------------------------------------------------------


def train_panel(words: Words, found: List[dict]) -> Dict:
    """Trains by where they come from: the depot (by card and price), the bank's pool,
    other companies (with their owners, at a price agreed within a range), trade-ins;
    trains to discard; and, when the operator cannot pay for a train, who must help."""
    table = words.table
    out = {"depot": [], "others": [], "exchange": [], "discard": [], "more": [],
           "emergency": ""}
    seen = set()
    for h in found:
        a = reading(table, h)
        if h["type"] == "buy_train":
            # trains alike (same card, seller, trade-in and price) are one choice
            same = (h["entity"], id(a.train.owner), h.get("variant") or a.train.name,
                    a.exchange.name if a.exchange is not None else None, h.get("price"),
                    tuple(h.get("price_range") or ()))
            if same in seen and a.train.owner is not None and \
                    not _in_depot(table, a.train):
                continue
            seen.add(same)
        if h["type"] == "discard_train":
            out["discard"].append(control(words, h, own_words(words, h, words.sentence(h))))
            continue
        if h["type"] != "buy_train":
            out["more"].append(control(words, h))
            continue
        seller = a.train.owner
        name = card_name(h.get("variant") or a.train.name)
        if a.exchange is not None:
            out["exchange"].append(control(words, h, f"Trade in the {a.exchange.name}-train "
                                           f"for {name} · {table.money(a.price)}"))
        elif isinstance(seller, (CorporationState, MinorState)):
            c = control(words, h, "Buy")
            c.update(train=name, seller=name_of(seller),
                     owner=name_of(seller.owner) if isinstance(seller.owner, PlayerState)
                     else "")
            out["others"].append(c)
        else:
            out["depot"].append(control(words, h, f"Buy {name} · {words.priced(h)}"))
    out["emergency"] = emergency(table, found)
    return out


def _in_depot(table, train) -> bool:
    return not isinstance(train.owner, (CorporationState, MinorState))


def emergency(table, found: List[dict]) -> str:
    """When the operator must buy a train it cannot pay for: what it has, what the
    cheapest train costs, and who must find the rest."""
    h = next((x for x in found if x["type"] == "buy_train"), None)
    if h is None:
        return ""
    operator = table.find(h["entity_type"], h["entity"])
    if not isinstance(operator, OperatorState) or operator.trains:
        return ""
    price = trains.cheapest_price(table)
    if not price or operator.cash >= price:
        return ""
    president = operator.owner
    who = president.name if isinstance(president, PlayerState) else "its president"
    return (f"{name_of(operator)} has no train and {table.money(operator.cash)}; the "
            f"cheapest train costs {table.money(price)}. {who} must pay the "
            f"{table.money(price - operator.cash)} it lacks, selling shares if need be, or "
            "it may buy a train from another company.")
