"""How an auction stands, for a person deciding a bid: each item on offer (a private
company, or an 1817 corporation being founded or acquired), the bids on it, who leads and
what the next bid must be at least — as the page and the terminal show it.

Each kind of auction keeps its bids its own way (the waterfall auction of 1849, 1817's
open auctions, 1871's piles, 1893's draft and falling prices); :func:`auction_standing`
reads the one running."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from ..rules.table import Table
from ..titles.family1817.acquisition import Acquire
from ..titles.family1817.auction import OpenAuction, PrivateAuction
from ..titles.family1817.founding import FoundingTurn
from ..titles.old_prince.auction import PileAuction
from ..turns.auction import WaterfallAuction
from ..turns.draft import FaceValueDraft, FallingPriceAuction


@dataclass
class Standing:
    """One item of an auction: its ``bids`` as (player, price), highest first."""
    item: object
    bids: List[Tuple[object, int]] = field(default_factory=list)
    price: Optional[int] = None          # what it sells for now, where the price is fixed
    note: str = ""

    @property
    def leader(self):
        return self.bids[0][0] if self.bids else None

    @property
    def top(self) -> Optional[int]:
        return self.bids[0][1] if self.bids else None


def auction_standing(table: Table) -> List[Standing]:
    """The items of the auction running now (none outside an auction)."""
    step = table.round.active_step()
    if isinstance(step, WaterfallAuction):
        return [Standing(c, sorted(((b.player, b.price) for b in step.bids.get(c) or ()),
                                   key=lambda b: -b[1]),
                         c.value - c.discount if step.for_sale_now(c) else None,
                         "for sale at face value now" if step.for_sale_now(c) else "")
                for c in step.companies]
    if isinstance(step, PrivateAuction):
        if step.auction is not None:
            return [_open(step.auction, "")]
        return [Standing(c, note=f"first bid at least {table.money(step.first_bid(c))}")
                for c in step.left]
    if isinstance(step, FoundingTurn) and step.founding.auction is not None:
        return [_open(step.founding.auction, "founding")]
    if isinstance(step, Acquire) and step.auction is not None:
        return [_open(step.auction, "acquisition")]
    if isinstance(step, PileAuction) and step.lot is not None:
        lot = step.lot
        return [Standing(lot.company, sorted(lot.bids, key=lambda b: -b[1]),
                         note=f"offered by {lot.offerer.name}; bidders "
                              f"{lot.bidders[0].name} and {lot.bidders[1].name}; "
                              f"{lot.taker.name} must take it at "
                              f"{table.money(lot.company.value)} if nobody bids")]
    if isinstance(step, FallingPriceAuction):
        return [Standing(c, price=step.price(c),
                         note="picked for auction" if c is step.item else "")
                for c in step.for_sale()]
    if isinstance(step, FaceValueDraft):
        return [Standing(c, price=c.value) for c in step.offer()]
    return []


def _open(auction: OpenAuction, what: str) -> Standing:
    bids = sorted(auction.bids.items(), key=lambda b: -b[1])
    still = ", ".join(p.name for p in auction.bidders)
    opened = f" opened by {auction.opener.name}" if auction.opener is not None else ""
    kind = f"{what} auction" if what else "auction"
    return Standing(auction.item, bids, note=f"{kind}{opened}; still bidding: {still}")
