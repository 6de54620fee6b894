"""What follows from a move in a worked example, told after the move itself: the round
ending and the next beginning, private companies paying their owners, corporations
floating (with their capital), companies changing hands or closing, presidencies, home
stations, operators that earned without a dividend decision (a minor sharing its revenue
half and half, a company without a route), share prices moving and why, and a new phase
with what it brings. Then each purse the move changed, as a sum (:func:`purses`), and,
at the end of the example, what comes next (:func:`look_ahead`)."""

from __future__ import annotations

import re
from typing import Callable, List, Optional, Tuple

from ..spec.settings import MinorDividend
from .arith import Line, Value, count, ledger, line, money, product, quotient
from .facts import listing, plural, train_limit
from .moments import Context, Flow, Holder, Moment, actor_purse, delta, new_tokens
from .notes import event_text
from .texts import POOL_DROP, SALE_MOVEMENT

OTHER = "other"


def _round_change(m: Moment, ctx: Context, out: List[Line]) -> None:
    if m.round_after == m.taken_in:
        return
    why = " (every player has passed in a row)" if m.taken_in.startswith("Stock Round") \
        else ""
    out.append(line(f"{m.taken_in} ends{why}; {m.round_after} begins."))


def _income(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> None:
    """Private companies pay their owners as an operating round begins."""
    if m.round_after == m.taken_in or not m.round_after.startswith("Operating Round"):
        return
    parts: List = []
    for pid, p in m.after["players"].items():
        for sym in p["companies"]:
            company = ctx.table.company(sym)
            revenue = company.spec.revenue if company is not None else 0
            if revenue:
                flows.append(Flow(("cash", pid), revenue, f"income from {sym}"))
                parts.append(f"{ctx.name(pid)} {ctx.money(revenue)} from {sym}")
    if parts:
        out.append(line("Private companies pay their owners first: " + "; ".join(parts) + "."))
    for sym in list(m.after["corporations"]) + list(m.after["minors"]):
        for text in m.messages:
            if text.startswith(f"{sym} collects "):
                amount = _amount(ctx, text)
                if amount:
                    out.append(line(text.rstrip(".") + "."))
                    flows.append(Flow(("treasury", sym), amount,
                                      "income from " + text.split(" from ", 1)[-1]))


def _interest(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> None:
    """Interest a corporation pays on its loans (1817), as the engine's log gives it."""
    for text in m.messages:
        found = re.match(r"(\S+) pays (.+) interest for (\d+) loans?", text)
        if not found or found.group(1) not in m.after["corporations"]:
            continue
        sym, loans = found.group(1), int(found.group(3))
        amount = _amount(ctx, found.group(2))
        if amount is None:
            continue
        per = quotient(money(amount), count(loans))
        out.append(line(f"{sym} pays the interest on its {plural(loans, 'loan')}, "
                        f"{ctx.money(per.result.value)} a loan at this round's rate: ",
                        product(count(loans), per.result), "."))
        flows.append(Flow(("treasury", sym), -amount, "for interest"))


def _floats(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> None:
    for sym, c in m.after["corporations"].items():
        was = m.before["corporations"].get(sym)
        if not c["floated"] or (was is not None and was["floated"]):
            continue
        corp = ctx.table.corporation(sym)
        threshold = corp.spec.float_percent
        holders = [f"{ctx.name(pid)} {p['shares'][sym]}%" for pid, p in m.after["players"].items()
                   if p["shares"].get(sym, 0) > 0]
        text = f"{sym} floats, its {threshold}% reached ({listing(holders)})"
        if ctx.f.settings.capitalization.value == "full" and corp.spec.capitalization in \
                (None, "full") and corp.par is not None:
            par = ctx.table.spec.cells[corp.par].price
            shares = sum(corp.spec.shares) // min(corp.spec.shares)
            calc = product(count(shares), money(par))
            received = delta(m, ctx, ("treasury", sym))
            if calc.result.value == received or received >= calc.result.value:
                out.append(line(text + f"; full capitalisation: the bank pays it its whole "
                                f"capital, {shares} times its par price: ", calc, "."))
                flows.append(Flow(("treasury", sym), int(calc.result.value), "its capital"))
                continue
        out.append(line(text + "."))


def _amount(ctx: Context, text: str) -> Optional[int]:
    """The first amount of money in a line of the engine's log."""
    prefix, _, suffix = ctx.f.settings.currency.partition("{}")
    found = re.search(re.escape(prefix) + r"(\d+)" + re.escape(suffix), text)
    return int(found.group(1)) if found else None


def _bought(m: Moment, ctx: Context, pid: str, sym: str) -> Optional[Tuple[int, str]]:
    """What the engine's log says a player paid for a company they came to own during a
    move not theirs (an auction won when the others passed, a forced purchase)."""
    company = ctx.table.company(sym)
    who = ctx.name(pid)
    for text in m.messages:
        if text.startswith(who + " ") and company is not None and company.name in text:
            amount = _amount(ctx, text[text.index(company.name):])
            if amount is not None:
                how = "a forced purchase" if "forced" in text else "won at auction" \
                    if ("wins" in text or "auction" in text) else "bought"
                return amount, how
    return None


def _hands(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> None:
    """Companies changing hands other than by the move itself, or closing."""
    owned_before = {s: pid for pid, p in m.before["players"].items() for s in p["companies"]}
    owned_after = {s: pid for pid, p in m.after["players"].items() for s in p["companies"]}
    moved = m.pre.get("company")
    for sym, pid in owned_after.items():
        if owned_before.get(sym) != pid and not (sym == moved and pid == m.actor_id and
                                                 m.kind != "pass"):
            paid = _bought(m, ctx, pid, sym)
            if paid is None:
                out.append(line(f"{ctx.name(pid)} now owns {ctx.company(sym)}."))
                continue
            amount, how = paid
            if ctx.bids.get((pid, sym)) == amount:
                how = "at their bid"
            value = ctx.table.company(sym).value
            out.append(line(f"{ctx.name(pid)} now owns {ctx.company(sym)} ({how}) for "
                            f"{ctx.money(amount)}" + (f"; the bank's seed money pays the "
                                                      f"other {ctx.money(value - amount)} "
                                                      f"of its {ctx.money(value)}"
                                                      if ctx.f.data.seed_money and
                                                      amount < value else "") + "."))
            flows.append(Flow(("cash", pid), -amount, f"for {sym}"))
    for sym, pid in owned_before.items():
        if sym not in owned_after:
            company = ctx.table.company(sym)
            if company is not None and f"{company.name} closes" in m.messages:
                out.append(line(f"{ctx.company(sym)} closes."))


def _presidents(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> None:
    for sym, c in m.after["corporations"].items():
        was = m.before["corporations"].get(sym)
        if not c["president"] or (was is not None and was["president"] == c["president"]):
            continue
        who = ctx.name(c["president"])
        won = [t for t in m.messages if t.startswith(f"{who} wins bid on {sym} ")]
        bid = _amount(ctx, won[0]) if won else None
        if bid is None:
            out.append(line(f"{who} is now the president of {sym}, as its biggest "
                            "shareholder."))
            continue
        out.append(line(f"{who} wins the auction for {sym} at {ctx.money(bid)} and is its "
                        "president: the winning bid goes into its treasury, and its share "
                        "price is half the bid: ", quotient(money(bid), count(2)), "."))
        flows.append(Flow(("cash", str(c["president"])), -bid, f"the winning bid for {sym}"))
        flows.append(Flow(("treasury", sym), bid, "the winning bid"))


def _homes(m: Moment, ctx: Context, out: List[Line]) -> None:
    for sym in list(m.after["corporations"]) + list(m.after["minors"]):
        if m.kind == "place_token" and sym == m.actor_id:
            continue
        fee = sym in ctx.f.spec.corporations and ctx.f.spec.corporations[sym].token_fee
        for hex_id in new_tokens(m, sym):
            out.append(line(f"{sym} places its home station in {ctx.place(hex_id)}"
                            + (" (its stations were paid for when it started)." if fee
                               else ", for nothing.")))


def _started(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> None:
    """A corporation started pays for all its stations at once, where the title says so."""
    for sym in m.cells_after:
        if sym in m.cells_before:
            continue
        spec = ctx.f.spec.corporations.get(sym)
        if spec is not None and spec.token_fee:
            out.append(line(f"{sym} pays {ctx.money(spec.token_fee)} for its "
                            f"{plural(len(spec.tokens), 'station')} as it starts."))
            flows.append(Flow(("treasury", sym), -spec.token_fee, "for its stations"))


def _operations(m: Moment, ctx: Context, out: List[Line], flows: List[Flow],
                share_out: Callable) -> None:
    """Operators that earned during a move that was not their dividend decision."""
    for sym, done in m.operated.items():
        if m.kind == "dividend" and sym == m.actor_id:
            continue
        if done.revenue == 0:
            out.append(line(f"{sym} has no route to run: it earns nothing this turn."))
            continue
        minor = m.after["minors"].get(sym)
        if minor is not None and ctx.f.settings.minor_dividend is MinorDividend.HALF:
            half = done.revenue // 2
            owner = str(minor["owner"])
            out.append(line("A minor always pays half its revenue to its owner and keeps "
                            "the rest: ", quotient(money(done.revenue), count(2)),
                            f" to {ctx.name(owner)}, {ctx.money(done.revenue - half)} to "
                            f"{sym}'s treasury."))
            flows.append(Flow(("cash", owner), half, f"half of {sym}'s revenue"))
            flows.append(Flow(("treasury", sym), done.revenue - half, "half its revenue"))
            continue
        share_out(m, ctx, sym, done.kind, done.revenue, out, flows)


def _direction(ctx: Context, old: Tuple[int, int], new: Tuple[int, int]) -> str:
    (r0, c0), (r1, c1) = old, new
    one_row = ctx.f.spec.one_row_market
    words = []
    if c1 != c0:
        n = abs(c1 - c0)
        unit = "cell" if one_row else "column"
        words.append(f"{n if n > 1 else 'one'} {unit}{'s' if n > 1 else ''} "
                     f"{'right' if c1 > c0 else 'left'}")
    if r1 != r0:
        n = abs(r1 - r0)
        words.append(f"{n if n > 1 else 'one'} row{'s' if n > 1 else ''} "
                     f"{'down' if r1 > r0 else 'up'}")
    return " and ".join(words)


def _why_price(m: Moment, ctx: Context, sym: str) -> str:
    done = m.operated.get(sym)
    if done is not None:
        if done.revenue == 0:
            return "it earned nothing"
        return {"payout": f"it paid out {ctx.money(done.revenue)}",
                "withhold": "it withheld", "half": "it paid half"}.get(done.kind, "")
    if m.kind == "sell_shares":
        return SALE_MOVEMENT[ctx.f.settings.sale_movement].rstrip(".").lower()
    if m.kind in ("take_loan", "payoff_loan"):
        return "each loan taken moves the price one cell left, each repaid one right"
    if m.taken_in.startswith("Stock Round") and m.round_after != m.taken_in:
        drop = POOL_DROP[ctx.f.settings.pool_drop]
        return "at the end of the stock round a sold-out corporation rises" + \
            (f"; {drop[0].lower()}{drop[1:].rstrip('.')}" if drop else "")
    return ""


def _prices(m: Moment, ctx: Context, out: List[Line]) -> None:
    for sym, new in m.cells_after.items():
        old = m.cells_before.get(sym)
        if old is not None and old == new and sym in m.operated and \
                m.operated[sym].revenue > 0:
            price = m.after["corporations"][sym]["price"]
            out.append(line(f"{sym}'s share price stays at ", Value(money(price), ("price", sym),
                                                                    m.index),
                            f", though {_why_price(m, ctx, sym)} (see the rule)."))
            continue
        if old is None or old == new:
            continue
        price = m.after["corporations"][sym]["price"]
        why = _why_price(m, ctx, sym)
        out.append(line(f"{sym}'s share price moves {_direction(ctx, old, new)}, from "
                        f"{ctx.money(m.before['corporations'][sym]['price'])} to ",
                        Value(money(price), ("price", sym), m.index),
                        f", as {why}." if why else "."))


def _phase(m: Moment, ctx: Context, out: List[Line]) -> None:
    if m.phase_after == m.phase:
        return
    phase = next(p for p in ctx.f.data.phases if p.name == m.phase_after)
    trains = {t.name: t for t in ctx.f.data.trains}
    limit = train_limit(phase) if isinstance(phase.train_limit, int) else ", ".join(
        f"{n} for {kind}s" for kind, n in sorted(phase.train_limit, key=lambda kv: -kv[1]))
    bits = [f"{listing(phase.tiles)} tiles",
            f"{plural(phase.operating_rounds, 'operating round')} a set",
            f"a train limit of {limit}"]
    for name in phase.on:
        bits += [event_text(ctx.n, e.kind) for e in trains[name].events]
        rusted = [t.name for t in ctx.f.data.trains if name in t.rusts_on]
        if rusted:
            bits.append(f"every {listing(rusted, 'and')} train rusts")
    out.append(line(f"This is the first {listing(phase.on, 'or')} train: phase "
                    f"{phase.name} begins: " + "; ".join(bits) + "."))


def consequences(m: Moment, ctx: Context, out: List[Line], flows: List[Flow],
                 share_out: Callable) -> None:
    """What followed from the move (see the module docstring)."""
    _interest(m, ctx, out, flows)
    _round_change(m, ctx, out)
    _income(m, ctx, out, flows)
    _hands(m, ctx, out, flows)
    _presidents(m, ctx, out, flows)
    _floats(m, ctx, out, flows)
    _started(m, ctx, out, flows)
    _phase(m, ctx, out)
    _homes(m, ctx, out)
    _operations(m, ctx, out, flows, share_out)
    _prices(m, ctx, out)


# -- the purses -----------------------------------------------------------------------------


def _mentioned(m: Moment, ctx: Context, holder: Holder, amount: int) -> Optional[str]:
    """The engine's log line that names the purse's owner and the amount, if one does."""
    who = ctx.name(holder[1]) if holder[0] == "cash" else holder[1]
    shown = ctx.money(abs(amount))
    for text in m.messages:
        if text.startswith(who) and re.search(rf"(?<![\d.]){re.escape(shown)}(?!\d)", text):
            return text.rstrip(".")
    return None


def purses(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> None:
    """Each purse the move changed that the reader follows (the followed player's cash,
    the followed companies' treasuries, the mover's own), as a sum of its payments."""
    watched: List[Holder] = [("cash", ctx.player)] + [("treasury", s) for s in ctx.companies]
    mover = actor_purse(m)
    if mover not in watched:
        watched.append(mover)
    for holder in watched:
        before, after = ctx.purse(m.before, holder), ctx.purse(m.after, holder)
        if before is None and after is None:
            continue
        before, after = before or 0, after or 0
        changes: List[Tuple[int, str]] = [(f.amount, f.label) for f in flows
                                          if f.holder == holder and f.amount]
        rest = after - before - sum(a for a, _ in changes)
        if rest:
            changes.append((rest, _mentioned(m, ctx, holder, rest) or OTHER))
        if not changes:
            continue
        calc = ledger(before, changes, after, holder, m.index)
        reasons = "; ".join(f"{'+' if a > 0 else '−'}{ctx.money(abs(a))} {label}"
                            for a, label in changes)
        name = ctx.purse_name(holder)
        out.append(line(f"{name[0].upper()}{name[1:]}: ", calc, f" ({reasons})."))


def look_ahead(table, ctx: Context) -> List[Line]:
    """Where the example leaves off: what the followed hold, and what the next trains
    will bring."""
    out: List[Line] = []
    state = table.state
    reached = [p.name for p in ctx.f.data.phases].index(table.phase.name)
    upcoming = [t for t in state.depot.upcoming]
    if upcoming:
        nxt = upcoming[0]
        out.append(line(f"The bank's next train is a {nxt.name} for "
                        f"{ctx.money(nxt.variant.price)}, and "
                        f"{plural(sum(1 for t in upcoming if t.name == nxt.name), 'train')} "
                        f"of that kind {'is' if sum(1 for t in upcoming if t.name == nxt.name) == 1 else 'are'} left."))
        later = [t for t in ctx.f.data.trains if t.name != nxt.name and
                 any(p.on and t.name in p.on for p in ctx.f.data.phases)]
        for t in later[:3]:
            rusted = [r.name for r in ctx.f.data.trains if t.name in r.rusts_on]
            phase = next(p for p in ctx.f.data.phases if t.name in p.on)
            if ctx.f.data.phases.index(phase) <= reached:
                continue
            out.append(line(f"The first {t.name} ({ctx.money(t.price)}) will begin phase "
                            f"{phase.name}" + (f" and rust every {listing(rusted)} train"
                                               if rusted else "") + "."))
    return out
