// The replay viewer: the arrow keys step through the game (← the step before, → the next),
// as the "◀ Step" and "Step ▶" links do; not while typing in a field or with a modifier key.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) return;
    if (event.target.closest && event.target.closest("input, select, textarea, [contenteditable]")) return;
    var rel = event.key === "ArrowLeft" ? "prev" : event.key === "ArrowRight" ? "next" : null;
    var link = rel && document.querySelector('.replay-nav a[rel="' + rel + '"]');
    if (!link) return;
    event.preventDefault();
    window.location.href = link.href;
  });
})();
