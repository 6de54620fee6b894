"""Laying track in an operator's turn: the title's tile lays (one tile, yellow or an
upgrade, by default), each within the operator's network, each paid for.

A lay is judged by a table of named checks (:data:`LAY_CHECKS`), one function per rule in
the order a player would check them; the first broken refuses the lay, naming the rule.
The same checks accept a listed move and an action applied. A lay replayed from a log this
engine accepted (:attr:`Table.trusted`) is not judged again: of each check only what the
lay itself needs is worked out (what it costs, the networks it keeps), as the table says.
"""

from __future__ import annotations

from functools import partial
from typing import Collection, Optional

from ..actions import supply_lays
from ..errors import GameError
from ..rules import board, network, powers, reaching, track
from ..state.model import CompanyState
from .step import Check, Step, asked, handles


class TrackStep(Step):
    """See the module docstring."""

    NAME = "Lay Track"

    def prepare(self) -> None:
        n = self.round.notes
        n.laid = n.upgrades = 0
        n.upgraded = False
        n.laid_hexes = []

    def describe(self) -> str:
        lay = self.allowance(self.actor()) if self.actor() is not None else None
        if lay is None:
            return "Lay Track"
        if lay.lay and lay.upgrade:
            return "Lay/Upgrade Track"
        return "Lay Track" if lay.lay else "Upgrade Track"

    def kinds(self, entity):
        if entity is not self.actor() or isinstance(entity, CompanyState):
            return ()
        return ("lay_tile", "pass") if self.may_lay(entity) else ()

    def allowance(self, entity):
        """The tile lay the operator is at this turn (None when it has had them all).
        While moves are listed (nothing is laid), remembered until the position changes:
        the judge asks it of each lay listed."""
        if self.table.listing:
            return self.remember(("allowance", id(entity)), self.turn_allowance, entity)
        return self.turn_allowance(entity)

    def turn_allowance(self, entity):
        """:meth:`allowance`, worked out."""
        operator = entity.owner if isinstance(entity, CompanyState) else entity
        lays = self.table.variant.tile_lays(self.table, operator)
        n = self.round.notes
        if n.laid >= len(lays):
            return None
        lay = lays[n.laid]
        if lay.not_after_upgrade and n.upgraded:
            return type(lay)(lay=False, upgrade=False, cost=lay.cost,
                             upgrade_cost=lay.upgrade_cost, new_hex_only=lay.new_hex_only)
        if lay.no_upgrade_after_upgrade and n.upgraded:
            return type(lay)(lay=lay.lay, upgrade=False, cost=lay.cost,
                             upgrade_cost=lay.upgrade_cost, new_hex_only=lay.new_hex_only)
        return lay

    def may_lay(self, entity) -> bool:
        lay = self.allowance(entity)
        if lay is None:
            return False
        return bool(entity.tokens) and entity.cash >= lay.cost and (lay.lay or lay.upgrade)

    def sides_reached(self, entity, hex_id: str):
        """The hex's sides at which the operator's network arrives (None: not reached)."""
        return network.hexes_reached(self.table, entity).get(hex_id)

    def hexes_to_try(self, entity) -> list:
        """Hexes where a tile lay might be legal (the operator's network reaches them).
        While moves are listed, the walks the track restriction reads of each hex
        (:func:`reaching.entries_ahead`) are worked out first: the network's walk then
        reads them again."""
        if self.table.listing and not isinstance(entity, CompanyState):
            reaching.entries_ahead(self.table, entity)
        return [h for h in network.hexes_reached(self.table, entity) if h is not None]

    def candidates(self, entity, kind, offer) -> list:
        """Each tile of the supply (one of each name) on each hex the network reaches, of
        the colour that may go there (:func:`track.next_color`, a colour of the phase) and
        an upgrade of the tile there, in each rotation the lay's own rotation check allows
        and that the operator can pay for (any other would be refused for it: the judge's
        checks then decide), of a kind the lay allows (:func:`lay_kind_problem`). What
        these rules ask of a hex is worked out once for it (:class:`HexLay`), and kept for
        the judge of each lay listed."""
        if kind != "lay_tile":
            return super().candidates(entity, kind, offer)
        layable = layable_by_color(self.table)
        allowance = self.allowance(entity)
        make = supply_lays(entity)
        out = []
        for hex_id in offer.hexes_for_lays(entity, self.hexes_to_try(entity)):
            if self.sides_reached(entity, hex_id) is None:
                continue
            site = self.site(hex_id)
            if not site.color_allowed or (allowance is not None and lay_kind_problem(
                    allowance, site.upgrade, site.color)):
                continue
            ids = layable.get(site.color)
            if not ids:
                continue
            try:
                tiles = site.upgrades(ids)
            except GameError:
                continue
            here = self.hex_lay(entity, hex_id) if tiles else None
            for tile in tiles:
                tile_id = ids[tile]
                for new in site.layouts(tile):
                    if here.may_turn_lying(new) and here.may_pay(allowance, new):
                        out.append(offer.made(make(tile_id, tile, hex_id, new.rotation)))
        return out

    def hex_lay(self, entity, hex_id: str) -> "HexLay":
        """What a lay by ``entity`` on the hex depends on (:class:`HexLay`), remembered
        until the position changes (listing asks it once per hex, the judge once per
        lay)."""
        return self.remember(("hex lay", id(entity), hex_id), HexLay, self, entity, hex_id)

    def site(self, hex_id: str) -> track.LaySite:
        """The hex as any lay on it finds it (:class:`track.LaySite`), remembered until
        the position changes."""
        return self.remember(("site", hex_id), track.LaySite, self.table, hex_id)

    def supply(self) -> Collection[str]:
        """The ids of the supply's tiles, to look a lay's tile up in: while moves are
        listed, as a set remembered until the position changes (the tile check asks it of
        each lay listed); otherwise the supply itself (one lay is judged)."""
        table = self.table
        if not table.listing:
            return table.state.tiles
        return self.remember("supply", frozenset, table.state.tiles)

    def payer(self, entity):
        """Who pays for a lay by ``entity``: the operator laying, or for a private
        company's special lay the operator owning the company (1817's mines and Denver
        tile). Listing (:meth:`may_pay`) and judging (:func:`_paid_for`) both ask it."""
        return entity.owner if isinstance(entity, CompanyState) else entity

    def may_pay(self, entity, allowance, hex_id: str, tile, rotation: int) -> bool:
        """Can the payer (:meth:`payer`) pay for the lay (the rule of :func:`_paid_for`)?
        (If it cannot tell without the other checks, yes: the judge decides.)"""
        return self.hex_lay(entity, hex_id).may_pay(allowance, tile.layout(rotation))

    def may_turn(self, entity, hex_id: str, tile, rotation: int) -> bool:
        """Does the lay's rotation check (:func:`_turned_to_network`) allow the tile so?
        (If it cannot tell without the other checks, yes: the judge decides.)"""
        return self.hex_lay(entity, hex_id).may_turn(tile.layout(rotation))

    @handles("lay_tile")
    def lay(self, action):
        return self.judge_lay(action, action.entity)

    def judge_lay(self, action, entity):
        """The lay checked by each rule of :data:`LAY_CHECKS` in turn (the first broken
        refuses it, naming the rule), the same whether moves are listed or an action
        applied (replayed trusted, only what the commit needs of them is worked out); the
        commit lays and :meth:`payer` pays."""
        here = self.hex_lay(entity, action.hex)
        attempt = LayAttempt(self, action, entity, here.payer, here)
        for check in (_TRUSTED if self.table.trusted else _CHECKED):
            check(self, attempt)
        # (A partial, not a closure: listing judges each lay listed and drops its commit.)
        return partial(self.commit_lay, attempt, entity)

    def commit_lay(self, attempt: "LayAttempt", entity) -> None:
        """The lay judged (``attempt``) carried out: the tile laid and paid for by the
        payer, the networks it keeps kept, the turn's lays counted."""
        table = self.table
        action = attempt.action
        hex_id = action.hex
        network.forget(table)   # before the board changes, as after (nothing to walk)
        track.lay(table, hex_id, action.tile_id, action.rotation, action.tile,
                  attempt.payer, attempt.cost)
        network.forget(table)
        for operator, memo in attempt.found.items():
            network.keep_found(table, operator,
                               memo if memo is not None else network.pending())
        n = self.round.notes
        if attempt.upgrade:
            n.upgraded = True
            n.upgrades += 1
        n.laid += 1
        n.laid_hexes.append(hex_id)
        self.after_lay(action, entity)

    def rotation_ok(self, entity, hex_id: str, new, here: Optional["HexLay"] = None) -> bool:
        """The title's rotation rule (:meth:`Variant.rotation_allowed`), given the sides
        the operator's network arrives at (:meth:`HexLay.sides_met`; ``here``: the
        entity's lay on the hex, if known)."""
        table = self.table
        if here is None:
            here = self.hex_lay(entity, hex_id)
        return table.variant.rotation_allowed(table, entity, hex_id, new,
                                              here.sides_met(new.exits), here.facts)

    def rotation_answers(self, here: "HexLay") -> dict:
        """Where the answers of :meth:`rotation_ok` for the entity's lay on the hex
        (``here``) are kept: once its network is known (walked, not pending: the sides
        reached there are all of them), where the title keeps them by what they read
        (:meth:`Variant.rotation_answers`: for the game, position after position); else
        for the hex's lay alone."""
        table = self.table
        memo = table.state.networks.get(here.entity)
        if memo is None or memo.pending:
            return {}
        return table.variant.rotation_answers(table, here.entity, here.hex,
                                              here.sides_met(()), here.facts)

    def sides_met(self, entity, hex_id: str, exits):
        """The hex's sides at which the operator's network arrives, as far as a tile with
        ``exits`` needs them: it must point at one (:func:`network.arrives_at`)."""
        return network.arrives_at(self.table, entity, hex_id, exits)

    def check_restriction(self, entity, hex_id, tile_id, tile, rotation, old_view,
                          new=None):
        """New track keeps the old cities' and towns' track, and meets the title's track
        restriction: one of the new tracks it asks for must be reached by the operator
        once the tile is laid (walks that stop at the first such track, on the board with
        the tile laid in trial; told without laying it when the view the lay would give
        tells without a walk: :func:`reaching.told_without_walks`). Returns the networks
        to keep after the lay (:meth:`network_after_lay`). ``new``: the tile's layout at
        the rotation, if known."""
        table = self.table
        if new is None:
            new = tile.layout(rotation)
        if not track.keeps_stop_track(old_view.layout, new):
            raise GameError("new track must keep the old track")
        if not old_view.layout.tracks:
            return None
        demand = track.restriction_demand(table, old_view.layout, new)
        if demand is None:
            return None         # met whatever track the operator reaches: no walk
        tracks, problem = demand
        if not tracks:
            raise GameError(problem)        # no new track could meet it
        approach = reaching.first_entries(table, entity, hex_id)
        if approach is not None and self.kept_unwalked(entity, old_view):
            new_view = track.view_after_lay(table, hex_id, tile_id, rotation, tile)
            goal = reaching.goal_rails(new_view, tracks)
            starts = network.token_nodes(table, entity)
            met = reaching.told_without_walks(table, entity, starts, goal, old_view, approach,
                                              new_view)
            if met is not None:     # as the trial lay below would tell, without laying
                if not met:
                    raise GameError(problem)
                return {entity: None}       # kept unwalked (:meth:`network_after_lay`)
        with track.TrialLay(table, hex_id, tile_id, rotation, tile) as trial:
            goal = reaching.goal_rails(board.view(table, hex_id), tracks)
            met = reaching.reaches_any(table, entity, goal, old_view, approach)
            kept = self.network_after_lay(entity, old_view)
        if not met:
            raise GameError(problem)
        return kept if kept is not None else trial.found

    def networks_kept(self, entity, hex_id, tile_id, tile, rotation, old_view, new):
        """The networks :meth:`check_restriction` keeps after a lay it accepts, worked out
        without its checks (a lay replayed trusted): none when the old tile has no track
        or the restriction asks no walk, else those of :meth:`network_after_lay`, the
        walk it makes now made in a trial lay."""
        table = self.table
        if not old_view.layout.tracks or \
                track.restriction_demand(table, old_view.layout, new) is None:
            return None
        if self.kept_unwalked(entity, old_view):
            return self.network_after_lay(entity, old_view)
        with track.TrialLay(table, hex_id, tile_id, rotation, tile) as trial:
            kept = self.network_after_lay(entity, old_view)
        return kept if kept is not None else trial.found

    def network_after_lay(self, entity, old_view):
        """The operator's network with the tile laid, as kept after the lay: walked when
        first read (``network.pending``, made when the lay is carried out, given as None:
        listing lays nothing) when that walk records nothing new; otherwise walked now, in
        the trial (None: the trial's), when it may find a first route (which counts from
        now on) or the old tile's colour kept track out (the lay itself then opens sides
        the trial does not)."""
        if self.kept_unwalked(entity, old_view):
            return {entity: None}
        network.reach(self.table, entity)
        return None

    def kept_unwalked(self, entity, old_view) -> bool:
        """Is the operator's network after the lay kept unwalked (:meth:`network_after_lay`):
        walking it would record nothing new, and the old tile's colour kept no track out?"""
        table = self.table
        return network.may_wait(table, entity) and \
            old_view.tile.color not in table.settings.impassable_colors

    def after_lay(self, action, entity) -> None:
        if not self.may_lay(action.entity):
            self.mark_done()


