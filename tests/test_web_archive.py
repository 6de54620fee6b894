"""Live games survive rule changes (issue 26): a stored game records the rules that accepted
its log; under a rule changed for the test (a tile lay the old rules allowed is refused) it
opens read-only at the last entry both rule versions accept, naming the entry and the rule;
its players continue from there as a new game linked to the old one, or keep it as an
archive; ``tracklayer check-games`` lists it and changes nothing; nothing is deleted."""

from __future__ import annotations


import pytest

from web_support import auth, recorded, web_missing

pytestmark = pytest.mark.skipif(bool(web_missing()), reason=web_missing() or "-")

GAME = ("1893", "1893_game_end_bank.json")
RULE = "no tile may be laid on {hex} (a rule changed for this test)"
OLD = ("0.0.9", "ab" * 32)              # the rules the game was stored under


def change_the_rule(monkeypatch, hex_id: str) -> None:
    """From now on no tile may be laid on ``hex_id``: what a corrected rule does to a log
    that laid one there."""
    from tracklayer.errors import GameError
    from tracklayer.rules import track
    before = track.check_lay_basics

    def corrected(table, operator, where, *args, **kwargs):
        if where == hex_id:
            raise GameError(RULE.format(hex=hex_id))
        return before(table, operator, where, *args, **kwargs)
    monkeypatch.setattr(track, "check_lay_basics", corrected)


def refused_hex(entries) -> tuple:
    """A hex first laid on well into the game: the hex and the number of that entry."""
    lays = [(n, h) for n, h in entries if h.get("type") == "lay_tile"]
    first = {}
    for n, h in lays:
        first.setdefault(h["hex"], n)
    hex_id, number = next((x, n) for x, n in first.items() if n > 100)
    return hex_id, number


@pytest.fixture
def stored(tmp_path):
    """A real game imported under today's rules, then the app started again as a new
    version would be (the same database): ``(url, game, entries, make_client)``."""
    from fastapi.testclient import TestClient
    from tracklayer.web.app import create_app
    url = f"sqlite:///{tmp_path / 'archive.db'}"
    with TestClient(create_app(url, background_bots=False)) as c:
        made = c.post("/api/games/import", json=recorded(*GAME)).json()
        assert c.get(f"/api/games/{made['id']}/rules").json()["accepted_by"]["fingerprint"]
    from sqlalchemy import update
    from tracklayer.web.db import GameRow, Store
    store = Store(url)
    entries = store.entries(made["id"])
    with store.sessions.begin() as s:   # as the version before recorded its rules
        s.execute(update(GameRow).values(rules_version=OLD[0], rules_fingerprint=OLD[1]))
    store.dispose()
    return url, made, entries, lambda: TestClient(create_app(url, background_bots=False))


def stored_rows(url: str, game_id: int) -> list:
    from tracklayer.web.db import Store
    store = Store(url)
    try:
        return store.entries(game_id)
    finally:
        store.dispose()


def test_a_new_game_records_the_rules_that_accept_it(tmp_path):
    from fastapi.testclient import TestClient
    from tracklayer.titles import title
    from tracklayer.web.app import create_app
    from tracklayer.web.rules_version import current
    with TestClient(create_app(f"sqlite:///{tmp_path / 'new.db'}")) as c:
        made = c.post("/api/games", json={"title": "1893", "seed": 4, "players": [
            {"name": "Ann"}, {"name": "Bob"}]}).json()
        rules = c.get(f"/api/games/{made['id']}/rules").json()
    now = current(title("1893"))
    assert rules["accepted_by"] == {"version": now.version, "fingerprint": now.fingerprint}
    assert rules["read_only"] is False and rules["divergence"] is None


def test_the_fingerprint_is_the_titles_own_and_ignores_comments(tmp_path, monkeypatch):
    from tracklayer.titles import TITLES
    from tracklayer.web import rules_version as rv
    prints = {name: rv.fingerprint(t) for name, t in TITLES.items()}
    assert len(set(prints.values())) == len(prints)
    # a comment and a docstring are not rules; a changed number is
    source = "def f(x):\n    '''Doc.'''\n    return x + 1  # one more\n"
    path = tmp_path / "m.py"
    path.write_text(source)
    monkeypatch.setitem(rv._modules(), "tracklayer.test_m", path)
    plain = rv._code_digest("tracklayer.test_m")
    for other, same in (("def f(x):\n    return x + 1\n", True),
                        ("def f(x):\n    return x + 2\n", False)):
        rv._tree.cache_clear(), rv._code_digest.cache_clear()
        path.write_text(other)
        assert (rv._code_digest("tracklayer.test_m") == plain) is same
    rv._tree.cache_clear(), rv._code_digest.cache_clear()


