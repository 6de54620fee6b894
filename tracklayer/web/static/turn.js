// The game page around the controls: whose turn it is in the tab's title and icon, an
// opt-in browser notification when it becomes one's turn, the seat's webhook form, times in
// the reader's own clock, the log kept at its newest line, and the history slider and log
// reader kept as they were while the view is fetched again after each entry.
(function () {
  "use strict";
  const HOME_ICON = "/static/icon.svg";
  const ICONS = {
    mine: "data:image/svg+xml," + encodeURIComponent(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><polygon points="16,1 29,8.5 29,23.5 16,31 3,23.5 3,8.5" fill="#e8590c"/><circle cx="16" cy="16" r="6" fill="#fff"/></svg>'),
    over: "data:image/svg+xml," + encodeURIComponent(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><polygon points="16,1 29,8.5 29,23.5 16,31 3,23.5 3,8.5" fill="#888"/><path d="M10 16l4 4 8-9" stroke="#fff" stroke-width="3" fill="none"/></svg>'),
  };
  let wasMine = null;

  function status() { return document.querySelector("#view .status"); }
  function notifyKey(game) { return "tracklayer.notify." + game; }
  function notifyOn(game) {
    return window.Notification && Notification.permission === "granted" &&
      localStorage.getItem(notifyKey(game)) === "on";
  }

  function setIcon(href) {
    const link = document.getElementById("favicon");
    if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
  }

  // The tab says whose turn it is; a notification comes when it becomes this seat's.
  function showTurn() {
    const s = status();
    if (!s) return;
    const mine = s.dataset.myTurn === "1";
    const over = s.dataset.over === "1";
    const name = s.dataset.name;
    document.title = (mine ? "▶ Your turn · " : over ? "Game over · " : "") + name;
    setIcon(mine ? ICONS.mine : over ? ICONS.over : HOME_ICON);
    if (mine && wasMine === false && notifyOn(s.dataset.game)) {
      try {
        const n = new Notification("Your turn: " + name,
          {body: (s.dataset.seat ? s.dataset.seat + " is to act" : "you are to act"),
           tag: "tracklayer-" + s.dataset.game});
        n.onclick = function () { window.focus(); n.close(); };
      } catch (e) { /* a browser that shows notifications only from a service worker */ }
    }
    wasMine = mine;
    showNotifyState();
  }

  function showNotifyState() {
    const s = status();
    const state = document.getElementById("notify-state");
    const button = document.getElementById("notify-toggle");
    if (!s || !state || !button) return;
    if (!window.Notification) {
      state.textContent = "this browser has no notifications";
      button.disabled = true;
    } else if (Notification.permission === "denied") {
      state.textContent = "blocked: allow notifications for this site in the browser's settings";
    } else {
      const on = notifyOn(s.dataset.game);
      state.textContent = on ? "on" : "off";
      button.textContent = on ? "Stop notifying me" : "Notify me in this browser";
    }
  }

  async function toggleNotify() {
    const s = status();
    if (!s || !window.Notification) return;
    const key = notifyKey(s.dataset.game);
    if (notifyOn(s.dataset.game)) {
      localStorage.removeItem(key);
    } else {
      const answer = Notification.permission === "granted" ? "granted" :
        await Notification.requestPermission();
      if (answer === "granted") localStorage.setItem(key, "on");
    }
    showNotifyState();
  }

  // The seat's webhook: saved, tried and removed with the page's cookie (which seat: X-Seat).
  async function webhook(form, method, path, body) {
    const out = form.querySelector(".webhook-result");
    out.textContent = "…";
    try {
      const r = await fetch("/api/games/" + form.dataset.game + "/webhook" + path, {
        method: method, body: body === undefined ? undefined : JSON.stringify(body),
        headers: {"Content-Type": "application/json", "X-Seat": form.dataset.seat}});
      const answer = await r.json().catch(() => ({}));
      if (!r.ok) { out.textContent = answer.error || r.statusText; return; }
      if (path === "/test") {
        out.textContent = answer.ok ? "sent: the hook answered " + answer.status
                                    : "not taken: " + answer.error;
      } else {
        out.textContent = answer.url ? "saved" : "removed";
        if (!answer.url) { form.elements.url.value = ""; form.elements.seat_link.checked = false; }
      }
    } catch (e) { out.textContent = "not sent: " + e.message; }
  }

  document.addEventListener("submit", function (ev) {
    const form = ev.target.closest("form.webhook");
    if (!form) return;
    ev.preventDefault();
    webhook(form, "PUT", "", {url: form.elements.url.value.trim(),
                              seat_link: form.elements.seat_link.checked});
  });

  document.addEventListener("click", function (ev) {
    const t = ev.target;
    if (t.id === "notify-toggle") { toggleNotify(); return; }
    const form = t.closest && t.closest("form.webhook");
    if (form && t.classList.contains("webhook-test")) webhook(form, "POST", "/test", {});
    if (form && t.classList.contains("webhook-remove")) webhook(form, "DELETE", "");
    if (t.classList.contains("log-close")) t.closest(".log-page").remove();
  });

  // Times: the reader's own clock, with the day where it changes within a list.
  function localTimes(root) {
    const lists = root.matches && root.matches("ol.log-lines") ? [root]
      : root.querySelectorAll("ol.log-lines");
    lists.forEach(function (list) {
      let day = null;
      list.querySelectorAll("time[datetime]").forEach(function (el) {
        const d = new Date(el.getAttribute("datetime"));
        if (isNaN(d)) return;
        const clock = d.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
        const today = d.toDateString();
        el.textContent = (day !== null && day !== today || day === null &&
                          today !== new Date().toDateString()
          ? d.toLocaleDateString([], {day: "numeric", month: "short"}) + " " : "") + clock;
        el.title = d.toLocaleString();
        day = today;
      });
    });
  }

  // The history slider (kept by hx-preserve) follows the game's length.
  function followHistory() {
    const slider = document.getElementById("history-at");
    const view = document.querySelector("#view .view");
    if (!slider || !view) return;
    const latest = slider.dataset.latest === "1";
    slider.max = view.dataset.number;
    if (latest) {
      slider.value = view.dataset.number;
      document.getElementById("history-label").textContent = "after entry " + slider.value;
    }
  }

  document.addEventListener("input", function (ev) {
    if (ev.target.id !== "history-at") return;
    const slider = ev.target;
    slider.dataset.latest = slider.value === slider.max ? "1" : "0";
    document.getElementById("history-label").textContent = "after entry " + slider.value;
  });

  // The live log stays at its newest line unless the reader scrolled up in it.
  let logScroll = null;
  document.addEventListener("htmx:beforeSwap", function (ev) {
    if (!ev.detail.target || ev.detail.target.id !== "view") return;
    const lines = document.getElementById("log-lines");
    logScroll = lines && lines.scrollTop + lines.clientHeight < lines.scrollHeight - 8
      ? lines.scrollTop : null;
  });
  function logToEnd() {
    const lines = document.getElementById("log-lines");
    if (lines) lines.scrollTop = logScroll === null ? lines.scrollHeight : logScroll;
  }

  function refreshed() {
    showTurn();
    followHistory();
    logToEnd();
    localTimes(document);
  }
  document.addEventListener("htmx:afterSwap", function (ev) {
    const target = ev.detail.target;
    if (target && target.id === "view") { refreshed(); return; }
    localTimes(target || document);
    const past = target && target.querySelector(".history-log");
    if (past) past.scrollTop = past.scrollHeight;
  });
  refreshed();
})();
