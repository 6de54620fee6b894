"""The Old Prince 1871 — what comes with a private or a PEIR card, and what happens when a
numbered corporation floats (rules "PEIR").

* ML and SL bring the president's certificate of the Mainline and the Shortline (their
  buyer presides at once), RA and RF a Mainline share.
* A PEIR card brings one of the PEIR's shares. The PEIR is run by the player with most
  of its shares; between equals, by the holder of the lowest numbered share.
* When a numbered corporation floats, its station replaces the PEIR's on its home, its
  PEIR card closes, its owner takes the corporation's first share from the market for
  the PEIR share, and the PEIR's remaining shares are rebalanced to equal parts (when
  none is left, the PEIR and the King's Mail close, its trains leave the game).
"""

from __future__ import annotations

from ...rules import board, certificates, money, operators, powers, tokens, trains
from ...rules.certificates import Bundle
from ...state.model import PlayerState
from . import data
from .notes import notes


def peir(table):
    return table.corporation("PEIR")


def company_bought(table, player, company) -> None:
    """See the module docstring."""
    for p in powers.powers(table, company, "shares"):
        cert = table.find("share", p.certificate)
        if cert is None:
            continue
        if cert.president:
            cert.corporation.owner = player
            table.log(f"{player.name} becomes the president of {cert.corporation.name}")
        receive(table, player, cert)
    share = notes(table).peir_certificates.get(company.sym)
    if share is not None:
        certificates.change_hands(table, Bundle.whole([share]), player, price=0,
                                  presidency_may_change=False)
        peir(table).owner = peir_operator(table)


def receive(table, player, cert, *, presidency_may_change: bool = False) -> None:
    """A certificate given for a private; the corporation may float by it. One that comes
    with a private bought never moves the presidency (the concession's buyer presides,
    not whoever two Mainline shares would make president); one taken in exchange for a
    private may, as any share gained."""
    corporation = cert.corporation
    was = corporation.floated or operators.float_condition(table, corporation)
    certificates.change_hands(table, Bundle.whole([cert]), player, price=0,
                              presidency_may_change=presidency_may_change)
    if not was and operators.has_floated(table, corporation):
        operators.receive_capital(table, corporation)
        floated(table, corporation)


def peir_operator(table):
    """The player with most PEIR shares; between equals, the one holding the lowest."""
    corp = peir(table)
    holdings = {h: pct for h, pct in corp.holders.items()
                if isinstance(h, PlayerState) and pct > 0}
    if not holdings:
        return None
    top = max(holdings.values())
    leaders = [h for h, pct in holdings.items() if pct == top]
    return min(leaders, key=lambda h: min(c.index for c in certificates.held(h, corp)))


def floated(table, corporation) -> None:
    """See the module docstring: a numbered corporation with a PEIR card has floated."""
    number = data.NUMBERS.get(corporation.sym)
    card = table.company(f"P{number}") if number else None
    if card is None or card.closed:
        return
    corp_peir = peir(table)
    home = corporation.spec.home
    for token in list(corp_peir.tokens):
        if token.where is not None and token.where[0] == home:
            board.lift_token(table, token)
            corp_peir.tokens.remove(token)
    tokens.place(table, corporation, board.view(table, home).cities[0],
                 tokens.next_token(corporation))
    owner = card.owner
    table.log(f"Closing {card.name}")
    powers.close_company(table, card)
    table.log(f"Exchanging {owner.name}'s PEIR share for {corporation.spec.name}")
    share = notes(table).peir_certificates.pop(card.sym)
    drop_share(table, share)
    first = certificates.held(table.state.market, corporation)
    if first:
        certificates.change_hands(table, Bundle.whole([first[0]]), owner, price=0)
    rebalance(table)


def drop_share(table, cert) -> None:
    """A PEIR share leaves the game."""
    corp, holder = cert.corporation, cert.owner
    pile = holder.shares.get(corp.sym, [])
    if cert in pile:
        pile.remove(cert)
    corp.holders[holder] = corp.holders.get(holder, 0) - cert.percent
    corp.certificates.remove(cert)
    cert.owner = None
    table.forget_index()


def rebalance(table) -> None:
    """The PEIR's remaining shares become equal parts of it; without any, it closes."""
    corp = peir(table)
    left = [c for c in corp.certificates]
    if not left:
        return close_peir(table)
    percent = 100 // len(left)
    corp.holders = {}
    for cert in left:
        cert.percent = percent
        corp.holders[cert.owner] = corp.holders.get(cert.owner, 0) + percent
    corp.owner = peir_operator(table)


def close_peir(table) -> None:
    corp = peir(table)
    king = table.company("KM")
    if not king.closed:
        powers.close_company(table, king)
    table.log("Closing the PEIR")
    if corp.cash:
        money.pay(table, corp, table.state.bank, corp.cash)
    for train in list(corp.trains):
        trains.rust(table, train)
    table.variant.close_corporation(table, corp)
