"""The illegal-action guarantee: an action that breaks a rule, or is malformed, raises
``GameError`` (``ActionError`` when malformed) naming the action — its position in the
action list and its id — and the rule, and leaves the game exactly as it was: same state,
same action list, and the next legal action is still accepted.

The games are the hand-written 1893 game of ``synthetic_1893.py``, stopped at its named
checkpoints (see there for who owns what).
"""

from __future__ import annotations

import pytest

from conftest import play_until
from synthetic_1893 import CHECKPOINTS, game_at, new_game, script, state
from tracklayer.errors import ActionError, GameError, RouteError
from tracklayer.state.model import PlayerState

BAD_ID = 9000

A = {"entity": 1, "entity_type": "player"}
B = {"entity": 2, "entity_type": "player"}
C = {"entity": 3, "entity_type": "player"}
EKB = {"entity": "EKB", "entity_type": "minor"}
KSZ = {"entity": "KSZ", "entity_type": "minor"}
KBE = {"entity": "KBE", "entity_type": "minor"}
KFBE = {"entity": "KFBE", "entity_type": "minor"}
DE = {"entity": "DE", "entity_type": "corporation"}


def route(train, connections, revenue):
    return {"train": train, "connections": connections, "revenue": revenue}


def case(checkpoint, who, fields, rule, error=GameError, id=None):
    return pytest.param(checkpoint, dict(fields, **who), rule, error, id=id)


