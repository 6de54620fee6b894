"""``tracklayer check-games`` (issue 26): every stored game replayed under these rules, those
that would diverge listed (game, title, entry, rule) with an exit status that says so, the
database left exactly as it was; games their players already continued or archived are
listed but do not count. (Its speed on 100 games: benchmarks/check_games.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from test_web_archive import RULE, auth, change_the_rule, recorded, refused_hex, stored, \
    stored_rows  # noqa: F401  (stored: the fixture)
from web_support import web_missing

pytestmark = pytest.mark.skipif(bool(web_missing()), reason=web_missing() or "-")


def test_check_games_lists_the_games_that_would_diverge_and_changes_nothing(
        stored, monkeypatch, capsys):
    from tracklayer.cli import main
    from tracklayer.web import check_games
    url, made, entries, client = stored
    with client() as c:                 # a second game, which stays good
        other = c.post("/api/games/import",
                       json=recorded("1871", "1871_game_end_bankrupt.json")).json()["id"]
    assert main(["check-games", "--db", url]) == 0
    assert "2 games" in capsys.readouterr().out
    # a game recorded under other rules is not recorded anew by the check
    from sqlalchemy import update
    from tracklayer.web.db import GameRow, Store
    store = Store(url)
    with store.sessions.begin() as s:
        s.execute(update(GameRow).where(GameRow.id == other)
                  .values(rules_version="0.0.9", rules_fingerprint="0" * 64))
    store.dispose()
    hex_id, number = refused_hex(entries)
    change_the_rule(monkeypatch, hex_id)
    before = (file_bytes(url), stored_rows(url, made["id"]), stored_rows(url, other))
    found = {g.id: g for g in check_games.check(url)}
    assert found[other].divergence is None and found[other].accepted_by.version == "0.0.9"
    d = found[made["id"]].divergence
    assert (d.number, d.agreed) == (number, number - 1) and RULE.format(hex=hex_id) in d.rule
    assert main(["check-games", "--db", url]) == 1
    out = capsys.readouterr().out
    assert f"game {made['id']} (1893): entry {number} of {len(entries)} (lay_tile" in out
    assert RULE.format(hex=hex_id) in out and "1 would diverge" in out
    assert "(accepted by 0.0.9 (abababababab))" in out
    assert main(["check-games", "--db", url, "--json"]) == 1
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0]["id"] == made["id"] and lines[-1]["summary"]["diverging"] == 1
    assert (file_bytes(url), stored_rows(url, made["id"]), stored_rows(url, other)) == before
    # once its players chose, it is listed but no longer counts
    with client() as c:
        c.post(f"/api/games/{made['id']}/archive", headers=auth(made["seats"][0]["token"]))
    assert main(["check-games", "--db", url]) == 0
    assert "[kept as an archive]" in capsys.readouterr().out


def file_bytes(url: str) -> bytes:
    return Path(url[len("sqlite:///"):]).read_bytes()


def test_check_games_says_when_there_is_no_database(tmp_path, capsys):
    from tracklayer.cli import main
    missing = tmp_path / "none.db"
    assert main(["check-games", "--db", f"sqlite:///{missing}"]) == 2
    assert "cannot read the games" in capsys.readouterr().err
    assert not missing.exists()
