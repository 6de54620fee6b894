"""The command line on bad input: a clear message and a non-zero exit, never a traceback."""

import json

import pytest

from tracklayer.cli import main
from tracklayer.io.export import export
from tracklayer.randomplay import play_random


@pytest.fixture(scope="module")
def short_game(tmp_path_factory):
    """A short random 1893 game, written as an export with its real result."""
    game = play_random("1893", 3, 2, max_actions=60)
    path = tmp_path_factory.mktemp("games") / "short.json"
    path.write_text(json.dumps(export(game)))
    return path


def write(tmp_path, text):
    path = tmp_path / "game.json"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("text, message", [
    ("{bad", "cannot read"),
    ("[1, 2]", "not an 18xx.games export"),
    ('{"title": "Nope", "players": []}', "unsupported title 'Nope'"),
    ('{"title": "1893", "players": [{"id": 1}]}', "must each have an id and a name"),
])
def test_verify_reports_unreadable_exports(tmp_path, capsys, text, message):
    """verify prints one FAILED line naming the problem and exits 1."""
    assert main(["verify", write(tmp_path, text)]) == 1
    out = capsys.readouterr().out
    assert "FAILED" in out and message in out


def test_verify_reports_a_missing_file(tmp_path, capsys):
    """A file that is not there is a FAILED line, not a traceback."""
    assert main(["verify", str(tmp_path / "missing.json")]) == 1
    assert "cannot read" in capsys.readouterr().out


@pytest.mark.parametrize("command", [["trace"], ["routes", "--all"]])
def test_other_commands_report_bad_input(tmp_path, capsys, command):
    """trace and routes name the problem on stderr and exit non-zero."""
    path = write(tmp_path, '{"title": "Nope", "players": []}')
    assert main([command[0], path] + command[1:]) != 0
    assert "unsupported title 'Nope'" in capsys.readouterr().err


def test_verify_an_unfinished_game_fails(short_game, capsys):
    """A game that has not finished does not verify (exit 1, says why)."""
    data = json.loads(short_game.read_text())
    assert not data["finished"]
    assert main(["verify", str(short_game)]) == 1
    assert "game not finished" in capsys.readouterr().out


def test_trace_writes_one_state_per_action(short_game, tmp_path):
    """trace writes the state after every log entry, numbered from 0."""
    out = tmp_path / "trace.jsonl"
    assert main(["trace", str(short_game), "-o", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == len(json.loads(short_game.read_text())["actions"])
    assert [json.loads(line)["i"] for line in lines] == list(range(len(lines)))