CASES = [
    # -- Draft: C's turn; privates and the two lowest minors (KSZ, KBE) are on offer.
    case("draft", A, {"type": "bid", "company": "KSZ", "price": 100}, "it is C's turn",
         id="draft-out-of-turn"),
    case("draft", {"entity": 99, "entity_type": "player"},
         {"type": "bid", "company": "KSZ", "price": 100}, "unknown entity 99", ActionError,
         id="draft-unknown-player"),
    case("draft", {"entity": 3, "entity_type": "minor"},
         {"type": "bid", "company": "KSZ", "price": 100}, "unknown entity 3", ActionError,
         id="draft-wrong-entity-type"),
    case("draft", C, {"type": "fly"}, "cannot fly now", id="draft-unknown-type"),
    case("draft", C, {}, "needs a 'type'", ActionError, id="draft-no-type"),
    case("draft", C, {"type": "bid", "company": "KSZ"}, "needs 'price'", ActionError,
         id="draft-bid-without-price"),
    case("draft", C, {"type": "bid", "price": 100}, "needs a company", ActionError,
         id="draft-bid-without-item"),
    case("draft", C, {"type": "bid", "company": "XYZ", "price": 100}, "unknown company",
         ActionError, id="draft-unknown-company"),
    case("draft", C, {"type": "bid", "company": "KSZ", "price": 90}, "costs 100M",
         id="draft-below-face-value"),
    case("draft", C, {"type": "bid", "company": "KSZ", "price": 150}, "costs 100M",
         id="draft-above-face-value"),
    case("draft", C, {"type": "bid", "company": "KSZ", "price": "100"},
         "'price' must be a whole number", ActionError, id="draft-price-as-text"),
    case("draft", C, {"type": "bid", "company": "BKB", "price": 180}, "cannot be bought now",
         id="draft-minor-not-yet-offered"),
    case("draft", C, {"type": "bid", "company": "KFBE", "price": 200}, "cannot be bought now",
         id="draft-item-already-sold"),
    case("draft", C, {"type": "bid", "company": "AdSK-1", "price": 100}, "cannot be bought now",
         id="draft-bond-not-in-draft"),
    case("draft", C, {"type": "bid", "corporation": "DE", "price": 100}, "cannot be bought now",
         id="draft-bid-on-corporation"),
    case("draft", C, {"type": "par", "corporation": "DE", "share_price": "70,4,2"},
         "cannot par now", id="draft-par-during-draft"),
    case("draft", C, {"type": "bid", "company": "KSZ", "price": 100,
                      "auto_actions": [dict(A, type="bid", company="KBE", price=1)]},
         "costs 220M", id="draft-legal-action-with-illegal-auto-action"),

    # -- Stock round 1: B's turn (90M); DE and RSE are parred, their shares in the market.
    case("sr1", C, {"type": "buy_shares", "shares": ["DE_1"], "percent": 10},
         "it is B's turn", id="sr1-out-of-turn"),
    case("sr1", B, {"type": "buy_shares", "shares": ["AGV_3"], "percent": 10},
         "AGV", id="sr1-agv-before-phase-4"),
    case("sr1", B, {"type": "buy_shares", "shares": ["RAG_1"], "percent": 10}, "RAG",
         id="sr1-share-of-unparred-corporation"),
    case("sr1", B, {"type": "buy_shares", "shares": ["DE_0"], "percent": 20},
         "cannot buy a share of DE", id="sr1-another-players-certificate"),
    case("sr1", B, {"type": "buy_shares", "shares": ["RSE_1", "RSE_2"], "percent": 20},
         "a stock round purchase is one certificate", id="sr1-two-certificates"),
    case("sr1", B, {"type": "buy_shares", "shares": [], "percent": 10},
         "at least one share", id="sr1-no-shares"),
    case("sr1", B, {"type": "buy_shares", "shares": ["RSE_1", "DE_1"], "percent": 20},
         "same corporation", id="sr1-shares-of-two-corporations"),
    case("sr1", B, {"type": "buy_shares", "shares": ["XX_1"]}, "unknown share", ActionError,
         id="sr1-unknown-share"),
    case("sr1", B, {"type": "par", "corporation": "RAG", "share_price": "60,5,1"},
         "cannot par now", id="sr1-par-without-cash"),
    case("sr1", B, {"type": "sell_shares", "shares": ["RSE_0"], "percent": 20},
         "cannot sell_shares now", id="sr1-sell-presidents-certificate"),

    # Malformed fields of a standing order to buy (18xx.games needs both named).
    case("sr1", B, {"type": "program_buy_shares", "until_condition": "float"},
         "needs 'corporation'", ActionError, id="sr1-buying-program-without-corporation"),
    case("sr1", B, {"type": "program_buy_shares", "corporation": "XYZ",
                    "until_condition": "float"}, "unknown corporation", ActionError,
         id="sr1-buying-program-unknown-corporation"),
    case("sr1", B, {"type": "program_buy_shares", "corporation": "EKB",
                    "until_condition": "float"}, "unknown corporation", ActionError,
         id="sr1-buying-program-for-a-minor"),
    case("sr1", B, {"type": "program_buy_shares", "corporation": "DE"},
         "needs 'until_condition'", ActionError, id="sr1-buying-program-without-condition"),
    case("sr1", B, {"type": "program_buy_shares", "corporation": "DE",
                    "until_condition": "garbage"}, "runs until 'float' or a number",
         ActionError, id="sr1-buying-program-until-garbage"),
    case("sr1", B, {"type": "program_buy_shares", "corporation": "DE",
                    "until_condition": 2.5}, "runs until 'float' or a number",
         ActionError, id="sr1-buying-program-until-2.5-shares"),
    case("sr1", B, {"type": "program_buy_shares", "corporation": "DE",
                    "until_condition": -5}, "runs until 'float' or a number",
         ActionError, id="sr1-buying-program-until-minus-5-shares"),
    # No loans in 1893.
    case("sr1", B, {"type": "take_loan", "loan": 0}, "has no loans", ActionError,
         id="sr1-loan-in-a-title-without-loans"),

    # -- Stock round 1, C's turn again (holds DE_0 and DE_1).
    case("sr1_sell", C, {"type": "sell_shares", "shares": ["DE_1"], "percent": 10},
         "cannot sell_shares now", id="sr1-sell-in-first-stock-round"),
    case("sr1_sell", C, {"type": "par", "corporation": "RAG", "share_price": "65,4,1"},
         "cannot be parred at 65M", id="sr1-par-at-non-par-price"),
    case("sr1_sell", C, {"type": "par", "corporation": "RAG", "share_price": "120,1,5"},
         "cannot be parred at 120M", id="sr1-par-at-120-reserved-for-agv-hgk"),
    case("sr1_sell", C, {"type": "par", "corporation": "DE", "share_price": "70,4,2"},
         "DE cannot be parred", id="sr1-par-twice"),
    case("sr1_sell", C, {"type": "par", "corporation": "RAG", "share_price": "7,0,99"},
         "unknown share price", ActionError, id="sr1-par-unknown-price"),
    case("sr1_sell", C, {"type": "par", "corporation": "RAG", "share_price": "999,1,3"},
         "unknown share price", ActionError, id="sr1-par-price-not-that-of-the-cell"),
    case("sr1_sell", C, {"type": "par", "corporation": "AGV", "share_price": "60,5,1"},
         "AGV", id="sr1-par-agv"),
    case("sr1_sell", C, {"type": "buy_company", "company": "AdSK-1", "price": 90},
         "costs 100M", id="sr1-bond-below-value"),
    case("sr1_sell", C, {"type": "buy_company", "company": "AdSK-2", "price": 100},
         "not for sale", id="sr1-bond-out-of-order"),
    case("sr1_sell", C, {"type": "buy_company", "company": "EVA", "price": 150},
         "not for sale", id="sr1-buy-own-private"),
    case("sr1_sell", C, {"type": "sell_company", "company": "EVA", "price": 150},
         "cannot sell_company now", id="sr1-sell-private"),

    # -- Operating round 1.1, phase 2: EKB (home T3) lays track.
    case("or1_track", EKB, {"type": "lay_tile", "hex": "T3", "tile": "14-0", "rotation": 0},
         "green tiles cannot be laid in phase 2", id="or1-green-tile-in-phase-2"),
    case("or1_track", EKB, {"type": "lay_tile", "hex": "T3", "tile": "7-0", "rotation": 2},
         "cannot be upgraded to 7", id="or1-plain-track-on-a-city"),
    case("or1_track", EKB, {"type": "lay_tile", "hex": "T3", "tile": "K5-0", "rotation": 2},
         "cannot be upgraded to K5", id="or1-wrong-label"),
    case("or1_track", EKB, {"type": "lay_tile", "hex": "T3", "tile": "57-0", "rotation": 0},
         "cannot be laid on T3 with rotation 0", id="or1-track-off-the-map"),
    case("or1_track", EKB, {"type": "lay_tile", "hex": "I8", "tile": "57-0", "rotation": 0},
         "cannot be laid on I8", id="or1-unconnected-hex"),
    case("or1_track", EKB, {"type": "lay_tile", "hex": "S4", "tile": "9-0", "rotation": 1},
         "cannot be laid on S4", id="or1-track-not-reaching-the-network"),
    case("or1_track", EKB, {"type": "lay_tile", "hex": "U4", "tile": "57-0", "rotation": 2},
         "cannot be upgraded to 57", id="or1-tile-on-gray-hex"),
    case("or1_track", EKB, {"type": "lay_tile", "hex": "T3", "tile": "P7-0", "rotation": 2},
         "not available", id="or1-preprinted-tile"),
    case("or1_track", EKB, {"type": "lay_tile", "hex": "T3", "tile": "57-0", "rotation": 6},
         "rotation must be 0-5", ActionError, id="or1-rotation-6"),
    case("or1_track", EKB, {"type": "lay_tile", "hex": "T3", "tile": "57-0", "rotation": "2"},
         "rotation must be 0-5", ActionError, id="or1-rotation-as-text"),
    case("or1_track", EKB, {"type": "lay_tile", "hex": "T3", "tile": "57-0"},
         "needs 'rotation'", ActionError, id="or1-no-rotation"),
    case("or1_track", EKB, {"type": "lay_tile", "hex": "ZZ9", "tile": "57-0", "rotation": 2},
         "unknown hex", ActionError, id="or1-unknown-hex"),
    case("or1_track", EKB, {"type": "lay_tile", "hex": "T3", "tile": "57-7", "rotation": 2},
         "unknown tile", ActionError, id="or1-unknown-tile"),
    case("or1_track", KFBE, {"type": "lay_tile", "hex": "L3", "tile": "57-1", "rotation": 1},
         "it is EKB's turn", id="or1-another-minor"),
    case("or1_track", EKB, {"type": "buy_train", "train": "2-0", "price": 80},
         "cannot buy_train now", id="or1-train-before-track-step-is-done"),
    case("or1_track", EKB, {"type": "lay_tile", "hex": "T3", "tile": "57-0", "rotation": 2,
                            "auto_actions": [dict(EKB, type="buy_train", train="2-0",
                                                  price=1)]},
         "costs 80M", id="or1-legal-lay-with-illegal-auto-action"),

    # -- EKB has laid its tile and may buy trains (210M).
    case("or1_train", EKB, {"type": "lay_tile", "hex": "S2", "tile": "58-0", "rotation": 5},
         "cannot lay_tile now", id="or1-second-tile"),
    case("or1_train", EKB, {"type": "buy_train", "train": "2-0", "price": 70}, "costs 80M",
         id="or1-train-below-price"),
    case("or1_train", EKB, {"type": "buy_train", "train": "2-0"}, "needs 'price'", ActionError,
         id="or1-train-without-price"),
    case("or1_train", EKB, {"type": "buy_train", "train": "3-0", "price": 180},
         "cannot buy train 3-0 now", id="or1-train-not-yet-available"),
    case("or1_train", EKB, {"type": "buy_train", "train": "2-1", "price": 80},
         "cannot buy train 2-1 now", id="or1-train-out-of-depot-order"),
    case("or1_train", EKB, {"type": "buy_train", "train": "9-0", "price": 80},
         "unknown train", ActionError, id="or1-unknown-train"),
    case("or1_train", EKB, {"type": "discard_train", "train": "2-0"},
         "cannot discard_train now", id="or1-discard-a-train-not-owned"),
    case("or1_train", EKB, {"type": "run_routes", "routes": []}, "cannot run_routes now",
         id="or1-run-after-the-route-step"),

    # -- KSZ has bought a 2-train and has 20M left.
    case("ksz_poor", KSZ, {"type": "buy_train", "train": "2-3", "price": 80},
         "cannot spend 80", id="or1-train-the-minor-cannot-afford"),

    # -- DE lays its first tile (home O2, white).
    case("de1_track", DE, {"type": "lay_tile", "hex": "O2", "tile": "57-0", "rotation": 1},
         "not available", id="or1-tile-already-laid-elsewhere"),
    case("de1_track", DE, {"type": "lay_tile", "hex": "N3", "tile": "8-0", "rotation": 5},
         "cannot be laid on N3", id="or1-track-beyond-the-home-hex"),
    case("de1_track", DE, {"type": "lay_tile", "hex": "O2", "tile": "4-0", "rotation": 1},
         "cannot be upgraded to 4", id="or1-town-tile-on-a-city"),

    # -- DE must buy a train (it has a route, 540M).
    case("de1_train", DE, {"type": "pass"}, "cannot pass now", id="or1-pass-when-a-train-is-due"),
    case("de1_train", DE, {"type": "bankrupt"}, "cannot go bankrupt",
         id="or1-bankrupt-with-cash"),
    case("de1_train", C, {"type": "sell_shares", "shares": ["DE_1"], "percent": 10},
         "cannot sell shares of DE", id="or1-emergency-sale-not-needed"),

    # -- Operating round 1.2, still phase 2: EKB may lay track.
    case("or2_track", EKB, {"type": "lay_tile", "hex": "T3", "tile": "14-0", "rotation": 2},
         "green tiles cannot be laid in phase 2", id="or2-upgrade-in-phase-2"),
    case("or2_track", EKB, {"type": "lay_tile", "hex": "S2", "tile": "58-1", "rotation": 0},
         "cannot be laid on S2 with rotation 0", id="or2-town-tile-turned-away"),

    # -- EKB runs its 2-train (T3-U4 pays 30).
    case("or2_route", EKB, {"type": "run_routes", "routes": [route("2-0", [["T3", "U4"]], 40)]},
         "earns 30, not 40", RouteError, id="or2-wrong-revenue"),
    case("or2_route", EKB, {"type": "run_routes", "routes": [route("2-0", [["T3", "S2"]], 30)]},
         "not on the map", RouteError, id="or2-route-over-unbuilt-track"),
    case("or2_route", EKB, {"type": "run_routes", "routes": [route("2-0", [["P7", "Q8"]], 30)]},
         "not on the map", RouteError, id="or2-route-without-own-token"),
    case("or2_route", EKB, {"type": "run_routes", "routes": [route("2-1", [["T3", "U4"]], 30)]},
         "another company's train", id="or2-another-companys-train"),
    case("or2_route", EKB, {"type": "run_routes",
                            "routes": [route("2-0", [["T3", "U4"]], 30),
                                       route("2-0", [["T3", "U4"]], 30)]},
         "2-0", RouteError, id="or2-one-train-twice"),
    case("or2_route", EKB, {"type": "run_routes",
                            "routes": [route("2-0", [["T3", "U4"], ["U4", "T3"]], 30)]},
         "not on the map", RouteError, id="or2-stop-visited-twice"),
    case("or2_route", EKB, {"type": "run_routes", "routes": [route("2-0", [["T3"]], 20)]},
         "not on the map", RouteError, id="or2-single-hex-route"),
    case("or2_route", EKB, {"type": "run_routes", "routes": [route("2-0", [["T3", "ZZ4"]], 30)]},
         "unknown hex", RouteError, id="or2-unknown-hex-in-route"),
    case("or2_route", EKB, {"type": "run_routes",
                            "routes": [{"connections": [["T3", "U4"]], "revenue": 30}]},
         "unknown train", RouteError, id="or2-route-without-train"),
    case("or2_route", EKB, {"type": "run_routes"}, "needs 'routes'", ActionError,
         id="or2-no-routes"),
    case("or2_route", EKB, {"type": "run_routes", "routes": "T3-U4"}, "must be a list",
         ActionError, id="or2-routes-not-a-list"),

    # -- DE runs O2-N1 (40); its network also reaches N3, whose track leads to O4's edge.
    case("de2_route", DE, {"type": "run_routes",
                           "routes": [route("2-5", [["O2", "N3", "O4"]], 40)]},
         "not on the map", RouteError, id="or2-route-into-a-city-without-track-to-it"),
    case("de2_route", DE, {"type": "run_routes",
                           "routes": [route("2-5", [["O2", "N1"]], 40),
                                      route("2-6", [["O2", "N1"]], 40)]},
         "not on the map", RouteError, id="or2-two-trains-on-the-same-track"),
    case("de2_route", DE, {"type": "run_routes", "routes": [route("2-5", [["O2", "P1"]], 40)]},
         "not on the map", RouteError, id="or2-route-to-unconnected-offboard"),
    case("de2_route", DE, {"type": "run_routes",
                           "routes": [route("2-5", [["O2", "N1"]], 40)], "extra_revenue": 100},
         "extra revenue", RouteError, id="or2-made-up-extra-revenue"),
    case("de2_dividend", DE, {"type": "dividend", "kind": "half"},
         "unknown dividend kind", id="or2-unknown-dividend-kind"),
    case("de2_dividend", DE, {"type": "dividend"}, "needs 'kind'", ActionError,
         id="or2-dividend-without-kind"),

    # -- DE buys a 3-train (180M, or 140M trading in a 2-train).
    case("de2_train", DE, {"type": "buy_train", "train": "4-0", "price": 300},
         "cannot buy train 4-0 now", id="or2-4-train-before-its-time"),
    case("de2_train", DE, {"type": "buy_train", "train": "3-0", "price": 140},
         "costs 180M", id="or2-trade-in-price-without-trade-in"),
    case("de2_train", DE, {"type": "buy_train", "train": "3-0", "price": 150, "exchange": "2-5"},
         "costs 140", id="or2-wrong-trade-in-price"),
    case("de2_train", DE, {"type": "buy_train", "train": "3-0", "price": 140, "exchange": "2-0"},
         "does not own train 2-0", id="or2-trade-in-another-companys-train"),

    # -- Forced auction of HdSK: A must choose what to auction.
    case("auction", A, {"type": "bid", "company": "EVA", "price": 150}, "cannot be auctioned",
         id="auction-item-already-sold"),
    case("auction", A, {"type": "pass"}, "cannot pass now", id="auction-pass-before-choosing"),
    case("auction", B, {"type": "bid", "company": "HdSK", "price": 100}, "it is A's turn",
         id="auction-out-of-turn"),

    # -- Stock round 2: C's turn; the market holds 50% of DE (its limit).
    case("sr2", C, {"type": "sell_shares", "shares": ["DE_1"], "percent": 10},
         "cannot sell_shares now", id="sr2-market-full"),
    case("sr2", C, {"type": "sell_company", "company": "EVA", "price": 150},
         "cannot sell_company now", id="sr2-sell-a-private"),
    case("sr2_after_buy", C, {"type": "sell_shares", "shares": ["DE_1"], "percent": 10},
         "it is A's turn", id="sr2-sell-after-turn-ended"),
    case("sr2_may_sell", C, {"type": "sell_shares", "shares": ["DE_1", "DE_2"], "percent": 20},
         "cannot sell 20% of DE", id="sr2-more-than-the-market-takes"),
    case("sr2_may_sell", C, {"type": "sell_shares", "shares": ["DE_0"], "percent": 20},
         "cannot sell 20% of DE", id="sr2-presidency-nobody-can-take"),
    case("sr2_may_sell", C, {"type": "sell_shares", "shares": ["RSE_1"], "percent": 10},
         "cannot sell 10% of RSE", id="sr2-someone-elses-share"),

    # -- Operating round 2.1, phase 3: KBE upgrades its home O4 (57, edges 0 and 3).
    case("kbe_upgrade", KBE, {"type": "lay_tile", "hex": "O4", "tile": "15-0", "rotation": 1},
         "cannot be laid on O4 with rotation 1", id="or3-upgrade-losing-track"),
    case("kbe_upgrade", KBE, {"type": "lay_tile", "hex": "O4", "tile": "K14-0", "rotation": 0},
         "cannot be upgraded to K14", id="or3-upgrade-to-wrong-label"),
    case("kbe_upgrade", KBE, {"type": "lay_tile", "hex": "O4", "tile": "19-0", "rotation": 0},
         "cannot be upgraded to 19", id="or3-upgrade-losing-the-city"),
    case("kbe_upgrade", KBE, {"type": "lay_tile", "hex": "O4", "tile": "57-0", "rotation": 0},
         "not available", id="or3-tile-already-on-the-map"),
    case("kbe_upgrade", KBE, {"type": "lay_tile", "hex": "T3", "tile": "15-0", "rotation": 2},
         "cannot be laid on T3", id="or3-upgrade-outside-own-network"),

    # -- DE places its second token (O4, now a two-slot city, is reached over N3).
    case("de3_token", DE, {"type": "place_token", "city": "I8-1-0"}, "not connected",
         id="or3-token-unconnected"),
    case("de3_token", DE, {"type": "place_token", "city": "57-2-0"}, "not on the map",
         id="or3-token-in-a-city-off-the-map"),
    case("de3_token", DE, {"type": "place_token", "city": "6-1-0"}, "O2",
         id="or3-second-token-in-own-city"),
    case("de3_token", DE, {"type": "place_token", "city": "X-0-0"}, "unknown city",
         ActionError, id="or3-token-unknown-city"),
    *[case("de3_token", DE, {"type": "place_token", "city": "15-0-0", "slot": bad},
           "slot must be a whole number from 0", ActionError, id=f"or3-token-slot-{name}")
      for name, bad in (("garbage", "garbage"), ("minus-1", -1), ("1.5", 1.5))],
    case("de3_token", DE, {"type": "place_token"}, "needs 'city'", ActionError,
         id="or3-token-without-city"),
    case("de3_token", KBE, {"type": "place_token", "city": "15-0-0"}, "it is DE's turn",
         id="or3-token-out-of-turn"),

    # -- DE runs a 3-train O2-N3-O4 and a 2-train O2-N1 (50 each in phase 3).
    case("de3_route", DE, {"type": "run_routes",
                           "routes": [route("2-5", [["N1", "O2"], ["O2", "N3", "O4"]], 80)]},
         "too many stops", RouteError, id="or3-too-many-stops-for-the-train"),
    case("de3_route", DE, {"type": "run_routes",
                           "routes": [route("3-0", [["O2", "N3", "O4"]], 40)]},
         "earns 50, not 40", RouteError, id="or3-wrong-revenue"),
    *[case("de3_route", DE, {"type": "run_routes", "extra_revenue": bad,
                             "routes": [route("3-0", [["O2", "N3", "O4"]], 50)]},
           "'extra_revenue' must be a whole number", ActionError,
           id=f"or3-extra-revenue-{name}")
      for name, bad in (("garbage", "garbage"), ("3.5", 3.5), ("empty", ""), ("list", []),
                        ("false", False), ("0.0", 0.0))],
    case("de3_route", DE, {"type": "run_routes", "subsidy": "garbage",
                           "routes": [route("3-0", [["O2", "N3", "O4"]], 50)]},
         "'subsidy' must be a whole number", ActionError, id="or3-subsidy-garbage"),
    case("de3_route", DE, {"type": "run_routes", "extra_revenue": 10,
                           "routes": [route("3-0", [["O2", "N3", "O4"]], 50)]},
         "extra revenue is 0, not 10", RouteError, id="or3-extra-revenue-not-earned"),
    case("de3_route", DE, {"type": "run_routes",
                           "routes": [route("3-0", [["O2", "N3", "O4"]], 50),
                                      route("2-5", [["O2", "N3", "O4"]], 50)]},
         "not on the map", RouteError, id="or3-overlapping-routes"),
    case("de3_dividend", C, {"type": "dividend", "kind": "payout"}, "cannot dividend now",
         id="or3-dividend-by-the-president-not-the-company"),
]


