"""1893: Cologne — the rules in which it differs (rulebook sections in brackets).

Its data and settings declare what it shares with other titles: minors paying half to
their owner and running trains they need not own (the owner helping with the first),
shares going to the market at a start and paying nothing there, one trade-in per turn,
no trains between companies in phase 2 nor from a minor to a corporation, bonds, EVA
traded between players, and AGV and HGK formed from minors (``rules.formation``). Here:

* The starting package is drafted at face value, only the two lowest minors on offer at
  a time; the rest is auctioned at falling prices before a later stock round (1.3).
* In the first stock round nobody sells, and a player who passed is out of it (6); FdSD
  may be exchanged for 20% of RAG, or pay for parring it (2.1), which in the first stock
  round it must: the stock turn, ``stock``.
* AGV and HGK open for sale at 120 (a price kept for them) from phase 4 and 5, form by
  shareholder vote in merger rounds, or by themselves a phase later (5).
* Until the 3-train no track crosses the Rhine at Köln (L5) or Bonn (S6), and N5 and P5
  take no tile; Leverkusen's two towns become one city in green, turned any way (4).
"""

from __future__ import annotations

from ...errors import GameError
from ...rules import companies, formation, market, operators, powers
from ...rules.variant import Variant
from ...spec.settings import MinorDividend, SaleMovement, SaleTiming, Settings, TradeOrder
from ...title import Title
from ...turns import sequence
from ...turns.companies import PlayerCompanyTrade
from ...turns.draft import FaceValueDraft, FallingPriceAuction
from ...turns.mergers import OptionalDiscard, Vote, VoteRound
from ...turns.operating import DividendStep, HomeTokenStep, RouteStep, TokenStep, TrackStep
from ...turns.round import DraftRound, OperatingRound, StockRound
from ...turns.trains import BankruptcyStep, BuyTrainStep, DiscardStep
from . import data
from .notes import CologneNotes, notes
from .stock import CologneStockTurn


# -- the starting package (1.3) -------------------------------------------------------------


def draftable(table) -> list:
    """Of the package left, the privates and the two lowest numbered minors."""
    items = [c for c in companies.bank_offer(table) if c.spec.stack is None]
    return [c for c in items if c.spec.minor is None] + \
        [c for c in items if c.spec.minor is not None][:2]


class PackageDraft(FaceValueDraft):
    def offer(self) -> list:
        """The privates and the two lowest minors left (1.3)."""
        return draftable(self.table)

    def passers(self) -> list:
        """A player who passes is out of the draft, and of the first stock round."""
        return notes(self.table).passers


class PackageAuction(FallingPriceAuction):
    def offer(self) -> list:
        """What is left of the package, the two lowest minors at a time (1.3)."""
        return draftable(self.table)


# -- AGV and HGK (5) ------------------------------------------------------------------------


def found(table, sym: str) -> None:
    """AGV or HGK forms from its minors (and HdSK), with 400 from the bank; the trains it
    received may be given back."""
    n = notes(table)
    n.mergeable[sym] = n.due[sym] = False
    target = table.corporation(sym)
    parts = [(table.company(c), target.certificates[i]) for c, i in data.FORMATIONS[sym]]
    formation.form(table, target, parts, data.FORMATION_TREASURY)
    if target.trains:
        n.discards.append(target)


class MergerRound(VoteRound):
    """Before operating rounds: the holders vote on forming AGV (from phase 4) or HGK
    (from phase 5), each minor's owner with its certificate's share; a phase later it
    forms without a vote (5)."""

    def offer(self) -> None:
        """Form what is due; put to the vote what may form, each minor's owner
        voting with its reserved certificate and the holders with their shares."""
        table, n = self.table, notes(self.table)
        for sym, phase in (("AGV", 5), ("HGK", 6)):
            corporation = table.corporation(sym)
            if n.due.get(sym):
                table.log(f"-- {sym} is founded as phase {phase} has been reached")
                found(table, sym)
            elif n.mergeable.get(sym):
                self.offering.append(corporation)
                reserved = dict(data.FORMATIONS[sym])
                for item in data.VOTERS[sym]:
                    self.add_vote(table.company(item).owner,
                                  corporation.certificates[reserved[item]].percent)
                self.add_holder_votes(corporation)

    def exchanged(self, target) -> list:
        """The companies whose owners vote first: those AGV or HGK forms from."""
        return [self.table.company(c) for c, _ in data.FORMATIONS[target.sym]]

    def form(self, target) -> None:
        """A vote of 50% or more forms the corporation."""
        found(self.table, target.sym)

    def discards_due(self) -> list:
        """Corporations just formed whose trains may be given back."""
        return notes(self.table).discards


