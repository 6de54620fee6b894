// The game page's glue: actions go to the JSON API with the seat's token; every entry the
// server stores arrives over Server-Sent Events and the view is fetched again (htmx).
(function () {
  const root = document.getElementById("game");
  const id = root.dataset.game;
  const tokens = root.dataset.tokens;
  const query = tokens ? "?" + tokens.split(",").map(t => "token=" + encodeURIComponent(t)).join("&") : "";
  function number() {
    const v = document.querySelector("#view .view");
    return parseInt(v ? v.dataset.number : root.dataset.number, 10);
  }
  function refresh() {
    htmx.ajax("GET", "/games/" + id + "/view" + query, {target: "#view", swap: "innerHTML"});
  }
  window.act = async function (action, token) {
    const error = document.getElementById("error");
    error.textContent = "";
    action.id = number() + 1;
    const r = await fetch("/api/games/" + id + "/actions", {
      method: "POST", body: JSON.stringify(action),
      headers: {"Content-Type": "application/json", "Authorization": "Bearer " + token}});
    if (!r.ok) {
      const body = await r.json().catch(() => ({error: r.statusText}));
      error.textContent = body.error || r.statusText;
      if (r.status === 409) refresh();
    }
  };
  const events = new EventSource("/api/games/" + id + "/events?after=" + root.dataset.number);
  let pending = null;
  events.addEventListener("entry", function () {
    clearTimeout(pending);
    pending = setTimeout(refresh, 60);   // a burst of bot moves: one refresh
  });
  events.addEventListener("proposal", function () { clearTimeout(pending); pending = setTimeout(refresh, 60); });
})();