def assert_refused(game, bad: dict, rule: str, error=GameError) -> None:
    """``bad`` raises ``error`` naming the action and ``rule``; nothing changes."""
    n = len(game.actions)
    before = state(game)
    with pytest.raises(error) as raised:
        game.apply(bad)
    message = str(raised.value)
    assert message.startswith(f"action {n} (id {bad.get('id')}, {bad.get('type')})"), message
    assert rule in message, message
    assert state(game) == before
    assert len(game.actions) == n


@pytest.mark.parametrize("checkpoint, bad, rule, error", CASES)
def test_illegal_action_is_refused_and_changes_nothing(checkpoint, bad, rule, error):
    """The action is refused with the rule it breaks; the game is unchanged and takes the
    next legal action of the script."""
    game, legal = game_at(checkpoint)
    n = len(game.actions)
    assert_refused(game, dict(bad, id=BAD_ID), rule, error)
    game.apply(legal)
    assert len(game.actions) == n + 1 and game.actions[-1] == legal


@pytest.mark.parametrize("checkpoint, bad, rule, error",
                         [p for p in CASES if "auto_actions" not in p.values[1]])
def test_check_refuses_as_apply_does_and_takes_nothing(checkpoint, bad, rule, error):
    """``Game.check`` refuses the illegal action with apply's error and message; it
    accepts the script's next action without taking it, which apply then takes. (It
    judges the action alone: recorded programmed actions after it are judged only as
    they are applied.)"""
    game, legal = game_at(checkpoint)
    n = len(game.actions)
    before = state(game)
    with pytest.raises(error) as raised:
        game.check(dict(bad, id=BAD_ID))
    assert str(raised.value).startswith(f"action {n} (id {BAD_ID}, {bad.get('type')})")
    assert rule in str(raised.value)
    game.check(legal)
    assert state(game) == before and len(game.actions) == n
    game.apply(legal)
    assert len(game.actions) == n + 1