def _open_at_120(table, sym: str, dearest_first: bool) -> None:
    """AGV or HGK opens for sale at 120: its shares go to the market (5.1)."""
    corporation = table.corporation(sym)
    cells = [c for c in table.spec.starting_cells() if c.price == 120]
    market.start_at(table, corporation, (cells[0] if dearest_first else cells[-1]).at)
    operators.offer_in_market(table, corporation)
    notes(table).mergeable[sym] = True
    corporation.started = True


def _formed_next(table, sym: str) -> None:
    """A phase after it could be voted on, AGV or HGK forms by itself (5.2)."""
    n = notes(table)
    n.mergeable[sym] = False
    n.due[sym] = not table.corporation(sym).certificates[0].buyable


def _stock_round(table):
    return StockRound(table, [DiscardStep, CologneStockTurn])


def _operating_round(table, number: int):
    notes(table).passers = []
    return OperatingRound(table, [BankruptcyStep, DiscardStep, HomeTokenStep,
                                  PlayerCompanyTrade, TrackStep, TokenStep, RouteStep,
                                  DividendStep, BuyTrainStep], number)


def _begin(table, plan: str, number: int):
    """Operating round ``number``; or, after a set, the stock round or the auction."""
    if plan == "operating":
        return sequence.operating_round(table, _operating_round, number)
    table.state.turn += 1
    if plan == "stock":
        return sequence.stock_round(table, _stock_round)
    return DraftRound(table, [PackageAuction])


# -- phase events ---------------------------------------------------------------------------


def _remove_tile_block(table) -> None:
    """N5 and P5 may be built on from the 3-train on (4.3)."""
    table.log("The tile block in N5 and P5 is now removed")
    for hex_id in data.TILE_BLOCK:
        table.state.hexes[hex_id].icons = []


def _fdsd_closes(table) -> None:
    """FdSD closes after the first stock round of phase 5 (its owner may still use it)."""
    if not table.company("FdSD").closed:
        notes(table).fdsd_to_close = True


def _eva_closes(table) -> None:
    """EVA closes when the first 6-train is bought."""
    table.log("EVA (Eisenbahnverkehrsmittel Aktiengesellschaft) closed")
    powers.close_company(table, table.company("EVA"))


