"""The Old Prince 1871 — setting up a game: what is drawn from the seed, and where the
pieces stand before the auction (rules "Příprava hry").

* Two of the seven numbered corporations are drawn as the Mainline (started at 92, its
  station on its home, floating at 50%) and the Shortline (started at 86, its station on
  its home, its last three certificates kept for the exchange privates); a third gives
  the Union Bank its second share.
* The other five homes carry PEIR stations, and each has a PEIR card (P1-P7) in the
  auction, which brings one of the PEIR's five shares.
* Every buyable certificate lies in the market from the start: there is no IPO.
* The Union Bank sits as a partner of its own (player -1) with certificate 8 of the
  Mainline and of the third corporation drawn; the PEIR has $200 and the King's Mail.
"""

from __future__ import annotations

from dataclasses import replace

from ...rules import board, certificates, market, money, tokens
from ...rules.certificates import Bundle
from ...state.model import PlayerState
from . import data
from .notes import OldPrinceNotes, notes

UNION_BANK_ID = -1


def draw(table, corporations: list) -> list:
    """Shuffle the numbered corporations with the seed: the first two drawn are the
    Mainline and the Shortline, the third the Union Bank's; the corporations are then
    listed Mainline, Shortline, the other five by number, the PEIR, the branches. (The
    draw is the game's first use of the seed, so the title's notes begin here.)"""
    numbered = {c.sym for c in data.NUMBERED}
    drawn = table.state.rng.shuffled([c for c in corporations if c.sym in numbered])
    rest = sorted(drawn[2:], key=lambda c: data.NUMBERS[c.sym])
    n = OldPrinceNotes(mainline=drawn[0], shortline=drawn[1], drawn=drawn[2])
    table.state.title = n
    others = [c for c in corporations if c.sym not in numbered]
    return drawn[:2] + rest + others


def peir_cards_unused(table) -> list:
    """The PEIR cards of the Mainline and the Shortline, which are not in the game."""
    n = notes(table)
    return [f"P{data.NUMBERS[c.sym]}" for c in (n.mainline, n.shortline)]


def set_up(table) -> None:
    """See the module docstring."""
    state, n = table.state, notes(table)
    peir = table.corporation(data.PEIR.sym)
    unused = set(peir_cards_unused(table))
    state.companies = [c for c in state.companies if c.sym not in unused]
    for c in state.companies:
        c.owner = state.bank
        state.bank.companies.append(c)
    n.mainline.spec = replace(n.mainline.spec, float_percent=data.MAINLINE_FLOAT_PERCENT)
    market.start_at(table, n.mainline, data.MAINLINE_PAR)
    market.start_at(table, n.shortline, data.SHORTLINE_PAR)
    for corp in (n.mainline, n.shortline):
        corp.started = True
        home = corp.spec.home
        tokens.place(table, corp, board.view(table, home).cities[0], tokens.next_token(corp))
    n.tranches = [[n.mainline, n.shortline]] + [[None] * size for size in data.TRANCHES[1:]]
    peir_tokens = iter(peir.tokens)
    numbered = [c for c in state.corporations if c.sym in data.NUMBERS]
    for corp in numbered:
        if corp in (n.mainline, n.shortline):
            continue
        board.unreserve(table, corp.spec.home, corp)
        tokens.place(table, peir, board.view(table, corp.spec.home).cities[0],
                     next(peir_tokens))
    for i, corp in enumerate(sorted((c for c in numbered if c not in (n.mainline, n.shortline)),
                                    key=lambda c: data.NUMBERS[c.sym])):
        n.peir_certificates[f"P{data.NUMBERS[corp.sym]}"] = peir.certificates[i]
    for cert in n.shortline.certificates[-len(data.SHORTLINE_EXCHANGE_CERTIFICATES):]:
        cert.buyable = False
    king = table.company("KM")
    state.bank.companies.remove(king)
    king.owner = peir
    peir.companies.append(king)
    money.pay(table, state.bank, peir, data.PEIR_STARTING_CASH)
    for corp in state.corporations:
        certs = [c for c in corp.certificates if c.buyable and c.owner is corp]
        if certs:
            certificates.change_hands(table, Bundle.whole(certs), state.market, price=0,
                                      presidency_may_change=False)
    bank_seat = PlayerState(UNION_BANK_ID, "Union Bank")
    state.players.append(bank_seat)
    n.union_bank = bank_seat
    for which, index in data.UNION_BANK_CERTIFICATES:
        corp = n.mainline if which == "mainline" else n.drawn
        certificates.change_hands(table, Bundle.whole([corp.certificates[index]]), bank_seat,
                                  price=0, presidency_may_change=False)
    table.forget_index()
    table.log(f"Mainline: {n.mainline.spec.name} ({n.mainline.sym})")
    table.log(f"Shortline: {n.shortline.spec.name} ({n.shortline.sym})")
    table.log(f"Union Bank Share: {n.drawn.spec.name} ({n.drawn.sym})")


def seats(table) -> list:
    """The players who take turns: all but the Union Bank and the bankrupt."""
    bank_seat = notes(table).union_bank
    return [p for p in table.state.players if p is not bank_seat and not p.bankrupt]
