// The shared worker behind live.js: one Server-Sent Events stream per game, whatever the
// number of tabs (ports) that show it; each entry is passed to every one of them. A stream
// closes when its last tab leaves. A tab that comes in behind the stream is told at once
// of the newest entry (it then fetches the view again).
"use strict";
const games = new Map();        // game id -> {source, ports: Set, last}

function open(id, g) {
  g.source = new EventSource("/api/games/" + encodeURIComponent(id) + "/events?after=" + g.last);
  g.source.addEventListener("entry", function (ev) {
    const number = parseInt(ev.lastEventId, 10);
    if (!(number > g.last)) return;
    g.last = number;
    for (const port of g.ports) port.postMessage({game: id, number: number});
  });
}

function watch(port, id, after) {
  let g = games.get(id);
  if (!g) {
    g = {source: null, ports: new Set(), last: after};
    games.set(id, g);
    open(id, g);
  }
  g.ports.add(port);
  if (g.last > after) port.postMessage({game: id, number: g.last});
}

function leave(port, id) {
  const g = games.get(id);
  if (!g) return;
  g.ports.delete(port);
  if (g.ports.size === 0) {
    g.source.close();
    games.delete(id);
  }
}

self.onconnect = function (e) {
  const port = e.ports[0];
  port.onmessage = function (ev) {
    const m = ev.data || {};
    if (typeof m.watch === "string" && /^\d+$/.test(m.watch)) {
      watch(port, m.watch, Math.max(0, parseInt(m.after, 10) || 0));
    } else if (typeof m.leave === "string") {
      leave(port, m.leave);
    }
  };
  port.start();
};
