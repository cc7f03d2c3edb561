/* live.js: the report made live by ev2hp --serve (served at /, embedded like report.js).
 *
 * The server sends an event per census on /events (Server-Sent Events). On each, at most
 * a few times a second, this script fetches the report's data again (/report.json: the
 * same document a report file holds, for the input read so far) and has report.js draw
 * the page again (window.ev2hpReport, with kit.js and flame.js as they are), carrying the user's view, zoom, hidden bands,
 * table order and filter across (report.js hands its state to restore), and the window
 * chosen (a zoom, a phase: every view is of it). The state is in the page's address too
 * (link.js), so a link to the live page opens on the same view. When the user
 * has not zoomed, the time axis follows the run as it grows. A bar above the report says
 * how many censuses came in and when the stream ended, and offers the program's controls
 * (a census now, heap profiling on and off) only when the server says they reach it (its
 * eventlog comes over a socket; a file or a FIFO cannot be controlled). When the server
 * finds the program's censuses held back in the runtime's buffers (events arrive, no
 * census; or all censuses at once, late), the bar says why and what to run, from then on.
 *
 * Everything from the eventlog goes into the page as text (textContent), never as markup.
 */
(function () {
  "use strict";

  const root = document.getElementById("report");
  let current = null; // report.js's state on the page now
  let carried = null; // the state of the page being replaced

  window.ev2hpLive = {
    // whether report.js is drawing the page again with the user's state (not from a link)
    carrying() {
      return carried !== null;
    },
    // fromLink: the page follows a link (the fragment changed): its state, not the carried
    restore(state, fromLink) {
      if (carried && !fromLink) {
        state.view = carried.view;
        state.focus = carried.focus;
        state.hidden = carried.hidden;
        state.sort = carried.sort;
        state.filterText = carried.filterText;
        state.census = carried.census;
        state.flameMode = carried.flameMode;
        if (carried.zooms.length) {
          // zoomed in: the user's range stays; not zoomed: the axis follows the run
          state.range = carried.range;
          state.zooms = carried.zooms;
        }
      }
      current = state;
    },
    // the grouping control's key (report.js's state.groupBy), kept across redraws
    groupBy() {
      return carried ? carried.groupBy : null;
    },
  };

  // --- the bar: censuses, the stream's state, controls ---------------------------------

  const bar = document.createElement("div");
  bar.id = "live";
  bar.className = "live";
  bar.dataset.censuses = "0";
  bar.dataset.ended = "false";
  bar.dataset.redraws = "0";
  const status = document.createElement("span");
  status.id = "live-status";
  status.textContent = "live: connecting…";
  const said = document.createElement("span");
  said.id = "live-said";
  said.className = "hint";
  bar.append(status);
  const controls = [];
  for (const [id, path, title] of [
    ["census-now", "control/census", "census now"],
    ["profiling-start", "control/heap-profiling/start", "start heap profiling"],
    ["profiling-stop", "control/heap-profiling/stop", "stop heap profiling"],
  ]) {
    const b = document.createElement("button");
    b.id = id;
    b.textContent = title;
    b.hidden = true; // until the server says the program can be reached
    b.onclick = () => control(path);
    bar.append(" ", b);
    controls.push(b);
  }
  bar.append(" ", said);
  // why no census comes, once the server has found out (the "waiting" event)
  const waiting = document.createElement("p");
  waiting.id = "live-wait";
  waiting.className = "live-wait";
  waiting.setAttribute("role", "status");
  waiting.hidden = true;
  bar.append(waiting);
  document.body.insertBefore(bar, root);

  function showControls(reachable) {
    for (const b of controls) b.hidden = !reachable || bar.dataset.ended === "true";
  }

  function showWaiting(why) {
    if (!why) return;
    waiting.textContent = why; // the server's sentence, as text
    waiting.hidden = false;
    bar.dataset.waiting = "true";
  }

  function control(path) {
    // the header is what a cross-site form cannot send: the server refuses without it
    fetch(path, { method: "POST", headers: { "X-Requested-By": "ev2hp" } })
      .then((r) => r.text().then((t) => (said.textContent = r.status + ": " + t.trim())))
      .catch((e) => (said.textContent = "not sent: " + e));
  }

  function showStatus() {
    const n = bar.dataset.censuses;
    status.textContent =
      bar.dataset.ended === "true"
        ? "the stream ended: " + n + " censuses (final)"
        : "live: " + n + " censuses, following";
  }

  // --- redraws --------------------------------------------------------------------------

  let busy = false;
  let again = false;
  let timer = 0;
  function redraw() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    fetch("report.json", { cache: "no-store" })
      .then((r) => (r.ok ? r.text() : Promise.reject(new Error("status " + r.status))))
      .then((text) => {
        JSON.parse(text); // a broken document leaves the page as it is
        carried = current;
        const x = window.scrollX;
        const y = window.scrollY;
        document.getElementById("ev2hp-data").textContent = text;
        root.textContent = "";
        window.ev2hpReport(window.ev2hp);
        window.scrollTo(x, y);
        bar.dataset.redraws = String(Number(bar.dataset.redraws) + 1);
      })
      .catch((e) => (said.textContent = "could not update: " + e))
      .finally(() => {
        busy = false;
        if (again) {
          again = false;
          soon();
        }
      });
  }
  // new censuses show within a second, however fast they come
  function soon() {
    if (!timer)
      timer = setTimeout(() => {
        timer = 0;
        redraw();
      }, 250);
  }

  const events = new EventSource("events");
  events.addEventListener("init", (e) => {
    const d = JSON.parse(e.data);
    bar.dataset.censuses = String(d.censuses);
    showControls(d.control === true);
    showWaiting(d.waiting);
    showStatus();
    soon(); // what came in between the page and the connection
  });
  events.addEventListener("waiting", (e) => showWaiting(JSON.parse(e.data).why));
  events.addEventListener("census", (e) => {
    bar.dataset.censuses = String(JSON.parse(e.data).census);
    showStatus();
    soon();
  });
  events.addEventListener("end", (e) => {
    bar.dataset.censuses = String(JSON.parse(e.data).censuses);
    bar.dataset.ended = "true";
    showStatus();
    // the program has gone: nothing is there to take a census or a start or stop
    showControls(false);
    events.close(); // nothing more will come
    soon();
  });
  events.onerror = () => {
    if (bar.dataset.ended !== "true") status.textContent = "live: connection lost, retrying…";
  };
})();
