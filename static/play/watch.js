// A spectator's page (play/spectators/views.py): the game's stream for spectators sends an
// event at each change of the game; the page then fetches the board again (the server words it,
// hiding both hands). The count of spectators comes as its own event. No controls: watching
// only. The browser reconnects by itself (Last-Event-ID: the last version and step seen).
(function () {
  "use strict";
  var root = document.getElementById("watch-board");
  if (!root) return;
  var source = null;
  var loading = false;
  var wanted = null;          // a version told of while a board was on its way
  var gone = false;           // the game may no longer be watched (a 404)
  var failed = false;         // the last fetch of the board failed: asked again in 3 s

  function watch() { return root.querySelector("[data-testid=watch]"); }

  function load() {
    if (loading) return;
    loading = true;
    fetch(root.dataset.boardUrl, {headers: {"HX-Request": "true"}, credentials: "same-origin"})
      .then(function (response) {
        if (response.status === 404) gone = true;      // no longer to be watched
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        var log = root.querySelector(".event-list-scroll");
        var atEnd = !log || log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
        root.innerHTML = html;
        var fresh = root.querySelector(".event-list-scroll");
        if (fresh && atEnd) fresh.scrollTop = fresh.scrollHeight;
      })
      .catch(function () { failed = true; })
      .then(function () {
        loading = false;
        if (gone) { closed(); return; }
        if (failed) { failed = false; setTimeout(load, 3000); return; }   // asked again
        var shown = watch();
        if (wanted !== null && shown && Number(shown.dataset.version) < wanted) load();
        else follow();
      });
  }

  function closed() {
    if (source) { source.close(); source = null; }
    var status = root.querySelector("[data-testid=watch-status]");
    if (status) {
      status.textContent = root.dataset.closed;
      status.setAttribute("data-closed", "1");
    }
  }

  function follow() {
    var shown = watch();
    var live = shown ? shown.dataset.live : "";
    if (!live) { if (source) { source.close(); source = null; } return; }
    if (source) return;
    source = new EventSource(live + "?since=" + (shown.dataset.steps || "0") + "&version=" +
                             (shown.dataset.version || ""));
    source.addEventListener("state", function (event) {
      var state;
      try { state = JSON.parse(event.data); } catch (e) { return; }
      var now = watch();
      if (now && String(state.version) === now.dataset.version) return;
      wanted = Math.max(wanted || 0, Number(state.version) || 0);
      if (state.status !== "playing") { source.close(); source = null; }
      load();
    });
    source.addEventListener("watchers", function (event) {
      var count;
      try { count = JSON.parse(event.data).watchers; } catch (e) { return; }
      root.querySelectorAll("[data-watchers]").forEach(function (el) {
        el.textContent = String(count);
      });
    });
    source.addEventListener("closed", closed);
  }

  var log = root.querySelector(".event-list-scroll");
  if (log) log.scrollTop = log.scrollHeight;
  follow();
})();
