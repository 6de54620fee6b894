"""The arithmetic a worked example shows: a :class:`Calc` is a sum or a product of whole
numbers ("450M − 210M = 240M", "10 × 60M = 600M", "140M ÷ 10 = 14M") with its result,
and, where the result is a value of the game (a player's cash, a treasury, a share
price), which value it is and after which entry it holds, so that a test can check it
against the engine. A :class:`Line` is a sentence of text and calcs."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, List, Optional, Sequence, Tuple, Union

SIGNS = {"+": "+", "-": "−", "*": "×", "/": "÷"}


@dataclass(frozen=True)
class Term:
    """A number of a calc; ``money``: an amount of the title's money (else a count)."""
    value: Fraction
    money: bool = True


def money(value) -> Term:
    return Term(Fraction(value), True)


def count(value) -> Term:
    return Term(Fraction(value), False)


@dataclass(frozen=True)
class Calc:
    """``terms`` joined by ``ops`` (``+ - * /``, worked left to right, products and
    quotients first), equal to ``result``; ``of``: the game value the result is, as
    (kind, key) with kind "cash" (a player id), "treasury" (a corporation or minor) or
    "price" (a corporation), holding after entry ``at``."""
    terms: Tuple[Term, ...]
    ops: Tuple[str, ...]
    result: Term
    of: Optional[Tuple[str, str]] = None
    at: Optional[int] = None

    def value(self) -> Fraction:
        """What the terms come to (products and quotients before sums)."""
        groups: List[Fraction] = [self.terms[0].value]
        signs = [1]
        for op, term in zip(self.ops, self.terms[1:]):
            if op == "*":
                groups[-1] *= term.value
            elif op == "/":
                groups[-1] /= term.value
            else:
                groups.append(term.value)
                signs.append(1 if op == "+" else -1)
        return sum(s * g for s, g in zip(signs, groups))

    def holds(self) -> bool:
        return len(self.ops) == len(self.terms) - 1 and self.value() == self.result.value

    def text(self, fmt: Callable[[object], str]) -> str:
        def shown(term: Term) -> str:
            v = term.value
            number = str(v.numerator) if v.denominator == 1 else f"{float(v):g}"
            return fmt(number) if term.money else number
        out = [shown(self.terms[0])]
        for op, term in zip(self.ops, self.terms[1:]):
            out.append(f"{SIGNS[op]} {shown(term)}")
        return " ".join(out) + f" = {shown(self.result)}"


def ledger(start: int, changes: Sequence[Tuple[int, str]], end: int,
           of: Optional[Tuple[str, str]] = None, at: Optional[int] = None) -> Calc:
    """``start`` plus each change (amount, what it is) equals ``end``."""
    terms = [money(start)] + [money(abs(a)) for a, _ in changes]
    ops = tuple("+" if a >= 0 else "-" for a, _ in changes)
    return Calc(tuple(terms), ops, money(end), of, at)


def product(a: Term, b: Term, of: Optional[Tuple[str, str]] = None,
            at: Optional[int] = None) -> Calc:
    return Calc((a, b), ("*",), Term(a.value * b.value, a.money or b.money), of, at)


def quotient(a: Term, b: Term) -> Calc:
    return Calc((a, b), ("/",), Term(a.value / b.value, a.money), None, None)


@dataclass(frozen=True)
class Value:
    """A number of the game the text states (a share price after a move): ``of`` and
    ``at`` as a calc's."""
    term: Term
    of: Optional[Tuple[str, str]] = None
    at: Optional[int] = None

    @property
    def result(self) -> Term:
        return self.term

    def holds(self) -> bool:
        return True

    def text(self, fmt: Callable[[object], str]) -> str:
        v = self.term.value
        number = str(v.numerator) if v.denominator == 1 else f"{float(v):g}"
        return fmt(number) if self.term.money else number


Part = Union[str, Calc, Value]


@dataclass
class Line:
    """A sentence of the example: text and calcs, in order."""
    parts: List[Part]

    def calcs(self) -> List[Union[Calc, Value]]:
        return [p for p in self.parts if isinstance(p, (Calc, Value))]

    def text(self, fmt: Callable[[object], str]) -> str:
        return "".join(p if isinstance(p, str) else p.text(fmt) for p in self.parts)


def line(*parts: Part) -> Line:
    return Line([p for p in parts if p is not None and p != ""])