def test_a_game_the_changed_rules_refuse_opens_read_only_naming_entry_and_rule(
        stored, monkeypatch):
    url, made, entries, client = stored
    hex_id, number = refused_hex(entries)
    change_the_rule(monkeypatch, hex_id)
    gid, token = made["id"], made["seats"][0]["token"]
    with client() as c:
        rules = c.get(f"/api/games/{gid}/rules").json()
        assert rules["read_only"] is True
        d = rules["divergence"]
        assert d["entry"] == number and d["agreed"] == number - 1
        assert RULE.format(hex=hex_id) in d["rule"] and d["entries"] == len(entries)
        # the page: read-only, the entry and the rule named, the game at the agreed entry
        page = c.get(f"/games/{gid}?token={token}")
        assert page.status_code == 200
        html = page.text
        assert 'id="read-only"' in html and f"entry {number}</b>" in html
        assert RULE.format(hex=hex_id) in html and f"entry {number - 1}</b>" in html
        assert f'data-number="{number - 1}"' in html and 'id="continue-game"' in html
        assert f"accepted by tracklayer 0.0.9 ({OLD[1][:12]})" in html
        assert rules["accepted_by"] == {"version": OLD[0], "fingerprint": OLD[1]}
        assert 'id="no-actions"' in html and 'id="undo"' not in html
        # nothing may be stored in it
        legal = c.get(f"/api/games/{gid}/legal", headers=auth(token)).json()
        assert legal["actions"] == []
        r = c.post(f"/api/games/{gid}/actions", headers=auth(token),
                   json={"type": "message", "entity": 45, "entity_type": "player",
                         "message": "hello", "id": number})
        assert r.status_code == 409 and "read-only" in r.json()["error"]
        # the log as stored is all there, refused entries included
        assert c.get(f"/api/games/{gid}/stored").json()["actions"] == [h for _, h in entries]
    assert stored_rows(url, gid) == entries


def test_players_continue_from_the_agreed_entry_as_a_new_linked_game(stored, monkeypatch):
    url, made, entries, client = stored
    hex_id, number = refused_hex(entries)
    change_the_rule(monkeypatch, hex_id)
    gid = made["id"]
    ann, bob = made["seats"][0]["token"], made["seats"][1]["token"]
    with client() as c:
        # Ann, from the page: her new seat comes in the new game's cookie
        c.get(f"/games/{gid}?token={ann}")
        r = c.post(f"/games/{gid}/continue", follow_redirects=False)
        assert r.status_code == 303
        new = int(r.headers["location"].rsplit("/", 1)[1])
        assert new != gid and any(h.startswith(f"seats-{new}=")
                                  for h in r.headers.get_list("set-cookie"))
        page = c.get(f"/games/{new}").text
        assert 'id="continues"' in page and f"game {gid}</a> from its entry {number - 1}" in page
        assert f'data-number="{number - 1}"' in page
        # Bob, by the API with his old link: the same new game, his own seat in it
        done = c.post(f"/api/games/{gid}/continue", headers=auth(bob)).json()
        assert done["id"] == new and done["made"] is False and done["entries"] == number - 1
        mine = [s for s in done["seats"] if s["token"]]
        assert [s["position"] for s in mine] == [1]
        bob_new = mine[0]["token"]
        assert bob_new != bob
        # the new game plays on under the changed rules
        legal = c.get(f"/api/games/{new}/legal", headers=auth(bob_new)).json()
        assert c.get(f"/api/games/{new}/rules").json()["read_only"] is False
        assert c.get(f"/api/games/{new}/rules").json()["continues"] == \
            {"game": gid, "entry": number - 1}
        assert stored_rows(url, new) == entries[:number - 1]
        seat_of_someone = next(s for s in made["seats"]
                               if c.get(f"/api/games/{new}/legal",
                                        headers=auth(_new_token(c, gid, s["token"])))
                               .json()["actions"])
        token = _new_token(c, gid, seat_of_someone["token"])
        found = c.get(f"/api/games/{new}/legal", headers=auth(token)).json()
        move = dict(next(a for a in found["actions"] if a["type"] in ("lay_tile", "pass")
                         and a.get("hex") != hex_id), id=found["next_id"])
        assert c.post(f"/api/games/{new}/actions", json=move,
                      headers=auth(token)).status_code == 201
        assert legal["next_id"] == number
        # the old game is kept as it was, naming its continuation
        old = c.get(f"/api/games/{gid}/rules").json()
        assert old["read_only"] is True and old["continued_by"] == new
        assert f'href="/games/{new}"' in c.get(f"/games/{gid}").text
    assert stored_rows(url, gid) == entries


def _new_token(c, gid: int, old_token: str) -> str:
    done = c.post(f"/api/games/{gid}/continue", headers=auth(old_token)).json()
    return next(s["token"] for s in done["seats"] if s["token"])


