"""1893: Cologne — the rules in which it differs (rulebook sections in brackets).

Its data and settings declare what it shares with other titles: minors paying half to
their owner and running trains they need not own (the owner helping with the first),
shares going to the market at a start and paying nothing there, one trade-in per turn,
no trains between companies in phase 2 nor from a minor to a corporation, bonds, EVA
traded between players, and AGV and HGK formed from minors (``rules.formation``). Here:

* The starting package is drafted at face value, only the two lowest minors on offer at
  a time; the rest is auctioned at falling prices before a later stock round (1.3).
* In the first stock round nobody sells, and a player who passed is out of it (6).
* FdSD may be exchanged for 20% of RAG, or pay for parring it (2.1).
* AGV and HGK open for sale at 120 (a price kept for them) from phase 4 and 5, form by
  shareholder vote in merger rounds, or by themselves a phase later (5).
* Until the 3-train no track crosses the Rhine at Köln (L5) or Bonn (S6), and N5 and P5
  take no tile; Leverkusen's two towns become one city in green, turned any way (4).
"""

from __future__ import annotations

from typing import Iterator

from ...actions import new_action
from ...errors import GameError
from ...rules import certificates, companies, formation, market, money, operators, powers, \
    trading
from ...rules.variant import Variant
from ...spec.settings import MinorDividend, SaleMovement, SaleTiming, Settings, TradeOrder
from ...state.model import PlayerState
from ...title import Title
from ...turns import sequence, trades
from ...turns.companies import PlayerCompanyTrade
from ...turns.draft import FaceValueDraft, FallingPriceAuction
from ...turns.mergers import OptionalDiscard, Vote, VoteRound
from ...turns.operating import DividendStep, HomeTokenStep, RouteStep, TokenStep, TrackStep
from ...turns.round import DraftRound, OperatingRound, StockRound
from ...turns.stock import StockTurn, one_of_each_size
from ...turns.step import Kinds, handles
from ...turns.trains import BankruptcyStep, BuyTrainStep, DiscardStep
from . import data
from .notes import CologneNotes, notes


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


# -- stock rounds (6) -------------------------------------------------------------------------


