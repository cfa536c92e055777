// The game page: the board is replaced in place by the server's answer to every action, and an
// AI's turn is shown one step at a time (a request per step, `data-delay` ms apart) until the
// person must decide again. "Skip to now" jumps to the latest step. No rule of the game lives
// here: the buttons are the engine's legal actions, rendered by the server.
(function () {
  "use strict";
  var root = document.getElementById("play-board");
  if (!root) return;
  var url = root.dataset.boardUrl;
  var timer = null;
  var skipping = false;
  var seat = null;

  function board() { return root.querySelector(".play-board"); }

  function show(html, focusActions) {
    root.innerHTML = html;
    var b = board();
    if (b && b.dataset.seat !== "") seat = b.dataset.seat;
    var log = root.querySelector("[data-testid=play-log]");
    if (log && log.lastElementChild) log.lastElementChild.scrollIntoView({block: "nearest"});
    if (focusActions) {
      var first = root.querySelector(".play-actions button, [data-seat-switch], [data-skip]");
      if (first) first.focus({preventScroll: true});
    }
    schedule();
  }

  function query(step, seatValue) {
    var params = new URLSearchParams();
    if (step !== null) params.set("step", step);
    var s = seatValue !== undefined ? seatValue : seat;
    if (s !== null && s !== "") params.set("seat", s);
    return url + "?" + params.toString();
  }

  function load(step, seatValue) {
    clearTimeout(timer);
    return fetch(query(step, seatValue), {headers: {"HX-Request": "true"}, credentials: "same-origin"})
      .then(function (r) { return r.text(); })
      .then(function (html) { show(html, true); });
  }

  function schedule() {
    clearTimeout(timer);
    var b = board();
    if (!b) return;
    var step = parseInt(b.dataset.step, 10), steps = parseInt(b.dataset.steps, 10);
    var pending = b.dataset.pending === "1";
    if (!pending && step >= steps) { skipping = false; return; }
    var delay = skipping ? 150 : parseInt(b.dataset.delay, 10) || 800;
    timer = setTimeout(function () { load(skipping ? null : step + 1); }, delay);
  }

  root.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("[data-play-form]")) return;
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) { event.preventDefault(); return; }
    event.preventDefault();
    var data = new FormData(form);
    if (event.submitter && event.submitter.name) data.append(event.submitter.name, event.submitter.value);
    root.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    skipping = false;
    clearTimeout(timer);
    // getAttribute: the buttons are named "action", which shadows the form's own property.
    fetch(form.getAttribute("action"), {method: "POST", body: data, headers: {"HX-Request": "true"},
                        credentials: "same-origin"})
      .then(function (r) { return r.text(); })
      .then(function (html) { show(html, true); });
  });

  root.addEventListener("click", function (event) {
    var target = event.target.closest("[data-skip], [data-seat-switch], [data-hint]");
    if (!target) return;
    event.preventDefault();
    if (target.matches("[data-skip]")) { skipping = true; load(null); }
    else if (target.matches("[data-seat-switch]")) { seat = target.dataset.seatSwitch; load(null, seat); }
    else {
      var panel = document.getElementById("play-hint");
      target.setAttribute("aria-busy", "true");
      fetch(target.href, {headers: {"HX-Request": "true"}, credentials: "same-origin"})
        .then(function (r) { return r.text(); })
        .then(function (html) { panel.innerHTML = html; target.removeAttribute("aria-busy"); });
    }
  });

  var first = board();
  if (first && first.dataset.seat !== "") seat = first.dataset.seat;
  schedule();
})();
