"""Corporations acting on their own shares and on private companies' special powers."""

from __future__ import annotations

from ..errors import GameError
from ..step import Step


class IssueShares(Step):
    """A corporation issues shares from its treasury to the market (``sell_shares``) or
    redeems shares from the market (``buy_shares``)."""

    type = "issue_shares"

    def actions(self, entity):
        if not entity.is_corporation or entity is not self.current_entity():
            return []
        out = []
        if self.redeemable_shares(entity):
            out.append("buy_shares")
        if self.issuable_shares(entity):
            out.append("sell_shares")
        if self.blocks() and out:
            out.append("pass")
        return out

    def description(self) -> str:
        return "Issue or Redeem Shares"

    def issuable_shares(self, entity) -> list:
        return self.game.issuable_shares(entity)

    def redeemable_shares(self, entity) -> list:
        return self.game.redeemable_shares(entity)

    @staticmethod
    def _same(bundle, options) -> bool:
        ids = sorted(s.id for s in bundle.shares)
        return any(sorted(s.id for s in b.shares) == ids and b.percent == bundle.percent
                   for b in options)

    def process_sell_shares(self, action) -> None:
        if not self._same(action.bundle, self.issuable_shares(action.entity)):
            raise GameError(f"{action.entity.name} cannot issue those shares")
        self.game.share_pool.sell_shares(action.bundle)
        self.pass_()

    def process_buy_shares(self, action) -> None:
        if not self._same(action.bundle, self.redeemable_shares(action.entity)):
            raise GameError(f"{action.entity.name} cannot redeem those shares")
        self.game.share_pool.buy_shares(action.entity, action.bundle)
        self.pass_()


class Assign(Step):
    """A private company's power to mark a hex (or a corporation), e.g. a port bonus."""

    type = "assign"

    def actions(self, entity):
        if not entity.is_company:
            return []
        game = self.game
        if game.abilities(entity, "assign_hexes") or game.abilities(entity, "assign_corporation"):
            return ["assign"]
        return []

    def blocks(self) -> bool:
        return False

    def description(self) -> str:
        return "Assign"

    def assignable_corporations(self, company=None) -> list:
        key = company.id if company is not None else None
        return [c for c in self.game.corporations if c.floated() and key not in c.assignments]

    def process_assign(self, action) -> None:
        game = self.game
        company = action.entity
        target = action.target
        if target is None:
            raise GameError(f"say what to assign {company.name} to")
        if company.id in target.assignments:
            raise GameError(f"{company.name} is already assigned to {target.name}")
        ability = None
        if hasattr(target, "tile"):
            found = game.abilities(company, "assign_hexes")
            if not found:
                raise GameError(f"{company.name} cannot be assigned to a hex now")
            ability = found[0]
            if target.id not in ability.hexes:
                raise GameError(f"{company.name} cannot be assigned to {target.id}")
            for h in ability.hexes:
                hx = game.hex_by_id(h)
                if hx is not None:
                    hx.assignments.pop(company.id, None)
            target.assignments[company.id] = True
            ability.use()
        elif target.is_corporation or target.is_minor:
            found = game.abilities(company, "assign_corporation")
            if not found or target not in self.assignable_corporations(company):
                raise GameError(f"{company.name} cannot be assigned to {target.name}")
            ability = found[0]
            for c in self.assignable_corporations():
                c.assignments.pop(company.id, None)
            target.assignments[company.id] = True
            ability.use()
        else:
            raise GameError(f"cannot assign {company.name} to {target}")
        game.log(f"{company.name} is assigned to {getattr(target, 'name', target)}")
        if ability.count == 0 and ability.opts.get("closed_when_used_up"):
            company.close()
