"""Who decides: the seat (a player at the table, 0-based in the game's list of players) that
makes the decision for an action. The web app, the terminal, self-play and the bots all ask
here, so that they never disagree about whose move it is.

- A player decides for themselves, and for what they own: a private company, a minor, a
  corporation they preside over, and so on up the chain of owners.
- A player without a seat of their own is decided for by whom the title names
  (``Variant.decides_for``): 1871's Union Bank, "player -1", by the owner of the UB
  private — for the corporations the Union Bank presides over too.
- An entity nobody holds yet is decided for by the player whose turn it is in the round:
  1817's corporation being founded chooses its home city as soon as its auction opens,
  by the player who opened it.
"""

from __future__ import annotations

from typing import List, Optional

from ..game import Game
from ..state.model import CompanyState, OperatorState, PlayerState

MAX_CHAIN = 6           # owners above owners: a company of a minor of a corporation …


def owning_player(entity) -> Optional[PlayerState]:
    """The player at the top of ``entity``'s chain of owners (itself if a player), or
    None if the chain ends without one."""
    for _ in range(MAX_CHAIN):
        if entity is None or isinstance(entity, PlayerState):
            return entity
        entity = entity.owner if isinstance(entity, (OperatorState, CompanyState)) else None
    return None


def round_player(game: Game) -> Optional[PlayerState]:
    """The player whose turn it is in the round (a stock round's, an auction's), if the
    round goes by players."""
    r = game.table.round
    entities = r.entities or []
    if 0 <= r.index < len(entities) and isinstance(entities[r.index], PlayerState):
        return entities[r.index]
    return None


def seat_of(game: Game, player) -> Optional[int]:
    """The seat of ``player`` (its place in the game's list of players, which stays put
    while the order of play changes), or None if it has none."""
    if player is None:
        return None
    for i, (pid, _name) in enumerate(game.player_specs):
        if pid == player.id:
            return i
    return None


def player_at(game: Game, seat: int) -> PlayerState:
    return game.table.find("player", game.player_specs[seat][0])


def decider(game: Game, entity) -> Optional[PlayerState]:
    """The seated player who decides for ``entity`` (see the module docstring), or None
    for something no player decides for."""
    if entity is None:
        return None
    player = owning_player(entity)
    if player is None and isinstance(entity, (OperatorState, CompanyState)):
        player = round_player(game)
    if player is None:
        return None
    player = game.table.variant.decides_for(game.table, player)
    return player if seat_of(game, player) is not None else None


def entity_of(game: Game, action: dict):
    return game.table.find(action.get("entity_type"), action.get("entity"))


def deciding_seat(game: Game, action: dict) -> Optional[int]:
    """The seat that decides ``action`` (an 18xx.games action dict): who decides for its
    entity. The one answer to "whose move is this" for the web, the terminal and bots."""
    return seat_of(game, decider(game, entity_of(game, action)))


def acting_seats(game: Game, moves: Optional[List[dict]] = None) -> List[int]:
    """The seats with a legal move now, in the order their first move is listed."""
    if game.is_over:
        return []
    found: List[int] = []
    for h in game.legal_actions() if moves is None else moves:
        seat = deciding_seat(game, h)
        if seat is not None and seat not in found:
            found.append(seat)
    return found


def seat_to_act(game: Game) -> Optional[int]:
    """The seat that decides for the entity whose turn it is."""
    acting = game.acting
    return seat_of(game, decider(game, acting)) if acting is not None else None


def moves_of(game: Game, seat: int, moves: Optional[List[dict]] = None) -> List[dict]:
    """The legal moves the player in ``seat`` decides."""
    moves = game.legal_actions() if moves is None else moves
    return [h for h in moves if deciding_seat(game, h) == seat]
