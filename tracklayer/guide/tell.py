"""What the worked example says of each move: the move and the rule that allows it, what
followed from it (a corporation floating, private companies paying, a minor sharing its
revenue, a home station, prices moving, a new phase, a new round), and each purse it
changed as a sum: what it held, each payment in or out with its reason, what it holds
now. The amounts come from the rules' data and the position before the move
(:mod:`tracklayer.guide.moments`); a payment they do not account for is named after the
engine's log line that mentions it, or shown as "other" (a test keeps those out of the
shipped examples)."""

from __future__ import annotations

import math
from typing import Callable, Dict, List, Tuple

from fractions import Fraction

from .arith import Calc, Line, Term, Value, count, ledger, line, money, product, quotient
from .consequences import consequences, purses
from .facts import listing, plural
from .moments import Context, Flow, Moment, new_tokens, runs
from .moments import actor_name as _actor
from .moments import actor_purse as _purse_of_actor
from .moments import delta as _delta
from .notes import par_by_phase
from .texts import TRADE_ORDER, TRAIN_DUTY, tile_lays


def _rule(text: str) -> Line:
    return line(f"Rule: {text}")


def rule_of(m: Moment, ctx: Context) -> str:
    """The rule that allows the move, by the step taking it (the title's words first)."""
    step = str(m.pre.get("step_name", ""))
    own = ctx.n.rules.get(step)
    if own:
        return own
    n, f = ctx.n, ctx.f
    common = {
        "Buy or Sell Shares": (n.stock[0] if n.stock else TRADE_ORDER[f.settings.trade_order]),
        "Lay Track": tile_lays(f),
        "Place a Token": "one station a turn, in a city its track reaches that has a free "
                         "slot; every route must include one of the company's stations.",
        "Run Routes": "a route joins stops by track and includes one of the company's "
                      "stations; it earns the value of each stop; no two trains of a "
                      "company share track.",
        "Pay or Withhold Dividends": n.dividend_moves or "paying out moves the price right, "
                                                         "withholding left.",
        "Buy Trains": TRAIN_DUTY[f.settings.train_duty] + " Trains come from the bank in "
                      "order; the phase sets how many a company may hold.",
        "Bid on Companies": " ".join(n.opening[1]),
    }
    text = common.get(step, "")
    if step == "Buy Trains" and m.actor_id in m.before["minors"] and \
            f.settings.minors_run_trains:
        text = "A minor need not own a train, but may buy trains as a corporation does. " \
               "Trains come from the bank in order; the phase sets how many a company may hold."
    return text[0].lower() + text[1:] if text else ""


def _say_rule(m: Moment, ctx: Context, out: List[Line]) -> None:
    """The rule of the move, the first time the example comes to it."""
    text = rule_of(m, ctx)
    if text and text not in ctx.rules_told:
        ctx.rules_told.add(text)
        out.append(_rule(text))


# -- the moves ------------------------------------------------------------------------------


