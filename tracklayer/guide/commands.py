"""The command line of guides: ``tracklayer guide TITLE [--format md|html] [-o FILE]`` and
``tracklayer walkthrough GAME.json --from A --to B [--follow PLAYER]
[--follow-company SYM] [--format md|html] [-o FILE]`` (added to ``tracklayer/cli.py``)."""

from __future__ import annotations

import sys

from ..io.export import load_export
from ..titles import title_like
from .build import guide
from .document import render
from .walkthrough import document, walk


def _write(text: str, output: str) -> None:
    if output == "-":
        sys.stdout.write(text)
        return
    with open(output, "w", encoding="utf-8") as f:
        f.write(text)


def cmd_guide(args) -> int:
    title = title_like(args.title)
    example = None
    if args.example:
        w = walk(load_export(args.example), operating_rounds=args.example_ors,
                 follow=args.follow or ())
        example = document(w, "Round by round", short=True)
    _write(render(guide(title, example), args.format), args.output)
    return 0


def cmd_walkthrough(args) -> int:
    w = walk(load_export(args.file), args.start, args.end, follow=args.follow or (),
             companies=args.follow_company or ())
    _write(render(document(w, short=args.brief), args.format), args.output)
    return 0


def add_commands(sub) -> None:
    """Add ``guide`` and ``walkthrough`` to the command line's subcommands."""
    p = sub.add_parser("guide", help="a title's guide, made from its data")
    p.add_argument("title", help="the title's name (or a part naming only one: 1871)")
    p.add_argument("--format", choices=("md", "html"), default="md")
    p.add_argument("-o", "--output", default="-")
    p.add_argument("--example", metavar="GAME.json",
                   help="a real game whose first operating rounds make the worked example")
    p.add_argument("--example-ors", type=int, default=2, metavar="N",
                   help="how many operating rounds the example covers (2)")
    p.add_argument("--follow", action="append", metavar="PLAYER",
                   help="the player the example follows (id or name)")
    p.set_defaults(func=cmd_guide)

    p = sub.add_parser("walkthrough", help="narrate a game's entries with the state after each")
    p.add_argument("file")
    p.add_argument("--from", dest="start", type=int, default=0, metavar="A")
    p.add_argument("--to", dest="end", type=int, default=None, metavar="B")
    p.add_argument("--follow", action="append", metavar="PLAYER",
                   help="a player to follow (id or name; may be repeated)")
    p.add_argument("--follow-company", action="append", metavar="SYM",
                   help="a corporation or minor to follow (may be repeated)")
    p.add_argument("--brief", action="store_true",
                   help="only the steps the followed take or that change the panel")
    p.add_argument("--format", choices=("md", "html"), default="md")
    p.add_argument("-o", "--output", default="-")
    p.set_defaults(func=cmd_walkthrough)
