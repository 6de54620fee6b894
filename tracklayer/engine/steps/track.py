"""Laying and upgrading track."""

from __future__ import annotations

from typing import Optional

from ...map.tiles import ALL_EDGES
from ..errors import GameError
from ..step import Step


class Tracker:
    """Tile laying, shared by the track step and by private companies that lay tiles."""

    def tracker_round_state(self) -> dict:
        return {"num_laid_track": 0, "upgraded_track": False, "num_upgraded_track": 0,
                "laid_hexes": []}

    def tracker_setup(self) -> None:
        r = self.round
        r.num_laid_track = 0
        r.num_upgraded_track = 0
        r.upgraded_track = False
        r.laid_hexes = []

    def can_lay_tile(self, entity) -> bool:
        if self.tile_lay_abilities_should_block(entity):
            return True
        lay = self.get_tile_lay(entity)
        if lay is None:
            return False
        return bool(entity.tokens) and self.buying_power(entity) >= lay["cost"] and \
            (lay["lay"] or lay["upgrade"])

    def get_tile_lay(self, entity):
        corporation = entity.owner if entity.is_company else entity
        lays = self.game.tile_lays(corporation)
        index = self.round.num_laid_track
        if index >= len(lays):
            return None
        lay = dict(lays[index])
        upgraded = self.round.upgraded_track
        if lay.get("lay") == "not_if_upgraded":
            lay["lay"] = not upgraded
        if lay.get("upgrade") == "not_if_upgraded":
            lay["upgrade"] = not upgraded
        lay["cost"] = lay.get("cost") or 0
        lay["upgrade_cost"] = lay.get("upgrade_cost", lay["cost"])
        lay["cannot_reuse_same_hex"] = lay.get("cannot_reuse_same_hex", False)
        return lay

    def tile_lay_abilities_should_block(self, entity) -> bool:
        return False

    def track_upgrade(self, old, new, hex) -> bool:
        return old.color != "white"

    def lay_tile_action(self, action, entity=None, spender=None) -> None:
        tile, hex = action.tile, action.hex
        old_tile = hex.tile
        lay = self.get_tile_lay(action.entity)
        if lay is None:
            raise GameError(f"{action.entity.name} cannot lay more track now")
        if self.track_upgrade(old_tile, tile, hex) and not lay["upgrade"]:
            raise GameError("cannot lay an upgrade now")
        if tile.color == "yellow" and not lay["lay"]:
            raise GameError("cannot lay a yellow tile now")
        if lay["cannot_reuse_same_hex"] and hex in self.round.laid_hexes:
            raise GameError(f"{hex.id} was already laid this turn")
        self.lay_tile(action, extra_cost=self.lay_cost(lay, tile), entity=entity, spender=spender)
        if self.track_upgrade(old_tile, tile, hex):
            self.round.upgraded_track = True
            self.round.num_upgraded_track += 1
        self.round.num_laid_track += 1
        self.round.laid_hexes.append(hex)

    def lay_tile(self, action, extra_cost: int = 0, entity=None, spender=None) -> None:
        """Place the tile: check it, pay terrain and border costs, update the map."""
        game = self.game
        entity = entity or action.entity
        spender = spender or entity
        tile, hex, rotation = action.tile, action.hex, action.rotation
        old_tile = hex.tile
        if tile not in game.tiles:
            raise GameError(f"tile {tile.id} is not available")
        if not game.tile_valid_for_phase(tile, hex=hex):
            raise GameError(f"{tile.color} tiles cannot be laid in phase {game.phase.name}")
        blocker = self.ability_blocking_hex(entity, hex)
        if blocker is not None:
            raise GameError(f"{hex.id} is blocked by {blocker.owner.name}")
        tile.rotate(rotation)
        if not game.upgrades_to(old_tile, tile, entity.is_company):
            raise GameError(f"{old_tile.name} on {hex.id} cannot be upgraded to {tile.name}")
        if not self.legal_tile_rotation(entity, hex, tile):
            raise GameError(f"tile {tile.name} cannot be laid on {hex.id} with rotation "
                            f"{rotation}")
        game.update_tile_lists(tile, old_tile)
        hex.lay(tile)
        if old_tile.color in game.IMPASSABLE_HEX_COLORS:
            for direction, neighbor in hex.all_neighbors.items():
                if any(b.edge == direction and b.type == "impassable" for b in hex.tile.borders):
                    continue
                if direction not in tile.exits:
                    continue
                neighbor.neighbors[neighbor.neighbor_direction(hex)] = hex
                hex.neighbors[direction] = neighbor
        for h in [hex] + list(hex.all_neighbors.values()):
            h.invalidate_paths()
        game.clear_graph_for_entity(entity)
        self.check_track_restrictions(entity, old_tile, tile)
        border, border_types = self.remove_border_calculate_cost(tile, entity, spender)
        terrain = old_tile.terrain + (border_types if border > 0 else [])
        cost = self.tile_cost(old_tile, tile, hex, entity, spender, extra_cost + border)
        self.pay_tile_cost(entity, tile, rotation, hex, spender, cost)
        self.after_lay_tile(action, entity, tile, old_tile, terrain)

    @staticmethod
    def lay_cost(lay: dict, tile) -> int:
        """What this tile lay of the turn costs by itself (a yellow lay or an upgrade)."""
        return lay["cost"] if tile.color == "yellow" else lay["upgrade_cost"]

    def tile_cost(self, old_tile, tile, hex, entity, spender, extra_cost: int = 0) -> int:
        """What replacing ``old_tile`` by ``tile`` on ``hex`` costs: terrain, plus
        ``extra_cost``, less the title's discounts."""
        game = self.game
        cost = game.upgrade_cost(old_tile, hex, entity, spender, tile) + extra_cost
        return game.tile_cost_with_discount(tile, hex, entity, spender, cost)

    def after_lay_tile(self, action, entity, tile, old_tile, terrain) -> None:
        pass

    def pay_tile_cost(self, entity, tile, rotation, hex, spender, cost) -> None:
        game = self.game
        if cost > 0:
            spender.spend(cost, game.bank)
        game.log(f"{spender.name}{' spends ' + game.format_currency(cost) + ' and' if cost else ''}"
                 f" lays tile #{tile.name} with rotation {rotation} on {hex.id}")

    def remove_border_calculate_cost(self, tile, entity, spender):
        """Borders with a cost (rivers…) that the new track crosses are paid for and removed."""
        hex = tile.hex
        total, types = 0, []
        for border in list(tile.borders):
            if border.cost is None:
                continue
            neighbor = hex.neighbors.get(border.edge)
            if neighbor is None or not hex.targeting(neighbor) or not neighbor.targeting(hex):
                continue
            types.append(border.type)
            tile.borders.remove(border)
            opposite = (border.edge + 3) % 6
            neighbor.tile.borders = [b for b in neighbor.tile.borders if b.edge != opposite]
            total += border.cost - self.border_cost_discount(entity, spender, border, hex)
        return total, types

    def border_cost_discount(self, entity, spender, border, hex) -> int:
        return 0

    def check_track_restrictions(self, entity, old_tile, new_tile) -> None:
        """New track must be reachable and (depending on the title) new, or upgrade a city."""
        game = self.game
        if not entity.is_operator:
            return
        if not game.ALLOW_REMOVING_TOWNS:
            for old_ct in old_tile.city_towns:
                if not any(all(e in n.exits for e in old_ct.exits) for n in new_tile.city_towns):
                    raise GameError("new track must keep the old track")
        if not old_tile.paths:
            return  # all track is new: every restriction is met
        connected = game.graph_for_entity(entity).connected_paths(entity)
        problem = self.track_restriction_problem(
            old_tile, new_tile, lambda np: self.path_connected(connected, np, old_tile))
        if problem:
            raise GameError(problem)

    def track_restriction_problem(self, old_tile, new_tile, reached) -> Optional[str]:
        """What the title's track restriction finds wrong with replacing ``old_tile`` by
        ``new_tile``, counting only the new tile's paths that ``reached(path)``."""
        old_paths = old_tile.paths
        changed_city = False
        used_new_track = False
        for np in new_tile.paths:
            if not reached(np):
                continue
            op = next((p for p in old_paths if np.is_subset_of(p)), None)
            if op is None:
                used_new_track = True
            old_rev = sorted(n.max_revenue for n in op.nodes) if op is not None else None
            new_rev = sorted(n.max_revenue for n in np.nodes)
            if old_rev != new_rev:
                changed_city = True
        rule = self.game.TRACK_RESTRICTION
        if rule == "city_permissive":
            if not new_tile.cities and not used_new_track:
                return "must be a city tile or use new track"
        elif rule == "restrictive":
            if not used_new_track:
                return "must use new track"
        elif rule == "semi_restrictive":
            if not used_new_track and not changed_city:
                return "must use new track or change city value"
        elif rule == "station_restrictive":
            if not used_new_track and not new_tile.nodes:
                return "must use new track"
        return None

    def path_connected(self, connected_paths, new_path, old_tile) -> bool:
        """Is ``new_path`` (on the tile just laid) part of the operator's network?

        The graph is recomputed on demand for the new tile, so look the path up directly."""
        return new_path in connected_paths

    def ability_blocking_hex(self, entity, hex):
        game = self.game
        for e in game.companies + game.minors + game.corporations:
            if e.closed or e is entity:
                continue
            for a in game.abilities(e, "blocks_hexes"):
                if game.hex_blocked_by_ability(entity, a, hex):
                    return a
        return None

    # -- rotation legality ----------------------------------------------------------------

    def legal_tile_rotation(self, entity, hex, tile) -> bool:
        game = self.game
        if not game.legal_tile_rotation(entity, hex, tile):
            return False
        old_ctedges = hex.tile.city_town_edges()
        new_exits = tile.exits
        new_ctedges = tile.city_town_edges()
        added_cities = max(0, len(new_ctedges) - len(old_ctedges))
        multi_city = len(tile.cities) > 1 and len(hex.tile.cities) > 1
        if not all(game.hex_neighbor_exists(entity, hex, e) for e in new_exits):
            return False
        neighbors = self.hex_neighbors(entity, hex) or []
        if not any(e in neighbors for e in new_exits):
            return False
        if not self.old_paths_maintained(hex, tile):
            return False
        new_only = sum(1 for n in new_ctedges if all(not (set(n) & set(o)) for o in old_ctedges))
        if added_cities < new_only:
            return False
        if multi_city and not all(
                sum(1 for n in new_ctedges if set(o) & set(n) == set(o)) == 1
                for o in old_ctedges):
            return False
        return self.city_sizes_maintained(hex, tile)

    def old_paths_maintained(self, hex, tile) -> bool:
        new_paths = tile.paths
        return all(any(p.is_subset_of(n) for n in new_paths) for p in hex.tile.paths)

    def city_sizes_maintained(self, hex, tile) -> bool:
        if len({c.slots for c in hex.tile.cities}) <= 1:
            return True
        return all(new is None or new.slots >= old.slots
                   for old, new in hex.city_map_for(tile).items())

    def legal_tile_rotations(self, entity, hex, tile) -> list:
        out = []
        for r in ALL_EDGES:
            tile.rotate(r)
            if self.legal_tile_rotation(entity, hex, tile):
                out.append(r)
        return out

    def hex_neighbors(self, entity, hex):
        return self.game.graph_for_entity(entity).connected_hexes(entity).get(hex)

    def potential_tiles(self, entity, hex) -> list:
        game = self.game
        colors = self.potential_tile_colors(entity, hex)
        seen, out = set(), []
        for t in game.tiles:
            if t.name in seen or not game.tile_valid_for_phase(t, hex=hex, colors=colors):
                continue
            seen.add(t.name)
            if game.upgrades_to(hex.tile, t) and not t.blocks_lay:
                out.append(t)
        return out

    def potential_tile_colors(self, entity, hex) -> list:
        return list(self.game.phase.tiles)

    def tracker_available_hex(self, entity, hex):
        connected = self.hex_neighbors(entity, hex)
        if not connected:
            return None
        lay = self.get_tile_lay(entity)
        if lay is None:
            return None
        color = hex.tile.color
        if color == "white" and not lay["lay"]:
            return None
        if color != "white" and not lay["upgrade"]:
            return None
        if color != "white" and lay["cannot_reuse_same_hex"] and hex in self.round.laid_hexes:
            return None
        if self.ability_blocking_hex(entity, hex):
            return None
        return connected


class Track(Tracker, Step):
    """An operator lays or upgrades track (by default one tile per turn)."""

    type = "track"

    def actions(self, entity):
        if entity is not self.current_entity():
            return []
        if entity.is_company or not self.can_lay_tile(entity):
            return []
        return ["lay_tile", "pass"]

    def description(self) -> str:
        lay = self.get_tile_lay(self.current_entity()) if self.current_entity() else None
        if not lay:
            return "Lay Track"
        if lay["lay"] and lay["upgrade"]:
            return "Lay/Upgrade Track"
        return "Lay Track" if lay["lay"] else "Upgrade Track"

    def round_state(self) -> dict:
        return self.tracker_round_state()

    def setup(self) -> None:
        self.tracker_setup()

    def process_lay_tile(self, action) -> None:
        self.lay_tile_action(action)
        if not self.can_lay_tile(action.entity):
            self.pass_()
