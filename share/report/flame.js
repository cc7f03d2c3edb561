/* flame.js: the flame and icicle graphs of ev2hp's report.
 *
 * ev2hp writes the calling-context tree of the stacks it shows (data.flame: the time
 * profile in samples, or a heap census in bytes, unit says which; the frames, and per
 * node its parent, frame, self and inclusive value, parents first; with --compare each
 * node's value in the base and its fill by relative change as flame.c colours it,
 * normalized saying what it measures); this draws it as flame.c draws its SVG, width by
 * value and siblings by name, labels in the colour that reads on their fill (WCAG AA),
 * with a tooltip per frame and a click to focus a frame. The page (report.js) owns the
 * state: it asks for a graph with ev2hp.flameGraph(data.flame) and has it drawn into its
 * charts box. Needs kit.js.
 */
(function (ev2hp) {
  "use strict";

  const { el, svg, showTooltip, hideTooltip, chartBar, fmtBytes } = ev2hp.kit;
  const FROW = 17; // a frame's row, as flame.c
  const FMIN = 0.33; // narrower frames are not drawn (their parent shows them)

  /* The tree ev2hp wrote (nodes: parent, cost centre, self, total; parents first) with
   * each node's children sorted by frame name, as flame.c draws them. */
  function flameTree(f) {
    const n = f.nodes.length / 4;
    const nodes = [];
    for (let i = 0; i < n; i++) {
      const cc = f.nodes[4 * i + 1];
      nodes.push({
        id: i,
        parent: f.nodes[4 * i],
        cc: cc >= 0 ? f.ccs[cc] : null,
        self: f.nodes[4 * i + 2],
        total: f.nodes[4 * i + 3],
        base: f.base ? f.base[i] : null,
        fill: f.fills ? f.fills[i] : null,
        depth: 0,
        children: [],
      });
    }
    for (const node of nodes)
      if (node.parent >= 0) {
        node.depth = nodes[node.parent].depth + 1;
        nodes[node.parent].children.push(node);
      }
    const name = (node) => (node.cc ? node.cc[0] : "all");
    for (const node of nodes)
      node.children.sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
    return { nodes: nodes, name: name, depth: Math.max(0, ...nodes.map((x) => x.depth)) };
  }

  /* "Main.main;Main.build": the frames from the outermost to node, as -o x.folded. */
  function flamePath(flame, node) {
    const names = [];
    for (let n = node; n.parent >= 0; n = flame.nodes[n.parent]) names.push(n.cc[0]);
    return names.reverse().join(";");
  }

  /* The graph of f (data.flame): its tree ({nodes, name, depth}) and draw. */
  ev2hp.flameGraph = function (f) {
    const flame = flameTree(f);
    const bytes = f.unit === "bytes";
    const value = (v) => (bytes ? fmtBytes(v) : v + " samples");
    const what =
      (f.base ? "differential " : "") +
      "graph of " +
      (bytes ? "the heap census" : "the time profile");

    /* Draws the graph into box (an icicle: the root at the top) with the frame focusId
     * spanning the width W; a click on a frame (or a double click: 0, the root) calls
     * setFocus with the frame to focus, for the page to redraw. */
    function draw(box, icicle, focusId, W, setFocus) {
      const focus = flame.nodes[focusId];
      const left = 8; // no axis: the frames span the width
      const pw = W - 2 * left;
      const H = (flame.depth + 1) * FROW + 8;
      const s = svg("svg", {
        viewBox: "0 0 " + W + " " + H,
        class: "chart flame",
        role: "img",
        "aria-label": (icicle ? "icicle " : "flame ") + what,
        "data-total": f.samples,
        "data-census": f.census_s == null ? "" : f.census_s,
        "data-focus": focusId,
      });
      const rowY = (depth) => (icicle ? 4 + depth * FROW : H - 4 - (depth + 1) * FROW);
      let narrow = 0;
      const frame = (node, x, w, dim) => {
        const g = svg("g", { class: "frame" + (dim ? " above" : ""), "data-node": node.id });
        const fill = node.fill || (node.cc ? node.cc[3] : "#c4c4c4");
        g.append(
          svg("rect", { x: x, y: rowY(node.depth), width: w, height: FROW - 1, fill: fill }),
        );
        // the label when a character and the ellipsis fit (about 6.2 units a character)
        const room = Math.floor((w - 6) / 6.2);
        if (room >= 2) {
          const name = flame.name(node);
          const t = svg("text", { x: x + 3, y: rowY(node.depth) + FROW - 5, fill: ink(fill) });
          t.textContent = name.length > room ? name.slice(0, room - 1) + "…" : name;
          g.append(t);
        }
        s.append(g);
      };
      // the focus's callers span the width, greyed; the focus and its callees by samples
      for (let n = flame.nodes[focus.parent]; n; n = flame.nodes[n.parent])
        frame(n, left, pw, true);
      const scale = focus.total > 0 ? pw / focus.total : 0;
      const stack = [[focus, left]];
      while (stack.length) {
        const [node, x] = stack.pop();
        const w = node.total * scale;
        if (w < FMIN) {
          narrow++;
          continue;
        }
        frame(node, x, w, false);
        let cx = x;
        for (const c of node.children) {
          stack.push([c, cx]);
          cx += c.total * scale;
        }
      }
      s.addEventListener("mousemove", (ev) => {
        const g = ev.target.closest ? ev.target.closest(".frame") : null;
        if (g) showFrame(flame.nodes[Number(g.dataset.node)], ev);
        else hideTooltip();
      });
      s.addEventListener("mouseleave", hideTooltip);
      s.addEventListener("click", (ev) => {
        const g = ev.target.closest ? ev.target.closest(".frame") : null;
        if (!g) return;
        setFocus(Number(g.dataset.node));
      });
      const unfocus = () => setFocus(0);
      s.addEventListener("dblclick", unfocus);
      const notes = [
        "width = " +
          (bytes ? "bytes" : "samples") +
          " including callees, " +
          (icicle ? "root at the top" : "root at the bottom") +
          ", siblings by name; " +
          (f.base ? changeKey() : "colour by module"),
      ];
      if (narrow) notes.push(narrow + " frames (with callees) too narrow to draw: click a frame");
      if (f.dropped_nodes)
        notes.push(
          f.dropped_nodes +
            " small calling contexts (" +
            value(f.dropped_samples) +
            ") left out of the report; their " +
            (bytes ? "bytes" : "samples") +
            " count in their callers",
        );
      if (f.outside_window) notes.push(f.outside_window + " samples outside --from/--to");
      const bar = chartBar(
        (focusId ? flame.name(focus) + ": " : "") + value(focus.total) + " of " + value(f.samples),
        focusId ? unfocus : null,
        "all frames (double-click)",
        "click a frame to zoom into it; double-click to go back",
      );
      const wrap = el("figure", { class: "panel" });
      wrap.append(
        el(
          "figcaption",
          {},
          (icicle ? "Icicle " : "Flame ") + what + (f.what ? ": " + f.what : ""),
        ),
      );
      wrap.append(s, el("p", { class: "hint", id: "flame-note" }, notes.join(" · ")));
      box.append(bar, wrap);
    }

    /* The label's colour on a fill, as chart_text_on (colors.c) picks it: the ink where
     * its WCAG contrast is 4.5:1 or more, else white, else black (one of the two always
     * is). */
    function ink(hex) {
      for (const c of ["#222222", "#ffffff"]) if (contrast(c, hex) >= 4.5) return c;
      return "#000000";
    }
    function luminance(hex) {
      const v = parseInt(hex.slice(1), 16);
      const lin = (c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(v >> 16) + 0.7152 * lin((v >> 8) & 255) + 0.0722 * lin(v & 255);
    }
    function contrast(a, b) {
      const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
      return (x + 0.05) / (y + 0.05);
    }

    /* What a differential graph's fills measure (ev2hp's flame_change_ratio) and what
     * full colour means, as flame.c's key says it. */
    function changeKey() {
      const unit = bytes ? "bytes" : "samples";
      return f.normalized
        ? "colour: change of each frame's share of its run's " +
            unit +
            " (as difffolded.pl -n); full red: share doubled, full blue: halved, grey: held"
        : "colour: change of each frame's " +
            unit +
            " (as pprof -diff_base); full red: doubled or more, full blue: halved or less, " +
            "grey: held";
    }

    function pct(part, whole = f.samples) {
      return (whole > 0 ? (100 * part) / whole : 0).toFixed(2) + " %";
    }

    /* With a base: its value, and the change to this run's. */
    function baseLine(node) {
      if (node.base === null) return null;
      const d = node.total - node.base;
      return el(
        "div",
        { class: "base" },
        value(node.base) +
          " (" +
          pct(node.base, f.base_total) +
          ") in the base; change " +
          (d < 0 ? "-" : "+") +
          value(Math.abs(d)) +
          (node.base > 0
            ? " (" + (d >= 0 ? "+" : "") + ((100 * d) / node.base).toFixed(1) + " %)"
            : ""),
      );
    }

    /* The tooltip of a frame: the whole name, module, source location, samples. */
    function showFrame(node, ev) {
      const cc = node.cc;
      showTooltip(
        ev,
        el(
          "div",
          {
            class: "frame-tip",
            "data-node": node.id,
            "data-samples": node.total,
            "data-self": node.self,
            "data-base": node.base === null ? "" : node.base,
            "data-path": node.parent >= 0 ? flamePath(flame, node) : "",
          },
          el("div", { class: "time" }, cc ? cc[0] : "all"),
          cc
            ? el(
                "div",
                { class: "hint" },
                "module " + (cc[1] || "?") + ", " + (cc[2] || "no source location"),
              )
            : null,
          el(
            "div",
            { class: "samples" },
            value(node.total) + " (" + pct(node.total) + ") including callees",
          ),
          el("div", {}, value(node.self) + " in the frame itself (" + pct(node.self) + ")"),
          baseLine(node),
        ),
      );
    }

    return { tree: flame, draw: draw };
  };
})((window.ev2hp = window.ev2hp || {}));