class HexLay:
    """What a tile lay by one entity on one hex depends on at one position, worked out
    once for the hex and as asked for each tile and rotation: the hex as any lay finds it
    (``site``, :class:`track.LaySite`), the supply's ids (:meth:`TrackStep.supply`), the
    power blocking the hex to the entity, the sides the network arrives at, what the
    title's rotation rule keeps of the hex (``facts``), whether each layout is turned as
    the rotation check allows (:meth:`TrackStep.rotation_ok`), and what each lay costs
    (:func:`price_of_lay`). Listing asks these of every candidate on the hex, the judge
    of each one listed: one step keeps it per entity and hex until the position changes
    (:meth:`TrackStep.hex_lay`)."""

    __slots__ = ("step", "entity", "hex", "site", "view", "supply", "payer", "facts",
                 "bordered", "_blocker", "_sides", "_turned", "_prices", "_fits")

    def __init__(self, step: TrackStep, entity, hex_id: str) -> None:
        self.step = step
        self.entity = entity
        self.hex = hex_id
        self.site: track.LaySite = step.site(hex_id)
        self.view = board.view(step.table, hex_id)
        self.supply: Collection[str] = step.supply()
        self.payer = step.payer(entity)
        self.facts: dict = {}
        self.bordered = bool(step.table.state.hexes[hex_id].borders)
        self._blocker: tuple = ()
        self._sides: tuple = ()
        self._turned: Optional[dict] = None
        self._prices: dict = {}
        self._fits: dict = {}

    def blocker(self, table, entity, hex_id: str):
        """:func:`powers.hex_blocker` of the entity and hex (the arguments as
        :func:`track.check_lay_basics` gives them: this entity's, this hex)."""
        if not self._blocker:
            self._blocker = (powers.hex_blocker(table, entity, hex_id),)
        return self._blocker[0]

    def fits(self, tile_id: str, tile) -> None:
        """:func:`track.check_lay_basics` of the tile with id ``tile_id`` laid on the hex
        by the entity (by a private company's power if the entity is one): asked once per
        tile, its refusal raised again each time (each rotation listed asks it)."""
        found = self._fits.get(tile_id)
        if found is None:
            step = self.step
            try:
                track.check_lay_basics(step.table, self.entity, self.hex, tile_id, tile,
                                       special=isinstance(self.entity, CompanyState),
                                       hex_blocker=self.blocker, site=self.site,
                                       supply=self.supply)
                found = True
            except GameError as e:
                found = e
            self._fits[tile_id] = found
        if found is not True:
            raise found.with_traceback(None)

    def turned(self, new) -> bool:
        """The tile lies on the hex so (:meth:`track.LaySite.rotations`: the hex's own
        part, asked first), and :meth:`TrackStep.rotation_ok` allows it."""
        return new.rotation in self.site.rotations(new.tile) and self.rotation_allows(new)

    def rotation_allows(self, new) -> bool:
        """:meth:`TrackStep.rotation_ok` of the tile laid as ``new``, kept per layout where
        :meth:`TrackStep.rotation_answers` keeps them."""
        turned = self._turned
        if turned is None:
            turned = self._turned = self.step.rotation_answers(self)
        found = turned.get(new)
        if found is None:
            found = turned[new] = self.step.rotation_ok(self.entity, self.hex, new, self)
        return found

    def sides_met(self, exits):
        """:meth:`TrackStep.sides_met` for a tile with ``exits``. Once the operator's
        network is known (walked, not pending) it is all the sides reached there, the
        same for every tile: kept."""
        found = self._sides
        if found:
            return found[0]
        step = self.step
        sides = step.sides_met(self.entity, self.hex, exits)
        memo = step.table.state.networks.get(self.entity)
        if memo is not None and not memo.pending:
            self._sides = (sides,)
        return sides

    def may_turn(self, new) -> bool:
        """:meth:`turned`, or yes if it cannot tell without the other checks."""
        try:
            return self.turned(new)
        except GameError:
            return True

    def may_turn_lying(self, new) -> bool:
        """:meth:`may_turn` of a layout the tile lies on the hex in
        (:meth:`track.LaySite.layouts`: listing asks no other), so only
        :meth:`rotation_allows` is left to ask."""
        try:
            return self.rotation_allows(new)
        except GameError:
            return True

    def price_of(self, allowance, new) -> tuple:
        """:func:`price_of_lay` of the tile laid as ``new``, at the lay the turn is at
        (which it reads only for its prices). Only priced borders the track crosses make
        the price depend on the rotation (terrain does not:
        :meth:`Variant.tile_terrain_cost`): on a hex without borders it is kept per tile."""
        key = (new if self.bordered else new.tile, allowance.cost, allowance.upgrade_cost)
        found = self._prices.get(key)
        if found is None:
            found = self._prices[key] = price_of_lay(self.step.table, allowance, self.entity,
                                                     self.hex, new.tile, new.rotation)
        return found

    def may_pay(self, allowance, new) -> bool:
        """Can the payer (:meth:`TrackStep.payer`) pay for the tile laid as ``new`` (the
        rule of :func:`_paid_for`)? (If it cannot tell without the other checks, yes.)"""
        try:
            return affords(self.payer, self.price_of(allowance, new)[1])
        except (GameError, AttributeError):
            return True


