"""1817 track: special lays by private companies, mines, bridges and mountain income.

* A company with a ``tile_lay`` power (DTC's Denver tile, the coal mines' 7/8/9 on
  mountains) lays for the corporation owning it, as one of its tile lays. The Denver tile
  needs no connection; a mine does, and must point at a neighbouring revenue location
  that has track towards it or may get it (a tile left in the supply may replace its
  tile). A mine marks the hex: it cannot be upgraded, a route through it earns $10 more,
  and no route may start or end there. The mine saves the mountain's $15. The Denver
  power is lost once another tile is laid there.
* The Mountain Engineers pay their corporation $20 when it lays a tile on a mountain.
* The Union Bridge Company puts bridges on Winnipeg and New Orleans (one each): a route
  stopping there earns $10 more.
"""

from __future__ import annotations

from ...errors import GameError
from ...rules import board, money, powers, track
from ...state.model import CompanyState
from ...turns.laying import supply_by_color
from ...turns.operating import TrackStep
from ...turns.step import Step, handles
from ...actions import new_action
from .operating import buying_power

MINE = "mine"
BRIDGE = "bridge"
DENVER_TILE = "X00"


def lay_power(table, company):
    found = powers.powers(table, company, "tile_lay")
    return found[0] if found and found[0].uses_left != 0 else None


def is_mine(power) -> bool:
    return power.spec.text != DENVER_TILE


