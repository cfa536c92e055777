// The game page (templates/play/game.html): a board that stays put and is played by picking.
//
// The server renders the whole board (templates/play/_board.html) and this script replaces it
// in place with the server's answer to every action and every step of an AI's turn: the page
// never scrolls, the log scrolls inside its own box, and the focus comes back to the same place
// of the board (its data-key) without moving the page.
//
// Direct play: every legal action of the engine arrives with the board (#play-actions-data:
// its JSON, its sentence, where it starts and where it lands — play.seat.board.action_keys). Picking
// a lit card or minion lights the targets of its actions and offers its actions without a
// target (awaken, use an item) as buttons; picking a target sends that action. A lit target
// that is a whole action by itself (a mulligan, a discard, an effect's target) is one pick.
// No rule of the game lives here: what is lit is only ever the engine's list. The same actions
// stay below the board as a list of buttons ("Every choice as a list"), for any reader.
//
// The AI's turn is shown move by move: each step's board lights the card that acted and its
// target (#play-last-move) for a moment, a whole turn in at most 2 s at the default speed (the
// speed select: slow, normal, fast, at once; remembered). prefers-reduced-motion: no motion,
// the lit cards only.
//
// A game between two people (data-live on the board) follows the other player's moves as
// server-sent events and counts its turn clock down; the server keeps the clock.
//
// Why a hand-written fetch and not htmx like the rest of the site: the page holds a state
// between requests that htmx's swaps do not model — the picked card and its lit targets, the
// AI's step timer whose pace depends on how many moves are left, the end-of-turn question
// remembered per turn, the focus put back by board place — so a script of its own would be
// needed around htmx anyway; one fetch per action keeps that script the only moving part.
(function () {
  "use strict";
  var root = document.getElementById("play-board");
  if (!root) return;
  var url = root.dataset.boardUrl;
  var loginUrl = root.dataset.loginUrl;
  var timer = null;
  var skipping = false;
  var seat = null;
  var picked = null;          // the data-key of the picked source, if any
  var busy = false;
  var store = window.localStorage;
  var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function board() { return root.querySelector(".play-board"); }
  function get(key) { try { return store.getItem("cardlab.play." + key); } catch (e) { return null; } }
  function put(key, value) { try { store.setItem("cardlab.play." + key, value); } catch (e) { /* private mode */ } }

  function plays() {
    var data = document.getElementById("play-actions-data");
    return data ? JSON.parse(data.textContent) || [] : [];
  }
  function lastMove() {
    var data = document.getElementById("play-last-move");
    return data ? JSON.parse(data.textContent) : null;
  }
  function tile(key) { return key ? root.querySelector('[data-key="' + key + '"]') : null; }

  // ---------------------------------------------------------------- showing a board

  function show(html) {
    var active = document.activeElement;
    var focusKey = active && root.contains(active)
      ? (active.dataset.key || (active.dataset.testid ? "testid:" + active.dataset.testid : null)) : null;
    var log = root.querySelector(".play-log-scroll");
    var logAtEnd = !log || log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
    var listOpen = get("list-open") === "1";
    var y = window.scrollY;
    root.innerHTML = html;
    // The end of a game between people polls for a rematch offer with htmx: a board put in
    // by this script is handed to htmx so that its attributes work.
    if (window.htmx) window.htmx.process(root);
    root.removeAttribute("aria-busy");
    picked = null;
    var b = board();
    if (b && b.dataset.seat !== "") seat = b.dataset.seat;
    log = root.querySelector(".play-log-scroll");
    if (log && logAtEnd) log.scrollTop = log.scrollHeight;
    var list = root.querySelector("[data-play-list]");
    if (list) list.open = listOpen;
    var speed = root.querySelector("[data-speed]");
    if (speed && get("speed")) speed.value = get("speed");
    restoreFocus(focusKey);
    if (window.scrollY !== y) window.scrollTo(window.scrollX, y);
    lightLastMove();
    schedule();
    follow();
    tickClock();
  }

  function restoreFocus(focusKey) {
    if (!focusKey) return;
    var again = focusKey.indexOf("testid:") === 0
      ? root.querySelector('[data-testid="' + focusKey.slice(7) + '"]') : tile(focusKey);
    if (!again || again.disabled) {
      again = root.querySelector(".tile-source:not([disabled]), .tile-direct:not([disabled]), .play-commands button, [data-seat-switch], [data-skip]");
    }
    if (again) again.focus({preventScroll: true});
  }

  function failed(response) {
    // A lost session: the log-in page (a redirect) or a refused post (403) is no board.
    var status = root.querySelector("[data-testid=play-status]");
    var message = document.createElement("p");
    message.className = "form-errors play-error";
    message.setAttribute("role", "alert");
    message.dataset.testid = "play-logged-out";
    var link = document.createElement("a");
    link.href = loginUrl + "?next=" + encodeURIComponent(window.location.pathname + window.location.search);
    if (response && (response.status === 403 || response.redirected)) {
      message.textContent = root.dataset.loggedOut + " ";
      link.textContent = root.dataset.logIn;
    } else {
      message.textContent = root.dataset.failed + " ";
      link.href = window.location.href;
      link.textContent = root.dataset.reload;
    }
    message.appendChild(link);
    var old = root.querySelector("[data-testid=play-logged-out]");
    if (old) old.remove();
    if (status) status.insertAdjacentElement("afterend", message);
    else root.prepend(message);
    busy = false;
    root.removeAttribute("aria-busy");
  }

  function answer(response) {
    var type = response.headers.get("Content-Type") || "";
    if (response.redirected || type.indexOf("text/html") < 0 ||
        (response.status !== 200 && response.status !== 400 && response.status !== 409)) {
      failed(response);
      return null;
    }
    return response.text().then(function (html) {
      if (html.indexOf('data-testid="board"') < 0) { failed(response); return; }
      busy = false;
      show(html);
    });
  }

  var lastRequest = 0;        // how long the last board took to come (ms)
  var failures = 0;           // boards asked for in a row that did not come

  // A board asked for (the AI's turn shown step by step, a step of the game) that does not
  // come — the server restarting, a lost connection, a 5xx — is asked for again after a pause
  // that doubles with each failure (1 s up to 60 s), and the page says so meanwhile. A move or
  // a form sent is never sent again by itself: its failure is said, with a reload.
  function unreachable(pause) {
    var note = root.querySelector("[data-testid=play-unreachable]");
    if (!pause) { if (note) note.remove(); return; }
    if (!note) {
      note = document.createElement("p");
      note.className = "form-errors play-error";
      note.setAttribute("role", "status");
      note.dataset.testid = "play-unreachable";
      var status = root.querySelector("[data-testid=play-status]");
      if (status) status.insertAdjacentElement("afterend", note);
      else root.prepend(note);
    }
    note.textContent = root.dataset.unreachable.replace("{seconds}", String(Math.round(pause / 1000)));
  }

  function askAgain(href) {
    failures += 1;
    var pause = Math.min(60000, 1000 * Math.pow(2, failures - 1));
    unreachable(pause);
    timer = setTimeout(function () { request(href); }, pause);
  }

  function request(href, options) {
    clearTimeout(timer);
    root.setAttribute("aria-busy", "true");
    var started = Date.now();
    options = options || {};
    var reading = !options.method;
    options.headers = {"HX-Request": "true"};
    options.credentials = "same-origin";
    return fetch(href, options).then(function (response) {
      lastRequest = Date.now() - started;
      if (reading && response.status >= 500) { askAgain(href); return null; }
      failures = 0;
      unreachable(0);
      return answer(response);
    }, function () { if (reading) askAgain(href); else failed(null); });
  }

  function query(step, seatValue) {
    var params = new URLSearchParams();
    if (step !== null) params.set("step", step);
    var s = seatValue !== undefined ? seatValue : seat;
    if (s !== null && s !== "") params.set("seat", s);
    return url + "?" + params.toString();
  }

  function load(step, seatValue) { return request(query(step, seatValue)); }

  // ---------------------------------------------------------------- the AI's turn, move by move

  // Each speed: a step's pause (ms) and the most a whole turn may take to show (ms) — past it
  // the page jumps to the latest step, so a long turn never keeps the player waiting.
  var SPEEDS = {slow: [1000, Infinity], normal: [300, 2000], fast: [120, 1000]};
  var turnStart = null;      // when the first board of the AI's turn being shown came

  function schedule() {
    clearTimeout(timer);
    var b = board();
    if (!b) return;
    var step = parseInt(b.dataset.step, 10), steps = parseInt(b.dataset.steps, 10);
    var pending = b.dataset.pending === "1";
    if (!pending && step >= steps) { skipping = false; turnStart = null; return; }
    if (turnStart === null) turnStart = Date.now();
    var speed = SPEEDS[get("speed") || "normal"];
    if (skipping || !speed || Date.now() - turnStart + 100 > speed[1]) {
      timer = setTimeout(function () { load(null); }, 50);
      return;
    }
    // The AI still to move: ask for the next step (the server answers the latest one there is).
    if (step >= steps) { timer = setTimeout(function () { load(step + 1); }, 100); return; }
    var pause = Math.min(speed[0], parseInt(b.dataset.delay, 10) || speed[0]);
    timer = setTimeout(function () { load(step + 1); }, Math.max(0, pause - lastRequest));
  }

  function lightLastMove() {
    var move = lastMove();
    var b = board();
    if (!move || !b || move.by !== "theirs") return;
    [[move.src, "lit-from"], [move.dst, "lit-to"]].forEach(function (pair) {
      var el = tile(pair[0]);
      if (!el) return;
      el.classList.add(pair[1]);
      if (!reduced) el.classList.add("lit-move");
    });
  }

  // ---------------------------------------------------------------- picking and playing

  function clearPick() {
    picked = null;
    root.querySelectorAll(".tile-picked, .tile-target").forEach(function (el) {
      el.classList.remove("tile-picked", "tile-target");
      el.removeAttribute("data-outcome");
      el.removeAttribute("data-forecast");
      el.removeAttribute("data-play");
      el.removeAttribute("aria-describedby");
      if (!el.classList.contains("tile-source") && !el.classList.contains("tile-direct")) el.disabled = true;
      var badge = el.querySelector(".tile-badge");
      if (badge) badge.textContent = "";
    });
    var bar = root.querySelector("[data-testid=selection]");
    if (bar) bar.textContent = root.dataset.pickHint || "";
  }

  function button(label, play, testid) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "button-small button-primary";
    b.textContent = label;
    b.dataset.play = play.json;
    b.dataset.kind = play.kind;
    b.dataset.testid = testid;
    return b;
  }

  var OUTCOME_MARK = {win: "✓", lose: "✗", trade: "⇄", unknown: "?", hero: "", lethal: "★"};

  function pick(key) {
    clearPick();
    var mine = plays().filter(function (p) { return p.src === key; });
    if (!mine.length) return;
    picked = key;
    tile(key).classList.add("tile-picked");
    var bar = root.querySelector("[data-testid=selection]");
    bar.textContent = "";
    var what = document.createElement("span");
    what.className = "play-selection-what";
    what.textContent = tile(key).getAttribute("aria-label");
    bar.appendChild(what);
    var targets = 0;
    mine.forEach(function (p) {
      if (!p.dst) { bar.appendChild(document.createTextNode(" ")); bar.appendChild(button(p.label, p, "pick-action")); return; }
      var el = tile(p.dst);
      if (!el) return;
      targets += 1;
      el.classList.add("tile-target");
      el.disabled = false;
      el.dataset.play = p.json;
      el.dataset.forecast = p.preview || p.label;
      if (p.outcome) {
        el.dataset.outcome = p.outcome;
        var badge = el.querySelector(".tile-badge");
        if (badge) badge.textContent = OUTCOME_MARK[p.outcome] || "";
      }
    });
    if (targets) {
      // The keyboard goes on from the first lit target (Tab reaches the others in board order).
      var firstTarget = root.querySelector(".tile-target");
      if (firstTarget) firstTarget.focus({preventScroll: true});
      var hint = document.createElement("span");
      hint.className = "play-selection-hint";
      hint.dataset.testid = "selection-hint";
      hint.textContent = " " + (root.dataset.chooseTarget || "").replace("{n}", targets);
      bar.appendChild(hint);
    }
  }

  function send(json, kind) {
    if (busy) return;
    if (kind === "end" && !endConfirmed()) return;
    busy = true;
    var form = root.querySelector("[data-play-form]");
    var token = root.querySelector("input[name=csrfmiddlewaretoken]");
    var b = board();
    var data = new FormData();
    data.append("csrfmiddlewaretoken", token ? token.value : "");
    data.append("version", b.dataset.version);
    data.append("seat", b.dataset.seat);
    data.append("action", json);
    root.querySelectorAll(".play-bar button, .tile").forEach(function (el) { el.disabled = true; });
    request(root.dataset.actUrl, {method: "POST", body: data});
    return form;
  }

  function endConfirmed() {
    var dialog = root.querySelector("[data-end-warning]");
    var b = board();
    var key = "end-warned." + b.dataset.uid + "." + b.dataset.turn + "." + b.dataset.seat;
    if (!dialog || get("never-warn") === "1" || get(key) === "1") return true;
    put(key, "1");             // asked once a turn: a second "end" ends it
    dialog.hidden = false;
    dialog.querySelector("[data-keep-playing]").focus({preventScroll: true});
    return false;
  }

  root.addEventListener("click", function (event) {
    var el = event.target.closest("button, a");
    if (!el || !root.contains(el)) {
      if (picked && !event.target.closest(".play-bar")) clearPick();
      return;
    }
    if (el.matches("[data-end-anyway], [data-keep-playing]")) {
      var dialog = root.querySelector("[data-end-warning]");
      var never = dialog.querySelector("[data-never-warn]");
      if (never && never.checked) put("never-warn", "1");
      dialog.hidden = true;
      if (el.matches("[data-end-anyway]")) {
        var end = root.querySelector('[data-testid="command-end"]');
        if (end) send(end.dataset.play, "end");
      } else {
        var cmd = root.querySelector('[data-testid="command-end"]');
        if (cmd) cmd.focus({preventScroll: true});
      }
      return;
    }
    if (el.matches(".tile, .tile-chip")) {
      event.preventDefault();
      var key = el.dataset.key;
      if (el.classList.contains("tile-target") && el.dataset.play) { send(el.dataset.play, ""); return; }
      if (el.classList.contains("tile-source")) { if (picked === key) clearPick(); else pick(key); return; }
      if (el.classList.contains("tile-direct")) {
        var direct = plays().filter(function (p) { return p.dst === key && !p.src; });
        if (direct.length === 1) send(direct[0].json, direct[0].kind);
        return;
      }
      clearPick();
      return;
    }
    if (el.matches("[data-play]")) { event.preventDefault(); send(el.dataset.play, el.dataset.kind); return; }
    if (el.matches("[data-skip]")) { event.preventDefault(); skipping = true; load(null); return; }
    if (el.matches("[data-seat-switch]")) { event.preventDefault(); seat = el.dataset.seatSwitch; load(null, seat); return; }
    if (el.matches("[data-hint]")) {
      event.preventDefault();
      var panel = document.getElementById("play-hint");
      el.setAttribute("aria-busy", "true");
      fetch(el.href, {headers: {"HX-Request": "true"}, credentials: "same-origin"})
        .then(function (r) { return r.text(); })
        .then(function (html) { panel.innerHTML = html; el.removeAttribute("aria-busy"); });
    }
  });

  // The preview of a lit target, as the pointer or the focus reaches it.
  function preview(event) {
    var el = event.target.closest && event.target.closest(".tile-target");
    if (!el || !el.dataset.forecast) return;
    var bar = root.querySelector("[data-testid=selection]");
    var old = bar.querySelector(".play-preview");
    if (old) old.remove();
    var p = document.createElement("span");
    p.className = "play-preview";
    p.dataset.testid = "preview";
    p.textContent = " " + el.dataset.forecast;
    bar.appendChild(p);
  }
  root.addEventListener("mouseover", preview);
  root.addEventListener("focusin", preview);

  root.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && picked) {
      var key = picked;
      clearPick();
      var back = tile(key);
      if (back) back.focus({preventScroll: true});
      event.preventDefault();
    }
  });

  root.addEventListener("change", function (event) {
    if (event.target.matches("[data-speed]")) { put("speed", event.target.value); schedule(); }
  });
  root.addEventListener("toggle", function (event) {
    if (event.target.matches && event.target.matches("[data-play-list]")) put("list-open", event.target.open ? "1" : "0");
  }, true);

  // The list's and the controls' forms (undo, restart, concede) post through the same path.
  root.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("[data-play-form]")) return;
    event.preventDefault();
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
    var data = new FormData(form);
    if (event.submitter && event.submitter.name) data.append(event.submitter.name, event.submitter.value);
    if (event.submitter && event.submitter.dataset.kind === "end" && !endConfirmed()) return;
    root.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    skipping = false;
    // getAttribute: the buttons are named "action", which shadows the form's own property.
    request(form.getAttribute("action"), {method: "POST", body: data});
  });

  // ---------------------------------------------------------------- a game between people

  // The other player's moves come as server-sent events (play/streams/events.py): each event is the
  // game's state after a change; a new version fetches this seat's board. The browser
  // reconnects by itself (Last-Event-ID: the last version and step seen).
  var source = null;
  var sourceUrl = null;
  var shownVersion = null;
  var newestVersion = 0;      // the newest version an event told of
  var chased = 0;             // the newest version a board was fetched for (once each)

  function follow() {
    var b = board();
    var live = b ? b.dataset.live : "";
    if (b) shownVersion = b.dataset.version;
    if (!live) { if (source) { source.close(); source = null; sourceUrl = null; } return; }
    // An event that came while this page's own action was on its way may be newer than the
    // action's answer (the clock ended the turn meanwhile): fetch the board it told of.
    if (!busy && Number(shownVersion) < newestVersion && chased !== newestVersion) {
      chased = newestVersion;
      load(null);
      return;
    }
    if (source && sourceUrl === live) return;
    if (source) source.close();
    sourceUrl = live;
    source = new EventSource(live + "?since=" + (b.dataset.steps || "0") + "&version=" +
                             (b.dataset.version || ""));
    source.addEventListener("state", function (event) {
      var state;
      try { state = JSON.parse(event.data); } catch (e) { return; }
      newestVersion = Math.max(newestVersion, Number(state.version) || 0);
      if (String(state.version) === String(shownVersion)) return;
      if (busy) return;            // the answer to this page's own action brings a board
      shownVersion = String(state.version);
      load(null);
    });
    // How many watch (play/spectators): counted by the server, shown on the board as it is.
    source.addEventListener("watchers", function (event) {
      var count;
      try { count = JSON.parse(event.data).watchers; } catch (e) { return; }
      root.querySelectorAll("[data-watchers]").forEach(function (el) {
        el.textContent = String(count);
      });
    });
  }

  // The turn clock: counted down here from the server's times (corrected by its "now"); the
  // server alone ends a turn or a game when the time runs out.
  var clockTimer = null;

  function mmss(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var m = Math.floor(s / 60);
    s = s % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function tickClock() {
    clearTimeout(clockTimer);
    var data = document.getElementById("play-clock-data");
    if (!data) return;
    var clock = JSON.parse(data.textContent);
    if (!clock) return;
    if (clock.offset === undefined) {
      clock.offset = clock.now - Date.now();
      data.textContent = JSON.stringify(clock);
    }
    var now = Date.now() + clock.offset;
    root.querySelectorAll("[data-clock-seat]").forEach(function (el) {
      var s = parseInt(el.dataset.clockSeat, 10);
      var turn = el.querySelector("[data-clock-turn]");
      var reserve = el.querySelector("[data-clock-reserve]");
      var moving = clock.started && clock.to_move === s && clock.turn_ends !== null;
      var left = moving ? clock.turn_ends - now : clock.turn * 1000;
      var reserveLeft = clock.reserves[s] * 1000;
      if (moving && left < 0) { reserveLeft = Math.max(0, clock.deadline - now); left = 0; }
      turn.textContent = moving ? mmss(left) : "–";
      reserve.textContent = mmss(reserveLeft);
      el.classList.toggle("play-clock-low", moving && left <= 10000 && reserveLeft <= 10000);
    });
    clockTimer = setTimeout(tickClock, 250);
  }

  var first = board();
  if (first && first.dataset.seat !== "") seat = first.dataset.seat;
  follow();
  tickClock();
  var speedSelect = root.querySelector("[data-speed]");
  if (speedSelect && get("speed")) speedSelect.value = get("speed");
  var list = root.querySelector("[data-play-list]");
  if (list && get("list-open") === "1") list.open = true;
  var logBox = root.querySelector(".play-log-scroll");
  if (logBox) logBox.scrollTop = logBox.scrollHeight;
  lightLastMove();
  schedule();
})();
