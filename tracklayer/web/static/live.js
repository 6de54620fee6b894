// Live updates shared between the tabs of one browser: every tab showing a game hears each
// entry the server stores, through ONE Server-Sent Events stream per game (held by a shared
// worker, live-worker.js), not one per tab — a browser opens at most six connections to a
// site over HTTP/1.1, and a stream per tab would leave the seventh tab, and every request
// after it, waiting. Where shared workers do not exist (Chrome on Android), each tab holds
// its own stream, as before.
//
// tracklayerLive(game, after, onEntry): onEntry(number) is called for each entry after
// `after` (or at least once when entries were missed).
(function () {
  "use strict";
  function ownStream(game, after, onEntry) {
    const source = new EventSource("/api/games/" + game + "/events?after=" + after);
    source.addEventListener("entry", function (ev) { onEntry(parseInt(ev.lastEventId, 10)); });
    return function () { source.close(); };
  }

  window.tracklayerLive = function (game, after, onEntry) {
    let worker;
    try {
      worker = window.SharedWorker && new SharedWorker("/static/live-worker.js", {name: "tracklayer-live"});
    } catch (e) {
      worker = null;
    }
    if (!worker) return ownStream(game, after, onEntry);
    const port = worker.port;
    let last = parseInt(after, 10) || 0;
    port.onmessage = function (ev) {
      const m = ev.data;
      if (m && String(m.game) === String(game) && m.number > last) {
        last = m.number;
        onEntry(m.number);
      }
    };
    port.start();
    port.postMessage({watch: String(game), after: last});
    // A tab that goes away stops counting; one brought back (back/forward cache) counts again.
    window.addEventListener("pagehide", function () { port.postMessage({leave: String(game)}); });
    window.addEventListener("pageshow", function (ev) {
      if (ev.persisted) port.postMessage({watch: String(game), after: last});
    });
    return function () { port.postMessage({leave: String(game)}); };
  };
})();