class Cologne(Variant):
    events = {
        "remove_tile_block": _remove_tile_block,
        "agv_buyable": lambda table: _open_at_120(table, "AGV", True),
        "agv_founded": lambda table: _formed_next(table, "AGV"),
        "hgk_buyable": lambda table: _open_at_120(table, "HGK", False),
        "hgk_founded": lambda table: _formed_next(table, "HGK"),
        "fdsd_closed": _fdsd_closes,
        "eva_closed": _eva_closes,
    }

    def set_up(self, table) -> None:
        """The bank holds the package; the certificates AGV and HGK give for the minors
        are kept back (1.2)."""
        state = table.state
        state.title = CologneNotes()
        for sym, parts in data.FORMATIONS.items():
            for _, index in parts:
                table.corporation(sym).certificates[index].buyable = False
        for c in state.companies:
            c.owner = state.bank
            state.bank.companies.append(c)

    def first_round(self, table):
        """The game opens with the draft of the starting package (1.3)."""
        return DraftRound(table, [PackageDraft])

    def next_round(self, table):
        """The draft is followed by operating rounds, or by the first stock round if at
        most one of its items is left (1.3); a stock round by its set of operating rounds;
        the set by the next stock round, or first by the auction of what is left of the
        package. While HGK has not formed, a merger round comes before each operating
        round and before what follows the set (5)."""
        r, state, n = table.round, table.state, notes(table)
        if isinstance(r, MergerRound):
            return _begin(table, *n.after_merger)
        if isinstance(r, DraftRound):
            self.priority_after_draft(table)
            if sum(1 for c in companies.bank_offer(table) if c.spec.stack is None) <= 1:
                return sequence.stock_round(table, _stock_round)
            return sequence.operating_round(table, _operating_round)
        merging = not operators.has_floated(table, table.corporation("HGK"))
        if r.is_stock:
            state.operating_rounds = table.phase.operating_rounds
            sequence.reorder_players(table)
            plan = ("operating", 1)
        elif r.number < state.operating_rounds:
            plan = ("operating", r.number + 1)
        else:
            plan = ("auction", 0) if merging and draftable(table) else ("stock", 0)
        if not merging:
            return _begin(table, *plan)
        n.after_merger = plan
        return MergerRound(table, [OptionalDiscard, Vote])

    def priority_after_draft(self, table) -> None:
        """After the draft the priority goes to the player after the last buyer; if all
        passed, to the first to pass (1.3)."""
        passers = notes(table).passers
        if len(passers) < len(table.state.players):
            return sequence.reorder_players(table)
        sequence.rotate_to(table, passers[0])
        table.log(f"{passers[0].name} has priority deal due to being first to pass")

    def may_start(self, table, corporation, player) -> bool:
        """Not once started; FdSD may pay for starting RAG; otherwise a player needs 120."""
        if corporation.started:
            return False
        if corporation.sym == "RAG" and player is table.company("FdSD").owner:
            return True
        if player.cash < 120:
            return False
        return super().may_start(table, corporation, player)

    def start_cells(self, table, corporation, player) -> list:
        """The cells at 120 are kept for AGV and HGK (5.1)."""
        return [c for c in super().start_cells(table, corporation, player) if c.price != 120]

    def may_upgrade(self, table, hex_id, old, new, special=False) -> bool:
        """Leverkusen's yellow becomes only the green city; N5, P5 wait for the 3-train
        (4.2-4.3)."""
        if old.tile.color == "yellow" and hex_id == data.LEVERKUSEN:
            return new.name == data.LEVERKUSEN_GREEN_TILE
        if hex_id in data.TILE_BLOCK and table.state.hexes[hex_id].icons:
            raise GameError(f"cannot place a tile in {hex_id} until the green phase")
        return super().may_upgrade(table, hex_id, old, new, special)

    def upgrades(self, table, hex_id, old, tiles, special=False) -> list:
        """:meth:`may_upgrade` of each of ``tiles``, the hex's rules asked once: on
        Leverkusen's yellow the green city alone; on N5, P5 before the 3-train none (the
        refusal of the first tile ends the list); otherwise the common rule."""
        if old.tile.color == "yellow" and hex_id == data.LEVERKUSEN:
            return [t for t in tiles if t.name == data.LEVERKUSEN_GREEN_TILE]
        if hex_id in data.TILE_BLOCK and table.state.hexes[hex_id].icons:
            return []
        return super().upgrades(table, hex_id, old, tiles, special)

    def rotations_on_hex(self, table, hex_id, tile) -> tuple:
        """Leverkusen's green city may lie any way (4.2)."""
        if hex_id == data.LEVERKUSEN and tile.name == data.LEVERKUSEN_GREEN_TILE:
            return tuple(range(6))
        return super().rotations_on_hex(table, hex_id, tile)

    def rotation_allowed(self, table, operator, hex_id, new, sides_reached, facts=None) -> bool:
        """Leverkusen's green city may lie any way; in phase 2 no track crosses the Rhine
        at Köln and Bonn (4.2, 4.4)."""
        if hex_id == data.LEVERKUSEN and new.tile.name == data.LEVERKUSEN_GREEN_TILE:
            return True
        if hex_id in data.RHINE_PASSAGE and table.phase_has("rhine_impassable"):
            h = table.state.hexes[hex_id]
            if any(b.side in new.exits for b in h.borders if b.kind == "water"):
                return False
        return super().rotation_allowed(table, operator, hex_id, new, sides_reached)


SETTINGS = Settings(currency="{}M", sale_movement=SaleMovement.DOWN_PER_SALE,
                    sale_timing=SaleTiming.AFTER_IT_OPERATED, trade_order=TradeOrder.SELL_THEN_BUY,
                    shares_start_in_market=True, market_shares_pay=False, minors_run_trains=True,
                    owner_pays_minor_first_train=True, minor_trains_to_corporations=False,
                    trade_ins_per_turn=1, minor_dividend=MinorDividend.HALF,
                    sales_in_first_stock_round=False, cash_secret=True)

TITLE = Title("1893", (2, 4), SETTINGS, data.title_data, Cologne, data.OPTIONAL_RULES)
