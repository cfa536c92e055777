/* Cardlab deck builder: keep the keyboard focus across htmx updates.
 *
 * A live update replaces the buttons the user is pressing (+ and − re-render with new counts).
 * When the focused element is swapped out, focus the new element with the same id, so a
 * keyboard user can press Enter again and again on the same button. */
(function () {
  "use strict";
  var focusedId = null;
  document.addEventListener("htmx:beforeSwap", function () {
    var active = document.activeElement;
    focusedId = active && active !== document.body && active.id ? active.id : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!focusedId) return;
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    var again = document.getElementById(focusedId);
    if (again) again.focus({ preventScroll: true });
  });
})();