def test_every_checkpoint_has_cases():
    """Each checkpoint of the synthetic game is the start of at least one case above."""
    used = {p.values[0] for p in CASES}
    assert used == set(CHECKPOINTS)


def test_refused_actions_leave_no_trace_in_the_rest_of_the_game():
    """All the illegal actions, tried at their checkpoints in one game, then the script played
    to its end: the game ends exactly as if they had never been tried."""
    by_checkpoint: dict = {}
    for p in CASES:
        checkpoint, bad, rule, error = p.values
        by_checkpoint.setdefault(CHECKPOINTS[checkpoint], []).append((bad, rule, error))
    clean = new_game()
    for h in script():
        clean.apply(h)
    game = new_game()
    for index, h in enumerate(script()):
        for k, (bad, rule, error) in enumerate(by_checkpoint.get(index, ())):
            assert_refused(game, dict(bad, id=BAD_ID + k), rule, error)
        game.apply(h)
    assert state(game) == state(clean)
    assert game.total_money() == game.starting_money


@pytest.mark.parametrize("bad", [None, "bid", 7, ["bid"]])
def test_an_action_that_is_not_an_object(bad):
    """An action must be a JSON object; anything else is refused as malformed, changing
    nothing."""
    game, legal = game_at("draft")
    n = len(game.actions)
    before = state(game)
    with pytest.raises(ActionError) as raised:
        game.apply(bad)
    assert str(raised.value).startswith(f"action {n} (id None, None)")
    assert "JSON object" in str(raised.value)
    assert state(game) == before
    game.apply(legal)


