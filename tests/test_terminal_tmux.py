"""The terminal as a person sees it: ``tracklayer play`` runs in a tmux pane on a 1893
game of one person and two greedy bots; keys are sent as a person would type them (the
first move listed, the least price, "n" to a proposal) for 30 of the person's moves, then
``map``, ``market`` and ``log``; the screen (tmux capture-pane, with its scrollback) must
show the map, the market, the log lines the moves caused and the rounds by name, and no
Python error."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tracklayer.cli import main

ROOT = Path(__file__).resolve().parent.parent
MOVES = 30
WAIT = 60.0                 # seconds a prompt may take to come (bots move in between)


def _tmux(sock: str, *args: str) -> str:
    return subprocess.run(["tmux", "-L", sock, *args], check=True, capture_output=True,
                          text=True).stdout


class Pane:
    """A tmux server of its own, with one pane running a command."""

    def __init__(self, command: str, sock: str) -> None:
        self.sock = sock
        self.sent = ""              # the screen when keys were last sent
        _tmux(sock, "-f", "/dev/null", "new-session", "-d", "-s", "play", "-x", "120",
              "-y", "50", command)
        _tmux(sock, "set-option", "-t", "play", "history-limit", "100000")
        _tmux(sock, "resize-window", "-t", "play", "-x", "120", "-y", "50")

    def screen(self, history: bool = False) -> str:
        args = ["capture-pane", "-p", "-J", "-t", "play"] + (["-S", "-"] if history else [])
        return _tmux(self.sock, *args)

    def send(self, keys: str) -> None:
        self.sent = self.screen()
        if keys:
            _tmux(self.sock, "send-keys", "-t", "play", "-l", keys)
        _tmux(self.sock, "send-keys", "-t", "play", "Enter")

    def prompt(self) -> str:
        """The last line once the program waits for input (it ends in a prompt and stays)."""
        deadline = time.monotonic() + WAIT
        last = None
        while time.monotonic() < deadline:
            screen = self.screen()
            lines = [line for line in screen.splitlines() if line.strip()]
            tail = lines[-1].rstrip() if lines else ""
            if tail.endswith((">", "[y/n]")) and screen == last and screen != self.sent:
                return tail
            last = screen
            time.sleep(0.15)
        raise AssertionError("no prompt came:\n" + self.screen())

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.sock, "kill-server"], capture_output=True)


def _actions(path: Path) -> int:
    return len(json.loads(path.read_text())["actions"])


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_thirty_moves_of_1893_in_a_tmux_pane(tmp_path):
    game = tmp_path / "game.json"
    assert main(["new", "1893", "--players", "Ann,bot:greedy,bot:greedy", "--seed", "7",
                 "-o", str(game)]) == 0
    command = (f"cd {ROOT} && COLUMNS=120 LINES=50 PYTHONPATH={ROOT} {sys.executable} -m "
               f"tracklayer play {game}; echo PLAY-ENDED; sleep 600")
    pane = Pane(command, f"tracklayer-test-{os.getpid()}")
    try:
        moved = 0
        inputs = 0
        while moved < MOVES:
            tail = pane.prompt()
            before = _actions(game)
            if tail.endswith("[y/n]"):
                pane.send("n")
            elif "Enter for" in tail:
                pane.send("")                  # the least price
            else:
                pane.send("1")                 # the first move (or group) listed
            inputs += 1
            assert inputs < 4 * MOVES, pane.screen(history=True)
            pane.prompt()
            if _actions(game) > before and not tail.endswith("[y/n]"):
                moved += 1
        for command in ("map", "market", "log 12"):
            pane.send(command)
            pane.prompt()
        screen = pane.screen(history=True)
    finally:
        pane.close()
    (tmp_path / "screen.txt").write_text(screen)
    assert "Traceback" not in screen and "PLAY-ENDED" not in screen
    assert screen.count("Ann to move") >= MOVES // 2
    # the rounds by name, the moves in words, the engine's lines after them
    assert "1893: Draft Round 1" in screen and "1893: Stock Round 1" in screen
    assert "1893: Operating Round 1.1" in screen and "1893: Operating Round 1.2" in screen
    assert "buys a 2-train from the depot for 80M" in screen          # a move in words
    assert "buys a 2 train for 80M from The Depot" in screen          # the engine's line
    assert "collects" in screen and "operates" in screen
    assert "\n    Phase 3\n" in screen and "trains rust" in screen   # events, as they happen
    # the map: the grid and the places by row, with tiles and stations
    assert "Row T" in screen and "Euskirchen" in screen and "T3*" in screen
    assert "#6 yellow" in screen or "yellow" in screen
    # the market with the corporations on their prices
    assert "Stock market" in screen and "p: a starting price" in screen
    market = screen[screen.rindex("Stock market"):]
    assert any(sym in market for sym in ("DE", "RSE", "RAG", "AGV", "HGK"))
    # the log's last lines, as the engine wrote them
    data = json.loads(game.read_text())
    assert len(data["actions"]) >= MOVES