class LayAttempt:
    """A tile lay being judged: the action, who lays (``entity``) and pays, the lay the
    turn is at, the old tile, the tile's layout at the lay's rotation (``new``), what the
    lay depends on at this position (``here``, :class:`HexLay`), and what the checks work
    out for the commit (what the lay costs, the networks to keep)."""

    __slots__ = ("action", "entity", "payer", "here", "allowance", "old_view", "upgrade",
                 "new", "cost", "found")

    def __init__(self, step: TrackStep, action, entity, payer, here: HexLay) -> None:
        self.action = action
        self.entity = entity
        self.payer = payer
        self.here = here
        self.allowance = step.allowance(action.entity)
        self.old_view = here.view
        self.upgrade = here.site.upgrade
        self.new = action.tile.layout(action.rotation)
        self.cost = 0
        self.found: dict = {}


def _lay_left(step: TrackStep, a: LayAttempt) -> None:
    """The operator has a tile lay left this turn."""
    if a.allowance is None:
        raise GameError(f"{a.action.entity.name} cannot lay more track now")


def _lay_kind(step: TrackStep, a: LayAttempt) -> None:
    """The lay allows an upgrade, or a yellow tile, as the tile is."""
    problem = lay_kind_problem(a.allowance, a.upgrade, a.action.tile.color)
    if problem:
        raise GameError(problem)


