"""The points where a title's rules may differ from the common rules, in one place.

A title's rules module subclasses :class:`Variant` and overrides only the rules its
rulebook changes, each with a docstring saying which rule it implements. Everything a
title merely chooses among known variants (how prices move, when shares may be sold …)
is a setting instead (``tracklayer.spec.settings``).
"""

from __future__ import annotations

from typing import Callable, Dict, Iterator, List, Optional

from ..board.tiles import Layout, TileDef
from ..errors import GameError
from ..spec.settings import EndTiming
from . import certificates, endgame, operators, revenue, track, trading
from .table import Table


class Variant:
    """The common rules at each point a title may change them."""

    # Handlers of the events a title's trains bring, by event name.
    events: Dict[str, Callable[[Table], None]] = {}
    # Whether operators may buy each other's trains.
    trains_change_hands: bool = True

    # -- setting up -----------------------------------------------------------------------

    def set_up(self, table: Table) -> None:
        """Whatever the title puts on the table before the first round."""

    def corporation_order(self, table: Table, corporations: list) -> list:
        """The order corporations are listed in (and, in some titles, started in)."""
        return corporations

    def certificate_with_company(self, table: Table, company, power) -> Optional[str]:
        """The id of the certificate a company's ``shares`` power brings: the first
        corporation's president's certificate, or the one named."""
        if power.spec.certificate == "first_president":
            return table.state.corporations[0].certificates[0].id
        return power.spec.certificate

    def first_round(self, table: Table):
        """The round the game starts with."""
        raise NotImplementedError

    def next_round(self, table: Table):
        """The round after the one just finished (see ``tracklayer.turns.sequence``)."""
        raise NotImplementedError

    # -- money and limits -----------------------------------------------------------------

    def money_elsewhere(self, table: Table) -> int:
        """Cash held outside the bank, players and companies."""
        return 0

    def certificate_limit(self, table: Table, holder=None) -> int:
        return table.spec.data.cert_limit

    def score(self, table: Table, player) -> int:
        return endgame.worth(table, player)

    def scored(self, table: Table) -> list:
        """The players in the final result: all of them."""
        return table.state.players

    def decides_for(self, table: Table, player):
        """The player at the table who makes ``player``'s decisions: the player themselves.
        A title with a player that has no seat of its own names who decides for it."""
        return player

    # -- certificates ---------------------------------------------------------------------

    def certificates_for_presidency(self, table: Table, corporation, president, count: int,
                                    swap_to, old_president) -> list:
        """Which certificates a new president hands over for the president's one, worth
        ``count`` shares: the first single shares received, or a double (20%) certificate
        if they hold no more certificates than that."""
        return certificates.worth_of_presidency(
            list(certificates.held(president, corporation)), count)

    def presidency_distance(self, table: Table, old_president, candidate) -> int:
        """How far ``candidate`` is from the old president when equals tie for the
        presidency (the nearest takes it): the seats after them."""
        return certificates.seats_after(table, old_president, candidate)

    def return_part(self, table: Table, bundle, source, to) -> None:
        """After a president's certificate was sold in part, the seller gets back the
        shares not sold."""
        certificates.return_first(table, bundle, source, to)

    def sale_bundles(self, table: Table, holder, corporation) -> list:
        """Every way to sell (:meth:`sale_candidates`), smallest first."""
        return trading.smallest_first(self.sale_candidates(table, holder, corporation))

    def sale_candidates(self, table: Table, holder, corporation) -> Iterator:
        """Every way to sell, each made when asked for (a check whether some bundle may be
        sold stops at the first that may): the common ways (``trading.growing_candidates``)."""
        return trading.growing_candidates(table, holder, corporation)

    def sale_problem(self, table: Table, seller, bundle) -> Optional[str]:
        """A title's own reason a sale is not allowed."""
        return None

    def presidency_may_pass(self, table: Table, bundle, seller) -> bool:
        """May ``seller`` part with ``bundle``, the president's certificate (whole or in
        part) among it? Only if another holder has at least as much to take the presidency
        over (``certificates.can_leave_president``). Asked by every sale check: in the
        stock round and in a sale for a train alike."""
        return certificates.can_leave_president(bundle, seller)

    def may_start(self, table: Table, corporation, player) -> bool:
        """May ``player`` start (par) the corporation? Once, unless a power forbids."""
        if any(p.spec.kind == "unparrable" for p in corporation.powers):
            return False
        return not corporation.started

    def start_cells(self, table: Table, corporation, player) -> list:
        """The market cells the corporation may start at (dearest first)."""
        return table.spec.starting_cells()

    def corporation_started(self, table: Table, corporation) -> None:
        """What follows the start of a corporation (after its president's certificate
        was bought)."""
        operators.after_start(table, corporation)

    def close_corporation(self, table: Table, corporation) -> None:
        """A corporation leaves the game."""
        operators.close_corporation(table, corporation)

    # -- track ----------------------------------------------------------------------------

    def tile_lays(self, table: Table, operator) -> tuple:
        """The tile lays of an operating turn."""
        return table.settings.tile_lays

    def tile_colors(self, table: Table, hex_id: str) -> tuple:
        """Tile colours that may be laid now."""
        return table.phase.tiles

    def may_upgrade(self, table: Table, hex_id: str, old: Layout, new: TileDef,
                    special: bool = False) -> bool:
        """May ``new`` replace the tile lying as ``old`` on the hex (``special``: laid by a
        special power)? By the common rule its shape allows it (:func:`track.shape_allows`)
        and the hex's own rule lets the tile there be replaced now
        (:meth:`hex_takes_upgrades`)."""
        return track.shape_allows(old, new, special) and \
            self.hex_takes_upgrades(table, hex_id, old)

    def hex_takes_upgrades(self, table: Table, hex_id: str, old: Layout) -> bool:
        """The title's rule of the hex alone, whatever the new tile: may the tile there
        be replaced now? By the common rule, yes."""
        return True

    def upgrades(self, table: Table, hex_id: str, old: Layout, tiles, special: bool = False
                 ) -> list:
        """The tiles of ``tiles`` that may replace the tile lying as ``old`` on the hex, in
        their order: those :meth:`may_upgrade` allows. By the common rule the hex's own
        rule is asked once, and the shape of each tile (listing asks this of every tile
        of the colour on every hex)."""
        if not self.hex_takes_upgrades(table, hex_id, old):
            return []
        return track.shape_upgrades(old, tiles, special)

    def upgrades_each(self, table: Table, hex_id: str, old: Layout, tiles,
                      special: bool = False) -> list:
        """:meth:`upgrades` asked tile by tile (:meth:`may_upgrade`); a refusal the title
        raises for one ends the list there. A title whose upgrade rule depends on the new
        tile as well as the hex (its own :meth:`may_upgrade`) lists upgrades so:
        ``upgrades = Variant.upgrades_each``."""
        out = []
        for tile in tiles:
            try:
                if self.may_upgrade(table, hex_id, old, tile, special):
                    out.append(tile)
            except GameError:
                break
        return out

    def rotation_allowed(self, table: Table, operator, hex_id: str, new: Layout,
                         sides_reached, facts: Optional[dict] = None) -> bool:
        """May the tile lie as ``new`` lies (the operator reaching the hex's
        ``sides_reached``)? See :func:`tracklayer.rules.track.rotation_allows`.
        (``facts``: where a title's rule may keep what it works out of the hex alone for
        the operator, for the other tiles asked about on the hex at this position.)"""
        return track.rotation_allows(table, operator, hex_id, new, sides_reached)

    def rotation_key(self, table: Table, operator, hex_id: str, sides_reached,
                     facts: dict) -> Optional[tuple]:
        """All that :meth:`rotation_allowed` reads of the position for the operator and
        the hex (``sides_reached``: all the sides its network arrives at there), but the
        layout asked about: its answers hold wherever that is found again
        (:meth:`rotation_answers`). None: not told (by the common rule: it costs less
        than a key would)."""
        return None

    def rotation_answers(self, table: Table, operator, hex_id: str, sides_reached,
                         facts: dict) -> dict:
        """Where the answers of :meth:`rotation_allowed` for the operator on the hex are
        kept, by layout: under :meth:`rotation_key`, if the title gives one, with the
        table for the rest of the game (the key names all they read, so they hold at
        every position it is found again: a tile laid or sides opened change the key of
        their hexes, not the answers); otherwise a new place (kept by the caller for
        the position)."""
        key = self.rotation_key(table, operator, hex_id, sides_reached, facts)
        if key is None:
            return {}
        found = table.derived.turned.get(key)
        if found is None:
            found = table.derived.turned[key] = {}
        return found

    def rotations_on_hex(self, table: Table, hex_id: str, tile: TileDef) -> tuple:
        """The rotations in which the tile may lie on the hex whoever lays it, the only
        ones :meth:`rotation_allowed` may allow (the rotation check asks them first): by
        the common rule those lying on the hex (:func:`track.rotations_on_hex`)."""
        return track.rotations_on_hex(table, hex_id, tile)

    def tile_terrain_cost(self, table: Table, operator, hex_id: str, tile: TileDef,
                          rotation: int) -> int:
        """What the hex's terrain costs the operator laying the tile: the same in every
        rotation (listing prices a tile once per hex: :meth:`HexLay.price_of`). By the
        common rule, the terrain on the hex less the operator's discounts."""
        return track.terrain_cost(table, operator, hex_id)

    def terrain_after_lay(self, table: Table, hex_state, tile: TileDef) -> None:
        """What terrain the hex has once a tile is laid: the new tile's."""
        hex_state.terrain = tile.terrain_parts

    def home_choices(self, table: Table, operator) -> List[str]:
        """Hexes an operator without a fixed home may choose from."""
        raise GameError(f"{operator.name} has a fixed home")

    # -- phases ---------------------------------------------------------------------------

    def phase_started(self, table: Table, phase) -> None:
        """What a new phase brings besides its data."""

    # -- routes ---------------------------------------------------------------------------

    stop_value = staticmethod(revenue.stop_value)   # (the common rule itself: no call between)

    def route_bonus(self, table: Table, route, stops) -> int:
        """Revenue a route earns beyond its stops."""
        return 0

    def route_problem(self, table: Table, route) -> None:
        """A title's own route rules (raise RouteError)."""

    def routes_problem(self, table: Table, routes) -> None:
        """A title's own rules on the set of routes an operator runs (raise RouteError)."""

    def check_reach(self, table: Table, route, visited) -> None:
        """Stops counted, or, for a train counting hexes, the hex sides crossed."""
        if route.train.spec.hex_distance:
            return revenue.check_hex_distance(route)
        revenue.check_stop_count(table, route, visited)

    def gauge_a_train_cannot_use(self, train) -> Optional[str]:
        return None

    # What the route finder needs to know of the route rules above; a title changing
    # check_reach or route_bonus tells it here, so that the two agree.

    def reach_limits(self, table: Table, train) -> dict:
        """How far ``train`` may run, as limits on named measures (``check_reach``)."""
        if train.spec.hex_distance:
            return {"hexes": train.variant.distance}
        return revenue.standard_limits(train)

    def stop_reach_cost(self, table: Table, train, node) -> dict:
        """What stopping at ``node`` uses of each measure of :meth:`reach_limits`."""
        if train.spec.hex_distance:
            return {}
        return revenue.standard_stop_cost(train, node.kind, node.part.visit_cost)

    def chain_reach_cost(self, table: Table, train, rails) -> Optional[dict]:
        """What running along ``rails`` between two stops uses of each measure, or None
        if ``train`` may not run there."""
        if train.spec.hex_distance:
            return {"hexes": revenue.hex_sides(list(rails))}
        return {}

    def train_may_use(self, table: Table, train, rail) -> bool:
        skip = self.gauge_a_train_cannot_use(train)
        return skip is None or rail.gauge != skip

    def route_bonus_bound(self, table: Table, operator, train) -> int:
        """At most what :meth:`route_bonus` adds to a route of ``train``."""
        return 0

    def route_stop_rules(self, table: Table) -> Optional[revenue.StopRules]:
        """The title's own route rules (:meth:`route_problem`) when they are exactly rules
        on a route's stops that the finder can apply itself (None: they are not)."""
        return None

    def route_bonus_parts(self, table: Table, train) -> Optional[revenue.BonusParts]:
        """The parts :meth:`route_bonus` adds up for routes of ``train``, for a title whose
        bonus is what its stops and the hexes it runs through add (None: it is not)."""
        return None

    # -- the end --------------------------------------------------------------------------

    def ends_after_round(self, table: Table, timing: EndTiming) -> bool:
        return endgame.common_ending(table, timing)