def test_the_creator_continues_and_gets_the_new_links(stored, monkeypatch):
    url, made, entries, client = stored
    hex_id, number = refused_hex(entries)
    change_the_rule(monkeypatch, hex_id)
    gid = made["id"]
    with client() as c:
        c.get(f"/games/{gid}/manage?key={made['creator_token']}")
        assert 'id="manage-continue"' in c.get(f"/games/{gid}/manage").text
        r = c.post(f"/games/{gid}/manage/continue")
        assert r.status_code == 201 and 'id="continues"' in r.text
        assert r.text.count('class="seat-link"') == 3 and 'id="manage-link"' in r.text
        # a stranger may not
        c.cookies.clear()
        assert c.post(f"/api/games/{gid}/continue").status_code == 401
        assert c.post(f"/api/games/{gid}/continue",
                      headers=auth("x" * 32)).status_code == 403


def test_players_may_keep_it_as_an_archive_instead(stored, monkeypatch):
    url, made, entries, client = stored
    hex_id, number = refused_hex(entries)
    change_the_rule(monkeypatch, hex_id)
    gid, token = made["id"], made["seats"][2]["token"]
    with client() as c:
        c.get(f"/games/{gid}?token={token}")
        assert c.post(f"/games/{gid}/archive", follow_redirects=False).status_code == 303
        rules = c.get(f"/api/games/{gid}/rules").json()
        assert rules["archived"] is True and rules["read_only"] is True
        html = c.get(f"/games/{gid}").text
        assert "kept as an archive" in html and 'id="keep-archive"' not in html
    monkeypatch.undo()                  # even once the rules accept it again: an archive
    with client() as c:
        assert c.get(f"/api/games/{gid}/rules").json()["read_only"] is True
    assert stored_rows(url, gid) == entries


def test_a_game_that_replays_whole_is_recorded_as_accepted_by_the_new_rules(stored):
    from sqlalchemy import update
    from tracklayer.web.db import GameRow, Store
    url, made, entries, client = stored

    def recorded_rules():
        store = Store(url)
        try:
            row = store.game(made["id"])
            return row.rules_version, row.rules_fingerprint
        finally:
            store.dispose()
    store = Store(url)
    with store.sessions.begin() as s:
        s.execute(update(GameRow).values(rules_version="0.0.9", rules_fingerprint="0" * 64))
    store.dispose()
    with client() as c:
        rules = c.get(f"/api/games/{made['id']}/rules").json()
        assert rules["read_only"] is False and rules["accepted_by"]["fingerprint"] != "0" * 64
    assert recorded_rules() == (rules["accepted_by"]["version"],
                                rules["accepted_by"]["fingerprint"])


def test_on_postgresql_the_game_continues_once(monkeypatch):
    """Migration 0005 on PostgreSQL: the rules recorded, a continuation made once (a second
    ask, as from another worker, finds the same), the old log untouched."""
    from tracklayer.web import archive_pages
    from tracklayer.web.db import Store
    from tracklayer.web.service import Service
    from web_support import drop_postgres, postgres_url
    url = postgres_url()
    try:
        store = Store(url)
        service = Service(store, lambda *a: None, False)
        made = service.import_export(recorded(*GAME))
        gid = made["id"]
        entries = store.entries(gid)
        assert store.game(gid).rules_fingerprint
        hex_id, number = refused_hex(entries)
        change_the_rule(monkeypatch, hex_id)
        from sqlalchemy import update
        from tracklayer.web.db import GameRow
        with store.sessions.begin() as s:   # as a changed rule's fingerprint would have it
            s.execute(update(GameRow).values(rules_version=OLD[0], rules_fingerprint=OLD[1]))
        service.forget(gid)
        assert service.get(gid).standing.divergence.number == number
        first = archive_pages.continue_game(service, gid, [made["seats"][0]["token"]])
        service.forget(gid)
        again = archive_pages._make_continuation(service, service.get(gid))
        assert first["made"] and again == first["id"]
        assert store.entries(first["id"]) == entries[:number - 1]
        assert store.entries(gid) == entries
        store.dispose()
    finally:
        drop_postgres(url)


def test_a_log_these_rules_accepted_is_replayed_trusted(tmp_path, monkeypatch):
    """A stored log the current rules accepted opens without asking what can only refuse
    (a rule changed without its fingerprint is not asked); recorded under other rules, it
    is checked entry by entry."""
    from sqlalchemy import update
    from tracklayer.web.db import GameRow, Store
    from tracklayer.web.service import Service
    store = Store(f"sqlite:///{tmp_path / 'trusted.db'}")
    try:
        service = Service(store, lambda *a: None, False)
        made = service.import_export(recorded(*GAME))
        gid = made["id"]
        hex_id, number = refused_hex(store.entries(gid))
        change_the_rule(monkeypatch, hex_id)
        service.forget(gid)
        assert service.get(gid).standing.divergence is None
        with store.sessions.begin() as s:
            s.execute(update(GameRow).values(rules_version=OLD[0], rules_fingerprint=OLD[1]))
        service.forget(gid)
        assert service.get(gid).standing.divergence.number == number
    finally:
        store.dispose()
