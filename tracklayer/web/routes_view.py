"""Routes on the page: each train's route drawn on the map in its own colour, filled in by
the route finder, changed by clicking stops on the map (``play.route_builder`` joins
them by track and the engine checks the run: the revenue, or the rule broken, in
words)."""

from __future__ import annotations

from typing import Dict, List

from ..game import Game
from ..play.describe import Words
from ..play.names import route_stops, train_name
from ..play.route_builder import checked_run
from ..turns.listing import concrete
from .svg import route_layer

COLORS = ("#e4002b", "#0057d9", "#00994d", "#f28c00", "#8f2bd9", "#00a3a3", "#c2185b",
          "#5d4037")


def routes_panel(game: Game, words: Words, h: dict) -> Dict:
    """The listed run (the finder's best routes) as the route editor starts from: every
    train of the operator that may run, with its route, stops and revenue."""
    table = game.table
    entity = table.find(h["entity_type"], h["entity"])
    planned = {r.get("train"): r for r in h.get("routes") or []}
    out: List[Dict] = []
    for i, train in enumerate(t for t in entity.trains if not t.operated):
        r = planned.get(train.id) or {}
        out.append({"train": train.id, "name": train_name(train), "color": COLORS[i % len(COLORS)],
                    "nodes": list(r.get("nodes") or []),
                    "connections": list(r.get("connections") or []),
                    "hexes": list(r.get("hexes") or []), "revenue": r.get("revenue") or 0,
                    "stops": route_stops(table, r.get("hexes") or []), "problem": "",
                    "money": table.money(r.get("revenue") or 0)})
    total = sum(t["revenue"] for t in out)
    return {"entity": {"entity": h["entity"], "entity_type": h["entity_type"]},
            "trains": out, "action": concrete(h), "title": words.sentence(h),
            "total": total, "total_money": table.money(total), "svg": route_layer(game, out)}


def check(game: Game, entity_ref: dict, plans: List[dict], colors: List[str]) -> Dict:
    """The routes of ``plans`` (``{"train", "nodes", "connections"?}``) checked: each with
    its stops, revenue and problem; the run's action and the rule it breaks; the routes
    drawn in ``colors`` for the map."""
    table = game.table
    entity = table.find(entity_ref.get("entity_type"), entity_ref.get("entity"))
    if entity is None or not isinstance(plans, list) or \
            not all(isinstance(p, dict) for p in plans):
        return {"error": "no such operator, or no routes", "routes": [], "action": None,
                "total": 0}
    found = checked_run(table, entity, plans)
    for i, r in enumerate(found["routes"]):
        r["stops"] = route_stops(table, r.get("hexes") or [])
        r["money"] = table.money(r.get("revenue") or 0)
        r["color"] = colors[i] if i < len(colors) else COLORS[i % len(COLORS)]
    found["svg"] = route_layer(game, found["routes"])
    found["total_money"] = table.money(found["total"])
    found["title"] = Words(table).sentence(found["action"]) if found["action"]["routes"] \
        else ""
    return found
