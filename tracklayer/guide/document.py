"""A guide as a document: sections of paragraphs, bullet lists, tables and pictures,
written out as Markdown (each picture a file beside it, :func:`pictures`) or as a
standalone HTML page (the pictures in the page)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Dict, List, Sequence, Union


@dataclass
class Para:
    text: str


@dataclass
class Bullets:
    items: List[str]
    numbered: bool = False


@dataclass
class Table:
    header: Sequence[str]
    rows: List[Sequence[str]]


@dataclass
class Picture:
    """An SVG drawing: in a page as it is; in Markdown, the file ``name`` (written beside
    the Markdown), or the drawing itself if it has no name."""
    svg: str
    caption: str = ""
    name: str = ""


Block = Union[Para, Bullets, Table, Picture, "Section"]


@dataclass
class Section:
    title: str
    blocks: List[Block] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.blocks = [b for b in self.blocks if b is not None]

    def add(self, *blocks: Block) -> "Section":
        self.blocks.extend(b for b in blocks if b is not None)
        return self

    def sections(self) -> List["Section"]:
        return [b for b in self.blocks if isinstance(b, Section)]

    def find(self, title: str) -> "Section":
        """The section called ``title`` in this one, at any depth (KeyError if none)."""
        for s in self.walk():
            if s.title == title:
                return s
        raise KeyError(title)

    def walk(self):
        yield self
        for s in self.sections():
            yield from s.walk()

    def text(self) -> str:
        """Everything written in the section, as plain text (for tests and searches)."""
        out: List[str] = [self.title]
        for b in self.blocks:
            if isinstance(b, Para):
                out.append(b.text)
            elif isinstance(b, Bullets):
                out.extend(b.items)
            elif isinstance(b, Table):
                out.append(" | ".join(b.header))
                out.extend(" | ".join(r) for r in b.rows)
            elif isinstance(b, Picture):
                out.append(b.caption)
            else:
                out.append(b.text())
        return "\n".join(out)


def _anchor(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


# -- Markdown ---------------------------------------------------------------------------


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", "<br>")


def _md(section: Section, level: int, out: List[str]) -> None:
    out.append("#" * min(level, 6) + " " + section.title)
    out.append("")
    for b in section.blocks:
        if isinstance(b, Para):
            out.extend([b.text, ""])
        elif isinstance(b, Bullets):
            for i, item in enumerate(b.items, 1):
                out.append(f"{i}. {item}" if b.numbered else f"- {item}")
            out.append("")
        elif isinstance(b, Table):
            out.append("| " + " | ".join(_md_cell(h) for h in b.header) + " |")
            out.append("|" + "---|" * len(b.header))
            for r in b.rows:
                out.append("| " + " | ".join(_md_cell(c) for c in r) + " |")
            out.append("")
        elif isinstance(b, Picture):
            out.extend([f"![{b.caption or b.name}]({b.name})" if b.name else b.svg, ""])
            if b.caption:
                out.extend([f"*{b.caption}*", ""])
        else:
            _md(b, level + 1, out)


def to_markdown(doc: Section) -> str:
    out: List[str] = []
    _md(doc, 1, out)
    return "\n".join(out).rstrip() + "\n"


# -- HTML -------------------------------------------------------------------------------

STYLE = """
body { font-family: sans-serif; max-width: 72em; margin: 2em auto; padding: 0 1em;
       line-height: 1.4; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; vertical-align: top; }
th { background: #eee; }
nav ul { columns: 3; }
figure { margin: 1em 0; overflow-x: auto; }
.market td { text-align: center; min-width: 2.5em; }
"""


def _html(section: Section, level: int, out: List[str]) -> None:
    e = html.escape
    out.append(f'<section id="{_anchor(section.title)}">')
    out.append(f"<h{min(level, 6)}>{e(section.title)}</h{min(level, 6)}>")
    for b in section.blocks:
        if isinstance(b, Para):
            out.append(f"<p>{e(b.text)}</p>")
        elif isinstance(b, Bullets):
            tag = "ol" if b.numbered else "ul"
            out.append(f"<{tag}>" + "".join(f"<li>{e(i)}</li>" for i in b.items) + f"</{tag}>")
        elif isinstance(b, Table):
            out.append("<table><tr>" + "".join(f"<th>{e(str(h))}</th>" for h in b.header)
                       + "</tr>")
            for r in b.rows:
                out.append("<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in r) + "</tr>")
            out.append("</table>")
        elif isinstance(b, Picture):
            caption = f"<figcaption>{e(b.caption)}</figcaption>" if b.caption else ""
            out.append(f"<figure>{b.svg}{caption}</figure>")
        else:
            _html(b, level + 1, out)
    out.append("</section>")


def to_html(doc: Section) -> str:
    e = html.escape
    toc = "".join(f'<li><a href="#{_anchor(s.title)}">{e(s.title)}</a></li>'
                  for s in doc.sections())
    body: List[str] = []
    _html(doc, 1, body)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{e(doc.title)}</title><style>{STYLE}</style></head><body>"
            f"<nav><ul>{toc}</ul></nav>\n" + "\n".join(body) + "\n</body></html>\n")


def pictures(doc: Section) -> Dict[str, str]:
    """The files a Markdown document refers to: each named picture's SVG, by name."""
    out: Dict[str, str] = {}
    for section in doc.walk():
        for b in section.blocks:
            if isinstance(b, Picture) and b.name:
                out[b.name] = b.svg
    return out


def render(doc: Section, fmt: str) -> str:
    """The document as ``md`` (Markdown) or ``html``."""
    if fmt == "md":
        return to_markdown(doc)
    if fmt == "html":
        return to_html(doc)
    raise ValueError(f"unknown format {fmt!r}: md or html")
