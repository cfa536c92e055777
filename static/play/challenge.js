// A challenge's page (templates/play/challenge.html) seen by its challenger while it waits:
// every 3 s it asks the API whether the challenge was answered; once accepted the page goes to
// the game, once declined or expired it shows the answer. An answer that fails (the server
// restarting, a lost connection, a 5xx) does not stop it: it asks again after a pause that
// doubles with each failure (3 s up to 60 s) and says on the page that the server is not
// answering, until an answer comes. A lost session (the log-in page, a 401 or 403) is said
// with a link to log in again.
(function () {
  "use strict";
  var box = document.querySelector("[data-challenge-api]");
  if (!box) return;
  var api = box.dataset.challengeApi;
  var EVERY = 3000, LONGEST = 60000;
  var failures = 0;

  function notice(text, link) {
    var note = document.querySelector("[data-testid=challenge-unreachable]");
    if (!text) { if (note) note.remove(); return; }
    if (!note) {
      note = document.createElement("p");
      note.className = "form-errors";
      note.setAttribute("role", "status");
      note.dataset.testid = "challenge-unreachable";
      box.insertAdjacentElement("afterend", note);
    }
    note.textContent = text;
    if (link) {
      var a = document.createElement("a");
      a.href = link.href;
      a.textContent = link.text;
      note.append(" ", a);
    }
  }

  function retry() {
    failures += 1;
    var pause = Math.min(LONGEST, EVERY * Math.pow(2, failures - 1));
    notice(box.dataset.unreachable.replace("{seconds}", String(Math.round(pause / 1000))));
    setTimeout(check, pause);
  }

  function check() {
    fetch(api, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) {
        if (r.status === 401 || r.status === 403 || r.redirected) {
          notice(box.dataset.loggedOut, {href: box.dataset.loginUrl + "?next=" +
            encodeURIComponent(window.location.pathname), text: box.dataset.logIn});
          return;
        }
        if (!r.ok) { retry(); return; }
        return r.json().then(function (data) {
          failures = 0;
          notice("");
          if (data.game) { window.location.href = box.dataset.gameUrl.replace("GAME", data.game); return; }
          if (data.status !== "pending") { window.location.reload(); return; }
          setTimeout(check, EVERY);
        });
      })
      .catch(retry);
  }
  setTimeout(check, EVERY);
})();
