"""Placing station tokens."""

from __future__ import annotations

from ..errors import GameError
from ..step import Step


class Tokener:
    """Token placement shared by the token step, home tokens and special abilities."""

    def tokener_round_state(self) -> dict:
        return {"tokened": False}

    def can_place_token(self, entity) -> bool:
        if self.current_entity() is not entity or self.round.tokened:
            return False
        tokens = self.available_tokens(entity)
        if not tokens:
            return False
        return self.min_token_price(tokens) <= self.buying_power(entity) and \
            self.game.token_graph_for_entity(entity).can_token(entity)

    def available_tokens(self, entity) -> list:
        holder = entity.owner if entity.is_company else entity
        return holder.tokens_by_type()

    def min_token_price(self, tokens) -> int:
        return min(t.price for t in tokens)

    def place_token(self, entity, city, token, connected: bool = True, extra_action: bool = False,
                    spender=None, same_hex_allowed: bool = False, check_tokenable: bool = True):
        game = self.game
        hex = city.hex
        if hex is None:
            raise GameError(f"city {city.id} is not on the map")
        if connected:
            self.check_connected(entity, city, hex)
        if not extra_action and self.round.tokened:
            raise GameError("a token was already placed this turn")
        if token is None:
            raise GameError(f"{entity.name} has no token to place")
        if token.used:
            raise GameError("that token is already placed")
        free = token.price <= 0
        city.place_token(entity, token, free=free, check_tokenable=check_tokenable,
                         spender=spender, same_hex_allowed=same_hex_allowed)
        if not free:
            (spender or entity).spend(token.price, game.bank)
        game.log(f"{entity.name} places a token on {hex.id}"
                 + (f" for {game.format_currency(token.price)}" if not free else ""))
        if not extra_action:
            self.round.tokened = True
        game.clear_graph_for_entity(entity)

    def check_connected(self, entity, city, hex) -> None:
        if city not in self.game.token_graph_for_entity(entity).connected_nodes(entity):
            raise GameError(f"cannot place a token on {hex.id}: it is not connected")


class Token(Tokener, Step):
    """An operator may place one station token."""

    type = "token"

    def actions(self, entity):
        if entity is not self.current_entity() or not self.can_place_token(entity):
            return []
        return ["place_token", "pass"]

    def description(self) -> str:
        return "Place a Token"

    def round_state(self) -> dict:
        return self.tokener_round_state()

    def setup(self) -> None:
        self.round.tokened = False

    def process_place_token(self, action) -> None:
        entity = action.entity
        self.place_token(entity, action.city, action.token)
        self.pass_()


class HomeToken(Tokener, Step):
    """A corporation whose home city is ambiguous chooses where its first token goes."""

    type = "home_token"

    def round_state(self) -> dict:
        return {"pending_tokens": []}

    def pending_token(self) -> dict:
        pending = getattr(self.round, "pending_tokens", None)
        return pending[0] if pending else {}

    def pending_entity(self):
        return self.pending_token().get("entity")

    def actions(self, entity):
        return ["place_token"] if entity is not None and entity is self.pending_entity() else []

    def active(self) -> bool:
        return self.pending_entity() is not None

    def current_entity(self):
        return self.pending_entity()

    def active_entities(self) -> list:
        return [self.pending_entity()]

    def description(self) -> str:
        return "Place Home Token"

    def process_place_token(self, action) -> None:
        pending = self.pending_token()
        hex = action.city.hex
        if hex not in pending["hexes"]:
            raise GameError(f"cannot place the home token on {hex.id if hex else '?'}")
        token = pending["token"]
        self.place_token(token.corporation, action.city, token, connected=False,
                         extra_action=True)
        self.round.pending_tokens.pop(0)