def _bid(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> str:
    who, sym, price = _actor(m, ctx), str(m.pre.get("company")), m.entry.get("price", 0)
    value = m.pre.get("value")
    bought = sym in m.after["players"].get(m.actor_id, {}).get("companies", []) and \
        sym not in m.before["players"].get(m.actor_id, {}).get("companies", [])
    if bought and -_delta(m, ctx, ("cash", m.actor_id)) >= price:
        face = " (its face value)" if price == value else ""
        out.append(line(f"{who} buys {ctx.company(sym)} for {ctx.money(price)}{face}."))
        flows.append(Flow(("cash", m.actor_id), -price, f"for {sym}"))
        minor = m.pre.get("minor")
        if minor:
            out.append(line(f"A minor's price becomes its treasury: {minor} starts with it."))
            flows.append(Flow(("treasury", str(minor)), price, f"{who}'s payment"))
        else:
            out.append(line("The money goes to the bank."))
        return f"{who} buys {sym}"
    corp = m.pre.get("corporation")
    if corp and (m.after["corporations"].get(corp) or {}).get("president") == m.actor_id:
        out.append(line(f"{who} opens the auction for {corp} at {ctx.money(price)}; nobody "
                        "else can bid more."))
        return f"{who} founds {corp}"
    ctx.bids[(m.actor_id, sym)] = price
    what = ctx.company(sym) if m.pre.get("company") else str(corp or "the item on offer")
    out.append(line(f"{who} bids {ctx.money(price)} on {what}"
                    + (f", valued at {ctx.money(value)}." if value is not None else ".")
                    + " The money stays with the bidder until the item is sold."))
    return f"{who} bids on {sym}"


def _par(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> str:
    who, corp = _actor(m, ctx), str(m.pre.get("corporation"))
    par, pct = int(m.pre.get("par", 0)), int(m.pre.get("percent", 20))
    paid = -_delta(m, ctx, ("cash", m.actor_id))
    pars = par_by_phase(ctx.f, ctx.n)
    phase = next((i for i, p in enumerate(ctx.f.data.phases) if p.name == m.phase), 0)
    choice = listing([ctx.money(p) for p in pars[phase]], "or") if pars[phase] else None
    if paid > 0:
        shares = pct // 10
        calc = product(count(shares), money(par))
        out.append(line(f"{who} starts {corp} at a par price of {ctx.money(par)}, buying its "
                        f"president's certificate ({pct}%, {plural(shares, 'share')}): ",
                        calc, "."))
        flows.append(Flow(("cash", m.actor_id), -int(calc.result.value),
                          f"for {corp}'s president's certificate"))
        if ctx.f.settings.capitalization.value == "incremental":
            flows.append(Flow(("treasury", corp), int(calc.result.value),
                              "its president's certificate"))
    else:
        out.append(line(f"{who} sets {corp}'s par price at {ctx.money(par)} (the president's "
                        "certificate came with a private company)."))
        if ctx.f.settings.capitalization.value == "incremental":
            shares = pct // 10
            calc = product(count(shares), money(par))
            out.append(line("The bank pays the corporation what the certificate is worth: ",
                            calc, "."))
            flows.append(Flow(("treasury", corp), int(calc.result.value),
                              "its president's certificate, paid by the bank"))
    if choice:
        text = f"a corporation starts at one of the par prices the phase allows: {choice}; " \
               "later shares are bought at the share price."
        if text not in ctx.rules_told:
            ctx.rules_told.add(text)
            out.append(_rule(text))
    return f"{who} starts {corp}"


SOURCE = {"bank": "the bank", "treasury": "its treasury", "market": "the market",
          "player": "another player"}


def _buy_shares(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> str:
    who, corp = _actor(m, ctx), str(m.pre.get("corporation"))
    pct, source = int(m.pre.get("percent") or 10), str(m.pre.get("from"))
    price = m.pre.get("price")
    if price is None:
        paid = -_delta(m, ctx, _purse_of_actor(m))
        out.append(line(f"{who} buys a {pct}% share of {corp} from "
                        f"{SOURCE.get(source, source)} for {ctx.money(paid)}."))
    else:
        shares = Fraction(pct, int(m.pre.get("share_percent") or 10))
        calc = product(count(shares), money(price)) if shares != 1 else None
        paid = int(calc.result.value) if calc else int(price)
        out.append(line(f"{who} buys {'a ' + str(pct) + '% share' if shares == 1 else str(pct) + '%'}"
                        f" of {corp} from {SOURCE.get(source, source)} at its share price, "
                        f"{ctx.money(price)}", ": " if calc else ".", calc, "." if calc else ""))
    flows.append(Flow(_purse_of_actor(m), -paid, f"for {pct}% of {corp}"))
    if source == "treasury" and m.pre.get("incremental"):
        flows.append(Flow(("treasury", corp), paid, "a share sold from its treasury"))
        out.append(line("Incremental capitalisation: the money goes to the corporation."))
    elif source == "bank":
        out.append(line("The money goes to the bank; the corporation's capital comes when "
                        "it floats." if ctx.f.settings.capitalization.value == "full"
                        else "The money goes to the bank."))
    return f"{who} buys {corp}"


def _sell_shares(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> str:
    who, corp = _actor(m, ctx), str(m.pre.get("corporation"))
    got = _delta(m, ctx, _purse_of_actor(m))
    out.append(line(f"{who} sells {m.pre.get('percent')}% of {corp} for {ctx.money(got)}."))
    flows.append(Flow(_purse_of_actor(m), got, f"{m.pre.get('percent')}% of {corp} sold"))
    return f"{who} sells {corp}"


PASSES = {"Lay Track": "lays no track", "Place a Token": "places no station",
          "Buy Trains": "buys no more trains", "Run Routes": "runs no train",
          "Take Loans": "takes no loan", "Buy Companies": "buys no private company",
          "Draft": "passes, and is out of the draft",
          "Issue or Redeem Shares": "neither sells nor buys back shares"}


def _pass(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> str:
    who = _actor(m, ctx)
    what = PASSES.get(str(m.pre.get("step_name")), "passes")
    out.append(line(f"{who} {what}."))
    return f"{who} {what}"


def _lay_tile(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> str:
    op, hex_id = m.actor_id, str(m.pre.get("hex"))
    new, colour = m.pre.get("new", ("?", "?"))
    old, old_colour = m.pre.get("old", ("?", "?"))
    printed = ctx.f.spec.hexes.get(hex_id)
    base = printed.tile.color if printed is not None and printed.tile is not None else "white"
    upgrade = old_colour != "printed" or base not in ("white",)
    was = f"tile {old} ({old_colour})" if old_colour != "printed" else f"the printed {base} hex"
    text = f"{op} lays tile {new} ({colour}) on {ctx.place(hex_id)}" + (
        f", replacing {was}: an upgrade keeps all the track that was there." if upgrade
        else ", an empty hex.")
    out.append(line(text))
    cost = -_delta(m, ctx, ("treasury", op))
    terrain = int(m.pre.get("terrain") or 0)
    if cost > 0:
        if terrain:
            out.append(line(f"Building on {hex_id} costs {ctx.money(terrain)} of terrain."))
            flows.append(Flow(("treasury", op), -min(terrain, cost), "for terrain"))
        if cost > terrain:
            flows.append(Flow(("treasury", op), -(cost - terrain), "for the tile lay"))
    else:
        out.append(line("It costs nothing: no terrain to pay for."))
    return f"{op} lays track"


def _place_token(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> str:
    op = m.actor_id
    new = new_tokens(m, op)
    cost = -_delta(m, ctx, ("treasury", op))
    where = listing([ctx.place(h) for h in new]) or "a city"
    out.append(line(f"{op} places a station in {where}"
                    + (f" for {ctx.money(cost)}." if cost else ", for nothing.")))
    if cost:
        flows.append(Flow(("treasury", op), -cost, "for a station"))
    return f"{op} places a station"


def _run_routes(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> str:
    op = m.actor_id
    runs = m.pre.get("routes") or []
    totals = []
    for train, stops, revenue in runs:
        values = [money(v) for _, _, v in stops]
        names = " – ".join(ctx.stop(h, kind) for h, kind, _ in stops)
        bonus = revenue - sum(v for _, _, v in stops)
        terms = values + ([money(bonus)] if bonus else [])
        calc = _sum(terms)
        out.append(line(f"Its {train} train runs {names}: ", calc,
                        " (a bonus included)." if bonus else "."))
        totals.append(revenue)
    if len(totals) > 1:
        out.append(line("Revenue: ", _sum([money(t) for t in totals]), "."))
    return f"{op} runs its train" if len(runs) == 1 else f"{op} runs {len(runs)} trains"


def _sum(terms: List) -> object:
    total = sum(t.value for t in terms)
    if len(terms) == 1:
        return Value(terms[0], None)
    return Calc(tuple(terms), ("+",) * (len(terms) - 1), Term(total, True))


def _dividend(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> str:
    op = m.actor_id
    done = m.operated.get(op)
    if done is None:
        return f"{op} decides its dividend"
    _share_out(m, ctx, op, done.kind, done.revenue, out, flows)
    return {"payout": f"{op} pays out", "withhold": f"{op} withholds",
            "half": f"{op} pays half"}.get(done.kind, f"{op} decides its dividend")


def _share_out(m: Moment, ctx: Context, op: str, kind: str, revenue: int,
               out: List[Line], flows: List[Flow]) -> None:
    """A corporation's revenue paid out (each holder's shares times the share of the
    revenue), halved, or withheld."""
    if kind == "withhold":
        out.append(line(f"{op} withholds its {ctx.money(revenue)}: it all goes to its "
                        "treasury, nothing to the shareholders."))
        flows.append(Flow(("treasury", op), revenue, "revenue withheld"))
        return
    paid = revenue
    if kind == "half":
        kept = revenue - revenue // 2
        paid = revenue // 2
        out.append(line(f"{op} pays half its {ctx.money(revenue)}: ",
                        quotient(money(revenue), count(2)), " to its shareholders, the "
                        "rest to its treasury."))
        flows.append(Flow(("treasury", op), kept, "half its revenue kept"))
    total = int(m.pre.get("total_shares") or 10)
    per = quotient(money(paid), count(total))
    out.append(line(f"{op} pays out {ctx.money(paid)}: ", per, " a share."))
    parts: List = []
    for pid, shares in sorted((m.pre.get("shares") or {}).items()):
        amount = math.ceil(shares * per.result.value)
        calc = product(count(shares), per.result)
        if calc.result.value != amount:
            calc = product(count(shares), per.result)
        parts += [f"{ctx.name(pid)} ", calc, ", "]
        flows.append(Flow(("cash", pid), amount, f"dividend from {op}"))
    if parts:
        parts[-1] = "."
        out.append(line("To its shareholders: ", *parts))
    own = m.pre.get("own_shares") or 0
    market = m.pre.get("market_shares") or 0
    if own and ctx.f.settings.capitalization.value == "incremental":
        amount = math.ceil(own * per.result.value)
        out.append(line(f"Its own {plural(int(own), 'share')} in its treasury pay it: ",
                        product(count(own), per.result), "."))
        flows.append(Flow(("treasury", op), amount, "dividend on its own shares"))
    elif (own or market) and ctx.f.settings.market_shares_pay:
        shares = own + market
        amount = math.ceil(shares * per.result.value)
        out.append(line(f"The {plural(int(shares), 'share')} not held by players (in the "
                        "market) pay the corporation: ", product(count(shares), per.result),
                        "."))
        flows.append(Flow(("treasury", op), amount, "dividend on the shares in the market"))
    elif not ctx.f.settings.market_shares_pay:
        held = sum(p["shares"].get(op, 0) for p in m.before["players"].values())
        if held < 100:
            out.append(line(f"The {100 - held}% still in the bank or the market earns "
                            "nothing."))


def _buy_train(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> str:
    op, train = m.actor_id, str(m.pre.get("train", "?"))
    price = int(m.entry.get("price", 0))
    seller = m.pre.get("from")
    source = f"{seller}" if seller else "the bank"
    exchange = m.entry.get("exchange")
    if exchange:
        printed = int(m.pre.get("printed") or price)
        out.append(line(f"{op} trades in its {str(exchange).rsplit('-', 1)[0]} train for a "
                        f"{train}: ", ledger(printed, [(price - printed, "trade-in")], price),
                        "."))
    else:
        out.append(line(f"{op} buys a {train} train from {source} for {ctx.money(price)}."))
    flows.append(Flow(("treasury", op), -price, f"for the {train} train"))
    had = ctx.purse(m.before, ("treasury", op)) or 0
    president = (m.before["corporations"].get(op) or {}).get("president") or \
        (m.before["minors"].get(op) or {}).get("owner")
    if price > had and president is not None:
        lack = price - had
        out.append(line(f"{op} has only {ctx.money(had)}: its president, "
                        f"{ctx.name(president)}, pays in what it lacks: ",
                        ledger(price, [(-had, "its treasury")], lack), "."))
        flows.append(Flow(("treasury", op), lack, f"paid in by {ctx.name(president)}"))
        flows.append(Flow(("cash", str(president)), -lack, f"paid into {op} for its train"))
    if seller and (seller in m.before["corporations"] or seller in m.before["minors"]):
        flows.append(Flow(("treasury", str(seller)), price, f"its {train} train sold"))
    return f"{op} buys a {train} train"


def _loan(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> str:
    op = m.actor_id
    got = _delta(m, ctx, ("treasury", op))
    verb = "takes a loan" if m.kind == "take_loan" else "repays a loan"
    out.append(line(f"{op} {verb}."))
    if got:
        flows.append(Flow(("treasury", op), got, "a loan" if got > 0 else "a loan repaid"))
    return f"{op} {verb}"


def _assign(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> str:
    """A private company handed to a corporation (1817: part of a founding bid)."""
    who, sym = _actor(m, ctx), str(m.entry.get("target"))
    company = ctx.table.company(sym)
    back = _delta(m, ctx, ("cash", m.actor_id))
    corp = next((c for c in m.after["corporations"]
                 if (m.after["corporations"][c]["president"] == m.actor_id
                     and _delta(m, ctx, ("treasury", c)) == -back)), None)
    if company is None or not back or corp is None:
        return _other(m, ctx, out, flows)
    out.append(line(f"{who} pays {ctx.money(company.value)} of the bid with "
                    f"{ctx.company(sym)}, at its value: {corp} gets the company instead of "
                    f"that much cash, which goes back to {who}."))
    flows.append(Flow(("cash", m.actor_id), company.value, f"{sym} taken as part of the bid"))
    flows.append(Flow(("treasury", corp), -company.value, f"{sym} instead of cash"))
    return f"{who} pays with {sym}"


def _other(m: Moment, ctx: Context, out: List[Line], flows: List[Flow]) -> str:
    who = _actor(m, ctx)
    said = [t for t in m.messages if t.startswith(who)]
    text = said[0] if said else f"{who}: {m.kind.replace('_', ' ')}"
    out.append(line(text.rstrip(".") + "."))
    return text


MOVES: Dict[str, Callable] = {
    "bid": _bid, "buy_company": _bid, "par": _par, "buy_shares": _buy_shares,
    "sell_shares": _sell_shares, "pass": _pass, "lay_tile": _lay_tile,
    "place_token": _place_token, "run_routes": _run_routes, "dividend": _dividend,
    "buy_train": _buy_train, "take_loan": _loan, "payoff_loan": _loan, "assign": _assign}


def tell(m: Moment, ctx: Context, told: bool = False) -> Tuple[str, List[Line]]:
    """One move: what it is (unless ``told``: said with its auction), what followed, the
    purses it changed."""
    out: List[Line] = []
    flows: List[Flow] = []
    head = ""
    if not told:
        head = MOVES.get(m.kind, _other)(m, ctx, out, flows)
        _say_rule(m, ctx, out)
    elif m.kind == "bid" and m.pre.get("company") and \
            _delta(m, ctx, ("cash", m.actor_id)) < 0:
        _bid(m, ctx, [], flows)
    consequences(m, ctx, out, flows, _share_out)
    purses(m, ctx, out, flows)
    return head, out


def _item(moves: List[Moment], ctx: Context) -> str:
    for m in moves:
        if m.pre.get("company"):
            return str(m.pre["company"])
        if m.pre.get("corporation"):
            return str(m.pre["corporation"])
    said = [t for t in moves[0].messages if " offers " in t]
    return said[0].split(" offers ", 1)[1] if said else "the item"


def _auction(moves: List[Moment], ctx: Context) -> Tuple[str, List[Line]]:
    """The bids on one item, in one line, then what the last of them brought."""
    item = _item(moves, ctx)
    value = next((m.pre.get("value") for m in moves if m.pre.get("value") is not None), None)
    said = []
    for m in moves:
        who = _actor(m, ctx)
        if m.kind == "bid":
            said.append(f"{who} {ctx.money(m.entry.get('price', 0))}")
        elif m.kind == "pass":
            said.append(f"{who} passes")
        elif m.kind == "offer":
            said.append(f"{who} puts it up")
    name = ctx.company(item) if value is not None else item
    out = [line(f"Bidding on {name}" + (f", valued at {ctx.money(value)}" if value else "")
                + ": " + ", ".join(said) + ".")]
    _say_rule(moves[0], ctx, out)
    for m in moves:
        _, lines = tell(m, ctx, told=m.kind in ("bid", "pass", "offer"))
        out.extend(lines)
    last = moves[-1]
    winner = next((pid for pid, p in last.after["players"].items()
                   if item in p["companies"] and item not in
                   last.before["players"].get(pid, {}).get("companies", [])), None) or \
        (last.after["corporations"].get(item) or {}).get("president")
    return (f"{ctx.name(winner)} wins {item}" if winner else f"bidding on {item}"), out


def explain(moves: List[Moment], ctx: Context) -> Tuple[str, List[Line]]:
    """A step of the example: its title and its lines."""
    heads: List[str] = []
    out: List[Line] = []
    found = runs(moves)
    for run in found:
        if len(run) > 1 and run[0].kind in ("bid", "offer"):
            head, lines = _auction(run, ctx)
            heads.append(head)
            out.extend(lines)
            continue
        for m in run:
            head, lines = tell(m, ctx)
            heads.append(head)
            out.extend(lines)
    followed = any(m.actor_id == ctx.player or m.actor_id in ctx.companies for m in moves)
    if len(found) == 1 or followed:
        same = sum(1 for m in moves if m.kind == moves[0].kind)
        if len(found) == 1 or moves[0].kind in ("bid", "offer", "pass") or same < 2:
            return heads[0], out
        return heads[0] + (" (twice)" if same == 2 else f" ({same} times)"), out
    actors = list(dict.fromkeys(_actor(m, ctx) for m in moves))
    return "meanwhile, " + listing(actors), out