def test_undo_and_redo_sent_to_a_game_take_back_and_restore_the_action():
    """A game takes undo and redo entries itself (the old ActionLog's work, formerly refused
    by a game): an undo entry takes back the last action, leaving the game as it was before
    it; a redo entry restores it, leaving the game as it was after it. The script then goes
    on."""
    game, legal = game_at("sr1")
    n = len(game.actions)
    before = state(game)
    game.apply(legal)
    after = state(game)
    game.apply(dict(B, type="undo", id=BAD_ID))
    assert len(game.actions) == n
    assert state(game) == before
    game.apply(dict(B, type="redo", id=BAD_ID + 1))
    assert len(game.actions) == n + 1 and game.actions[-1] == legal
    assert state(game) == after
    game.apply(script()[CHECKPOINTS["sr1"] + 1])
    assert len(game.actions) == n + 2


def test_bankruptcy_only_when_a_train_cannot_be_bought():
    """A player may go bankrupt only when their company must buy a train and cannot raise
    the money. KSZ, a minor, need not own a train (and has one): though its cash and its
    owner's cannot buy the cheapest train, bankruptcy is neither listed nor accepted."""
    game, legal = game_at("ksz_poor")
    assert not [a for a in game.legal_actions() if a["type"] == "bankrupt"]
    assert_refused(game, dict(KSZ, type="bankrupt", id=BAD_ID), "cannot bankrupt now")
    game.apply(legal)