def lay_kind_problem(allowance, upgrade: bool, color: str) -> str:
    """What the lay the turn is at does not allow of a tile of ``color`` laid (as an
    ``upgrade`` or not): an upgrade, or a yellow tile ("": it allows it)."""
    if upgrade and not allowance.upgrade:
        return "cannot lay an upgrade now"
    if color == "yellow" and not allowance.lay:
        return "cannot lay a yellow tile now"
    return ""


def _new_hex(step: TrackStep, a: LayAttempt) -> None:
    """A lay that must go on a new hex does not go on one laid this turn."""
    if a.allowance.new_hex_only and a.action.hex in step.round.notes.laid_hexes:
        raise GameError(f"{a.action.hex} was already laid this turn")


def _tile_fits(step: TrackStep, a: LayAttempt) -> None:
    """The tile is in the supply, of a colour of the phase, on a hex not blocked, an
    upgrade of the tile there."""
    a.here.fits(a.action.tile_id, a.action.tile)


def _turned_to_network(step: TrackStep, a: LayAttempt) -> None:
    """The tile's rotation is allowed (by default: it points at the operator's network
    and keeps the old track)."""
    action = a.action
    if not a.here.turned(a.new):
        raise GameError(f"tile {action.tile.name} cannot be laid on {action.hex} with "
                        f"rotation {action.rotation}")


