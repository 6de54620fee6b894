"""What a player meets at the game page, found by playing it in a browser: no control that
the server would refuse whatever is typed (undo after the end), every item on offer shown
by its own card (a corporation sharing its letters with a private), prices in words that
say who pays them, and typed amounts that are no whole number refused for what they are."""

from __future__ import annotations

import re

import pytest

from web_support import auth, recorded, web_missing

pytestmark = pytest.mark.skipif(bool(web_missing()), reason=web_missing() or "-")


@pytest.fixture
def client(tmp_path):
    from fastapi.testclient import TestClient
    from tracklayer.web.app import create_app
    with TestClient(create_app(f"sqlite:///{tmp_path / 'ux.db'}")) as c:
        yield c


def imported(client, data: dict, upto=None) -> dict:
    """The game imported with its first ``upto`` entries (all without): id and seats."""
    r = client.post("/api/games/import", json=dict(data, actions=data["actions"][:upto]))
    assert r.status_code == 201, r.text
    return r.json()


def test_a_finished_game_offers_no_undo_or_redo(client):
    """After the end only chat is taken (undo: 409), so no seat is shown an Undo button."""
    data = recorded("1893", "1893_game_end_bank.json")
    made = imported(client, data)
    gid = made["id"]
    for seat in made["seats"]:
        page = client.get(f"/games/{gid}/view?token={seat['token']}").text
        assert "The game is over." in page
        assert 'id="undo"' not in page and 'id="redo"' not in page
        assert 'id="undo-back"' not in page
    refused = {client.post(f"/api/games/{gid}/actions", json={"type": "undo", "id": len(data["actions"]) + 1},
                           headers=auth(seat["token"])).status_code for seat in made["seats"]}
    assert 409 in refused and not any(200 <= status < 300 for status in refused)


def auction_row(page: str, sym: str) -> str:
    """The auction table's row of the item ``sym``."""
    return page.split(f'<tr class="item" data-item="{sym}">')[1].split("</tr>")[0]


def test_a_founding_bid_shows_the_corporation_not_a_private_of_its_letters(client):
    """1817NA: ME is both Morristown and Erie Railway (a corporation) and Mountain Engineers
    (a private); a bid to found the railway is shown by the railway's name, not by the
    private's card, value and power."""
    data = recorded("1817NA", "25351.json")
    made = imported(client, data, 64)                  # the first founding bid is due
    pages = [client.get(f"/games/{made['id']}/view?token={s['token']}").text
             for s in made["seats"]]
    page = next(p for p in pages if 'data-item="ME"' in p)
    row = auction_row(page, "ME")
    assert "Morristown and Erie Railway" in row
    assert "Mountain Engineers" not in row and "receives $20" not in row
    assert "&#34;corporation&#34;: &#34;ME&#34;" in row


def par_notes(client, made: dict, sym: str) -> list:
    """Every seat's starting-price control of ``sym``: its button's sentence and the
    note beside it."""
    out = []
    for seat in made["seats"]:
        page = client.get(f"/games/{made['id']}/view?token={seat['token']}").text
        out += re.findall(r' title="([^"]*starts[^"]*\(' + sym + r'\)[^"]*)" :title[^>]*>'
                          r'Start ' + sym + r'</button>\s*<span class="small"[^>]*>([^<]*)'
                          r'</span>', page)
    return out


def test_a_president_s_certificate_that_comes_with_a_private_is_not_bought(client):
    """1849: the buyer of RSA starts the first corporation and is given its president's
    certificate; the control says so instead of naming a price that is never paid."""
    data = recorded("1849KingdomoftheTwoSicilies",
                    "1849KingdomoftheTwoSicilies_game_end_bank.json")
    made = imported(client, data, 12)                  # RSA's buyer picks PL's price
    [(title, note)] = par_notes(client, made, "PL")
    assert "buying" not in title and "L.200" not in title
    assert "comes with Reale Società d&#39;Affari (RSA) (nothing to pay)" in title
    assert note.startswith("taking the 20% president&#39;s certificate that comes with")


def test_fdsd_paying_for_rag_s_president_s_certificate_is_said(client):
    """1893: the owner of FdSD may start RAG whatever their cash, FdSD paying for the
    president's certificate; the control says FdSD pays (and closes) rather than asking
    200M of a player who has none."""
    made = imported(client, recorded("1893", "1893_game_end_bank.json"), 10)
    [(title, note)] = par_notes(client, made, "RAG")
    assert "for 200M paid by exchanging Fond der Stadt Düsseldorf (FdSD) (it closes)" \
        in title
    assert note == title.split(" a share, ")[1]


@pytest.mark.parametrize("typed", [51.5, "", "60", "abc", True, [60]])
def test_a_typed_amount_that_is_no_whole_number_is_refused_as_such(client, typed):
    """1849's first bid on SIGI (L.50 to L.375): a price that is no whole number (a
    fraction, an empty or text field, true, a list) is refused for being no whole number,
    not as 'the minimum bid is L.50' nor as a missing price; nothing is recorded."""
    r = client.post("/api/games", json={"title": "1849: Kingdom of the Two Sicilies",
                                        "seed": 3, "players": [{"name": n} for n in
                                                               ("Ann", "Bob", "Cid", "Dee")]})
    made = r.json()
    gid, seat = made["id"], made["seats"][0]
    bid = {"type": "bid", "entity": seat["player_id"], "entity_type": "player",
           "company": "SIGI", "price": typed, "id": 1}
    r = client.post(f"/api/games/{gid}/actions", json=bid, headers=auth(seat["token"]))
    assert r.status_code == 422 and "price must be a whole number" in r.text, r.text
    assert client.get(f"/api/games/{gid}").json()["actions"] == []
    r = client.post(f"/api/games/{gid}/actions", json=dict(bid, price=50),
                    headers=auth(seat["token"]))
    assert r.status_code == 201, r.text