class CologneStockTurn(StockTurn):
    """A stock round turn of 1893: the first stock round's restrictions, FdSD, and minors'
    cards bought as ``buy_corporation`` too. As on 18xx.games, a player over a limit may
    also buy from the bank, exchange FdSD, or pass where they could sell a bond."""

    rag_par = None        # the par of RAG by the owner of FdSD, while FdSD may pay for it

    def kinds(self, entity):
        """FdSD's exchange, FdSD paying for RAG's par, and 18xx.games' extras."""
        if not isinstance(entity, PlayerState):
            fdsd = entity is self.table.company("FdSD") and entity.owner is self.actor()
            return ("buy_shares", "pass") if fdsd and self.table.corporation("RAG").started else ()
        if self.out_of_first_round(entity):
            return ()
        if self.fdsd_to_pay(entity):
            return ("assign", "pass")
        if entity is not self.actor():
            return ()
        return Kinds(self.kinds_in_turn(entity),   # (some kind: a trade, or FdSD's exchange)
                     some=lambda: self.some_trade(entity) or self.may_exchange(entity),
                     rules={"sell_shares": lambda: self.may_sell_some(entity)})

    def kinds_in_turn(self, entity) -> Iterator[str]:
        """A stock turn's kinds, then: buying a company from the bank even when only
        selling otherwise; FdSD's exchange; a minor's card with any company; passing
        with anything but selling shares (each kind once, in order)."""
        must_sell = self.must_sell(entity)
        seen = []
        for kind in self.turn_kinds(entity, must_sell):   # (never buy_company if must_sell)
            seen.append(kind)
            yield kind
        more = ["buy_company"] if must_sell and trades.companies_from_bank(self, entity) else []
        if "buy_shares" not in seen and self.may_exchange(entity):
            more.append("buy_shares")
        if "buy_company" in seen + more:
            more.append("buy_corporation")
        if "pass" not in seen and any(k != "sell_shares" for k in seen + more):
            more.append("pass")
        yield from more

    def out_of_first_round(self, player) -> bool:
        """A player who passed in the first stock round is out of it."""
        return self.table.turn == 1 and player in notes(self.table).passers

    @handles("pass")
    def decline(self, action):
        """Passing in the first stock round puts the player out of it (6)."""
        commit = super().decline(action)

        def then() -> None:
            if self.table.turn == 1:
                notes(self.table).passers.append(action.entity)
            commit()
        return then

    @handles("buy_corporation")
    def buy_minor(self, action):
        """18xx.games records buying a minor's card in a stock round so."""
        card = self.table.company(action.get("minor") or "")
        if card is None or card.spec.minor is None:
            raise GameError("buy_corporation needs a minor")
        action.company, action.price = card, action.get("price")
        return self.buy_company(action)

    # -- FdSD (2.1) -------------------------------------------------------------------------

    def fdsd(self, player):
        """FdSD, if ``player`` owns it and it is open."""
        fdsd = self.table.company("FdSD")
        return fdsd if not fdsd.closed and fdsd.owner is player else None

    def rag_by_fdsd(self, player, corporation) -> bool:
        """Is ``corporation`` RAG, which ``player`` may par with FdSD's help (2.1)?"""
        return corporation.sym == "RAG" and self.fdsd(player) is not None

    def may_exchange(self, player) -> bool:
        """FdSD for RAG shares from the market, instead of a purchase: in its owner's own
        stock turn (an exchange is the turn's purchase; 18xx.games: "owning player's SR
        turn")."""
        return player is self.actor() and not self.out_of_first_round(player) and \
            not self.bought() and \
            self.fdsd(player) is not None and \
            operators.shares_in_market(self.table, self.table.corporation("RAG")) > 0

    def fdsd_to_pay(self, player) -> list:
        """FdSD, while its owner is parring RAG and may let it pay."""
        paying = self.rag_par is not None and self.rag_par.entity is player
        return [self.fdsd(player)] if paying and self.fdsd(player) else []

    def may_buy(self, entity, bundle) -> bool:
        """The owner of FdSD may take RAG's president's certificate without cash."""
        if bundle is not None and self.rag_by_fdsd(entity, bundle.corporation) and \
                not self.bought():
            return True
        return super().may_buy(entity, bundle)

    def may_take(self, entity, bundle, exchange=False) -> bool:
        """Only RAG's shares come by an exchange (of FdSD)."""
        if exchange and not self.rag_by_fdsd(entity, bundle.corporation):
            return False
        return super().may_take(entity, bundle, exchange)

    def start_prices(self, entity, corporation) -> list:
        """The owner of FdSD may par RAG at any price (FdSD may pay for it)."""
        if self.rag_by_fdsd(entity, corporation):
            return self.table.variant.start_cells(self.table, corporation, entity)
        return super().start_prices(entity, corporation)

    def mark_done(self) -> None:
        """Ending the turn while FdSD may pay for RAG's par: the owner pays."""
        if self.rag_par is not None:
            self.table.log(f"{self.rag_par.entity.name} declines to exchange FdSD")
            return self.start_rag(self.rag_par)
        super().mark_done()

    @handles("par")
    def start(self, action):
        """Parring RAG with FdSD: if the owner cannot pay, FdSD pays at once;
        else they choose (``assign`` FdSD, or pass)."""
        self.check_start(action.entity, action.corporation, action.cell)
        if not self.rag_by_fdsd(action.entity, action.corporation):
            return super().start(action)

        def commit() -> None:
            self.rag_par = action
            if action.entity.cash < action.cell.price * 2:
                return self.pay_with_fdsd()
            self.table.log(f"{action.entity.name} may pay for par by exchanging FdSD")
        return commit

    @handles("assign")
    def assign(self, action):
        """The owner lets FdSD pay for RAG's par."""
        if self.rag_par is None:
            raise GameError("nothing to assign")
        return self.pay_with_fdsd

    def pay_with_fdsd(self) -> None:
        """FdSD closes, and the bank pays its owner the price of the president's
        certificate of RAG."""
        player = self.rag_par.entity
        close_fdsd(self.table)
        money.pay(self.table, self.table.state.bank, player, self.rag_par.cell.price * 2)
        self.start_rag(self.rag_par)

    def start_rag(self, action) -> None:
        """RAG starts at the price chosen."""
        self.check_start(action.entity, action.corporation, action.cell)
        self.begin_corporation(action, action.entity, action.corporation, action.cell)
        self.rag_par = None

    @handles("buy_shares")
    def buy(self, action):
        """FdSD buying is its exchange; FdSD due to close closes after a purchase."""
        entity = action.entity
        if not isinstance(entity, PlayerState):
            return self.exchange_fdsd(action)
        commit = super().buy(action)

        def then() -> None:
            commit()
            if notes(self.table).fdsd_to_close and self.table.company("FdSD").owner is entity:
                close_fdsd(self.table)
        return then

    def exchange_fdsd(self, action):
        """FdSD is exchanged for two 10% RAG shares from the market (or the one left)."""
        table = self.table
        company, bundle, rag = action.entity, action.bundle, table.corporation("RAG")
        if company is not table.company("FdSD") or not self.may_exchange(company.owner):
            raise GameError(f"{company.name} cannot be exchanged now")
        if bundle.corporation is not rag or bundle.owner is not table.state.market:
            raise GameError("FdSD is exchanged for RAG shares from the market")

        def commit() -> None:
            taken = bundle
            if operators.shares_in_market(table, rag) > 1:
                two = next((b for b in trading.growing_bundles(table, table.state.market, rag)
                            if round(b.shares) == 2), None)
                taken = two or bundle
            player = company.owner
            close_fdsd(table)
            trading.buy(table, player, taken, exchange=True)
            self.note(action, rag)
        return commit

    def candidates(self, entity, kind, offer) -> list:
        """FdSD's exchanges (one per share size), FdSD paying for RAG's par."""
        table = self.table
        if kind == "buy_shares" and not isinstance(entity, PlayerState):
            rag = table.corporation("RAG")
            return [new_action("buy_shares", entity, shares=[c.id], percent=c.percent)
                    for c in one_of_each_size(certificates.held(table.state.market, rag))]
        if kind == "assign":
            return [new_action("assign", entity, target=c.sym, target_type="company")
                    for c in self.fdsd_to_pay(entity)]
        return super().candidates(entity, kind, offer)


def close_fdsd(table) -> None:
    powers.close_company(table, table.company("FdSD"))
    table.log("Fond der Stadt Düsseldorf closed")
    notes(table).fdsd_to_close = False


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
    upgrades = Variant.upgrades_each    # its own upgrade rule, tile by tile (may_upgrade)

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
        """Leverkusen's yellow becomes only the green city; N5, P5 wait for the 3-train (4.2-4.3)."""
        if old.tile.color == "yellow" and hex_id == data.LEVERKUSEN:
            return new.name == data.LEVERKUSEN_GREEN_TILE
        if hex_id in data.TILE_BLOCK and table.state.hexes[hex_id].icons:
            raise GameError(f"cannot place a tile in {hex_id} until the green phase")
        return super().may_upgrade(table, hex_id, old, new, special)

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
        if table.phase_has("rhine_impassable") and hex_id in data.RHINE_PASSAGE:
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