def _track_restriction(step: TrackStep, a: LayAttempt) -> None:
    """An operator's new track keeps the old stops' track and meets the title's track
    restriction (a private company's lay is not held to it)."""
    _keep_networks(a, step.check_restriction)


def _networks_kept(step: TrackStep, a: LayAttempt) -> None:
    """What :func:`_track_restriction` works out for the commit: the networks to keep."""
    _keep_networks(a, step.networks_kept)


def _keep_networks(a: LayAttempt, work) -> None:
    """The networks an operator's lay keeps, as ``work`` (the restriction checked, or
    only what it keeps) returns them; a private company's lay keeps none."""
    if isinstance(a.entity, CompanyState):
        return
    action = a.action
    a.found = work(a.entity, action.hex, action.tile_id, action.tile, action.rotation,
                   a.old_view, a.new) or {}


def _paid_for(step: TrackStep, a: LayAttempt) -> None:
    """The payer can pay the terrain and the lay's own cost."""
    _priced(step, a)
    if not affords(a.payer, a.cost):
        raise GameError(f"{a.payer.name} has {a.payer.cash} and cannot spend {a.cost}")


def _priced(step: TrackStep, a: LayAttempt) -> None:
    """What :func:`_paid_for` works out for the commit: what the lay costs."""
    a.cost = a.here.price_of(a.allowance, a.new)[1]


