"""The terminal's screens, read as a player would (``play.boardtext``, ``play.panels``,
``play.menu``): the map by row with cities by name, tiles and stations; the market with the
corporations on their prices; the round as the game names it; the moves in words, a tile
lay chosen by hex first; bad input answered in a sentence."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from conftest import FIXTURES
from tracklayer.io.export import load_export, open_game
from tracklayer.play import boardtext, menu, panels
from tracklayer.play.seats import moves_of
from tracklayer.play.terminal import play

GAME_1893 = FIXTURES / "1893" / "1893_game_end_bank.json"


def position(entries: int):
    if not GAME_1893.exists():
        pytest.skip(f"{GAME_1893} is missing (../shared)")
    data = load_export(str(GAME_1893))
    game = open_game(data)
    for h in data["actions"][:entries]:
        game.apply(h)
    return data, game


@pytest.fixture(scope="module")
def stock_round_3():
    return position(120)[1]


def test_the_map_lists_places_by_row_with_tiles_and_stations(stock_round_3):
    lines = boardtext.map_lines(stock_round_3.table)
    assert lines[0] == "Row A"
    o = lines.index("Row O")
    row = lines[o + 1:lines.index("Row P")]
    assert [line.split()[0] for line in row] == ["O2", "O4", "O6"]
    brühl = row[1]
    assert "Brühl" in brühl and "#619 green" in brühl and "city 30: KBE DE" in brühl
    benrath = next(line for line in lines if "Benrath" in line)
    assert "city: (RAG)" in benrath             # kept for RAG's home, no track yet
    assert "city 20: blocked" in next(line for line in lines if line.split()[0] == "H5")
    assert "off-board 20/30/50" in next(line for line in lines if "Aachen" in line)
    assert boardtext.map_lines(stock_round_3.table, "brü") == ["Row O", brühl]
    assert boardtext.map_lines(stock_round_3.table, "kbe") == ["Row O", brühl]
    assert boardtext.map_lines(stock_round_3.table, "nowhere") == []


def test_the_grid_lays_hexes_out_as_they_lie(stock_round_3):
    grid = [line.plain for line in boardtext.grid_lines(stock_round_3.table)]
    assert len(grid) == 21                      # rows A to U
    assert "T3*" in grid[19] and "N1>" in grid[13] and "L5o" in grid[11]
    # a hex's neighbours in the next row stand half a column to either side
    assert grid[11].index("L3") < grid[12].index("M4") < grid[11].index("L5")


def _on_price(lines, sym):
    """The price printed above a corporation's marker in the market."""
    at = next(i for i, line in enumerate(lines) if sym in line.split())
    column = lines[at].index(sym)
    return lines[at - 1][column:].split()[0]


def test_the_market_shows_each_corporation_on_its_price(stock_round_3):
    table = stock_round_3.table
    lines = [line.plain for line in panels.market_lines(table)]
    assert len(lines) == len(table.spec.rows) + 3      # a line under each row with markers
    assert _on_price(lines, "AGV") == "120p" and _on_price(lines, "RSE") == "60"
    assert _on_price(lines, "DE") == "70"
    assert lines[0].split()[0] == "100"          # the top row starts two cells in
    assert lines[0].index("100") == lines[1].index("90")
    narrow = [line.plain for line in panels.market_lines(table, width=40)]
    assert len(narrow) > len(lines) and all(len(line) <= 40 for line in narrow)
    assert _on_price(narrow, "AGV") == "120p"
    assert panels.market_legend(table) == "p: a starting price"


def test_the_round_is_named_as_the_game_names_it(stock_round_3):
    assert panels.heading(stock_round_3) == \
        "1893: Stock Round 3 — Sell then Buy Shares — phase 4"
    _, game = position(36)
    assert panels.heading(game).startswith("1893: Operating Round 1.2 — ")


def test_the_tables_name_companies_and_players(stock_round_3):
    out = io.StringIO()
    console = Console(file=out, width=200)
    console.print(panels.companies_table(stock_round_3))
    console.print(panels.players_table(stock_round_3))
    text = out.getvalue()
    assert "Dürener Eisenbahn" in text and "Player 2" in text
    assert panels.trains_line(stock_round_3).startswith(
        "Bank 5888M; trains to come: 4-train 300M (2 left), 5-train 450M (2 left)")
    assert panels.acting_line(stock_round_3) == \
        "Player 2: 30M in cash; shares DE 60%, AGV 40%; companies HdSK"
    _, game = position(35)
    assert panels.acting_line(game) == ("2 Köln-Frechen-Benzelrather E (KFBE) (president "
                                        "Player 1): 120M in its treasury; a 2-train; "
                                        "0 stations left")


def test_a_tile_lay_is_chosen_by_hex_then_tile():
    """19 lays on 3 hexes: a line per hex with its tiles and costs; inside a hex, each lay
    in words with its cost."""
    _, game = position(35)
    moves = game.legal_actions()
    lays = [h for h in moves if h["type"] == "lay_tile"]
    found = dict(menu.sections(game, moves))["Lay track"]
    assert len(found) == 3 and all(c.is_group for c in found)
    assert sum(len(c.moves) for c in found) == len(lays)
    assert [c.label for c in found] == ["Frechen (L3): 7 lays of #14, #15, #619, free",
                                        "K4: 6 lays of #7, #8, #9, free",
                                        "N3: 6 lays of #7, #8, #9, free"]
    inside = menu.numbered(game, found[1].moves)
    assert len(inside) == 6 and inside[0].label == \
        "2 Köln-Frechen-Benzelrather E (KFBE) lays tile #7 on K4 (yellow, rotation 0), free"
    by_tile = menu.numbered(game, found[0].moves)       # 7 lays: a tile, then its rotation
    assert [c.label for c in by_tile] == ["Frechen (L3), tile #14: 2 rotations, free",
                                          "Frechen (L3), tile #15: 2 rotations, free",
                                          "Frechen (L3), tile #619: 3 rotations, free"]


