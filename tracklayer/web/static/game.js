// The game page's glue: actions go to the JSON API with the page's cookie (its seats); every
// entry the server stores arrives over Server-Sent Events and the view is fetched again (htmx).
// mapPlay is the map's part in playing (Alpine.js): a tile chosen by clicking a hex and
// turned by clicking again, a station placed by clicking a ringed city, a train's route
// built by clicking its stops (checked by the server: its revenue, or what is wrong).
(function () {
  const root = document.getElementById("game");
  const id = root.dataset.game;
  const query = "";            // the page's seats travel in its cookie, never in a URL
  function number() {
    const v = document.querySelector("#view .view");
    return parseInt(v ? v.dataset.number : root.dataset.number, 10);
  }
  // While a view is due or on its way, the page says so (#game[data-refreshing]): a control
  // pressed then is one the next view replaces.
  let pending = null, fetching = 0;
  function busy() {
    if (pending !== null || fetching) root.dataset.refreshing = "";
    else delete root.dataset.refreshing;
  }
  function refresh() {
    fetching++;
    busy();
    htmx.ajax("GET", "/games/" + id + "/view" + query, {target: "#view", swap: "innerHTML"})
      .finally(() => { fetching--; busy(); });
  }
  window.act = async function (action) {   // the seat: the cookie's, the one that may act
    const error = document.getElementById("error");
    error.textContent = "";
    action.id = number() + 1;
    const r = await fetch("/api/games/" + id + "/actions", {
      method: "POST", body: JSON.stringify(action),
      headers: {"Content-Type": "application/json"}});
    if (!r.ok) {
      const body = await r.json().catch(() => ({error: r.statusText}));
      error.textContent = body.error || r.statusText;
      if (r.status === 409) refresh();
    }
  };

  window.mapPlay = function (cfg) {
    const routes = cfg.routes;
    const copy = ts => ts.map(t => Object.assign({}, t, {nodes: t.nodes.slice(),
                                                         connections: t.connections.slice()}));
    const layers = cfg.layers || {};
    return {
      hex: null, tile: null, rot: null, layer: (cfg.order || [])[0] || null,
      lays: cfg.lays || {}, costs: cfg.costs || {}, tokens: cfg.tokens || {},
      get tiles() { return layers[this.layer] || {}; },
      editing: !!routes, trains: routes ? copy(routes.trains) : [], sel: 0,
      totalMoney: routes ? (routes.total_money || "") : "", routeError: "", checking: false,
      checked: routes ? routes.action : null,
      init() {
        if (routes) this.totalMoney = this.sumMoney();
      },
      sumMoney() {
        return this.trains.map(t => t.money).join(" + ") || "nothing";
      },
      // -- the map's clicks --
      pick(ev) {
        const node = ev.target.closest("[data-node]");
        if (this.editing && node) { this.routeNode(node.dataset.node); return; }
        const g = ev.target.closest("[data-hex]");
        if (!g || !g.closest("#map")) return;
        const city = ev.target.closest(".stop.legal-city");
        if (city) {
          const t = this.tokens[g.dataset.hex + "|" + city.dataset.city];
          if (t) act(Object.assign({}, t));
          return;
        }
        if (!this.tiles[g.dataset.hex]) return;
        if (this.hex === g.dataset.hex && this.tile) { this.turn(); return; }
        this.chooseHex(g.dataset.hex);
      },
      // -- laying a tile --
      layAs(key) { this.layer = key; this.hex = null; this.tile = null; this.rot = null; },
      has(h, t) { return !!(this.tiles[h] && this.tiles[h][t]); },
      chooseHex(h) {
        this.hex = h || null; this.tile = null; this.rot = null;
        if (!this.hex) return;
        const names = Object.keys(this.tiles[this.hex]);
        if (names.length === 1) this.choose(names[0]);
      },
      hexName() {
        const o = document.querySelector(".hex-choice[data-layer='" + this.layer +
                                         "'] option[value='" + this.hex + "']");
        return o ? o.textContent : this.hex;
      },
      tileCost() {
        const lay = this.lays[this.layKey()];
        return lay ? lay.cost : "";
      },
      choose(t) {
        if (this.tile === t) { this.turn(); return; }
        this.tile = t; this.rot = this.tiles[this.hex][t][0];
      },
      turn() {
        const r = this.tiles[this.hex][this.tile];
        this.rot = r[(r.indexOf(this.rot) + 1) % r.length];
      },
      layKey() { return this.layer + "|" + this.hex + "|" + this.tile + "|" + this.rot; },
      layText() {
        const lay = this.lays[this.layKey()];
        return lay ? lay.label : "";
      },
      layAction() {
        const lay = this.lays[this.layKey()];
        return Object.assign({}, lay.entity, {type: "lay_tile", hex: this.hex,
                                              tile: this.tile, rotation: this.rot});
      },
      // -- routes --
      routeNode(node) {
        const t = this.trains[this.sel];
        if (!t) return;
        const at = t.nodes.indexOf(node);
        if (at >= 0 && at === t.nodes.length - 1) t.nodes.pop();
        else if (at >= 0) t.nodes.splice(at + 1);
        else t.nodes.push(node);
        this.check();
      },
      clearTrain(i) {
        this.trains[i].nodes = []; this.trains[i].connections = []; this.sel = i;
        this.check();
      },
      resetRoutes() {
        this.trains = copy(routes.trains); this.routeError = "";
        this.checked = routes.action; this.totalMoney = this.sumMoney();
        document.getElementById("route-layer").innerHTML = routes.svg || "";
      },
      async check() {
        this.checking = true;
        const plans = this.trains.map(t => ({train: t.train, nodes: t.nodes,
                                             connections: t.connections}));
        const r = await fetch("/games/" + id + "/routes", {
          method: "POST", headers: {"Content-Type": "application/json"},
          body: JSON.stringify({entity: routes.entity, routes: plans,
                                colors: this.trains.map(t => t.color)})});
        this.checking = false;
        const found = await r.json().catch(() => ({error: r.statusText, routes: []}));
        this.routeError = found.error || "";
        (found.routes || []).forEach((x, i) => {
          const t = this.trains[i];
          if (!t) return;
          t.connections = x.connections; t.stops = x.stops; t.money = x.money;
          t.problem = x.problem;
        });
        this.checked = found.action;
        this.totalMoney = found.total_money || "";
        if (found.svg !== undefined) document.getElementById("route-layer").innerHTML = found.svg;
      },
      runRoutes() {
        if (this.checking || !this.checked) return;
        act(JSON.parse(JSON.stringify(this.checked)));
      },
    };
  };

  function soon() {
    clearTimeout(pending);
    pending = setTimeout(() => { pending = null; refresh(); }, 30);   // a burst of bot
    busy();                                                           // moves: one refresh
  }
  function entry(n) {            // an entry the view already shows (fetched after it was
    if (n > number()) soon();    // stored) needs no second view
  }
  window.tracklayerLive(id, root.dataset.number, entry, soon);   // live.js: one stream for
                                                                  // every tab; proposals too
})();
