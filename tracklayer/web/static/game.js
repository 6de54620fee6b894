// The game page's glue: actions go to the JSON API with the page's cookie (its seats); every
// entry the server stores arrives over Server-Sent Events and the view is fetched again (htmx).
(function () {
  const root = document.getElementById("game");
  const id = root.dataset.game;
  const query = "";            // the page's seats travel in its cookie, never in a URL
  function number() {
    const v = document.querySelector("#view .view");
    return parseInt(v ? v.dataset.number : root.dataset.number, 10);
  }
  function refresh() {
    htmx.ajax("GET", "/games/" + id + "/view" + query, {target: "#view", swap: "innerHTML"});
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
  let pending = null;
  function soon() {
    clearTimeout(pending);
    pending = setTimeout(refresh, 60);   // a burst of bot moves: one refresh
  }
  window.tracklayerLive(id, root.dataset.number, soon, soon);   // live.js: one stream for
                                                                 // every tab; proposals too
})();