@pytest.mark.parametrize("checkpoint, who, train, price", [
    ("ksz_poor", KSZ, "2-1", 20),      # KFBE's 2-train, in phase 2, for 20M
    ("de1_train", DE, "2-0", 1),       # EKB's 2-train bought by a corporation, for 1M
], ids=["minor-buys-minors-train", "corporation-buys-minors-train"])
def test_trains_from_other_companies_in_phase_2(checkpoint, who, train, price):
    """In phase 2 trains come only from the depot, and a corporation never buys a minor's
    train."""
    game, legal = game_at(checkpoint)
    assert_refused(game, dict(who, type="buy_train", train=train, price=price, id=BAD_ID),
                   "cannot buy train")
    game.apply(legal)


@pytest.mark.parametrize("checkpoint, who, fields", [
    ("sr1_sell", C, {"type": "buy_shares", "shares": ["DE_2"], "percent": 20}),
    ("sr1_sell", C, {"type": "buy_shares", "shares": ["DE_2"], "percent": 0}),
    ("sr2_may_sell", C, {"type": "sell_shares", "shares": ["DE_1"], "percent": 0}),
    ("sr2_may_sell", C, {"type": "sell_shares", "shares": ["DE_1", "DE_2"], "percent": 10}),
], ids=["buy-10-as-20", "buy-as-0", "sell-as-0", "sell-two-as-10"])
def test_share_percent_must_match_the_certificates(checkpoint, who, fields):
    """A bundle's percent is that of its certificates (only a president's certificate may be
    sold in part)."""
    game, legal = game_at(checkpoint)
    assert_refused(game, dict(who, **fields, id=BAD_ID), "is not the percent of shares")
    game.apply(legal)