def supply_by_color(table) -> dict:
    """The tiles of the supply, one of each name (its first id), by colour, in the
    supply's order: ``{colour: [(tile id, tile)]}``."""
    first = {}
    for tile_id in table.state.tiles:
        first.setdefault(tile_id.rsplit("-", 1)[0], tile_id)
    found: dict = {}
    for tile_id in first.values():
        tile = board.supply_tile(table, tile_id)
        found.setdefault(tile.color, []).append((tile_id, tile))
    return found


def layable_by_color(table) -> dict:
    """The tiles of the supply that a lay may put down (not those that block lays), one
    of each name, by colour, in the supply's order: ``{colour: {tile: its first id}}``."""
    return {color: {tile: tile_id for tile_id, tile in tiles if not tile.blocks_lay}
            for color, tiles in supply_by_color(table).items()}


def price_of_lay(table, allowance, entity, hex_id: str, tile, rotation: int) -> tuple:
    """What a lay costs: ``(the lay's own price, the whole)``, its own price that of a
    yellow tile or of an upgrade, the whole adding the terrain and borders."""
    extra = allowance.cost if tile.color == "yellow" else allowance.price_of_upgrade
    return extra, track.lay_cost(table, entity, hex_id, tile, rotation) + extra


def affords(payer, cost: int) -> bool:
    """Can ``payer`` pay ``cost`` (nothing to pay, or cash enough)?"""
    return cost <= 0 or payer.cash >= cost


LAY_CHECKS = (
    Check(_lay_left),
    Check(_lay_kind),
    Check(_new_hex),
    Check(_tile_fits),
    Check(_turned_to_network),
    Check(_track_restriction, kept=_networks_kept),
    Check(_paid_for, kept=_priced),
)
"""The rules a tile lay must meet, in the order they are checked (each names what it
checks in its docstring and refuses the lay naming what is wrong), each with what a lay
replayed trusted works out of it (:class:`Check`): the supply, the blocker, the rotation,
the track restriction and the payer's cash are not asked again (18xx.games, loading a
game, asks neither the blocker, the rotation nor the restriction)."""

_CHECKED, _TRUSTED = asked(LAY_CHECKS)
