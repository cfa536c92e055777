/* The admin's markup, completed for assistive technology (axe-core checks it in the browser
 * tests):
 * - a cell of an inline table has no label of its own: it takes its column's heading;
 * - the two halves of a date-and-time field are named "date" and "time" after the field;
 * - the filter widget's search icon carries a name, so it is an image;
 * - an autocomplete box (select2) is named after its field's label;
 * - a box that scrolls sideways takes keyboard focus while its content overflows it.
 * It runs when the page has loaded (after the admin's own widgets) and again for every inline
 * row added. */
(function () {
  "use strict";

  function labelText(id) {
    var label = id && document.querySelector('label[for="' + id + '"]');
    return label ? label.textContent.replace(/[:：]\s*$/, "").trim() : "";
  }

  function nameInlineCells(root) {
    root.querySelectorAll("table").forEach(function (table) {
      var heads = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
        return th.textContent.trim();
      });
      table.querySelectorAll("tbody tr").forEach(function (row) {
        Array.prototype.forEach.call(row.cells, function (cell, index) {
          cell.querySelectorAll("input:not([type=hidden]), select, textarea").forEach(function (field) {
            if (field.labels && field.labels.length) return;
            if (field.getAttribute("aria-label") || field.getAttribute("aria-labelledby")) return;
            var heading = heads[index] || heads[index - 1] || "";
            if (heading) field.setAttribute("aria-label", heading);
          });
        });
      });
    });
  }

  function nameSplitDateTimes(root) {
    root.querySelectorAll(".datetime input[id$='_0'], .datetime input[id$='_1']").forEach(function (field) {
      if (field.labels && field.labels.length && field.getAttribute("aria-label")) return;
      var base = field.id.replace(/_[01]$/, "");
      var name = labelText(base + "_0") || labelText(base);
      var part = field.id.slice(-1) === "0" ? gettextOr("Date:") : gettextOr("Time:");
      field.setAttribute("aria-label", (name ? name + " " : "") + part.replace(/[:：]\s*$/, ""));
    });
  }

  function gettextOr(text) {
    return typeof window.gettext === "function" ? window.gettext(text) : text;
  }

  function nameIcons(root) {
    root.querySelectorAll(".help-tooltip[aria-label]:not([role])").forEach(function (icon) {
      icon.setAttribute("role", "img");
    });
  }

  function nameAutocompletes(root) {
    root.querySelectorAll("select.admin-autocomplete").forEach(function (select) {
      var box = select.parentElement && select.parentElement.querySelector(".select2-selection");
      if (!box || box.getAttribute("aria-label")) return;
      var name = labelText(select.id) || select.getAttribute("aria-label") || "";
      if (!name) {
        var cell = select.closest("td");
        var table = select.closest("table");
        if (cell && table) {
          var th = table.querySelectorAll("thead th")[cell.cellIndex];
          name = th ? th.textContent.trim() : "";
        }
      }
      if (name) box.setAttribute("aria-label", name);
      var shown = box.querySelector(".select2-selection__rendered");
      if (shown && !shown.getAttribute("aria-label") && name) shown.setAttribute("aria-label", name);
    });
  }

  function markScrollers(root) {
    root.querySelectorAll(".inline-group, .module, .results, .readonly").forEach(function (box) {
      var scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls && !box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
    });
  }

  function complete() {
    nameInlineCells(document);
    nameSplitDateTimes(document);
    nameIcons(document);
    nameAutocompletes(document);
    markScrollers(document);
  }

  window.addEventListener("load", function () {
    complete();
    // The filter widget and select2 build their markup at load; look again once they did.
    window.setTimeout(complete, 0);
  });
  document.addEventListener("formset:added", function () { window.setTimeout(complete, 0); });
})();
