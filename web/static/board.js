// Umpire's game page: the live board, drawn as SVG from board.json and state.json, the status,
// battles, history and odds; for a seated player the orders, built by pointing and clicking and
// always shown as the line that will be sent. Plain JavaScript, no framework, no build step; the
// page runs under a strict Content-Security-Policy (script-src 'self', style-src 'self'): no
// inline script, no style attributes, no eval. See docs/web.md, "The page".
"use strict";

(() => {
  const SVG = "http://www.w3.org/2000/svg";
  const CHIP = 1.2; // render/chips.py: chip size relative to the design unit

  // ---------------------------------------------------------------------------------------------
  // State of the page

  const bootEl = document.getElementById("boot");
  const boot = bootEl ? JSON.parse(bootEl.textContent) : {};
  const api = boot.api || location.pathname.replace(/\/$/, "");
  const app = {
    board: null, // board.json
    state: null, // state.json shown (live or at a step)
    live: null, // the latest live state.json
    history: null, // history.json
    seat: null, // seat.json
    at: null, // null: live; else the log seq shown
    head: null, // {seq, hash} of the game as last seen
    seated: boot.seat ? true : null, // null: not known yet (see seatDoc)
    selected: null, // the space whose panel is open
    moves: null, // moves.json of the selected space
    view: { k: 1, tx: 0, ty: 0 }, // screen = t + k * map
    fitK: 1,
  };
  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") node.textContent = v;
      else if (k === "class") node.className = v;
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined) continue;
      if (k === "text") node.textContent = v;
      else node.setAttribute(k, String(v));
    }
    for (const c of children) if (c) node.append(c);
    return node;
  }

  async function getJSON(path) {
    const r = await fetch(api + path, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!r.ok) {
      let why = `${r.status} ${r.statusText}`;
      try { why = (await r.json()).error || why; } catch (_) { /* not JSON */ }
      const err = new Error(why);
      err.status = r.status;
      err.retry = Number(r.headers.get("Retry-After")) || 0;
      throw err;
    }
    return r.json();
  }

  const unitName = (type, n) => {
    const u = app.board && app.board.units[type];
    if (!u) return type;
    return n === 1 ? u.name : u.plural;
  };
  const unitList = (counts) => counts.filter(([, n]) => n > 0).map(([t, n]) => `${n} ${unitName(t, n)}`).join(", ");

  // ---------------------------------------------------------------------------------------------
  // The map: static layers once, holdings and units per state

  const map = $("map");
  const world = svg("g", { id: "world" });
  let D = 1.75; // map pixels per design unit of the images (board.json "design")
  let copies = []; // [{k, g, spaces: {name: path}, units: g, marks: g}]
  const labelBoxes = {}; // space -> its name's, value's and markers' boxes (map pixels)

  function powerColours(p) {
    return (app.board.powers[p]) || { fill: "#b4b4b4", edge: "#505050", text: "#ffffff", short: p };
  }

  function polyPath(rings) {
    let d = "";
    for (const r of rings) {
      d += `M${r[0]} ${r[1]}`;
      for (let i = 2; i < r.length; i += 2) d += `L${r[i]} ${r[i + 1]}`;
      d += "Z";
    }
    return d;
  }

  function hatchPattern(id, fill, hatch) {
    const p = svg("pattern", { id, patternUnits: "userSpaceOnUse", width: 12 * D, height: 12 * D, patternTransform: "rotate(45)" });
    p.append(svg("rect", { width: 12 * D, height: 12 * D, fill }));
    p.append(svg("rect", { width: 3 * D, height: 12 * D, fill: hatch }));
    return p;
  }

  function buildMap() {
    const b = app.board;
    D = b.design || 1.75;
    map.replaceChildren(map.querySelector("title") || svg("title", { text: "The board" }));
    const defs = svg("defs");
    defs.append(hatchPattern("hatch-neutral", b.neutral.fill, b.neutral.hatch));
    defs.append(hatchPattern("hatch-impassable", b.neutral.impassable, b.neutral.impassable_hatch));
    for (const [k, v] of Object.entries(b.neutral.aligned || {})) defs.append(hatchPattern(`hatch-${k}`, v.fill, v.hatch));
    for (const [name, u] of Object.entries(b.units)) {
      const sym = svg("symbol", { id: iconId(name), viewBox: "0 0 20 12" });
      sym.append(svg("path", { d: u.icon }));
      defs.append(sym);
    }
    const circle = svg("symbol", { id: "icon--unknown", viewBox: "0 0 20 12" });
    circle.append(svg("circle", { cx: 10, cy: 6, r: 6 }));
    defs.append(circle);
    map.append(defs);
    map.append(svg("rect", { class: "map-bg", x: -1e5, y: -1e5, width: 2e5, height: 2e5, fill: b.theme.background }));
    world.replaceChildren();
    map.append(world);
    copies = [];
    const shifts = b.wrap_x ? [0, -1, 1] : [0];
    for (const k of shifts) copies.push(buildCopy(k));
    // Copy 0 on top, so the board itself takes the clicks where copies meet.
    for (const c of copies.slice(1)) world.append(c.g);
    world.append(copies[0].g);
    const pick = $("space-pick");
    for (const name of Object.keys(b.spaces).sort((x, y) => x.localeCompare(y))) pick.append(el("option", { value: name, text: name }));
  }

  function iconId(type) {
    return "icon-" + type.replace(/[^a-z0-9]+/gi, "-");
  }

  function buildCopy(k) {
    const b = app.board;
    const g = svg("g", { id: `copy${k === 0 ? 0 : k < 0 ? "w" : "e"}`, class: "copy", "data-copy": k, transform: `translate(${k * b.size[0]} 0)` });
    const seas = svg("g", { class: "seas" });
    const lands = svg("g", { class: "lands" });
    const labels = svg("g", { class: "labels" });
    const marks = svg("g", { class: "marks" });
    const units = svg("g", { class: "units" });
    const spaces = {};
    for (const [name, s] of Object.entries(b.spaces)) {
      const path = svg("path", {
        d: polyPath(s.polygons), class: s.sea ? "space sea" : "space land", "data-space": name,
        fill: s.sea ? b.sea.fill : b.neutral.fill,
        stroke: s.sea ? b.sea.line : b.theme.border,
        "stroke-width": (s.sea ? 1 : 1.4) * D, "stroke-linejoin": "round",
      });
      path.append(svg("title", { text: name }));
      (s.sea ? seas : lands).append(path);
      spaces[name] = path;
      labels.append(spaceLabel(name, s));
    }
    // Where the geometry has a gap, the images show water.
    const water = svg("rect", { x: 0, y: 0, width: b.size[0], height: b.size[1], fill: b.sea.fill, class: "water" });
    g.append(water, seas, lands, labels, marks, units);
    return { k, g, spaces, units, marks };
  }

  function spaceLabel(name, s) {
    const b = app.board;
    const g = svg("g", { class: s.sea ? "label sea" : "label land", "data-space": name });
    const size = (s.sea ? (/^\d+$/.test(s.name.join("")) ? 15 : 12) : 12) * D;
    const [x, y] = s.label;
    const lines = s.name;
    const top = y - ((lines.length - 1) * size) / 2;
    const maxLen = Math.max(...lines.map((l) => l.length));
    const boxes = [[x - maxLen * size * 0.29, top - size / 2, x + maxLen * size * 0.29, top + (lines.length - 0.5) * size]];
    const text = svg("text", {
      x, y: top, "font-size": size, "text-anchor": "middle", "dominant-baseline": "central",
      fill: s.sea ? b.sea.text : b.theme.text, stroke: s.sea ? b.sea.fill : b.theme.halo,
      "stroke-width": 2 * D * 0.8, "paint-order": "stroke", "stroke-linejoin": "round", class: "name",
    });
    lines.forEach((line, i) => text.append(svg("tspan", { x, dy: i === 0 ? 0 : size, text: line })));
    g.append(text);
    let bottom = top + (lines.length - 0.5) * size;
    if (!s.sea && s.value) {
      const r = 8 * D;
      const vy = bottom + r;
      g.append(svg("circle", { cx: x, cy: vy, r, fill: "#ffffff", "fill-opacity": 0.92, stroke: b.theme.border, "stroke-width": 1 }));
      g.append(svg("text", { x, y: vy + 0.5, "font-size": 11 * D, "text-anchor": "middle", "dominant-baseline": "central", fill: b.theme.text, class: "value", text: String(s.value) }));
      bottom = vy + r;
      boxes.push([x - r, vy - r, x + r, vy + r]);
    }
    if (s.capital && s.capital_of) {
      const c = powerColours(s.capital_of);
      const r = 11 * D;
      g.append(svg("path", { d: b.shapes.star, transform: `translate(${s.capital[0]} ${s.capital[1]}) scale(${r})`, fill: c.edge, stroke: "#ffffff", "stroke-width": 1.5 * D / r, class: "capital" }));
      boxes.push([s.capital[0] - r, s.capital[1] - r, s.capital[0] + r, s.capital[1] + r]);
    }
    if (s.victory) {
      const r = 11 * D;
      boxes.push([s.victory[0] - r, s.victory[1] - r, s.victory[0] + r, s.victory[1] + r]);
    }
    labelBoxes[name] = boxes;
    return g;
  }

  function spaceFill(name, s, state) {
    const b = app.board;
    if (s.sea) return b.sea.fill;
    if (s.impassable) return "url(#hatch-impassable)";
    const owner = state && state.owners ? state.owners[name] : null;
    if (owner && b.powers[owner]) return b.powers[owner].fill;
    if (s.alignment && b.neutral.aligned && b.neutral.aligned[s.alignment]) {
      return s.neutral ? `url(#hatch-${s.alignment})` : b.neutral.aligned[s.alignment].fill;
    }
    return s.neutral ? "url(#hatch-neutral)" : b.neutral.fill;
  }

  // The chips of a space, as the images order them: markers, then each power in turn order,
  // its units in the edition's order; moved units and damaged ones apart.
  function spaceItems(name, state) {
    const b = app.board;
    const items = [];
    for (const bt of state.battles || []) if (bt.space === name) items.push({ marker: "battle" });
    const order = b.order || Object.keys(b.powers);
    const unitOrder = Object.keys(b.units);
    const list = ((state.units || {})[name] || []).slice();
    list.sort((x, y) => rank(order, x.power) - rank(order, y.power) || rank(unitOrder, x.type) - rank(unitOrder, y.type) || (x.moved ? 1 : 0) - (y.moved ? 1 : 0));
    for (const u of list) {
      if (u.damaged && u.damaged < u.count) {
        items.push({ ...u, count: u.count - u.damaged, damaged: 0 });
        items.push({ ...u, count: u.damaged, damaged: u.damaged });
      } else items.push(u);
    }
    return items;
  }

  const rank = (list, x) => { const i = list.indexOf(x); return i < 0 ? 99 : i; };

  function chipWidth(item) {
    const c = CHIP * D;
    if (item.marker) return 19 * c;
    const digits = String(item.count).length;
    return 21 * c + digits * 11 * c * 0.58 + 3 * c;
  }

  function drawChip(item, space, x, y) {
    const c = CHIP * D;
    const h = 14 * c;
    const w = chipWidth(item);
    if (item.marker === "battle") {
      const r = w / 2;
      const g = svg("g", { class: "marker battle", "data-space": space, transform: `translate(${x} ${y})` });
      g.append(svg("path", { d: app.board.shapes.burst, transform: `scale(${r})`, fill: app.board.theme.battle, stroke: "#ffffff", "stroke-width": 1 / r }));
      g.append(svg("path", { d: app.board.shapes.burst, transform: `scale(${r * 0.55})`, fill: app.board.theme.battle_inner }));
      g.append(svg("title", { text: `Battle in ${space}` }));
      return g;
    }
    const col = item.power === "" || !app.board.powers[item.power]
      ? { edge: app.board.neutral.army.fill, text: app.board.neutral.army.text } : powerColours(item.power);
    let ink = col.edge;
    let text = col.text;
    let edge = "#ffffff";
    if (item.moved) { ink = fade(col.edge, 0.62); text = col.edge; edge = col.edge; }
    const g = svg("g", {
      class: "chip" + (item.moved ? " moved" : "") + (item.damaged ? " damaged" : ""),
      "data-space": space, "data-power": item.power, "data-unit": item.type, "data-count": item.count,
      transform: `translate(${x - w / 2} ${y - h / 2})`,
    });
    g.append(svg("rect", { width: w, height: h, rx: 3 * c, fill: ink, stroke: edge, "stroke-width": item.moved ? c : 1 }));
    const known = app.board.units[item.type];
    g.append(svg("use", { href: "#" + (known ? iconId(item.type) : "icon--unknown"), x: 2.5 * c, y: 2 * c, width: 17.5 * c, height: h - 4 * c, fill: text }));
    g.append(svg("text", { x: 20.5 * c, y: h / 2 + 0.5, "font-size": 11 * c, "dominant-baseline": "central", fill: text, class: "count", text: String(item.count) }));
    if (item.damaged) {
      const kk = 7 * c;
      g.append(svg("path", { d: `M${w - kk} 0L${w} 0L${w} ${kk}Z`, fill: app.board.theme.hit, stroke: "#ffffff", "stroke-width": 1 }));
    }
    const who = item.power || "neutral";
    g.append(svg("title", { text: `${who}: ${item.count} ${unitName(item.type, item.count)}${item.damaged ? " (damaged)" : ""}${item.moved ? " (moved)" : ""}` }));
    return g;
  }

  function fade(hex, t) {
    const n = parseInt(hex.slice(1), 16);
    const ch = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.round(v + (255 - v) * t));
    return "#" + ch.map((v) => v.toString(16).padStart(2, "0")).join("");
  }

  // Where a space's chips go: one at each of the geometry's unit slots, the rest in rows under
  // the last slot; a chip that would cover the space's name, value or markers, or another chip,
  // moves to the nearest free place beside it (the images keep labels clear the same way).
  function placeItems(name, s, items) {
    const c = CHIP * D;
    const h = 14 * c;
    const slots = s.units.length ? s.units : [s.centre];
    const want = [];
    let i = 0;
    for (; i < items.length && i < slots.length - 1; i++) want.push([items[i], slots[i][0], slots[i][1]]);
    const rest = items.slice(i);
    if (rest.length) {
      const [lx, ly] = slots[Math.min(i, slots.length - 1)];
      const perRow = rest.length > 6 ? 3 : rest.length > 2 ? 2 : 1;
      const rows = Math.ceil(rest.length / perRow);
      const colW = Math.max(...rest.map(chipWidth)) + 2 * D;
      rest.forEach((it, j) => {
        const row = Math.floor(j / perRow);
        const col = j % perRow;
        const inRow = Math.min(perRow, rest.length - row * perRow);
        want.push([it, lx + (col - (inRow - 1) / 2) * colW, ly + (row - (rows - 1) / 2) * (h + 2 * D)]);
      });
    }
    const taken = (labelBoxes[name] || []).slice();
    const pad = 1.5 * D;
    const clear = (r) => taken.every((q) => r[2] + pad <= q[0] || q[2] + pad <= r[0] || r[3] + pad <= q[1] || q[3] + pad <= r[1]);
    const out = [];
    for (const [it, x, y] of want) {
      const w = chipWidth(it);
      const rect = (cx, cy) => [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2];
      let best = [x, y];
      if (!clear(rect(x, y))) {
        const step = h + 2 * D;
        search: for (let k = 1; k <= 4; k++) {
          for (const [dx, dy] of [[0, k], [0, -k], [k, 0], [-k, 0], [k, k], [-k, k], [k, -k], [-k, -k]]) {
            const cx = x + dx * (w * 0.6 + D);
            const cy = y + dy * step;
            if (clear(rect(cx, cy))) { best = [cx, cy]; break search; }
          }
        }
      }
      taken.push(rect(best[0], best[1]));
      out.push([it, best[0], best[1]]);
    }
    return out;
  }

  function victoryMark(x, y, r, ink) {
    const g = svg("g", { class: "victory", transform: `translate(${x} ${y})` });
    g.append(svg("circle", { r, fill: "#ffffff" }));
    const ring = Math.max(1.5, r / 5);
    g.append(svg("circle", { r: r - ring, fill: ink }));
    const wh = "#ffffff";
    g.append(svg("rect", { x: -0.5 * r, y: -0.12 * r, width: r, height: 0.62 * r, fill: wh }));
    for (const x0 of [-0.5, -0.11, 0.28]) g.append(svg("rect", { x: x0 * r, y: -0.45 * r, width: 0.22 * r, height: 0.45 * r, fill: wh }));
    g.append(svg("rect", { x: -0.1 * r, y: 0.18 * r, width: 0.2 * r, height: 0.32 * r, fill: ink }));
    return g;
  }

  // The state's holdings, marks and chips, laid out once and copied to the board's copies
  // across the east-west edge. Only what changed since the last drawing is touched: a fill that
  // differs, a space whose chips differ.
  let drawn = { fills: {}, items: {}, marks: "" };

  function drawState() {
    const b = app.board;
    const st = app.state;
    if (!b || !st) return;
    const battles = new Set((st.battles || []).map((x) => x.space));
    const main = copies[0];
    for (const [name, s] of Object.entries(b.spaces)) {
      const fill = spaceFill(name, s, st);
      if (drawn.fills[name] !== fill) {
        for (const copy of copies) copy.spaces[name].setAttribute("fill", fill);
        drawn.fills[name] = fill;
      }
    }
    // Marks: battles' outlines and victory cities in their holders' colours.
    const markKey = JSON.stringify([[...battles].sort(), Object.keys(b.spaces).filter((n) => b.spaces[n].victory).map((n) => (st.owners || {})[n] || "")]);
    if (markKey !== drawn.marks) {
      const marks = [];
      for (const [name, s] of Object.entries(b.spaces)) {
        if (battles.has(name)) {
          marks.push(svg("path", { d: polyPath(s.polygons), fill: "none", stroke: b.theme.battle, "stroke-width": 3 * D, "stroke-linejoin": "round", class: "battle-outline", "data-space": name, "pointer-events": "none" }));
        }
        if (s.victory) {
          const holder = (st.owners || {})[name];
          const ink = holder && b.powers[holder] ? b.powers[holder].edge : b.theme.unknown;
          const mark = victoryMark(s.victory[0], s.victory[1], 11 * D, ink);
          mark.setAttribute("data-space", name);
          marks.push(mark);
        }
      }
      main.marks.replaceChildren(...marks);
      drawn.marks = markKey;
      for (const copy of copies.slice(1)) copy.marks.replaceChildren(...marks.map((m) => m.cloneNode(true)));
    }
    // Chips: a group per space, redrawn where its items changed.
    for (const [name, s] of Object.entries(b.spaces)) {
      const items = spaceItems(name, st);
      const key = JSON.stringify(items);
      if (drawn.items[name] === key) continue;
      drawn.items[name] = key;
      for (const copy of copies) {
        const old = copy.units.querySelector(`g.stack[data-space="${cssEscape(name)}"]`);
        if (old) old.remove();
      }
      if (!items.length) continue;
      const g = svg("g", { class: "stack", "data-space": name });
      for (const [it, x, y] of placeItems(name, s, items)) g.append(drawChip(it, name, x, y));
      main.units.append(g);
      for (const copy of copies.slice(1)) copy.units.append(g.cloneNode(true));
    }
    drawSelection();
  }

  const cssEscape = (v) => (window.CSS && CSS.escape ? CSS.escape(v) : v.replace(/"/g, '\\"'));

  // The selected space: outlined in the images' focus yellow, on every copy.
  function drawSelection() {
    const b = app.board;
    if (!b) return;
    for (const copy of copies) {
      const old = copy.g.querySelector(".selected-outline");
      if (old) old.remove();
      const prev = copy.g.querySelector("path.space.selected");
      if (prev) prev.classList.remove("selected");
      const s = app.selected && b.spaces[app.selected];
      if (!s) continue;
      copy.spaces[app.selected].classList.add("selected");
      copy.marks.append(svg("path", { d: polyPath(s.polygons), fill: "none", stroke: b.theme.focus, "stroke-width": 3 * D, "stroke-linejoin": "round", class: "selected-outline", "pointer-events": "none" }));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Zoom and pan (wheel, pinch, drag, buttons); the board continues over its east-west edge

  const box = $("map-box");

  function applyView() {
    const v = app.view;
    const b = app.board;
    if (b && b.wrap_x) {
      const W = b.size[0] * v.k;
      while (v.tx > 0) v.tx -= W;
      while (v.tx <= -W) v.tx += W;
    } else if (b) {
      const cw = box.clientWidth;
      const w = b.size[0] * v.k;
      v.tx = w < cw ? (cw - w) / 2 : Math.min(0, Math.max(cw - w, v.tx));
    }
    if (b) {
      const ch = box.clientHeight;
      const h = b.size[1] * v.k;
      v.ty = h < ch ? (ch - h) / 2 : Math.min(0, Math.max(ch - h, v.ty));
    }
    world.setAttribute("transform", `translate(${v.tx} ${v.ty}) scale(${v.k})`);
    map.classList.toggle("far", v.k < app.fitK * 1.6);
  }

  function fit() {
    const b = app.board;
    const cw = box.clientWidth || 800;
    const ch = box.clientHeight || 500;
    // A tall screen (a phone upright) fills its height with a board that wraps, to be panned
    // round; otherwise the whole board shows.
    const k = b.wrap_x && ch > cw ? ch / b.size[1] : Math.min(cw / b.size[0], ch / b.size[1]);
    app.fitK = Math.min(k, cw / b.size[0], ch / b.size[1]);
    app.view = { k, tx: (cw - b.size[0] * k) / 2, ty: (ch - b.size[1] * k) / 2 };
    if (b.wrap_x && b.size[0] * k <= cw + 1) app.view.tx = 0; // the board itself, from its west edge
    applyView();
  }

  function zoomAt(factor, sx, sy) {
    const v = app.view;
    const k = Math.min(app.fitK * 24, Math.max(app.fitK * 0.9, v.k * factor));
    v.tx = sx - ((sx - v.tx) * k) / v.k;
    v.ty = sy - ((sy - v.ty) * k) / v.k;
    v.k = k;
    applyView();
  }

  function centreOn(name) {
    const s = app.board.spaces[name];
    if (!s) return;
    const v = app.view;
    if (v.k < app.fitK * 2.5) v.k = app.fitK * 2.5;
    v.tx = box.clientWidth / 2 - s.centre[0] * v.k;
    v.ty = box.clientHeight / 2 - s.centre[1] * v.k;
    applyView();
  }

  const pointers = new Map();
  let gesture = null;

  function localXY(e) {
    const r = box.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  box.addEventListener("wheel", (e) => {
    e.preventDefault();
    const [x, y] = localXY(e);
    zoomAt(Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015)), x, y);
  }, { passive: false });

  box.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 && e.pointerType === "mouse") return;
    pointers.set(e.pointerId, localXY(e));
    box.setPointerCapture(e.pointerId);
    gesture = { moved: 0, start: localXY(e), view: { ...app.view }, pinch: pointers.size > 1 ? pinchOf() : null, target: e.target };
  });

  function pinchOf() {
    const [a, b] = [...pointers.values()];
    return { d: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, mx: (a[0] + b[0]) / 2, my: (a[1] + b[1]) / 2 };
  }

  box.addEventListener("pointermove", (e) => {
    if (!pointers.has(e.pointerId) || !gesture) return;
    const prev = pointers.get(e.pointerId);
    const now = localXY(e);
    pointers.set(e.pointerId, now);
    gesture.moved += Math.hypot(now[0] - prev[0], now[1] - prev[1]);
    if (pointers.size >= 2) {
      const p = pinchOf();
      if (!gesture.pinch) { gesture.pinch = p; return; }
      zoomAt(p.d / gesture.pinch.d, p.mx, p.my);
      app.view.tx += p.mx - gesture.pinch.mx;
      app.view.ty += p.my - gesture.pinch.my;
      applyView();
      gesture.pinch = p;
    } else {
      app.view.tx += now[0] - prev[0];
      app.view.ty += now[1] - prev[1];
      applyView();
    }
  });

  function pointerEnd(e) {
    if (!pointers.has(e.pointerId)) return;
    pointers.delete(e.pointerId);
    if (gesture && pointers.size === 0) {
      if (gesture.moved < 6 && !gesture.pinch) {
        const hit = document.elementFromPoint(e.clientX, e.clientY);
        const spaceEl = hit && hit.closest("[data-space]");
        if (spaceEl) mapClick(spaceEl.getAttribute("data-space"));
      }
      gesture = null;
    }
  }
  box.addEventListener("pointerup", pointerEnd);
  box.addEventListener("pointercancel", (e) => { pointers.delete(e.pointerId); gesture = null; });

  $("zoom-in").addEventListener("click", () => zoomAt(1.5, box.clientWidth / 2, box.clientHeight / 2));
  $("zoom-out").addEventListener("click", () => zoomAt(1 / 1.5, box.clientWidth / 2, box.clientHeight / 2));
  $("zoom-fit").addEventListener("click", () => fit());
  $("space-pick").addEventListener("change", (e) => {
    if (e.target.value) { selectSpace(e.target.value); centreOn(e.target.value); }
  });
  window.addEventListener("resize", () => applyView());

  // ---------------------------------------------------------------------------------------------
  // Status, battles, history

  function fact(dl, term, value) {
    if (value === null || value === undefined || value === "") return;
    dl.append(el("dt", { text: term }), el("dd", {}, value));
  }

  function powerTag(p) {
    const c = app.board && app.board.powers[p];
    const span = el("span", { class: "power", text: p });
    if (c) span.prepend(el("span", { class: "swatch swatch-" + cssName(p), "aria-hidden": "true" }));
    return span;
  }

  const cssName = (p) => p.replace(/[^a-z0-9]+/gi, "-").toLowerCase();

  // Power swatches need colours from board.json: a stylesheet rule per power (CSSOM, allowed
  // under style-src 'self' as it is no inline style attribute).
  function powerStyles() {
    const sheet = [...document.styleSheets].find((s) => s.ownerNode && s.ownerNode.id === "board-css") || document.styleSheets[0];
    if (!sheet) return;
    for (const [p, c] of Object.entries(app.board.powers)) {
      try {
        sheet.insertRule(`.swatch-${cssName(p)} { background: ${c.fill}; border-color: ${c.edge}; }`, sheet.cssRules.length);
      } catch (_) { /* a sheet we may not change */ }
    }
  }

  function renderStatus() {
    const st = app.state;
    if (!st) return;
    const b = app.board;
    $("title").textContent = boot.title || (b ? b.title : "Umpire");
    document.title = `${boot.title || boot.game || "Umpire"}: the board`;
    const turn = $("turn");
    turn.replaceChildren();
    if (st.winner) turn.append(`Won by the ${st.winner}`);
    else if (st.round) turn.append(`Round ${st.round} · `, powerTag(st.power), ` · ${st.phase_name || st.phase}`);
    const dl = $("status-facts");
    dl.replaceChildren();
    fact(dl, "Round", st.round ? String(st.round) : null);
    if (st.power) fact(dl, "Power", powerTag(st.power));
    fact(dl, "Phase", st.phase_name || st.phase);
    if (st.waiting && st.waiting.length) {
      const ul = el("ul", { class: "waiting" });
      for (const w of st.waiting) ul.append(el("li", {}, powerTag(w.power), `: ${w.what}${w.holder ? ` (${w.holder})` : ""}`));
      fact(dl, "Waiting for", ul);
    }
    if (st.deadline) {
      const when = new Date(st.deadline);
      fact(dl, "Deadline", el("time", { datetime: st.deadline, text: isNaN(when) ? st.deadline : when.toLocaleString() }));
    }
    if (st.ipcs && Object.keys(st.ipcs).length) {
      const ul = el("ul", { class: "money" });
      for (const p of (b.order || Object.keys(st.ipcs))) if (p in st.ipcs) ul.append(el("li", {}, powerTag(p), ` ${st.ipcs[p]} IPCs`));
      fact(dl, "Treasury", ul);
    }
    const lines = $("status-lines");
    lines.replaceChildren(...(st.status || []).map((t) => el("li", { text: t })));
    $("export-link").href = api + "/export.json";
    $("verify-link").href = api + "/verify.txt";
    renderBattles();
    renderMode();
  }

  function renderMode() {
    const mode = $("mode");
    mode.replaceChildren();
    if (app.at === null) {
      mode.className = "mode live";
      mode.textContent = "Live";
    } else {
      const st = app.state;
      const step = stepAt(app.at);
      mode.className = "mode past";
      mode.append(`Viewing ${step ? step.label : `round ${st.round}`} (after event ${app.at}) `);
      const back = el("button", { type: "button", class: "link", text: "Back to live" });
      back.addEventListener("click", () => goLive());
      mode.append(back);
      if (app.live && app.live.head && app.live.head.seq !== app.at && app.liveMoved) mode.append(" · the game has moved on");
    }
  }

  function renderBattles() {
    const st = app.state;
    const list = $("battles");
    const battles = st.battles || [];
    $("battles-panel").hidden = battles.length === 0;
    list.replaceChildren();
    for (const bt of battles) {
      const defenders = (bt.defenders || []).join(", ");
      const art = el("article", { class: "battle", "data-space": bt.space });
      art.append(el("h3", {}, `${bt.space}: `, powerTag(bt.attacker), ` against ${defenders || "nobody"}`));
      const img = el("img", { src: app.at === null ? bt.image : `${bt.image}&at=${app.at}`, alt: `Battle board of ${bt.space}`, loading: "lazy", class: "battle-img" });
      art.append(img);
      const oddsBtn = el("button", { type: "button", text: `Odds in ${bt.space}` });
      const out = el("div", { class: "odds", "aria-live": "polite" });
      oddsBtn.addEventListener("click", () => showOdds(bt.space, out));
      art.append(el("p", { class: "actions" }, oddsBtn), out);
      list.append(art);
    }
  }

  async function showOdds(space, out) {
    out.replaceChildren(el("p", { text: "Working out the odds…" }));
    try {
      const doc = await getJSON(`/odds.json?space=${encodeURIComponent(space)}`);
      out.replaceChildren();
      const text = doc.text || (Array.isArray(doc.lines) ? doc.lines.join("\n") : null);
      if (text) out.append(el("pre", { text }));
      const o = doc.odds || {};
      const figures = [["attacker wins", o.attacker_win], ["defender wins", o.defender_win], ["draw", o.draw]]
        .filter(([, v]) => typeof v === "number");
      if (figures.length) {
        // A bar of the three outcomes (SVG: widths are attributes, not styles, under the CSP).
        const bar = svg("svg", { viewBox: "0 0 100 6", class: "odds-bar", role: "img", "aria-label": figures.map(([k, v]) => `${k} ${(v * 100).toFixed(1)} %`).join(", ") });
        let x = 0;
        const bt = battleAt(space);
        const att = bt && app.board.powers[bt.attacker];
        const def = bt && app.board.powers[(bt.defenders || [])[0]];
        figures.forEach(([, v], i) => {
          const fill = i === 0 ? (att ? att.edge : "#8a0c0c") : i === 1 ? (def ? def.edge : "#3a5a8c") : "#9a9a9a";
          bar.append(svg("rect", { x, y: 0, width: v * 100, height: 6, fill }));
          x += v * 100;
        });
        out.append(bar);
        const dl = el("dl", { class: "facts" });
        for (const [k, v] of figures) fact(dl, k, `${(v * 100).toFixed(1)} %`);
        if (typeof o.expected_rounds === "number") fact(dl, "rounds (expected)", o.expected_rounds.toFixed(1));
        out.append(dl);
      }
      if (!text && !figures.length) out.append(el("pre", { text: JSON.stringify(doc, null, 2) }));
    } catch (err) {
      out.replaceChildren(el("p", { class: "refusal", text: `No odds: ${err.message}` }));
    }
  }

  function battleAt(space) {
    return ((app.state && app.state.battles) || []).find((b) => b.space === space) || null;
  }

  function stepAt(seq) {
    const steps = (app.history && app.history.steps) || [];
    return steps.find((s) => s.seq === seq) || null;
  }

  function renderHistory() {
    const h = app.history;
    if (!h) return;
    const pick = $("step-pick");
    const steps = h.steps || [];
    pick.replaceChildren(el("option", { value: "", text: "Live: as it stands" }));
    for (const s of steps) pick.append(el("option", { value: String(s.seq), text: s.label }));
    pick.value = app.at === null ? "" : String(app.at);
    if (app.at !== null && !stepAt(app.at)) {
      pick.append(el("option", { value: String(app.at), text: `After event ${app.at}` }));
      pick.value = String(app.at);
    }
    const shown = app.at !== null ? app.at : (app.live && app.live.head ? app.live.head.seq : Infinity);
    $("step-back").disabled = !steps.some((s) => s.seq < shown);
    $("step-next").disabled = app.at === null;
    $("step-live").disabled = app.at === null;
    const ol = $("history");
    ol.replaceChildren();
    const entries = (h.entries || []).slice().sort((a, b) => b.seq - a.seq);
    for (const e of entries) {
      const li = el("li", { class: "entry" + (app.at !== null && e.seq > app.at ? " later" : "") });
      const head = el("button", { type: "button", class: "link", title: "See the board as it stood after this" });
      const phase = (app.board.phases || {})[e.phase] || e.phase || "";
      head.append(`Round ${e.round ?? "–"} · ${e.power ?? ""} · ${phase}`);
      head.addEventListener("click", () => viewAt(e.seq));
      li.append(head);
      if (e.order) li.append(el("p", { class: "order" }, `${e.who ? `${e.who}: ` : ""}`, el("code", { text: e.order })));
      for (const line of e.lines || []) li.append(el("p", { text: line }));
      ol.append(li);
    }
  }

  $("step-pick").addEventListener("change", (e) => { const v = e.target.value; if (v === "") goLive(); else viewAt(Number(v)); });
  $("step-live").addEventListener("click", () => goLive());
  $("step-back").addEventListener("click", () => {
    const steps = (app.history && app.history.steps) || [];
    const now = app.at !== null ? app.at : (app.live && app.live.head ? app.live.head.seq : Infinity);
    const before = steps.filter((s) => s.seq < now);
    if (before.length) viewAt(before[before.length - 1].seq);
  });
  $("step-next").addEventListener("click", () => {
    const steps = (app.history && app.history.steps) || [];
    const after = steps.filter((s) => s.seq > app.at && (!app.live || s.seq < app.live.head.seq));
    if (after.length) viewAt(after[0].seq); else goLive();
  });

  async function viewAt(seq) {
    try {
      const st = await getJSON(`/state.json?at=${seq}`);
      app.at = seq;
      app.state = st;
      app.liveMoved = false;
      showAll();
    } catch (err) {
      note(`Could not show the board at ${seq}: ${err.message}`);
    }
  }

  function goLive() {
    app.at = null;
    if (app.live) app.state = app.live;
    showAll();
    refresh();
  }

  function showAll() {
    drawState();
    renderStatus();
    renderHistory();
    renderSpace();
    renderSeat();
  }

  function note(text) {
    const n = $("map-note");
    n.textContent = text;
    n.hidden = !text;
  }

  // ---------------------------------------------------------------------------------------------
  // A space's panel; the move builder

  function mapClick(name) {
    const mb = app.moveDraft;
    if (mb && app.selected && name !== app.selected && chosenTypes().length) {
      const to = [...$("move-to").options].find((o) => o.value === name);
      if (to && !to.disabled) { $("move-to").value = name; updateMoveLine(); return; }
    }
    selectSpace(name);
  }

  function selectSpace(name) {
    app.selected = name;
    app.moves = null;
    app.moveDraft = {};
    $("space-pick").value = name;
    drawSelection();
    renderSpace();
    maybeLoadMoves();
  }

  function renderSpace() {
    const name = app.selected;
    const panel = $("space-panel");
    panel.hidden = !name;
    if (!name) return;
    const s = app.board.spaces[name];
    const st = app.state;
    $("space-h").textContent = name;
    const info = $("space-info");
    info.replaceChildren();
    const dl = el("dl", { class: "facts" });
    const owner = (st.owners || {})[name];
    if (!s.sea) fact(dl, "Held by", owner ? powerTag(owner) : "nobody");
    if (s.value) fact(dl, "Value", `${s.value} IPCs`);
    if (s.capital_of) fact(dl, "Capital of", powerTag(s.capital_of));
    info.append(dl);
    const units = ((st.units || {})[name] || []);
    if (units.length) {
      const ul = el("ul", { class: "units-list" });
      for (const u of units) {
        const icon = svg("svg", { viewBox: "0 0 20 12", class: "icon", "aria-hidden": "true" });
        const c = powerColours(u.power);
        icon.append(svg("use", { href: "#" + (app.board.units[u.type] ? iconId(u.type) : "icon--unknown"), fill: c.edge }));
        const extra = [u.damaged ? `${u.damaged} damaged` : "", u.moved ? "moved" : ""].filter(Boolean).join(", ");
        ul.append(el("li", { "data-unit": u.type, "data-power": u.power }, icon, ` ${u.power || "neutral"}: ${u.count} ${unitName(u.type, u.count)}${extra ? ` (${extra})` : ""}`));
      }
      info.append(ul);
    } else info.append(el("p", { text: "No units." }));
    renderMoveBuilder();
  }

  // The move builder of the selected space: its movable units and their destinations
  // (moves.json). ``keep``: the game moved on while a move was being built (a live update): the
  // counts chosen and the destination stay where they are still possible.
  async function maybeLoadMoves(keep) {
    const name = app.selected;
    const movable = app.seated && app.at === null && app.seat && app.seat.acting
      ? (app.seat.movable || {})[name] : null;
    if (!movable || !movable.length) { app.moves = null; renderMoveBuilder(); return; }
    try {
      const m = await getJSON(`/moves.json?from=${encodeURIComponent(name)}`);
      if (app.selected !== name) return;
      const draft = keep && app.moves && app.moves.from === name ? app.moveDraft || {} : {};
      app.moves = m;
      app.moveDraft = {};
      for (const u of m.units || []) if (draft[u.type]) app.moveDraft[u.type] = Math.min(draft[u.type], u.count);
    } catch (err) {
      app.moves = null;
      showRefusal("move", err.message);
    }
    renderMoveBuilder();
  }

  function chosenTypes() {
    return Object.entries(app.moveDraft || {}).filter(([, n]) => n > 0).map(([t]) => t);
  }

  let builtFor = ""; // the units the move builder's rows were made for

  function renderMoveBuilder() {
    const mb = $("move-builder");
    const m = app.moves;
    if (!m || app.at !== null || !m.units || !m.units.length) { mb.hidden = true; builtFor = ""; mapTargets([]); return; }
    mb.hidden = false;
    $("move-from").textContent = m.from;
    const rows = $("move-units");
    const signature = JSON.stringify([m.from, m.units]);
    if (signature !== builtFor) {
      // New rows only for other units: rows being typed in are kept (and their focus).
      builtFor = signature;
      rows.replaceChildren();
      for (const u of m.units) {
        const id = `move-n-${iconId(u.type)}`;
        const input = el("input", { type: "number", id, min: 0, max: u.count, step: 1, value: app.moveDraft[u.type] || 0, inputmode: "numeric", "data-unit": u.type });
        input.addEventListener("input", () => {
          const n = Math.max(0, Math.min(u.count, Math.floor(Number(input.value) || 0)));
          app.moveDraft[u.type] = n;
          updateDestinations();
          updateMoveLine();
        });
        const label = el("label", { for: id, class: "row" }, `${unitName(u.type, 2)}: ${u.count} here${u.moves_left !== undefined ? `, ${u.moves_left} ${u.moves_left === 1 ? "move" : "moves"} left` : ""}`);
        rows.append(el("div", { class: "row" }, label, input));
      }
    }
    updateDestinations();
    updateMoveLine();
  }

  function updateDestinations() {
    if (!app.moves) return;
    const sel = $("move-to");
    const keep = sel.value;
    const types = chosenTypes();
    sel.replaceChildren(el("option", { value: "", text: types.length ? "(choose, or click a space on the map)" : "(choose units first)" }));
    for (const d of (app.moves.to || [])) {
      const ok = types.length > 0 && types.every((t) => (d.units || []).includes(t));
      sel.append(el("option", { value: d.space, text: d.space, disabled: !ok }));
    }
    const again = [...sel.options].find((o) => o.value === keep && !o.disabled);
    sel.value = again ? keep : "";
    mapTargets(types);
  }

  // The legal destinations of the chosen units are marked on the map.
  function mapTargets(types) {
    if (!app.moves) types = [];
    const ok = new Set(types.length && app.moves ? (app.moves.to || []).filter((d) => types.every((t) => (d.units || []).includes(t))).map((d) => d.space) : []);
    for (const copy of copies) for (const [name, p] of Object.entries(copy.spaces)) p.classList.toggle("target", ok.has(name));
  }

  $("move-to").addEventListener("change", () => updateMoveLine());

  function moveLine() {
    const m = app.moves;
    if (!m) return "";
    const counts = m.units.map((u) => [u.type, app.moveDraft[u.type] || 0]);
    const units = unitList(counts);
    const to = $("move-to").value;
    if (!units || !to) return "";
    return `move ${units} from ${m.from} to ${to}`;
  }

  function updateMoveLine() {
    const line = moveLine();
    $("move-line").textContent = line || "(choose units and a destination)";
    $("move-send").disabled = !line;
  }

  $("move-send").addEventListener("click", () => send("move", moveLine()));

  // ---------------------------------------------------------------------------------------------
  // The seat's orders: decisions, buy, place, end, free text

  function renderSeat() {
    const panel = $("seat-panel");
    if (!app.seated || !boot.seat) { panel.hidden = true; return; }
    panel.hidden = false;
    $("log-panel").hidden = $("log").children.length === 0;
    const seat = app.seat;
    const who = $("seat-who");
    who.replaceChildren();
    const powers = (seat && seat.powers) || boot.seat.powers || [];
    who.append(`Seated${boot.seat.holder ? ` as ${boot.seat.holder}` : ""} for `);
    powers.forEach((p, i) => { if (i) who.append(", "); who.append(powerTag(p)); });
    who.append(seat && seat.acting ? el("strong", { text: ` · ${seat.acting} to act` }) : " · not your turn");
    if (app.at !== null) who.append(el("p", { class: "hint", text: "Orders go to the game as it stands: go back to live to give them." }));
    renderDecisions();
    renderBuy();
    renderPlace();
  }

  function renderDecisions() {
    const seat = app.seat;
    const decisions = (seat && seat.decisions) || [];
    $("decisions").hidden = decisions.length === 0;
    const list = $("decision-list");
    const chosen = app.decisionLine || "";
    list.replaceChildren();
    decisions.forEach((d, i) => {
      const fs = el("fieldset", { class: "decision" });
      fs.append(el("legend", { text: d.text }));
      (d.choices || []).forEach((c, j) => {
        const id = `decision-${i}-${j}`;
        const radio = el("input", { type: "radio", name: `decision-${i}`, id, value: c.line, checked: c.line === chosen });
        radio.addEventListener("change", () => { app.decisionLine = c.line; updateDecisionLine(); });
        fs.append(el("div", { class: "row choice" }, radio, el("label", { for: id }, c.label, c.label !== c.line ? el("code", { class: "choice-line", text: c.line }) : null)));
      });
      list.append(fs);
    });
    if (!decisions.some((d) => (d.choices || []).some((c) => c.line === chosen))) app.decisionLine = "";
    updateDecisionLine();
  }

  function updateDecisionLine() {
    const line = app.decisionLine || "";
    $("decision-line").textContent = line || "(choose an answer)";
    $("decision-send").disabled = !line;
  }
  $("decision-send").addEventListener("click", () => send("decision", app.decisionLine || ""));

  app.buyDraft = {};
  function renderBuy() {
    const seat = app.seat;
    const list = (seat && seat.acting && seat.buy) || [];
    $("buy").hidden = list.length === 0;
    if (!list.length) return;
    $("buy-money").textContent = `(${seat.ipcs} IPCs to spend)`;
    const rows = $("buy-rows");
    rows.replaceChildren();
    for (const item of list) {
      const id = `buy-n-${iconId(item.unit)}`;
      const input = el("input", { type: "number", id, min: 0, step: 1, value: app.buyDraft[item.unit] || 0, inputmode: "numeric", "data-unit": item.unit });
      input.addEventListener("input", () => { app.buyDraft[item.unit] = Math.max(0, Math.floor(Number(input.value) || 0)); updateBuyLine(); });
      rows.append(el("div", { class: "row" }, el("label", { for: id }, `${unitName(item.unit, 2)} (${item.cost} IPCs)`), input));
    }
    updateBuyLine();
  }

  function buyLine() {
    const list = (app.seat && app.seat.buy) || [];
    const units = unitList(list.map((i) => [i.unit, app.buyDraft[i.unit] || 0]));
    return units ? `buy ${units}` : "";
  }

  function updateBuyLine() {
    const list = (app.seat && app.seat.buy) || [];
    const total = list.reduce((s, i) => s + i.cost * (app.buyDraft[i.unit] || 0), 0);
    const out = $("buy-total");
    out.textContent = String(total);
    out.classList.toggle("over", app.seat && total > app.seat.ipcs);
    const line = buyLine();
    $("buy-line").textContent = line || "(choose units)";
    $("buy-send").disabled = !line;
  }
  $("buy-send").addEventListener("click", () => send("buy", buyLine()));

  app.placeDraft = {};
  function renderPlace() {
    const seat = app.seat;
    const list = (seat && seat.acting && seat.place) || [];
    $("place").hidden = list.length === 0;
    if (!list.length) return;
    const rows = $("place-rows");
    rows.replaceChildren();
    list.forEach((item, i) => {
      const draft = app.placeDraft[item.unit] || { n: 0, space: (item.spaces || [])[0] || "" };
      app.placeDraft[item.unit] = draft;
      const nId = `place-n-${i}`;
      const sId = `place-s-${i}`;
      const input = el("input", { type: "number", id: nId, min: 0, max: item.count, step: 1, value: draft.n, inputmode: "numeric", "data-unit": item.unit });
      const sel = el("select", { id: sId, "data-unit": item.unit });
      for (const s of item.spaces || []) sel.append(el("option", { value: s, text: s }));
      sel.value = draft.space;
      input.addEventListener("input", () => { draft.n = Math.max(0, Math.min(item.count, Math.floor(Number(input.value) || 0))); updatePlaceLine(); });
      sel.addEventListener("change", () => { draft.space = sel.value; updatePlaceLine(); });
      rows.append(el("div", { class: "row place-row" },
        el("label", { for: nId }, `${unitName(item.unit, 2)} (${item.count} to place)`), input,
        el("label", { for: sId, class: "sr" }, `Where to place ${unitName(item.unit, 2)}`), sel));
    });
    updatePlaceLine();
  }

  function placeLines() {
    const list = (app.seat && app.seat.place) || [];
    const bySpace = new Map();
    for (const item of list) {
      const d = app.placeDraft[item.unit];
      if (!d || !d.n || !d.space) continue;
      if (!bySpace.has(d.space)) bySpace.set(d.space, []);
      bySpace.get(d.space).push([item.unit, d.n]);
    }
    return [...bySpace.entries()].map(([space, counts]) => `place ${unitList(counts)} in ${space}`).join("\n");
  }

  function updatePlaceLine() {
    const lines = placeLines();
    $("place-line").textContent = lines || "(choose units and where)";
    $("place-send").disabled = !lines;
  }
  $("place-send").addEventListener("click", () => send("place", placeLines()));

  const endLine = () => ($("end-confirm").checked ? "end confirm" : "end");
  $("end-confirm").addEventListener("change", () => { $("end-line").textContent = endLine(); });
  $("end-send").addEventListener("click", () => send("end", endLine()));

  const freeText = $("free-text");
  freeText.addEventListener("input", () => { $("free-send").disabled = !freeText.value.trim(); });
  $("free-send").addEventListener("click", () => send("free", freeText.value.trim()));

  // ---------------------------------------------------------------------------------------------
  // Sending orders: POST /orders with the CSRF token; a refusal shown where the order was built,
  // accepted answers in the log

  function showRefusal(where, text) {
    const r = $(`${where}-refusal`);
    if (!r) return;
    r.textContent = text || "";
    r.hidden = !text;
  }

  function log(line, status, text) {
    const li = el("li", { class: `log-${status}` });
    li.append(el("code", { text: line }), el("p", { text }));
    $("log").prepend(li);
    $("log-panel").hidden = false;
  }

  async function send(where, lines) {
    if (!lines) return;
    showRefusal(where, "");
    const button = $(`${where}-send`);
    if (button) button.disabled = true;
    let doc = null;
    try {
      const r = await fetch(api + "/orders", {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": boot.csrf || "" },
        body: JSON.stringify({ lines, csrf: boot.csrf || "" }),
      });
      try { doc = await r.json(); } catch (_) { doc = null; }
      if (!r.ok) {
        const wait = r.headers.get("Retry-After");
        const why = (doc && doc.error) || `${r.status} ${r.statusText}`;
        showRefusal(where, `Not sent: ${why}${wait ? ` (try again in ${wait} s)` : ""}`);
        return;
      }
    } catch (err) {
      showRefusal(where, `Not sent: ${err.message}`);
      return;
    } finally {
      if (button) button.disabled = false;
    }
    const results = doc.results || [];
    for (const res of results) if (res.status === "accepted") log(res.line, "accepted", res.text);
    const refused = results.find((x) => x.status === "refused");
    if (!doc.ok || refused) {
      const skipped = results.filter((x) => x.status === "skipped").length;
      showRefusal(where, `Refused: ${refused ? `${refused.line}: ${refused.text}` : (doc.error || "the referee refused it")}` + (skipped ? ` (${skipped} later line${skipped > 1 ? "s" : ""} not tried)` : ""));
    } else {
      clearBuilder(where);
    }
    if (doc.head) app.head = doc.head;
    await refresh();
  }

  function clearBuilder(where) {
    if (where === "buy") app.buyDraft = {};
    if (where === "place") app.placeDraft = {};
    if (where === "decision") app.decisionLine = "";
    if (where === "free") { freeText.value = ""; $("free-send").disabled = true; }
    if (where === "move") { app.moveDraft = {}; app.moves = null; $("move-to").value = ""; maybeLoadMoves(false); }
  }

  // ---------------------------------------------------------------------------------------------
  // Live: the head from /events; refetch on a new one

  // The seat: seat.json answers a seated session (403: a spectator). Asked once even where the
  // boot data names no seat: a private link opened from another site (Discord, a mail program)
  // is a cross-site navigation, so the SameSite=Strict cookie came only with later requests.
  async function seatDoc() {
    const r = await fetch(api + "/seat.json", { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (r.status === 403 || r.status === 401) {
      if (app.seated) app.sessionNote = "Your seat's session has ended: open your private link again to give orders.";
      app.seated = false;
      return null;
    }
    if (!r.ok) return app.seat; // a passing failure: keep what the page has
    const doc = await r.json();
    app.seated = true;
    if (!boot.seat) boot.seat = { powers: doc.powers || [], holder: doc.holder || null };
    if (doc.csrf) boot.csrf = doc.csrf;
    return doc;
  }

  let refreshing = null;
  async function refresh() {
    if (refreshing) { app.again = true; return refreshing; }
    refreshing = (async () => {
      do {
        app.again = false;
        try {
          const [st, hist, seat] = await Promise.all([
            getJSON("/state.json"),
            getJSON("/history.json").catch(() => app.history),
            app.seated === false ? Promise.resolve(null) : seatDoc().catch(() => app.seat),
          ]);
          app.live = st;
          app.head = st.head;
          app.history = hist;
          app.seat = seat;
          if (app.at === null) app.state = st; else app.liveMoved = true;
          showAll();
          if (app.selected && app.at === null) await maybeLoadMoves(true);
          map.setAttribute("data-seq", String(st.head ? st.head.seq : ""));
          note(app.sessionNote || "");
        } catch (err) {
          // Tried again by itself (after the server's Retry-After when it gave one).
          note(`Could not load the game: ${err.message} (trying again)`);
          clearTimeout(app.retry);
          app.retry = setTimeout(refresh, 1000 * Math.min(60, err.retry || 3));
        }
      } while (app.again);
    })();
    try { await refreshing; } finally { refreshing = null; }
  }

  function listen() {
    if (!window.EventSource) return;
    const es = new EventSource(api + "/events");
    es.addEventListener("head", (e) => {
      let h = null;
      try { h = JSON.parse(e.data); } catch (_) { return; }
      if (!app.head || h.seq !== app.head.seq || h.hash !== app.head.hash) refresh();
    });
    es.addEventListener("open", () => document.body.classList.remove("offline"));
    es.addEventListener("error", () => document.body.classList.add("offline"));
  }

  // ---------------------------------------------------------------------------------------------

  async function start() {
    try {
      app.board = await getJSON("/board.json");
    } catch (err) {
      note(`Could not load the board: ${err.message}`);
      return;
    }
    powerStyles();
    buildMap();
    fit();
    await refresh();
    fit();
    document.body.classList.add("ready");
    listen();
  }

  start();
})();