@pytest.mark.parametrize("checkpoint, who, fields", [
    ("sr1_sell", C, {"type": "buy_shares", "shares": ["DE_2"], "percent": 10, "share_price": 1}),
    ("sr2_may_sell", C, {"type": "sell_shares", "shares": ["DE_1"], "percent": 10,
                         "share_price": 500}),
], ids=["buy-for-1", "sell-for-500"])
def test_shares_trade_at_the_market_price(checkpoint, who, fields):
    """The engine, not the action, sets the price of a share bought or sold."""
    game, legal = game_at(checkpoint)
    assert_refused(game, dict(who, **fields, id=BAD_ID), "shares trade at the market price")
    game.apply(legal)


def test_one_certificate_per_stock_round_turn():
    """Outside multiple-buy cells a player buys one certificate per turn: C may not buy DE_2
    and DE_3 in one action."""
    game, legal = game_at("sr1_sell")
    assert_refused(game, dict(C, type="buy_shares", shares=["DE_2", "DE_3"], percent=20,
                              id=BAD_ID), "a stock round purchase is one certificate")
    game.apply(legal)


def test_no_share_swaps_in_1893():
    """Share swaps do not exist in 1893: a buy_shares with a swap is refused."""
    game, legal = game_at("sr1_sell")
    assert_refused(game, dict(C, type="buy_shares", shares=["DE_2"], percent=10, swap="DE_1",
                              id=BAD_ID), "has no share swaps")
    game.apply(legal)


