"""The command line of guides: ``tracklayer guide TITLE [--format md|html] [-o FILE|DIR/]``
(Markdown with its pictures as SVG files beside it) and ``tracklayer walkthrough GAME.json
--from A --to B [--follow PLAYER] [--follow-company SYM] [--format md|html] [-o FILE]``
(added to ``tracklayer/cli.py``)."""

from __future__ import annotations

import os
import sys
from typing import Dict

from ..io.export import load_export
from ..titles import title_like
from .build import guide, slug
from .document import pictures, render
from .walkthrough import document, walk


def _write(text: str, output: str, files: Dict[str, str] = None, name: str = "guide",
           fmt: str = "md") -> None:
    """Write ``text`` to ``output`` (a file, a folder ending in "/" or existing, where it is
    called ``name.fmt``, or "-" for standard output) and ``files`` beside it."""
    files = files or {}
    if output == "-":
        sys.stdout.write(text)
        if files:
            print(f"the pictures ({', '.join(files)}) are written only with -o FILE or -o "
                  "DIR/", file=sys.stderr)
        return
    if output.endswith(("/", os.sep)) or os.path.isdir(output):
        folder, path = output, os.path.join(output, f"{name}.{fmt}")
    else:
        folder, path = os.path.dirname(output) or ".", output
    os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    for picture, svg in files.items():
        with open(os.path.join(folder, picture), "w", encoding="utf-8") as f:
            f.write(svg)


def cmd_guide(args) -> int:
    title = title_like(args.title)
    example = None
    if args.example:
        w = walk(load_export(args.example), operating_rounds=args.example_ors,
                 follow=args.follow or ())
        example = document(w, "Round by round", short=True)
    doc = guide(title, example)
    files = pictures(doc) if args.format == "md" else {}
    _write(render(doc, args.format), args.output, files, slug(title), args.format)
    return 0


def cmd_walkthrough(args) -> int:
    w = walk(load_export(args.file), args.start, args.end, follow=args.follow or (),
             companies=args.follow_company or ())
    _write(render(document(w, short=args.brief), args.format), args.output, name="walkthrough",
           fmt=args.format)
    return 0


def add_commands(sub) -> None:
    """Add ``guide`` and ``walkthrough`` to the command line's subcommands."""
    p = sub.add_parser("guide", help="a title's guide, made from its data")
    p.add_argument("title", help="the title's name (or a part naming only one: 1871)")
    p.add_argument("--format", choices=("md", "html"), default="md")
    p.add_argument("-o", "--output", default="-",
                   help="a file, or a folder (ending in /) to write TITLE.md and its pictures "
                        "to (Markdown's pictures are SVG files beside it)")
    p.add_argument("--example", metavar="GAME.json",
                   help="a real game whose first operating rounds replace the worked example "
                        "(narrated as a walkthrough)")
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