def test_moves_answer_to_what_is_typed():
    _, game = position(35)
    moves = game.legal_actions()
    hex_id = next(h["hex"] for h in moves if h["type"] == "lay_tile")
    assert {h["hex"] for h in menu.answering(game, moves, hex_id.lower())} == {hex_id}
    passing = menu.answering(game, moves, "pass")
    assert passing and all(h["type"] == "pass" for h in passing)
    assert menu.answering(game, moves, "zzz") == []


def test_a_price_typed_wrong_is_answered_in_a_sentence():
    h = {"type": "buy_company", "entity": "KFBE", "entity_type": "minor", "company": "EVA",
         "price": 1, "price_range": [1, 20]}
    assert menu.price_prompt(h) == "price (1..20, Enter for 1)"
    assert menu.read_value(h, "") == (1, "")
    assert menu.read_value(h, " 12 ") == (12, "")
    value, wrong = menu.read_value(h, "abc")
    assert value is None and wrong == ("'abc' is not a number: type the price as a whole "
                                       "number from 1 to 20, or press Enter for 1.")


def test_the_terminal_answers_bad_input_and_shows_the_board(tmp_path):
    """At EVA's sale (entry 15) a person types a command unknown, a number out of range,
    "abc" and 99 at the price: each is answered in a sentence; b goes back from the price
    to the moves."""
    data, game = position(15)
    data = dict(data, actions=data["actions"][:15])
    data["settings"] = dict(data.get("settings") or {}, tracklayer_bots={},
                            tracklayer_bot_seed=1)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    lines = menu.numbered(game, moves_of(game, 0))
    eva = next(i for i, c in enumerate(lines, 1) if c.moves[0].get("company") == "EVA")
    out = io.StringIO()
    typed = f"frobnicate\n{len(lines) + 5}\n{eva}\nabc\n99\nb\nmarket\nq\n"
    play(str(path), io.StringIO(typed), Console(file=out, width=160))
    text = out.getvalue()
    assert "Traceback" not in text
    assert "Nothing here answers to 'frobnicate': type a number from 1 to" in text
    assert f"There is no move {len(lines) + 5}: type a number from 1 to {len(lines)}" in text
    assert "'abc' is not a number: type the price as a whole number from 1 to" in text
    assert "The price 99 is not between 1 and" in text
    assert "Stock market" in text and "saved in" in text      # back from the price
    assert len(load_export(str(path))["actions"]) == 15


def test_the_terminal_shows_the_board_on_demand(tmp_path):
    data, game = position(120)
    data = dict(data, actions=data["actions"][:120])
    data["settings"] = dict(data.get("settings") or {}, tracklayer_bots={},
                            tracklayer_bot_seed=1)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    play(str(path), io.StringIO("map\nmap köln\nmarket\ncompanies\nplayers\nlog 3\nhelp\nq\n"),
         Console(file=out, width=160))
    text = out.getvalue()
    assert "Row O" in text and "Brühl" in text and "#619 green" in text
    assert "L5   Köln" in text
    assert "Stock market" in text and "120p" in text and "AGV" in text
    assert "Dürener Eisenbahn" in text and "worth" in text
    assert game.table.messages[-1] in text
    assert "map [place]" in text
    assert "1893: Stock Round 3" in text


def test_1893_keeps_other_players_cash_hidden(tmp_path, stock_round_3):
    """1893 keeps a player's cash secret (``Settings.cash_secret``): the person playing
    against bots sees their own cash and worth, not the bots'."""
    data, game = position(120)
    pids = [pid for pid, _ in game.player_specs]
    data = dict(data, actions=data["actions"][:120])
    data["settings"] = dict(data.get("settings") or {}, tracklayer_bot_seed=1,
                            tracklayer_bots={str(p): "greedy" for p in pids[2:]})
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    play(str(path), io.StringIO("players\nq\n"), Console(file=out, width=160))
    rows = [line for line in out.getvalue().splitlines() if "Player " in line and "│" in line]
    assert len(rows) == len(pids) == 3
    mine = next(r for r in rows if "Player 2" in r)
    assert "30M" in mine and "hidden" not in mine
    assert all(r.count("hidden") == 2 for r in rows if r is not mine)
    assert game.title.settings.cash_secret


def test_a_proposal_is_answered_yes_or_no():
    from tracklayer.play.terminal import yes_or_no
    out = io.StringIO()
    lines = iter(["maybe\n", "Y\n"])
    assert yes_or_no(Console(file=out), lambda: next(lines)) is True
    assert "'maybe' is neither yes nor no: type y to accept or n to decline." in out.getvalue()
    assert yes_or_no(Console(file=io.StringIO()), lambda: "no\n") is False
    assert yes_or_no(Console(file=io.StringIO()), lambda: None) is False


def test_1817s_companies_show_their_loans_and_lays_name_the_tile():
    path = FIXTURES / "1817NA" / "20584.json"
    if not path.exists():
        pytest.skip(f"{path} is missing (../shared)")
    data = load_export(str(path))
    game = open_game(data)
    for h in data["actions"][:701]:
        game.apply(h)
    out = io.StringIO()
    Console(file=out, width=200).print(panels.companies_table(game))
    assert "loans" in out.getvalue()
    lays = dict(menu.sections(game, game.legal_actions()))["Lay track"]
    assert "Denver (F14): tile #593 in 3 rotations, free" in [c.label for c in lays]
    assert panels.heading(game).startswith("1817NA: Operating Round ")
