/* Cardlab, every page.
 *
 * Search forms send only the fields that hold something: an address like
 * /cards/?q=fire&cost_min=&cost_max=&attack_min=… is noise to read, bookmark and share. Empty
 * fields are dropped from htmx GET requests (and so from the address htmx pushes) and from
 * plain GET form submissions.
 *
 * Buttons with data-copy="text" (or data-copy-from="#id") copy to the clipboard and say so.
 *
 * A card name with data-preview="<image url>" shows the card's image beside the pointer while
 * hovered (or beside the name while focused), in the builder, deck pages and the what-if form.
 *
 * Focus survives live updates: when htmx swaps out the focused element, the new element with
 * the same id is focused again.
 *
 * A box that scrolls sideways (a wide table or chart on a phone, a long code sample) can be
 * reached with the keyboard: it takes focus (tabindex 0) while its content overflows it, so
 * arrow keys scroll it; a box that fits is left out of the tab order.
 *
 * On a narrow screen the site's links fold into a menu behind one button, so the header is one
 * bar (at most 64 px) on every page.
 *
 * A form's field for some choices only (data-shown-for="objective=meta|adapted" on its input)
 * shows while one of them is checked and hides otherwise; one with an error stays shown. Without the
 * script every field shows. */
(function () {
  "use strict";

  function emptyKeys(data) {
    var filled = {}, seen = {};
    data.forEach(function (value, key) {
      seen[key] = true;
      if (value !== "") filled[key] = true;
    });
    return Object.keys(seen).filter(function (key) { return !filled[key]; });
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    if (detail.verb !== "get" || !detail.formData) return;
    emptyKeys(detail.formData).forEach(function (key) { detail.formData.delete(key); });
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if ((form.method || "").toLowerCase() !== "get" || form.hasAttribute("hx-get")) return;
    var disabled = [];
    Array.prototype.forEach.call(form.elements, function (field) {
      if (field.name && !field.disabled && field.value === "" &&
          field.type !== "checkbox" && field.type !== "radio") {
        field.disabled = true;
        disabled.push(field);
      }
    });
    // Enable them again once the browser has read the form (back/forward cache keeps the page).
    setTimeout(function () { disabled.forEach(function (f) { f.disabled = false; }); }, 0);
  });

  function copied(button, ok) {
    var label = button.getAttribute("data-label") || button.textContent;
    button.setAttribute("data-label", label);
    button.textContent = ok ? button.getAttribute("data-done") || "Copied" :
      button.getAttribute("data-failed") || "Press Ctrl+C to copy";
    button.classList.toggle("copied", ok);
    setTimeout(function () { button.textContent = label; button.classList.remove("copied"); }, 2000);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy], [data-copy-from]");
    if (!button) return;
    event.preventDefault();
    var source = button.getAttribute("data-copy-from");
    var field = source ? document.querySelector(source) : null;
    var text = field ? (field.value !== undefined ? field.value : field.textContent)
                     : button.getAttribute("data-copy");
    if (field && field.select) field.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { copied(button, true); },
                                               function () { copied(button, false); });
    } else {
      var ok = false;
      try { ok = !!(field && field.select && document.execCommand("copy")); } catch (e) { ok = false; }
      copied(button, ok);
    }
  });

  var preview = null;

  function showPreview(target, x, y) {
    if (!preview) {
      preview = document.createElement("div");
      preview.className = "card-preview";
      preview.setAttribute("aria-hidden", "true");
      preview.appendChild(document.createElement("img"));
      document.body.appendChild(preview);
    }
    var img = preview.firstChild;
    if (img.getAttribute("src") !== target.getAttribute("data-preview")) {
      img.setAttribute("src", target.getAttribute("data-preview"));
      img.setAttribute("alt", "");
    }
    var width = 220, height = 308, margin = 16;
    var left = x + margin + width > window.innerWidth ? x - margin - width : x + margin;
    var top = Math.min(Math.max(8, y - height / 2), window.innerHeight - height - 8);
    preview.style.left = Math.max(8, left) + "px";
    preview.style.top = top + "px";
    preview.hidden = false;
  }

  function hidePreview() { if (preview) preview.hidden = true; }

  document.addEventListener("mousemove", function (event) {
    var target = event.target.closest && event.target.closest("[data-preview]");
    if (target) showPreview(target, event.clientX, event.clientY); else hidePreview();
  });
  document.addEventListener("focusin", function (event) {
    var target = event.target.closest && event.target.closest("[data-preview]");
    if (!target) { hidePreview(); return; }
    var box = target.getBoundingClientRect();
    showPreview(target, box.right, box.top + box.height / 2);
  });
  document.addEventListener("focusout", hidePreview);
  document.addEventListener("htmx:beforeSwap", hidePreview);

  // A part of a page that polls (a run's progress, a search's, the Play page's challenges:
  // hx-trigger "every …") keeps polling after a failed answer — htmx asks again at its next
  // tick — and the page says meanwhile that the server is not answering; the note goes with
  // the next answer that comes.
  function polls(event) {
    var elt = event.detail && event.detail.elt;
    return elt && /\bevery\b/.test(elt.getAttribute("hx-trigger") || "");
  }
  function pollNote(show) {
    var note = document.querySelector("[data-testid=poll-unreachable]");
    var main = document.getElementById("main");
    if (!show) { if (note) note.remove(); return; }
    if (note || !main) return;
    note = document.createElement("p");
    note.className = "form-errors";
    note.setAttribute("role", "status");
    note.dataset.testid = "poll-unreachable";
    note.textContent = document.body.dataset.pollFailed;
    main.prepend(note);
  }
  document.addEventListener("htmx:responseError", function (event) { if (polls(event)) pollNote(true); });
  document.addEventListener("htmx:sendError", function (event) { if (polls(event)) pollNote(true); });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (polls(event) && event.detail.successful) pollNote(false);
  });

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

  // The site's menu on a narrow screen: the button (hidden without this script, when the links
  // wrap under the brand instead) opens and closes the links' panel; Escape or a click outside
  // closes it and gives the focus back to the button.
  var header = document.querySelector(".site-header");
  var toggle = header && header.querySelector(".nav-toggle");
  if (toggle) {
    var setMenu = function (open) {
      header.classList.toggle("menu-open", open);
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
    };
    header.classList.add("has-menu");
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      setMenu(toggle.getAttribute("aria-expanded") !== "true");
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && header.classList.contains("menu-open")) {
        setMenu(false);
        toggle.focus();
      }
    });
    document.addEventListener("click", function (event) {
      if (header.classList.contains("menu-open") && !header.contains(event.target)) setMenu(false);
    });
  }

  var SCROLLERS = ".table-wrap, .chart-figure, pre, .scroll-x";
  function markScrollers(root) {
    Array.prototype.forEach.call((root || document).querySelectorAll(SCROLLERS), function (box) {
      var scrolls = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("data-scroll-focus", "");
      } else if (!scrolls && box.hasAttribute("data-scroll-focus")) {
        box.removeAttribute("tabindex");
        box.removeAttribute("data-scroll-focus");
      }
    });
  }
  document.addEventListener("DOMContentLoaded", function () { markScrollers(); });
  window.addEventListener("load", function () { markScrollers(); });
  window.addEventListener("resize", function () { markScrollers(); });
  document.addEventListener("htmx:afterSettle", function () { markScrollers(); });
})();