class Track1817(TrackStep):
    """See the module docstring."""

    def kinds(self, entity):
        if isinstance(entity, CompanyState):
            operator = self.actor()
            if entity.owner is operator and operator is not None and \
                    lay_power(self.table, entity) is not None and self.allowance(operator):
                return ("lay_tile",)
            return ()
        return super().kinds(entity)

    def candidates(self, entity, kind, offer) -> list:
        """A company's special lay: its tiles on its hexes, each way round the lay's own
        rotation check allows (the judge's checks then decide)."""
        if kind != "lay_tile" or not isinstance(entity, CompanyState):
            return super().candidates(entity, kind, offer)
        power = lay_power(self.table, entity)
        if power is None:
            return []
        names = power.spec.text.split()
        tiles = {}
        for tile_id in self.table.state.tiles:
            tiles.setdefault(tile_id.rsplit("-", 1)[0], tile_id)
        supply = {n: board.supply_tile(self.table, tiles[n]) for n in names if n in tiles}
        return [new_action("lay_tile", entity, hex=h, tile=tiles[n], rotation=r)
                for h in power.spec.hexes for n, tile in supply.items() for r in range(6)
                if self.may_turn(entity, h, tile, r)]

    def may_upgrade_here(self, hex_id: str) -> bool:
        return MINE not in self.table.state.hexes[hex_id].assignments

    @handles("lay_tile")
    def lay(self, action):
        entity = action.entity
        if not self.may_upgrade_here(action.hex):
            raise GameError("Cannot upgrade mines")
        if isinstance(entity, CompanyState):
            return self.special_lay(action)
        commit = self.judge_lay(action, entity)

        def then() -> None:
            had_mountain = self.mountain(action.hex)    # (asked of the lay carried out)
            commit()
            self.after_any_lay(action, entity, had_mountain)
        return then

    def may_lay(self, entity) -> bool:
        """As the common rule, the loans the corporation could take counting as cash."""
        lay = self.allowance(entity)
        if lay is None or not entity.tokens or not (lay.lay or lay.upgrade):
            return False
        return entity.cash >= lay.cost or buying_power(self.table, entity) >= lay.cost

    def after_lay(self, action, entity) -> None:
        """Nothing yet: whether the operator may lay again is asked once the lay has paid
        what it earns (:meth:`after_any_lay`), as the lay is over only then."""

    def mountain(self, hex_id: str) -> bool:
        return any("mountain" in t.terrains for t in self.table.state.hexes[hex_id].terrain)

    def special_lay(self, action):
        table = self.table
        company = action.entity
        operator = company.owner
        power = lay_power(table, company)
        tiles = power.spec.text.split()
        if action.hex not in power.spec.hexes or action.tile.name not in tiles:
            raise GameError(f"{company.name} cannot lay {action.tile.name} on {action.hex}")
        if is_mine(power) and not self.reaches_revenue(operator, action):
            raise GameError(f"a mine on {action.hex} must point at a revenue location")
        commit = self.judge_lay(action, company)
        had_mountain = self.mountain(action.hex)

        def then() -> None:
            commit()
            powers.use(table, power)
            if power.uses_left == 0:
                powers.close_company(table, company)
                table.log(f"{company.name} closes")
            if is_mine(power):
                table.state.hexes[action.hex].assignments[MINE] = True
                table.log(f"{operator.name} adds mine to {action.hex}")
            self.after_any_lay(action, operator, had_mountain)
        return then

    def reaches_revenue(self, operator, action) -> bool:
        """A mine's track must point at a neighbouring revenue location (city, town or
        off-board) whose tile either has track towards the mine already or may get it:
        the supply still holds a tile that may replace it (of the next colour, keeping
        its track, label, cities and towns; whatever the phase allows now)."""
        table = self.table
        new = action.tile.layout(action.rotation)
        supply = None       # by colour, made only for a neighbour with no track back
        for side in new.exits:
            other = board.neighbour(table, action.hex, side)
            if other is None:
                continue
            view = board.view(table, other)
            if not view.nodes:
                continue
            back = table.spec.grid.side_towards(other, action.hex)
            if back in view.layout.exits:
                return True
            if supply is None:
                supply = supply_by_color(table)
            later = supply.get(track.next_color(view.tile.color), ())
            if any(track.shape_allows(view.layout, tile) for _, tile in later):
                return True
        return False

    def rotation_ok(self, entity, hex_id: str, new, here=None) -> bool:
        """The Denver tile may lie any way the common rule allows (no connection); a mine
        and an operator's own lay as the operator's network allows."""
        if isinstance(entity, CompanyState) and not is_mine(self.power_of(entity)):
            return self.table.variant.rotation_allowed(self.table, entity.owner, hex_id, new,
                                                       list(range(6)))
        if isinstance(entity, CompanyState):
            return super().rotation_ok(entity.owner, hex_id, new)
        return super().rotation_ok(entity, hex_id, new, here)

    def power_of(self, company):
        """The company's tile lay power (:func:`lay_power`), remembered until the position
        changes (the rotation check asks it of every way round on every hex of a mine)."""
        return self.remember(("power", id(company)), lambda: lay_power(self.table, company))

    def after_any_lay(self, action, operator, had_mountain: bool) -> None:
        """The Mountain Engineers pay for a mountain tile; the Denver tile's company closes
        once another lays on its hex (only a company with a Denver tile lay naming the hex
        is asked for its lay power: no other can close so). Then the operator lays again
        only if it may, with what the lay earned (the Mountain Engineers' $20 may pay for
        the second lay)."""
        table = self.table
        for company in table.state.companies:
            if company.closed:
                continue
            denver_here = False
            for p in company.powers:
                spec = p.spec
                if spec.kind == "tile_income" and company.owner is operator and had_mountain:
                    money.pay(table, table.state.bank, operator, spec.discount)
                    table.log(f"{operator.name} earns {table.money(spec.discount)} for the "
                              f"mountain tile built by {company.name}")
                elif spec.kind == "tile_lay" and spec.text == DENVER_TILE and \
                        action.hex in spec.hexes:
                    denver_here = True
            if not denver_here:
                continue
            denver = lay_power(table, company) if company.owner is not None else None
            if denver is not None and not is_mine(denver) and \
                    action.hex in denver.spec.hexes and action.entity is not company:
                powers.close_company(table, company)
                table.log(f"{company.name} closes as it can no longer be used")
        if not self.may_lay(operator):
            self.mark_done()


class BridgeStep(Step):
    """The Union Bridge Company's bridges, placed in its corporation's turn."""

    NAME = "Assign"
    PASSES = False
    HOLDS = False

    def hexes(self, company) -> list:
        found = powers.powers(self.table, company, "assign_hexes")
        if not found or found[0].uses_left == 0:
            return []
        return [h for h in found[0].spec.hexes
                if BRIDGE not in self.table.state.hexes[h].assignments]

    def kinds(self, entity):
        if isinstance(entity, CompanyState) and entity.owner is self.actor() and \
                self.hexes(entity):
            return ("assign",)
        return ()

    def candidates(self, entity, kind, offer) -> list:
        if kind != "assign":
            return super().candidates(entity, kind, offer)
        return [new_action("assign", entity, target=h, target_type="hex")
                for h in self.hexes(entity)]

    @handles("assign")
    def assign(self, action):
        company, target = action.entity, action.target
        if target not in self.hexes(company):
            raise GameError(f"Bridge already on {target}" if isinstance(target, str)
                            else f"{company.name} cannot be assigned there")

        def commit() -> None:
            self.table.state.hexes[target].assignments[BRIDGE] = True
            powers.use(self.table, powers.powers(self.table, company, "assign_hexes")[0])
            self.table.log(f"{company.name} builds bridge on {target}")
        return commit
