"""Title guides (issue 12): every number comes from the title's data (change a datum and the
guide changes with it), and each seed document's sections are covered by the guide."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import pytest

from tracklayer.cli import main
from tracklayer.guide.build import guide, page, slug
from tracklayer.guide.document import Section, Table, pictures, render
from tracklayer.guide.walkthrough import document, walk
from tracklayer.io.export import load_export
from tracklayer.spec.data import TitleData
from tracklayer.title import Title
from tracklayer.titles import TITLES

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
SEEDS = SHARED / "seeds"
FIXTURES = SHARED / "fixtures"
SEED_OF = {"1893": "004_", "1849: Kingdom of the Two Sicilies": "003_",
           "The Old Prince 1871": "000_", "1817NA": "002_"}
FIXTURE_DIR = {"1893": "1893", "1849: Kingdom of the Two Sicilies": "1849KingdomoftheTwoSicilies",
               "The Old Prince 1871": "1871", "1817NA": "1817NA"}
needs_shared = pytest.mark.skipif(not SEEDS.is_dir(), reason="../shared (seeds, fixtures) is absent")


def with_data(title: Title, change: Callable[[TitleData], TitleData]) -> Title:
    """The title with its data changed (a fresh cache of game specs)."""
    original = title.data
    return replace(title, data=lambda players, options: change(original(players, options)),
                   _specs={})


def tables(section: Section) -> List[Table]:
    return [b for b in section.blocks if isinstance(b, Table)]


def row(table: Table, first: str) -> Dict[str, str]:
    found = [r for r in table.rows if r[0] == first]
    assert len(found) == 1, f"no single row {first!r} in {table.header}"
    return dict(zip(table.header, found[0]))


# -- 1. every number comes from the data ------------------------------------------------


@pytest.mark.parametrize("name", sorted(TITLES))
def test_a_train_price_changes_the_guide(name):
    title = TITLES[name]
    first = title.data(title.player_range[1], ()).trains[0]
    changed = with_data(title, lambda d: replace(d, trains=tuple(
        replace(t, price=t.price + 7) if t.name == first.name else t for t in d.trains)))
    money = title.settings.format_money
    before, after = guide(title), guide(changed)
    old = row(tables(before.find("Trains"))[0], first.name)
    new = row(tables(after.find("Trains"))[0], first.name)
    assert old["Price"] == money(first.price) and new["Price"] == money(first.price + 7)
    if any(first.name in p.on for p in title.data(title.player_range[1], ()).phases):
        phase = next(p for p in title.data(title.player_range[1], ()).phases
                     if first.name in p.on)
        assert money(first.price + 7) in row(tables(after.find("Phases"))[0],
                                             phase.name)["Starts with"]
    assert render(before, "md") != render(after, "md")


@pytest.mark.parametrize("name", sorted(TITLES))
def test_a_private_company_datum_changes_the_guide(name):
    """A private's revenue (or, where none pays any, its value) is the data's."""
    title = TITLES[name]
    companies = title.data(title.player_range[1], ()).companies
    earning = [c for c in companies if c.revenue and c.stack is None]
    target = (earning or [c for c in companies if c.stack is None])[0]
    column, field = ("Revenue", "revenue") if earning else ("Value", "value")
    changed = with_data(title, lambda d: replace(d, companies=tuple(
        replace(c, **{field: vars(c)[field] + 5}) if c.sym == target.sym else c
        for c in d.companies)))
    money = title.settings.format_money
    old = row(tables(guide(title).find("Private companies"))[0], target.sym)[column]
    new = row(tables(guide(changed).find("Private companies"))[0], target.sym)[column]
    assert old.startswith(money(vars(target)[field]))
    assert new.startswith(money(vars(target)[field] + 5))


@pytest.mark.parametrize("name", sorted(TITLES))
def test_the_companies_and_corporations_tables_are_printed_once(name):
    doc = guide(TITLES[name])
    everything = [t for s in doc.walk() for t in tables(s)]
    for header in ("Company", "Corporation"):
        assert sum(1 for t in everything if t.header[0] == header) == \
            (1 if header == "Corporation" or TITLES[name].data(
                TITLES[name].player_range[1], ()).companies else 0)
    summary = doc.find("Summary")
    assert not any(t.header[0] in ("Company", "Corporation") for s in summary.walk()
                   for t in tables(s))


@pytest.mark.parametrize("name", sorted(TITLES))
def test_a_certificate_limit_changes_the_guide(name):
    title = TITLES[name]
    most = title.player_range[1]
    limit = title.data(most, ()).cert_limit
    changed = with_data(title, lambda d: replace(d, cert_limit=d.cert_limit + 1)
                        if d.starting_cash == title.data(most, ()).starting_cash else d)
    old = row(tables(guide(title).find("Set-up"))[0], str(most))["Certificate limit"]
    new = row(tables(guide(changed).find("Set-up"))[0], str(most))["Certificate limit"]
    assert (old, new) == (str(limit), str(limit + 1))
    text = guide(changed).find("Floating and holding limits").text()
    assert f"{limit + 1} with {most} players" in text


@pytest.mark.parametrize("name", sorted(TITLES))
def test_the_guide_renders_with_its_pictures(name):
    """Markdown refers to its pictures as files; the page holds them. The map has every
    printed hex, the market every cell, the tiles every kind of the supply, the train
    roster every train (its rusting marked)."""
    title = TITLES[name]
    doc = guide(title)
    md, page = render(doc, "md"), render(doc, "html")
    files = pictures(doc)
    stem = slug(title)
    assert {f"{stem}-map.svg", f"{stem}-market.svg", f"{stem}-trains.svg",
            f"{stem}-tiles-yellow.svg"} <= set(files)
    assert "<svg" not in md and page.count("<svg") == len(files) >= 5
    for name_, svg in files.items():
        assert f"]({name_})" in md and svg.startswith("<svg") and svg in page
    assert page.startswith("<!DOCTYPE html>") and "<table>" in page
    spec = title.game_spec(title.player_range[1], ())
    drawn = sum(1 for h in spec.hexes.values() if h.tile is not None)
    assert files[f"{stem}-map.svg"].count("<polygon") == drawn
    assert files[f"{stem}-market.svg"].count("<rect") == len(spec.cells)
    kinds = {}
    for tile, entry in spec.data.tiles.tiles.items():
        kinds.setdefault(spec.tile_def(tile).color, []).append(tile)
    for colour, tiles in kinds.items():
        if colour in ("yellow", "green", "brown", "gray"):
            assert files[f"{stem}-tiles-{colour}.svg"].count("<polygon") == len(tiles)
    roster = files[f"{stem}-trains.svg"]
    assert roster.count("<g>") == len(spec.trains)
    assert roster.count(">rusts</text>") == sum(1 for t in spec.trains if t.rusts_on)


def test_a_rust_moves_in_the_train_roster():
    """The roster is drawn from the data: a train rusting later draws its cross later."""
    from tracklayer.guide.charts import COLUMN, LABEL
    from tracklayer.guide.facts import facts
    from tracklayer.guide.charts import train_roster_svg
    title = TITLES["1893"]
    changed = with_data(title, lambda d: replace(d, trains=tuple(
        replace(t, rusts_on=("6",)) if t.name == "2" else t for t in d.trains)))

    def cross(t):
        svg = train_roster_svg(facts(t))
        first = svg.split("<g>")[1]
        return float(re.search(r'<path d="M([\d.]+),', first).group(1))
    names = [p.name for p in title.data(4, ()).phases]
    assert cross(title) + 6 == LABEL + names.index("4") * COLUMN + COLUMN / 2
    assert cross(changed) + 6 == LABEL + names.index("6") * COLUMN + COLUMN / 2


def test_a_title_without_words_of_its_own_has_a_guide():
    """The example title of ARCHITECTURE.md: its guide is its data and settings alone."""
    from test_architecture import example_title
    tiny = example_title()
    doc = guide(tiny)
    assert doc.find("Rounds").blocks[0].text.startswith("Stock rounds, each followed by a set "
                                                         "of 1-2 operating rounds")
    assert row(tables(doc.find("Trains"))[0], "3")["Price"] == "$180"
    assert row(tables(doc.find("Set-up"))[0], "2")["Cash each"] == "$300"
    assert "<svg" in page(tiny)


def test_the_command_line_writes_a_guide(tmp_path):
    out = tmp_path / "g.html"
    assert main(["guide", "1871", "--format", "html", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "The Old Prince 1871: a guide" in text and "$600" in text


@pytest.mark.parametrize("name", sorted(TITLES))
def test_the_command_line_writes_markdown_and_its_pictures_to_a_folder(tmp_path, name):
    folder = tmp_path / "guides"
    assert main(["guide", name, "--format", "md", "-o", f"{folder}/"]) == 0
    stem = slug(TITLES[name])
    md = (folder / f"{stem}.md").read_text(encoding="utf-8")
    linked = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
    assert len(linked) >= 5
    for picture in linked:
        assert (folder / picture).read_text(encoding="utf-8").startswith("<svg")


# -- 2. the seed documents' sections ----------------------------------------------------

TOP = {"Jak to funguje": "Rounds", "Prvky": "Components",
       "Kudy tečou peníze": "Where the money goes", "Fáze": "Phases",
       "Kolo krok za krokem": "Round by round", "Nouzový prodej": "Emergency money",
       "Srovnání s 1830": "Compared with 1830"}
SUMMARY = re.compile(r".+ — (Shrnutí|shrnutí|Souhrn)$")
SUB = {"Příprava": ("Set-up",), "Burzovní kolo": ("Stock round",),
       "Provozní kolo": ("Operating round",), "Kolo fúze": ("Merger round",),
       "Fúze a akvizice": ("Mergers and acquisitions",), "Konec": ("End of the game",),
       "Hráči": ("Players",), "Společnosti": ("Corporations",),
       "Soukromé": ("Private companies",), "Soukromé a dluhopisy": ("Private companies", "Bonds"),
       "Menší společnosti": ("Minor companies",), "PEIR": ("PEIR",), "Banka": ("Bank",),
       "Banka a burza": ("Bank and market",), "Mapa": ("Map",),
       "Typ kapitalizace": ("Capitalisation",),
       "Procento pro spuštění a limity akcií na hráče": ("Floating and holding limits",),
       "Počáteční hotovost podle počtu hráčů": ("Starting cash",),
       "Spouštěče konce hry": ("Game end triggers",), "Počet fází": ("Number of phases",),
       "Seznam vlaků a ceny": ("Trains",),
       "Seznam soukromých společností": ("Private company list",),
       "Seznam společností": ("Corporation list",),
       "Mechanismy specifické pro hru": ("Special mechanics",),
       "Mechaniky specifické pro hru": ("Special mechanics",)}
WITH_SUBSECTIONS = ("Rounds", "Components", "Summary")


def seed_sections(text: str) -> Dict[str, Tuple[str, List[str]]]:
    """A seed document's sections, by the guide section each stands for: (its heading,
    its lines). Subsections (a heading followed by bullet points) are keyed
    "top/sub"."""
    lines = text.splitlines()
    out: Dict[str, Tuple[str, List[str]]] = {}
    top = None
    sub = None
    for i, line in enumerate(lines):
        if line in TOP or SUMMARY.match(line):
            top = TOP.get(line, "Summary")
            sub = None
            out[top] = (line, [])
            continue
        if top is None:
            continue
        following = next((l for l in lines[i + 1:] if l.strip()), "")
        heading = re.sub(r" ×[\d-]+$", "", line)
        if top in WITH_SUBSECTIONS and line and not line.startswith((" ", "↻")) \
                and following.startswith("  •"):
            assert heading in SUB, f"a section the test does not know: {heading!r}"
            sub = f"{top}/{heading}"
            out[sub] = (heading, [])
            continue
        if line.startswith(("Související hry", "Některý pojem")):
            top = None
            continue
        out[sub or top][1].append(line)
    return out


def seed_text(name: str) -> str:
    text = next(SEEDS.glob(SEED_OF[name] + "*.txt")).read_text(encoding="utf-8")
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def example_guide(name: str) -> Section:
    game = sorted((FIXTURES / FIXTURE_DIR[name]).glob("*.json"))[0]
    example = document(walk(load_export(str(game)), operating_rounds=2), "Round by round")
    return guide(TITLES[name], example)


@needs_shared
@pytest.mark.parametrize("name", sorted(TITLES))
def test_the_guide_covers_every_section_of_the_seed(name):
    sections = seed_sections(seed_text(name))
    assert set(TOP.values()) | {"Summary"} <= set(sections), "the seed's outline was not read"
    doc = example_guide(name)
    missing = []
    for key, (heading, _) in sections.items():
        top, _, sub = key.partition("/")
        where = doc.find(top)
        for title in SUB[heading] if sub else (top,):
            try:
                found = where.find(title) if sub else where
            except KeyError:
                missing.append(f"{heading} → {title}")
                continue
            assert found.blocks, f"{title} is empty"
    assert missing == []
    steps = doc.find("Round by round").sections()
    assert len(steps) > 10 and all(tables(step) for step in steps), \
        "the worked example has a state panel after each step"


@needs_shared
@pytest.mark.parametrize("name", sorted(TITLES))
def test_the_seed_trains_companies_and_comparisons_are_in_the_guide(name):
    """The trains (with their prices), private companies, corporations (with their
    homes) and points of comparison the seed lists are in the guide."""
    sections = seed_sections(seed_text(name))
    doc = guide(TITLES[name])
    trains = tables(doc.find("Trains"))[0]
    for line in sections["Phases"][1]:
        m = re.match(r"^(\S+) · \D*([\d ]+)", line)
        if m:
            price = row(trains, m.group(1))["Price"]
            assert re.sub(r"\D", "", price) == m.group(2).replace(" ", "").strip()
    privates = {r[0] for r in tables(doc.find("Private companies"))[0].rows}
    listed = sections["Summary/Seznam soukromých společností"][1]
    for bullet in [b for b in listed if b.strip().startswith("•")]:
        m = re.search(r"\(([A-Z][A-Za-z&]{1,4})\)", bullet) \
            or re.match(r"\s*• ([A-Z][A-Za-z&]{1,4}) [(-]", bullet) \
            or re.search(r"\(([A-Z]\d) až", bullet)
        assert m, f"no company in {bullet!r}"
        assert m.group(1) in privates
    corporations = doc.find("Components")
    rows = [r for s in corporations.walk() for t in tables(s) if t.header[0] in
            ("Corporation", "Minor") for r in t.rows]
    syms = {r[0] for r in rows}
    homes = " ".join(r[2] for r in rows)
    listed = "\n".join(sections["Summary/Seznam společností"][1])
    for sym in re.findall(r"\(([A-Z][A-Za-z&]{0,4})\)", listed) + \
            re.findall(r"^\s*• ([A-Z][A-Za-z&]{0,4}) - ", listed, re.M):
        if re.fullmatch(r"[A-Z]\d+", sym):
            assert sym in homes
        else:
            assert sym in syms
    homed = re.findall(r"\(([A-Z][A-Za-z&]{0,4})\) — domov\D*([A-Z]\d+)", listed) + \
        re.findall(r"^\s*• ([A-Z][A-Za-z&]{0,4}) - .*— domov\D*([A-Z]\d+)", listed, re.M)
    assert homed or all(c.home is None for c in TITLES[name].data(
        TITLES[name].player_range[1], ()).corporations)
    for sym, hex_id in homed:
        assert hex_id in row(tables(corporations.find("Corporations"))[0], sym)["Home"]
    points = [l for l in sections["Compared with 1830"][1] if re.match(r"\d+\. ", l)]
    compared = [b for b in doc.find("Compared with 1830").blocks if hasattr(b, "items")][0]
    assert len(compared.items) >= len(points) > 0


@pytest.mark.parametrize("name", sorted(TITLES))
def test_the_basics_are_explained_once_with_the_titles_numbers(name):
    """Routes, share prices, floating and the flow of a round are explained in one shared
    section, with the title's own numbers (its first train, its float thresholds, its
    starting cash), before the title's differences."""
    title = TITLES[name]
    doc = guide(title)
    basics = doc.find("How an 18xx game works")
    titles = [s.title for s in basics.sections()]
    assert titles == ["The aim", "How a game flows", "Starting and floating a corporation",
                      "The stock round", "The operating round", "Routes and what they earn",
                      "Share prices and why they move", "Trains, phases and rusting"]
    data = title.data(title.player_range[1], ())
    text = basics.text()
    assert f"A {data.trains[0].name} train" in text
    floats = {c.float_percent for c in data.corporations if c.floatable and c.float_percent}
    assert any(f"{p}%" in basics.find("Starting and floating a corporation").text()
               for p in floats)
    order = [s.title for s in doc.sections()]
    assert order.index("How an 18xx game works") < order.index("Compared with 1830") < \
        order.index("Variants and optional rules") < order.index("Rounds")
    options = doc.find("Variants and optional rules").text()
    for option in title.optional_rules:
        assert option.short_name in options
    assert sum(1 for s in doc.walk() if s.title == "How an 18xx game works") == 1


def test_the_seed_differences_are_stated():
    """1893's package falls by 10M (the seed says 5); 1817NA's recommended variants are
    how tracklayer plays; 1871's Mainline floats at 50%."""
    from tracklayer.turns.draft import FallingPriceAuction
    cologne = guide(TITLES["1893"]).find("Variants and optional rules").text()
    assert f"falls by {FallingPriceAuction.REDUCTION}M" in cologne and "5 marks" in cologne
    america = guide(TITLES["1817NA"]).find("Variants and optional rules").text()
    assert "no price cap in the private auction" in america and "10 short" in america
    prince = render(guide(TITLES["The Old Prince 1871"]), "md")
    assert "floats at 50%" in prince and "Mainline starts floated at" not in prince