/* Answers that race: a count or a deck's status on the page is never older than what the
 * server stored, whatever order the answers arrive in.
 *
 * A collection count (a table row, the card page's box) comes with data-version: the user's
 * collection version read before the count. Of two answers about one count the page keeps the
 * one with the higher version: an older answer is not shown, a row answer whose row was
 * replaced meanwhile (a search's refresh) goes to the row now shown, and a table that arrives
 * after a newer row answer gets that row back.
 *
 * The count's − / + buttons and number box are sent here rather than by htmx: htmx keeps one
 * request a form in flight and queues the next, and drops the queued one when the form leaves
 * the page, and a row freshly swapped in waits for htmx to process it; either loses a fast
 * click. Here every click is its own request at once (the server applies them one after
 * another), and an answer updates the row around the form in place, so the buttons (and the
 * keyboard focus on them) stay.
 *
 * The builder's deck panel comes with data-deck-rev (the draft's revision in the session): an
 * answer older than the panel shown is not swapped in; the status line above the panels is
 * copied from the panel just swapped in, so the two never disagree. */
(function () {
  "use strict";

  function number(el, name) {
    var value = el && el.getAttribute(name);
    return value === null || value === undefined || value === "" ? null : parseInt(value, 10);
  }
  function firstElement(html) {
    var box = document.createElement("template");
    box.innerHTML = html.trim();
    return box.content.firstElementChild;
  }

  var newest = {};   // element id -> {version, html}: the newest answer about each count
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (typeof detail.serverResponse !== "string") return;
    if (detail.target && detail.target.id === "deck-panel") {
      var rev = /data-deck-rev="(\d+)"/.exec(detail.serverResponse);
      var shown = number(document.querySelector("#deck-panel [data-deck-rev]"), "data-deck-rev");
      if (rev && shown !== null && parseInt(rev[1], 10) < shown) detail.shouldSwap = false;
      return;
    }
    if (detail.serverResponse.indexOf("data-version=") < 0) return;
    var fresh = firstElement(detail.serverResponse);
    var version = number(fresh, "data-version");
    if (!fresh || !fresh.id || version === null) return;
    remember(fresh, detail.serverResponse);
    var live = document.getElementById(fresh.id);
    if (!live) { detail.shouldSwap = false; return; }       // not on the page any more
    if (live !== detail.target) detail.target = live;       // replaced since it was asked
    var liveVersion = number(live, "data-version");
    if (liveVersion !== null && version < liveVersion) detail.shouldSwap = false;
  });

  function remember(fresh, html) {
    var version = number(fresh, "data-version"), known = newest[fresh.id];
    if (version !== null && (!known || version >= known.version)) {
      newest[fresh.id] = { version: version, html: html };
    }
  }

  // An answer about a count shown in place: the parts marked data-own-part and the form's
  // fields take the answer's, the form itself stays.
  function showCount(live, fresh, typed) {
    live.className = fresh.className;
    live.setAttribute("data-version", fresh.getAttribute("data-version"));
    var liveParts = live.querySelectorAll("[data-own-part]");
    var freshParts = fresh.querySelectorAll("[data-own-part]");
    Array.prototype.forEach.call(liveParts, function (part, i) {
      if (freshParts[i]) part.innerHTML = freshParts[i].innerHTML;
    });
    var form = live.querySelector("form.own-step"), freshForm = fresh.querySelector("form.own-step");
    if (!form || !freshForm) return;
    var count = form.querySelector(".own-count"), freshCount = freshForm.querySelector(".own-count");
    // A number being typed is left alone, unless this is the answer to it.
    if (count && freshCount && (document.activeElement !== count || count === typed)) {
      count.value = freshCount.value;
      count.setAttribute("data-sent", freshCount.value);
    }
    var minus = form.querySelector('.step-button[value="-1"]');
    var freshMinus = freshForm.querySelector('.step-button[value="-1"]');
    if (minus && freshMinus) minus.disabled = freshMinus.disabled;
  }

  function failed(form, text) {
    var holder = form.closest("[data-version]");
    var part = holder && holder.querySelectorAll("[data-own-part]");
    if (!part || !part.length) return;
    var last = part[part.length - 1], note = document.createElement("p");
    note.className = "bad-text small";
    note.setAttribute("role", "alert");
    note.textContent = text;
    Array.prototype.forEach.call(last.querySelectorAll(".bad-text"), function (old) { old.remove(); });
    last.appendChild(note);
  }

  function sendCount(form, body, typed) {
    var message = form.getAttribute("data-own-failed") || "";
    fetch(form.getAttribute("data-own-answer"), {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "HX-Request": "true", "HX-Current-URL": window.location.href },
    }).then(function (response) {
      return response.text().then(function (html) {
        var fresh = /^\s*</.test(html) ? firstElement(html) : null;
        if (!fresh || !fresh.id || number(fresh, "data-version") === null) {
          var plain = (response.headers.get("Content-Type") || "").indexOf("text/plain") === 0;
          failed(form, plain && html.trim() ? html.trim() : message);   // an unknown card
          return;
        }
        remember(fresh, html);
        var live = document.getElementById(fresh.id);
        var liveVersion = number(live, "data-version");
        if (live && (liveVersion === null || number(fresh, "data-version") >= liveVersion)) {
          showCount(live, fresh, typed);
        }
        if (response.ok && window.htmx) window.htmx.trigger(document.body, "collection-changed");
      });
    }, function () { failed(form, message); });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form.own-step[data-own-answer]")) return;
    event.preventDefault();
    var button = event.submitter, body = new FormData(form);
    var count = form.querySelector(".own-count");
    if (button && button.name === "delta" && document.activeElement !== count) {
      body.set("delta", button.value);
      sendCount(form, body, null);
    } else if (count && count.value !== count.getAttribute("data-sent")) {
      count.setAttribute("data-sent", count.value);      // Enter in the box: the typed number
      sendCount(form, body, count);
    }
  });
  document.addEventListener("change", function (event) {
    var count = event.target, form = count.form;
    if (!count.matches || !count.matches(".own-count") || !form ||
        !form.matches("form.own-step[data-own-answer]")) return;
    if (count.value === count.getAttribute("data-sent")) return;  // sent by Enter already
    count.setAttribute("data-sent", count.value);
    sendCount(form, new FormData(form), count);
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (target && target.id === "deck-panel") {
      var next = target.querySelector("[data-deck-status]");
      var status = document.getElementById("deck-status");
      if (next && status) status.innerHTML = next.innerHTML;
    }
    Object.keys(newest).forEach(function (id) {
      var live = document.getElementById(id), known = newest[id];
      var liveVersion = number(live, "data-version");
      if (!live || liveVersion === null || liveVersion >= known.version) return;
      var fresh = firstElement(known.html);                 // a table older than a row answer
      live.replaceWith(fresh);
      if (window.htmx) window.htmx.process(fresh);
    });
  });

  function showChosen(form) {
    form.querySelectorAll("[data-shown-for]").forEach(function (input) {
      var want = input.getAttribute("data-shown-for").split("=");
      var chosen = form.querySelector('input[name="' + want[0] + '"]:checked');
      var group = input.closest(".field") || input;
      group.hidden = !!chosen && want[1].split("|").indexOf(chosen.value) < 0 &&
        !group.classList.contains("has-error");
    });
  }
  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.querySelector("[data-shown-for]")) showChosen(form);
  });
  document.querySelectorAll("form").forEach(function (form) {
    if (form.querySelector("[data-shown-for]")) showChosen(form);
  });
})();
