"""The Old Prince 1871 — the rules in which it differs (the seed document's sections in
brackets). Its data and settings declare what it shares with other titles: an unlimited
bank, full capitalisation, selling only once a corporation has operated, one cell down per
sale, selling before buying, two yellow lays or one upgrade, the end one set after the
first D or at a bankruptcy. Here, and in the modules beside it:

* the draws at the start and the pieces' places (``draws``, "Příprava hry");
* the auction of piles (``auction``, "Dražba");
* what privates and PEIR cards bring, and a numbered corporation floating (``buying``);
* the stock round: tranches, the Union Bank, exchanges, splitting (``stock``, ``split``);
* the operating round: the PEIR, dividends, the Hunslet, H and + trains (``operating``).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Optional

from ...board.tiles import COLOR_ORDER, Layout, TileDef, fits_some_rotation
from ...rules import certificates, endgame, phases
from ...rules.variant import Variant
from ...state.model import PlayerState
from ...spec.settings import (EmergencyTrainsFromOthers, EndTiming, EndTrigger,
                              HomeTokenTiming, PriorityDeal, SaleMovement, SaleTiming,
                              Settings, TileLay, TradeOrder)
from ...title import Title
from ...turns import sequence
from . import buying, data, draws, operating, stock
from .auction import PileAuction, PileRound
from .notes import notes
from .tranches import is_branch, tranche_open


def _future_labels() -> dict:
    """hex -> {colour: label} of the labels the map prints for a later colour."""
    out: dict = {}
    for group in data.HEXES.values():
        for hexes, text in group.items():
            for part in text.split(";"):
                words = part.split()
                if words and words[0] == "future_label":
                    for h in hexes:
                        out.setdefault(h, {})[words[2]] = words[1]
    return out


FUTURE_LABELS = _future_labels()


@lru_cache(maxsize=None)
def _shape_upgrades(old: Layout, new: TileDef, label: Optional[str]) -> bool:
    """Is ``new`` of the colour after the old tile's, labelled ``label``, with as many
    cities and towns, keeping the old track turned some way? (Shapes only, the same in
    every game: worked out once.)"""
    old_tile = old.tile
    return COLOR_ORDER.index(new.color) == COLOR_ORDER.index(old_tile.color) + 1 and \
        (new.label or None) == label and \
        len(old_tile.towns) == len(new.towns) and \
        len(old_tile.cities) == len(new.cities) and \
        fits_some_rotation(old, new.layout(0))


@lru_cache(maxsize=None)
def _shapes_upgrading(old: Layout, hex_id: str, tiles: tuple) -> tuple:
    """The tiles of ``tiles`` whose shape and label may replace the tile lying as ``old``
    on the hex (:func:`_shape_upgrades`, the label the hex's for the tile's colour), in
    their order. (Shapes and the printed map only, the same in every game: worked out
    once.)"""
    labels = FUTURE_LABELS.get(hex_id, {})
    return tuple(t for t in tiles
                 if _shape_upgrades(old, t, labels.get(t.color, old.tile.label) or None))


def _remove_start_cell(at):
    def event(table) -> None:
        """A starting price is withdrawn (the 5H: 80, the 3+: 74, the 7: 65)."""
        if at in table.state.par_cells:
            table.state.par_cells.remove(at)
            table.log(f"Par {table.money(table.spec.cells[at].price)} is no longer available")
    return event


def _close_companies(table) -> None:
    """The 4+ closes the privates; MC, VR and SB still open are first exchanged for the
    Shortline's reserved shares, one by one, each as an exchange in a stock turn would be:
    a player who comes to hold more of the Shortline than its president takes the
    presidency (on a tie the president keeps it)."""
    shortline = notes(table).shortline
    for sym in data.SHORTLINE_EXCHANGERS:
        company = table.company(sym)
        if company is None or company.closed:
            continue
        reserved = [c for c in certificates.held(shortline, shortline) if not c.buyable]
        if reserved and isinstance(company.owner, PlayerState):
            reserved[0].buyable = True
            buying.receive(table, company.owner, reserved[0], presidency_may_change=True)
    phases.close_all_companies(table)


class OldPrince(Variant):
    """The rules of The Old Prince 1871 (see the module docstring)."""

    events = dict({name: _remove_start_cell(at) for name, at in data.PAR_REMOVED_BY.items()},
                  close_companies=_close_companies)

    # -- setting up ---------------------------------------------------------------------

    def corporation_order(self, table, corporations) -> list:
        """The Mainline, the Shortline and the Union Bank's corporation are drawn
        ("Příprava hry"); see ``draws.draw``."""
        return draws.draw(table, corporations)

    def set_up(self, table) -> None:
        """See ``draws.set_up``; the concessions close when their corporation drawn
        operates."""
        draws.set_up(table)
        n = notes(table)
        for company in table.state.companies:
            for p in company.powers:
                if p.spec.kind == "close" and p.spec.corporation in ("mainline", "shortline"):
                    drawn = n.mainline if p.spec.corporation == "mainline" else n.shortline
                    p.spec = replace(p.spec, corporation=drawn.sym)

    def certificate_with_company(self, table, company, power):
        """"mainline_1" names a certificate of the corporation drawn as the Mainline."""
        cert = power.spec.certificate
        n = notes(table)
        for alias, corp in (("mainline", n.mainline), ("shortline", n.shortline)):
            if cert.startswith(alias + "_"):
                return corp.sym + cert[len(alias):]
        return cert

    def first_round(self, table):
        """The game opens with the auction of piles ("Dražba")."""
        return PileRound(table, [PileAuction])

    def next_round(self, table):
        """After the auction the players sit least cash first; later, in the order they
        passed in the stock round. The Union Bank always sits last."""
        r = table.round
        if r.is_auction:
            self.seat(table, PriorityDeal.LEAST_CASH)
            return sequence.stock_round(table, self.stock_round)
        if r.is_stock:
            table.state.operating_rounds = table.phase.operating_rounds
            self.seat(table, PriorityDeal.FIRST_TO_PASS)
            return sequence.operating_round(table, self.operating_round)
        if r.number < table.state.operating_rounds:
            return sequence.operating_round(table, self.operating_round, r.number + 1)
        table.state.turn += 1
        return sequence.stock_round(table, self.stock_round)

    def seat(self, table, rule) -> None:
        players = table.state.players
        bank_seat = notes(table).union_bank
        players.remove(bank_seat)
        try:
            sequence.reorder_players(table, rule)
        finally:
            players.append(bank_seat)

    def stock_round(self, table):
        return stock.stock_round(table)

    def operating_round(self, table, number: int):
        return operating.operating_round(table, number)

    # -- limits and scores --------------------------------------------------------------

    def certificate_limit(self, table, holder=None) -> int:
        """PEIR cards do not count towards the limit (other privates do)."""
        limit = table.spec.data.cert_limit
        if holder is None:
            return limit
        for c in holder.companies:   # (asked for every purchase weighed: a loop, no genexpr)
            if c.sym in data.PEIR_CARD_SYMS:
                limit += 1
        return limit

    def presidency_distance(self, table, old_president, candidate) -> int:
        """Between equals the Union Bank comes after every player (as on 18xx.games);
        when it was the president, all are equally near."""
        bank_seat = notes(table).union_bank
        if bank_seat in (old_president, candidate):
            return len(table.state.players) + 1
        return super().presidency_distance(table, old_president, candidate)

    def score(self, table, player) -> int:
        """Cash, shares and privates; the Union Bank counts for the owner of UB as what
        the Union Bank holds."""
        bank_seat = notes(table).union_bank
        worth = endgame.worth(table, player)
        ub = table.company("UB")
        if ub is not None and ub.owner is player:
            worth += endgame.worth(table, bank_seat) - ub.value
        return worth

    def scored(self, table) -> list:
        """The Union Bank is no player of its own at the end."""
        bank_seat = notes(table).union_bank
        return [p for p in table.state.players if p is not bank_seat]

    def decides_for(self, table, player):
        """The owner of UB makes the Union Bank's decisions (for the corporations it
        presides over too)."""
        if player is not notes(table).union_bank:
            return player
        ub = table.company("UB")
        return ub.owner if ub is not None and ub.owner is not None else player

    # -- track ----------------------------------------------------------------------------

    def upgrades(self, table, hex_id: str, old: Layout, tiles, special: bool = False) -> list:
        """The tiles of ``tiles`` :meth:`may_upgrade` allows, in their order: their
        shapes and labels asked of the hex once for them all (:func:`_shapes_upgrading`:
        listing asks this of every tile of the colour on every hex), then tile 9 only for
        the owner of SBC."""
        found = _shapes_upgrading(old, hex_id, tuple(tiles))
        if any(t.name == data.SBC_TILE for t in found) and not self.owns_sbc(table):
            return [t for t in found if t.name != data.SBC_TILE]
        return list(found)

    def may_upgrade(self, table, hex_id, old, new, special=False) -> bool:
        """A tile of the next colour keeping the old track and the number of cities and
        towns; its label is the hex's label, or the one printed for that colour (X, T,
        CX); tile 9 only for the owner of SBC ("Stavba trati")."""
        label = FUTURE_LABELS.get(hex_id, {}).get(new.color, old.tile.label)
        return _shape_upgrades(old, new, label or None) and \
            (new.name != data.SBC_TILE or self.owns_sbc(table))

    def owns_sbc(self, table) -> bool:
        sbc = table.company("SBC")
        operator = table.round.acting()
        return sbc is not None and not sbc.closed and operator is not None and \
            sbc.owner is operator.owner

    def may_start(self, table, corporation, player) -> bool:
        """While a tranche has room; not a branch, not the PEIR, not once started."""
        return tranche_open(table) and not corporation.started and \
            not is_branch(corporation) and corporation.sym != data.PEIR.sym

    def start_cells(self, table, corporation, player) -> list:
        """The starting prices still in the game (the 5H, 3+ and 7 withdraw some)."""
        left = table.state.par_cells
        return [c for c in table.spec.starting_cells() if c.at in left]


SETTINGS = Settings(
    treasury_name="Treasury",
    currency="${}", market_limit=data.MARKET_LIMIT, sell_in_blocks=True,
    largest_sale=data.TURN_SALE_LIMIT, holding_limit_forces_sale=False,
    sale_timing=SaleTiming.AFTER_IT_OPERATED, sale_movement=SaleMovement.DOWN_PER_SALE,
    trade_order=TradeOrder.SELL_THEN_BUY, priority_deal=PriorityDeal.FIRST_TO_PASS,
    home_token=HomeTokenTiming.FIRST_OPERATION,
    emergency_from_others=EmergencyTrainsFromOthers.NEVER, given_back_for_sale=False,
    tile_lays=(TileLay(), TileLay(upgrade=False, cost=data.SECOND_LAY_COST,
                                  not_after_upgrade=True)),
    end_triggers=((EndTrigger.BANKRUPTCY, EndTiming.IMMEDIATELY),
                  (EndTrigger.FINAL_PHASE, EndTiming.ONE_MORE_SET)))

TITLE = Title("The Old Prince 1871", (3, 4), SETTINGS, data.title_data, OldPrince)