def test_a_purchase_for_the_union_bank_is_told_apart_from_the_player_s_own(client):
    """1871: the owner of the Union Bank may buy a share (or start a corporation) for the
    Bank; its button and starting price say so, where both read alike before."""
    data = recorded("1871", "1871_game_end_final_phase.json")
    made = imported(client, data, 321)             # Player 3, the Union Bank's owner, trades
    page = next(p for p in (client.get(f"/games/{made['id']}/view?token={s['token']}").text
                            for s in made["seats"]) if "Split into a Branch" in p)

    def row(sym: str) -> str:
        return page.split(f'data-corporation="{sym}">')[1].split("</tr>")[0]
    labels = re.findall(r'>(Buy [^<]*)</button>', row("MS"))
    assert labels == ["Buy a 10% share from the market · $122",
                      "Buy a 10% share from the market for Union Bank · $122"], labels
    options = re.findall(r'<option value="\d+"[^>]*>([^<]*)</option>', row("So"))
    assert options == ["$65", "$65 for Union Bank", "$58", "$58 for Union Bank"], options


def test_a_company_chip_s_letters_read_on_a_light_colour(client):
    """1817NA's light corporations (NYSW yellow, ME peach, PW pale grey) get black letters
    on their chips (white letters on them could hardly be read); dark ones keep white."""
    made = imported(client, recorded("1817NA", "25351.json"), 523)
    page = client.get(f"/games/{made['id']}").text
    chips = dict((sym, style) for style, sym in
                 re.findall(r'<span class="chip" style="([^"]*)">([^<]+)</span>', page))
    for light in ("NYSW", "ME", "PW"):
        assert "color: #000" in chips[light], (light, chips[light])
    for dark in ("UR", "DL&amp;W", "R"):
        assert "color: #fff" in chips[dark], (dark, chips[dark])


def companies_rows(page: str) -> dict:
    """The companies table: its header cells, and each corporation's cells by letters."""
    panel = page.split('id="spreadsheet"')[1].split("</table>")[0]
    head = re.findall(r"<th>([^<]*)</th>", panel)
    rows = {}
    for row in re.findall(r'<tr class="corp[^"]*">(.*?)</tr>', panel, re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip()
                 for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        rows[cells[0]] = dict(zip(head, cells))
    return rows


def test_the_companies_table_shows_loans_and_privates_held(client):
    """1817NA: each corporation's loans (what its share price, interest and a merger turn
    on) and the privates it holds are in the companies table, not only on the card of the
    one operating; a title without loans shows no Loans column."""
    made = imported(client, recorded("1817NA", "25351.json"), 523)
    rows = companies_rows(client.get(f"/games/{made['id']}").text)
    assert rows["PLE"]["Loans"] == "4" and rows["ME"]["Loans"] == "3"
    assert rows["NYOW"]["Privates"] == "MAJC, ME" and rows["UR"]["Privates"] == "UBC"
    assert rows["PSNR"]["Loans"] == "" and rows["PSNR"]["Privates"] == ""
    made = imported(client, recorded("1893", "1893_game_end_bank.json"), 111)
    rows = companies_rows(client.get(f"/games/{made['id']}").text)
    assert "Loans" not in rows["DE"] and "Privates" in rows["DE"]


@pytest.mark.parametrize("names", [("Ann", "Ann"), ("Ann", "Bob", " ann ")])
def test_two_seats_of_one_name_are_refused(client, names):
    """Every seat is named on the page (who is to act, the players, the log): a new game
    whose seats share a name, whatever its case, is refused and nothing is made; in the
    lobby the form comes back as typed with the reason."""
    before = client.get("/").text.count('href="/games/')
    r = client.post("/api/games", json={"title": "1893",
                                        "players": [{"name": n} for n in names]})
    assert r.status_code == 422 and "two seats are named" in r.text, r.text
    form = {"title": "1893", **{f"name{i}": n for i, n in enumerate(names)}}
    r = client.post("/games", data=form)
    assert r.status_code == 422 and "two seats are named" in r.text
    assert f'value="{names[0]}"' in r.text
    assert client.get("/").text.count('href="/games/') == before


def test_a_player_joining_takes_a_name_not_taken(client):
    """An open seat is joined under a name no other seat has (422, the seat stays open);
    under another name it is taken."""
    r = client.post("/games", data={"title": "1893", "name0": "Ann", "bot1": "open",
                                    "name2": "Cid", "seed": "4"})
    gid = re.findall(r'href="/games/(\d+)\?token=', r.text)[0]
    refused = client.post(f"/games/{gid}/join", data={"seat": "1", "name": "cid"})
    assert refused.status_code == 422 and "two seats are named" in refused.text
    assert "Join seat 2" in client.get("/").text
    joined = client.post(f"/games/{gid}/join", data={"seat": "1", "name": "Bea"},
                         follow_redirects=False)
    assert joined.status_code == 303
    players = client.get(f"/api/games/{gid}").json()["players"]
    assert [p["name"] for p in players] == ["Ann", "Bea", "Cid"]