def test_1893_fdsd_is_exchanged_only_in_its_owners_stock_turn():
    """1893: FdSD is exchanged for RAG shares as its owner's purchase in their own stock
    turn (18xx.games: "owning player's SR turn"). Four greedy bots, seed 1001: in a stock
    round where RAG has shares in the market, while another player is acting, FdSD's
    exchange is not listed, and it is refused, the game unchanged (it was accepted, and
    ended the acting player's turn)."""
    from tracklayer.rules import operators

    def out_of_turn_exchange(game):
        table = game.table
        fdsd, rag = table.company("FdSD"), table.corporation("RAG")
        if not table.round.is_stock or fdsd.closed or not rag.started or \
                operators.shares_in_market(table, rag) == 0:
            return None
        acting = table.round.acting()
        if fdsd.owner is acting:
            return None
        share = next(c for c in table.state.market.shares["RAG"])
        return {"type": "buy_shares", "entity": "FdSD", "entity_type": "company",
                "shares": [share.id], "percent": share.percent}

    game, _ = play_until("1893", 1001, ["greedy"] * 4,
                         lambda game, seat: out_of_turn_exchange(game) is not None, limit=400)
    exchange = out_of_turn_exchange(game)
    assert not [a for a in game.legal_actions() if a["entity"] == "FdSD"]
    before = (game.table.round.acting(), len(game.actions), game.table.company("FdSD").owner)
    with pytest.raises(GameError):
        game.apply(dict(exchange, id=len(game.actions) + 1))
    assert before == (game.table.round.acting(), len(game.actions),
                      game.table.company("FdSD").owner)



def test_a_buying_program_stops_where_its_purchase_would_be_refused():
    """A standing order to buy buys only what the purchase's own check accepts: set in a
    1849 stock round for a corporation nobody has started (its shares in its treasury), it
    stops at once, saying so as 18xx.games does ("Cannot buy SFCS from Treasury"), and the
    player's turn goes on. It never makes a purchase the game would refuse, which would
    refuse the order itself ("has not been started: par it first")."""
    def in_stock_turn(game, seat):
        return game.table.round.is_stock and isinstance(game.table.round.acting(), PlayerState)

    game, _ = play_until("1849: Kingdom of the Two Sicilies", 1, ["random"] * 4, in_stock_turn)
    table = game.table
    player = table.round.acting()
    unstarted = next(c for c in table.state.corporations if c.price is None and not c.closed)
    game.apply({"type": "program_buy_shares", "entity": player.id, "entity_type": "player",
                "corporation": unstarted.sym, "until_condition": "float",
                "from_market": False, "auto_pass_after": False, "id": BAD_ID}, auto=True)
    recorded = game.history.entries[-1]
    assert [(a["type"], a.get("reason")) for a in recorded["auto_actions"]] == \
        [("program_disable", f"Cannot buy {unstarted.sym} from Treasury")]
    assert not table.state.programs.get(player)
    assert table.round.acting() is player
