// Muster's pages: live updates over the page's event stream, the replay's slider and keys,
// and times in the reader's zone. Every page reads without this script.
"use strict";
(function () {
  const main = document.getElementById("main");
  if (!main) return;

  function localTimes(root) {
    for (const t of root.querySelectorAll("time[datetime]")) {
      const d = new Date(t.getAttribute("datetime"));
      if (!isNaN(d)) t.textContent = d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
    }
  }

  // The replay: the slider, the arrow keys, and the links step through the positions without
  // reloading; the address keeps the position shown (?ply=N).
  function show(n) {
    const slider = document.getElementById("ply");
    const img = document.getElementById("board");
    if (!slider || !img) return;
    const last = Number(slider.max);
    n = Math.max(0, Math.min(last, n));
    slider.value = String(n);
    const url = new URL(img.dataset.src, location.href);
    url.searchParams.set("ply", String(n));
    const theme = new URL(location.href).searchParams.get("theme");
    if (theme) url.searchParams.set("theme", theme);
    img.src = url.pathname + url.search;
    img.alt = "The board after " + n + " of " + last + " decisions.";
    const label = document.getElementById("ply-shown");
    if (label) label.textContent = n + " / " + last;
    for (const li of document.querySelectorAll("ol.moves li")) {
      if (Number(li.dataset.ply) === n) li.setAttribute("aria-current", "step");
      else li.removeAttribute("aria-current");
    }
    const page = new URL(location.href);
    if (n === last) page.searchParams.delete("ply"); else page.searchParams.set("ply", String(n));
    history.replaceState(null, "", page.pathname + page.search);
    const part = document.getElementById("live");
    if (part) part.dataset.following = n === last ? "yes" : "no";
    const note = document.getElementById("newer");
    if (note && n === last) note.hidden = true;
  }
  function replay() {
    const slider = document.getElementById("ply");
    if (!slider) return;
    slider.addEventListener("input", () => show(Number(slider.value)));
    for (const a of document.querySelectorAll("a[data-ply]")) {
      a.addEventListener("click", (e) => {
        e.preventDefault();
        show(Number(a.dataset.ply));
      });
    }
    const go = document.getElementById("ply-go");
    if (go) go.hidden = true;
  }
  document.addEventListener("keydown", (e) => {
    const slider = document.getElementById("ply");
    if (!slider) return;
    if (e.target instanceof HTMLInputElement && e.target !== slider) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const n = Number(slider.value);
    let to = null;
    if (e.key === "ArrowLeft") to = n - 1;
    else if (e.key === "ArrowRight") to = n + 1;
    else if (e.key === "Home") to = 0;
    else if (e.key === "End") to = Number(slider.max);
    if (to === null) return;
    e.preventDefault();
    show(to);
  });

  // Live updates: the stream sends the page's changing part whole; a reader studying an earlier
  // position is offered the newest instead of being moved there.
  let stream = null;
  function follow() {
    const address = main.dataset.live;
    if (!address || stream) return;
    stream = new EventSource(address);
    stream.addEventListener("update", (e) => {
      let data;
      try { data = JSON.parse(e.data); } catch (_) { return; }
      const part = document.getElementById("live");
      if (!part || typeof data.html !== "string" || data.version === main.dataset.version) return;
      main.dataset.version = data.version;
      if (part.dataset.following === "no") {
        const note = document.getElementById("newer");
        if (note) note.hidden = false;
        return;
      }
      const holder = document.createElement("div");
      holder.innerHTML = data.html;
      const fresh = holder.querySelector("#live");
      if (!fresh) return;
      part.replaceWith(fresh);
      localTimes(fresh);
      const theme = new URL(location.href).searchParams.get("theme");
      const img = document.getElementById("board");
      if (img && theme) {
        const url = new URL(img.getAttribute("src"), location.href);
        url.searchParams.set("theme", theme);
        img.src = url.pathname + url.search;
      }
      replay();
    });
  }
  // A page left for another is closed with its stream, so that pages kept for going back
  // do not hold the browser's few connections to this site.
  window.addEventListener("pagehide", () => { if (stream) { stream.close(); stream = null; } });
  window.addEventListener("pageshow", follow);

  localTimes(document);
  replay();
  follow();
})();
