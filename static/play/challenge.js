// A challenge's page (templates/play/challenge.html) seen by its challenger while it waits:
// every 3 s it asks the API whether the challenge was answered; once accepted the page goes to
// the game, once declined or expired it shows the answer.
(function () {
  "use strict";
  var box = document.querySelector("[data-challenge-api]");
  if (!box) return;
  var api = box.dataset.challengeApi;
  function check() {
    fetch(api, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data) return;
        if (data.game) { window.location.href = box.dataset.gameUrl.replace("GAME", data.game); return; }
        if (data.status !== "pending") { window.location.reload(); return; }
        setTimeout(check, 3000);
      }, function () { setTimeout(check, 3000); });
  }
  setTimeout(check, 3000);
})();
