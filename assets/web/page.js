// The rite in a browser: samples the compiled timeline (a port of viz/model/timeline.py's
// sample), frames and groups people as viz/draw/compose.py and scene.py do, and draws them on a
// canvas. Plain JavaScript, no library; the data is the JSON in #rite-data (viz/export/web.py).
"use strict";
(function () {
const D = JSON.parse(document.getElementById("rite-data").textContent);
const P = D.params, V = D.view;
const N = D.actors.length, M = D.props.length;
const SET_DOWN = -1, FLYING = -2, SIT = 1, BOW = 2, BOW_HANDS = 3;
const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64];
const FONT = '"XiangsheWeb", "Noto Serif CJK TC", serif';
const INK = "rgb(40,34,28)", LABEL = "rgb(105,96,84)", PROP_INK = "rgb(96,64,30)";
const MAT_FILL = "rgb(224,204,142)", MAT_INK = "rgb(150,124,64)"; // props.MAT_FILL, MAT_INK
const propIndex = {}; D.props.forEach((p, j) => { propIndex[p.id] = j; });
const stepT0 = D.steps.map(s => s.t0), stageT0 = D.stages.map(s => s.t0);
const thingOwner = {}; D.thingNames.forEach((n, k) => { thingOwner[n] = k; });

// ---------------------------------------------------------------- sampling (timeline.py)
function searchRight(a, v, lo, hi) { // first index in [lo, hi) with a[k] > v
  while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] > v) hi = m; else lo = m + 1; } return lo;
}
function searchLeft(a, v, lo, hi) { // first index in [lo, hi) with a[k] >= v
  while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] >= v) hi = m; else lo = m + 1; } return lo;
}
function stepAt(t, closing) {
  const k = closing ? searchLeft(stepT0, t, 0, stepT0.length) : searchRight(stepT0, t, 0, stepT0.length);
  return Math.max(k - 1, 0);
}
function stageAt(t, closing) {
  const k = closing ? searchLeft(stageT0, t, 0, stageT0.length) : searchRight(stageT0, t, 0, stageT0.length);
  return Math.max(k - 1, 0);
}
// Channel.lookup for one owner: [row, ok]; closing: a step index whose later writes at t are
// not yet applied
function lookup(ch, o, t, closing) {
  if (!ch.t.length) return [0, false];
  const lo = ch.start[o], hi = ch.start[o + 1];
  let i = searchRight(ch.t, t, lo, hi) - 1;
  if (closing !== null && ch.writer.length) {
    while (i >= lo && ch.t[i] === t && ch.writer[i] > closing) i--;
  }
  if (i < lo) return [Math.max(lo - 1, 0), false];
  return [i, true];
}
function val(ch, name, i, ok, dflt) {
  const v = ch.values[name];
  if (!v || !v.length) return dflt;
  return ok ? v[i] : dflt;
}
const C = D.channels;
function sample(t, closing) {
  t = Math.min(Math.max(+t, 0), D.duration);
  const step = stepAt(t, closing), cut = closing ? step : null;
  const f = { t, closing: !!closing, step, stage: stageAt(t, closing), present: [], x: [], y: [],
    facing: [], moving: [], posture: [], phase: [], count: [], seated: [], labels: [],
    holding: [], dress: [], propHolder: [], propX: [], propY: [], propVisible: [], bow: [], lay: [],
    shown: null, captions: [] };
  const mo = C.motion, mx = mo.values.x, my = mo.values.y, mf = mo.values.face;
  for (let a = 0; a < N; a++) {
    let x = 0, y = 0, face = 0, moving = false;
    if (mo.t.length) {
      const [i, ok] = lookup(mo, a, t, cut);
      const j = Math.min(i + 1, mo.t.length - 1);
      const nxt = ok && j > i && j < mo.start[a + 1];
      const t0 = mo.t[i], t1 = mo.t[j];
      const span = nxt && t1 > t0 ? t1 - t0 : Infinity;
      const al = Math.min(Math.max((t - t0) / span, 0), 1);
      const dx = mx[j] - mx[i], dy = my[j] - my[i], df = mf[j] - mf[i];
      x = mx[i] + al * dx; y = my[i] + al * dy; face = mf[i] + al * df;
      moving = al > 0 && al < 1 && (dx !== 0 || dy !== 0);
    }
    f.x.push(x); f.y.push(y); f.facing.push(((face % 360) + 360) % 360); f.moving.push(moving);
    const po = C.posture;
    let code = 0, phase = 0, count = 0, seated = false;
    if (po.t.length) {
      const [i, ok] = lookup(po, a, t, cut);
      code = ok ? po.values.code[i] : 0;
      const start = po.t[i], end = po.values.end[i];
      const gesture = ok && code >= 2 && end > start;
      const dur = gesture ? end - start : Infinity;
      phase = Math.min(Math.max((t - start) / dur, 0), 1);
      count = gesture ? po.values.count[i] : 0;
      seated = (ok && po.values.seated[i] !== 0) || code === 1;
    }
    f.posture.push(code); f.phase.push(phase); f.count.push(count); f.seated.push(seated);
    const pr = C.presence;
    const [pi, pok] = lookup(pr, a, t, cut);
    f.present.push(!!val(pr, "present", pi, pok, 0));
    const la = C.label;
    const [li, lok] = lookup(la, a, t, cut);
    const code2 = val(la, "label", li, lok, -1);
    f.labels.push(code2 >= 0 ? D.labelNames[code2] : D.actors[a].label);
    f.holding.push([]);
    const dr = C.dress, worn = {};
    if (dr && dr.t.length) {
      const [di, dok] = lookup(dr, a, t, cut);
      for (const k of D.worn) worn[k] = !!val(dr, k, di, dok, 0);
    } else for (const k of D.worn) worn[k] = false;
    f.dress.push(worn);
  }
  const pr = C.props, hv = pr.values.holder, px = pr.values.x, py = pr.values.y, pv = pr.values.visible;
  for (let p = 0; p < M; p++) {
    let holder = SET_DOWN, vis = false, x = 0, y = 0;
    if (pr.t.length) {
      const [i, ok] = lookup(pr, p, t, cut);
      holder = ok ? hv[i] : SET_DOWN; vis = ok && pv[i] !== 0; x = px[i]; y = py[i];
      if (holder >= 0) { x = f.x[holder]; y = f.y[holder]; }
      if (ok && holder === FLYING) {
        const j = Math.min(i + 1, pr.t.length - 1);
        if (j > i && j < pr.start[p + 1]) {
          const span = pr.t[j] - pr.t[i];
          const al = Math.min(Math.max((t - pr.t[i]) / (span > 0 ? span : 1), 0), 1);
          x = x + al * (px[j] - x); y = y + al * (py[j] - y);
        }
      }
    }
    if (holder >= 0) f.holding[holder].push(D.props[p].id);
    f.propHolder.push(holder); f.propX.push(x); f.propY.push(y);
    f.propVisible.push(vis && (holder >= 0 ? f.present[holder] : true));
    const bw = C.bow;
    if (bw && bw.t.length) { const [bi, bok] = lookup(bw, p, t, cut); f.bow.push(val(bw, "state", bi, bok, 0)); }
    else f.bow.push(0);
    const ly = C.lay; // a thing's own facing as it lies, 1 + degrees (0: none): props.laid_faces
    if (ly && ly.t.length) { const [yi, yok] = lookup(ly, p, t, cut); f.lay.push(val(ly, "face", yi, yok, 0)); }
    else f.lay.push(0);
  }
  wearOf(f, t, cut);
  const th = C.things;
  if (th && th.t.length) {
    f.shown = [];
    for (let k = 0; k < th.owners; k++) { const [i, ok] = lookup(th, k, t, cut); f.shown.push(!!val(th, "shown", i, ok, 0)); }
  }
  for (const e of D.events) {
    if (closing ? (e.t0 < t && t <= e.t1) : (e.t0 <= t && t < e.t1)) f.captions.push([e.actor, e.text]);
  }
  return f;
}
// dress.wears and dress.moving: what each wears (head first, under-things before the cap), and
// the worn things on their way between hands and wearer (don, doff); only with a "wear" channel,
// whose words and colours D.costume holds (web.py: only a rite with worn things has them)
const CO = D.costume || { spots: [], under: [], marks: {}, colours: [], defaults: {}, spotAt: {} };
function wearOf(f, t, cut) {
  f.wears = []; f.going = [];
  for (let a = 0; a < N; a++) f.wears.push([]);
  const w = C.wear;
  if (!w || !w.t.length) return;
  for (let p = 0; p < M; p++) {
    if (!D.props[p].worn) continue;
    const [i, ok] = lookup(w, p, t, cut);
    const wearer = val(w, "wearer", i, ok, -1), worn = val(w, "worn", i, ok, 0);
    const hands = val(w, "hands", i, ok, -1), t0 = val(w, "start", i, ok, 0), t1 = val(w, "end", i, ok, 0);
    if (t1 > t0 && t0 <= t && t < t1 && hands >= 0) {
      const al = (t - t0) / (t1 - t0);
      f.going.push([p, wearer, hands, worn ? 1 - al : al, !worn]);
    }
    if (worn && wearer >= 0) f.wears[wearer].push(p);
  }
  const key = p => [CO.spots.indexOf(D.props[p].worn), CO.under.includes(D.props[p].kind) ? 0 : 1, p];
  for (const list of f.wears) list.sort((x, y) => { const a = key(x), b = key(y); return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]; });
}
function r1(v, n) { const k = Math.pow(10, n); return Math.round(v * k) / k; }
function stateOf(f, stepIdx) {
  const st = D.steps.length ? D.steps[stepIdx === undefined || stepIdx === null ? f.step : stepIdx] : null;
  const sg = D.stages.length ? D.stages[f.stage] : null;
  const actors = [];
  for (let a = 0; a < N; a++) {
    if (!f.present[a]) continue;
    const A = D.actors[a];
    actors.push({ id: A.id, name: A.name, label: f.labels[a], party: A.party,
      x: r1(f.x[a], 2), y: r1(f.y[a], 2), facing: { deg: r1(f.facing[a], 1) },
      posture: D.postures[f.posture[a]], moving: f.moving[a],
      holding: f.holding[a].map(pid => { const j = propIndex[pid]; const h = { id: pid, name: D.props[j].name };
        const b = D.bowNames[String(f.bow[j])]; if (b !== undefined && f.bow[j]) h.held = b; return h; }),
      dress: Object.assign({}, f.dress[a]) });
    if (C.wear) Object.assign(actors[actors.length - 1], { wears: f.wears[a].map(p => D.props[p].name),
      wears_ids: f.wears[a].map(p => D.props[p].id), wears_at: f.wears[a].map(p => D.props[p].worn) });
  }
  return { t: r1(f.t, 3), duration: r1(D.duration, 3),
    stage: sg ? { index: f.stage + 1, name: sg.name, section: sg.section, t0: r1(sg.t0, 3), t1: r1(sg.t1, 3) } : null,
    step: st ? { index: D.steps.indexOf(st), cite: st.cite, t0: r1(st.t0, 3), t1: r1(st.t1, 3), said: st.said } : null,
    actors, ...laidOf(f) };
}
function laidOf(f) { // state.laid_things: what lies with a facing of its own (a 筵 spread); no key when nothing does
  const laid = [];
  for (let p = 0; p < M; p++) if (f.lay[p] && f.propHolder[p] === SET_DOWN && f.propVisible[p]) {
    laid.push({ id: D.props[p].id, name: D.props[p].name, x: r1(f.propX[p], 2), y: r1(f.propY[p], 2), facing: { deg: f.lay[p] - 1 } });
  }
  return laid.length ? { laid } : {};
}

// ---------------------------------------------------------------- moments (query/state.py)
const TX = D.text || {};
function normalize(s) { let o = ""; for (const c of s) o += (TX.variants && TX.variants[c]) || c; return o; }
function clauseAt(off) { return (TX.clauses || []).find(c => c.start <= off && off < c.end) || null; }
let CP = null; // UTF-16 index in folded → the character's index (Python's offsets)
function findAll(q) {
  const key = normalize(q), out = [];
  if (!key || !TX.folded) return out;
  if (!CP) { CP = new Int32Array(TX.folded.length + 1); let n = 0; for (let i = 0; i < TX.folded.length; i++) { CP[i] = n; const c = TX.folded.charCodeAt(i); if (c < 0xd800 || c > 0xdbff) n++; } CP[TX.folded.length] = n; }
  let i = TX.folded.indexOf(key);
  while (i >= 0) { out.push(CP[i]); i = TX.folded.indexOf(key, i + 1); }
  return out;
}
let MAIN = null; // the 經 and 記 read on past the 注 between, and each character's offset
function findReadOn(q) { // text.corpus.Corpus.find_read_on, ported: [first, last] offsets
  const key = [...normalize(q)], out = [];
  if (!key.length || !TX.main || !TX.folded) return out;
  if (!MAIN) {
    const cps = [...TX.folded], chars = [], offs = [];
    for (const [a, b] of TX.main) for (let k = a; k < b; k++) { chars.push(cps[k]); offs.push(k); }
    MAIN = { chars, offs };
  }
  const T = MAIN.chars, n = key.length;
  for (let i = 0; i + n <= T.length; i++) {
    let k = 0; while (k < n && T[i + k] === key[k]) k++;
    if (k === n) out.push([MAIN.offs[i], MAIN.offs[i + n - 1]]);
  }
  return out;
}
function stepAfter(text) { // query.state.step_after, ported
  const n = [...text].length; // offsets count characters as Python does
  let hits = findAll(text).map(h => [h, h + n - 1]);
  if (!hits.length) hits = findReadOn(text);
  if (!hits.length) throw new Error(JSON.stringify(text) + " does not occur in the text");
  for (const [, last] of hits) {
    const c = clauseAt(last);
    const sels = [[], [], []];
    D.steps.forEach((s, k) => {
      const holds = s.span[0] <= last && last < s.span[1];
      const within = c ? (s.span[0] < c.end && s.span[1] > c.start) : holds;
      if (s.said && holds) sels[0].push(k);
      if (s.said && within) sels[1].push(k);
      if (holds) sels[2].push(k);
    });
    for (const sel of sels) {
      if (sel.length) { let best = sel[0]; for (const k of sel) if (D.steps[k].t1 > D.steps[best].t1) best = k; return best; }
    }
  }
  throw new Error("no step of the script cites " + JSON.stringify(text));
}
function stageIndex(name) {
  const s = String(name).trim();
  const digits = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳㉑㉒㉓㉔㉕㉖㉗㉘㉙㉚㉛㉜㉝㉞㉟㊱㊲㊳㊴㊵㊶㊷㊸㊹㊺㊻㊼㊽㊾㊿";
  if (/^\d+$/.test(s)) { const k = +s - 1; if (k >= 0 && k < D.stages.length) return k; }
  const ci = digits.indexOf(s); if (ci >= 0 && ci < D.stages.length) return ci;
  const key = normalize(s);
  let k = D.stages.findIndex(g => normalize(g.name) === key || normalize(g.section || "") === key);
  if (k >= 0) return k;
  // as viz.text.names.pick: a name beginning with the words, then one holding them; one is
  // taken, several are listed
  for (const [test, says] of [[n => n.startsWith(key), "begins"], [n => n.includes(key), "is in"]]) {
    const found = D.stages.map((g, i) => [g, i]).filter(([g]) => key && test(normalize(g.name)));
    if (found.length === 1) return found[0][1];
    if (found.length) throw new Error(JSON.stringify(s) + " " + says + " " + found.length + " stages: " +
      found.map(([g, i]) => (i + 1) + " " + g.name).join("、") + "; say which (or its number)");
  }
  throw new Error("no stage " + JSON.stringify(s));
}
// A moment: {t, closing, step}. --after TEXT: the closing state of the step enacting it;
// a stage named as a moment is its start (t0).
function at(text) { const i = stepAfter(text); return { t: D.steps[i].t1, closing: true, step: i }; }
function stageMoment(name) { const k = stageIndex(name); return { t: D.stages[k].t0, closing: false, step: null }; }
function moment(x) { return (typeof x === "object" && x !== null) ? x : { t: +x, closing: false, step: null }; }

// ---------------------------------------------------------------- the camera (camera.py)
function YMap(breaks) {
  const bs = breaks.slice().sort((a, b) => b.north - a.north);
  const wx = [], dy = []; let shift = 0;
  for (const b of bs) { wx.push(b.north, b.south); dy.push(b.north + shift, b.north + shift - b.gap); shift += (b.north - b.south) - b.gap; }
  this.w = wx.reverse(); this.d = dy.reverse();
}
function pl(v, xs, ys) {
  if (!xs.length) return v;
  if (v <= xs[0]) return v + (ys[0] - xs[0]);
  if (v >= xs[xs.length - 1]) return v + (ys[ys.length - 1] - xs[xs.length - 1]);
  let j = searchRight(xs, v, 0, xs.length) - 1;
  if (xs[j] === v) return ys[j];
  return ys[j] + (v - xs[j]) * (ys[j + 1] - ys[j]) / (xs[j + 1] - xs[j]);
}
YMap.prototype.fwd = function (y) { return pl(y, this.w, this.d); };
YMap.prototype.inv = function (d) { return pl(d, this.d, this.w); };
const YM = new YMap(V.breaks);
class Camera {
  constructor(vp) { this.vp = vp; this.scale = 4; this.cx = 0; this.cy = 0; }
  copy() { const c = new Camera(this.vp.slice()); c.scale = this.scale; c.cx = this.cx; c.cy = this.cy; return c; }
  sx(x) { return this.vp[0] + this.vp[2] / 2 + (x - this.cx) * this.scale; }
  sy(y) { return this.vp[1] + this.vp[3] / 2 - (YM.fwd(y) - this.cy) * this.scale; }
  wx(px) { return (px - this.vp[0] - this.vp[2] / 2) / this.scale + this.cx; }
  wy(py) { return YM.inv(-(py - this.vp[1] - this.vp[3] / 2) / this.scale + this.cy); }
  fit(b, margin, box) {
    const d0 = YM.fwd(b[1]), d1 = YM.fwd(b[3]);
    const [bx, by, bw, bh] = box || this.vp;
    const w = Math.max(b[2] - b[0], 1e-6), h = Math.max(d1 - d0, 1e-6);
    this.scale = Math.max(Math.min((bw - 2 * margin) / w, (bh - 2 * margin) / h), 1e-3);
    const ox = bx + bw / 2 - (this.vp[0] + this.vp[2] / 2), oy = by + bh / 2 - (this.vp[1] + this.vp[3] / 2);
    this.cx = (b[0] + b[2]) / 2 - ox / this.scale; this.cy = (d0 + d1) / 2 + oy / this.scale;
  }
  zoomAt(f, sx, sy) {
    const nw = Math.min(Math.max(this.scale * f, 0.2), 200);
    const ox = sx - this.vp[0] - this.vp[2] / 2, oy = sy - this.vp[1] - this.vp[3] / 2;
    const dx = ox / this.scale + this.cx, dy = -oy / this.scale + this.cy;
    this.cx = dx - ox / nw; this.cy = dy + oy / nw; this.scale = nw;
  }
  pan(dx, dy) { this.cx -= dx / this.scale; this.cy += dy / this.scale; }
  worldBox(clip, pad) { // compose._world_box_of
    const [x, y, w, h] = clip;
    const xa = this.wx(x - pad), xb = this.wx(x + w + pad), ya = this.wy(y - pad), yb = this.wy(y + h + pad);
    return [Math.min(xa, xb), Math.min(ya, yb), Math.max(xa, xb), Math.max(ya, yb)];
  }
}

// ---------------------------------------------------------------- framing (compose.py)
// hudbase.ui_scale: 1 up to UI_BASE, growing with the screen, times the reader's own scale (Ctrl + / −),
// never so large that less than UI_ROOM of HUD would be laid out
function uiScale(W, H, user) {
  const grown = Math.max(1, Math.min(W / P.UI_BASE[0], H / P.UI_BASE[1])) * (user || 1);
  return Math.min(grown, Math.max(1, Math.min(W / P.UI_ROOM[0], H / P.UI_ROOM[1])));
}
function columnW(map) { // compose.column_w
  return Math.min(Math.min(Math.max(map[2] * 0.26, P.INSET_W[0] * ui), P.INSET_W[1] * ui), Math.max(map[2] * 0.4, P.INSET_W[0]));
}
function viewKind(f) {
  if (!V.elsewhere) return "site";
  const [x0, y0, x1, y1] = V.near; let any = false, near = false;
  for (let a = 0; a < N; a++) if (f.present[a]) { any = true; if (f.x[a] >= x0 && f.x[a] <= x1 && f.y[a] >= y0 && f.y[a] <= y1) near = true; }
  return !any || near ? "site" : "elsewhere";
}
function inScene(b, x, y) { // extent.in_scene: within SCENE_PAD of a scene's frame
  const p = P.SCENE_PAD;
  return x >= b[0] - p && x <= b[2] + p && y >= b[1] - p && y <= b[3] + p;
}
function sceneNow(f) { // extent.scene_now: of several scenes, the one most of those present stand in (the first on a tie)
  const sc = V.scenes;
  if (sc.length <= 1) return [sc.length ? sc[0][0] : "", V.elsewhere];
  let best = 0, most = -1;
  sc.forEach(([, b], k) => {
    let n = 0;
    for (let a = 0; a < N; a++) if (f.present[a] && inScene(b, f.x[a], f.y[a])) n++;
    if (n > most) { most = n; best = k; }
  });
  return [sc[best][0], most ? sc[best][1] : null];
}
function sceneBox(f) { return sceneNow(f)[1] || V.elsewhere; } // extent.scene_box: framed on it alone
function insetBox(map, kind) {
  const [mx, my, mw, mh] = map;
  if (!V.range || mw < 640 || kind === "elsewhere") return null;
  const cw = columnW(map), iw = cw - 14;
  const [x0, y0, x1, y1] = V.range;
  const dh = YM.fwd(y1) - YM.fwd(y0);
  const h = Math.min(mh - 170 * ui, (iw - 16) / Math.max(x1 - x0, 1e-6) * dh + 16 + P.INSET_HEAD * ui);
  if (h < P.INSET_MIN_H * ui) return null;
  return [Math.trunc(mx + mw - cw + 4 * ui), Math.trunc(my + mh - h - 10 * ui), Math.trunc(iw), Math.trunc(h)];
}
function insetHead() { return Math.round(P.INSET_HEAD * ui); }
function insetBody(b) { const hd = insetHead(); return [b[0] + 2, b[1] + hd + 1, b[2] - 4, b[3] - hd - 3]; }
function framing(map, f, manual, insetOn) {
  const kind = viewKind(f);
  const stage = f.stage;
  const ibox = insetOn ? insetBox(map, kind) : null;
  const cam = new Camera(map.slice());
  const [mx, my, mw, mh] = map;
  if (manual) { cam.scale = manual.scale; cam.cx = manual.cx; cam.cy = manual.cy; }
  else if (kind === "elsewhere") cam.fit(sceneBox(f), 30);
  else if (ibox) { // the people of the step and where they go, else the stage (Model.step_bounds)
    const follow = kind === "site" && D.steps.length ? V.stepBounds[f.step] : null;
    cam.fit(follow || V.stageBounds[stage], 18, [mx, my, mw - columnW(map), mh]);
  }
  else {
    const b = V.whole, dh = YM.fwd(b[3]) - YM.fwd(b[1]);
    const width = (b[2] - b[0]) * (mh - 40) / Math.max(dh, 1e-6);
    cam.fit(b, 20, mw - width >= 200 ? [mx, my, mw - 180, mh] : null);
  }
  let icam = null;
  if (ibox) { icam = new Camera([ibox[0], ibox[1] + insetHead(), ibox[2], ibox[3] - insetHead()]); icam.fit(V.range, 8); }
  const fr = { kind, stage, cam, inset: icam, insetBox: ibox };
  if (ibox && rangeEmpty(f)) { fr.inset = null; fr.insetBox = null; } // no empty frame (戒賔: no 侯 yet)
  // _clear_of_people: the inset folds away while someone in the main view stands under it
  if (ibox) {
    const r = P.TOKEN_PX * ui + 4;
    for (let a = 0; a < N; a++) {
      if (!f.present[a]) continue;
      const sx = cam.sx(f.x[a]), sy = cam.sy(f.y[a]);
      if (sx > ibox[0] - r && sx < ibox[0] + ibox[2] + r && sy > ibox[1] - r && sy < ibox[1] + ibox[3] + r) {
        fr.inset = null; fr.insetBox = null; break;
      }
    }
  }
  return fr;
}
function rangeEmpty(f) { // compose._range_empty: the 侯 not set out, nobody and nothing on the range
  const r = V.range;
  if (!r || !hiddenThings(f).has(P.RANGE_THING)) return false;
  const inside = (x, y) => x >= r[0] && x <= r[2] && y >= r[1] && y <= r[3];
  for (let a = 0; a < N; a++) if (f.present[a] && inside(f.x[a], f.y[a])) return false;
  for (let p = 0; p < M; p++) if (f.propVisible[p] && inside(f.propX[p], f.propY[p])) return false;
  return true;
}
function inView(f, cam, clip, reach) { // compose._in_view: who is drawn in a view
  const [x0, y0, x1, y1] = cam.worldBox(clip, reach);
  const pres = [], vis = [];
  for (let a = 0; a < N; a++) pres.push(f.present[a] && f.x[a] >= x0 && f.x[a] <= x1 && f.y[a] >= y0 && f.y[a] <= y1);
  for (let p = 0; p < M; p++) vis.push(f.propVisible[p] && f.propX[p] >= x0 && f.propX[p] <= x1 && f.propY[p] >= y0 && f.propY[p] <= y1);
  return { pres, vis };
}

// ---------------------------------------------------------------- who stands together (scene.py)
function tokenRadius(k) { return Math.max(P.tokenR, P.TOKEN_PX * ui / Math.max(k, 1e-6)); }
function numeral(n) {
  if (n <= 10) return P.NUMERALS[n];
  const tens = Math.floor(n / 10), ones = n % 10;
  return (tens > 1 ? P.NUMERALS[tens] : "") + "十" + (ones ? P.NUMERALS[ones] : "");
}
function shortLabel(l) {
  const m = /[0-9]+$/.exec(l); const digits = m ? m[0] : "";
  const stem = l.slice(0, l.length - digits.length);
  if (digits && [...stem].length > 1) return [...stem][0] + digits;
  return l;
}
function fmt(tpl, o) { return tpl.replace(/\{(\w+)[^}]*\}/g, (_, k) => o[k]); }
function groupName(names, short) { // scene.group_name
  const n = names.length;
  let pre = names[0];
  for (const s of names.slice(1)) { let k = 0; while (k < Math.min(pre.length, s.length) && pre[k] === s[k]) k++; pre = pre.slice(0, k); }
  pre = pre.replace(/之+$/, "");
  if (pre && ([...pre].length >= 2 || names.includes(pre))) return fmt(P.GROUP_NOTE, { stem: pre, n: numeral(n) });
  if (n % 2 === 0 && names.every(s => s.includes("耦"))) return fmt(P.PAIRS_NOTE, { n: numeral(n / 2) });
  if (n <= 3) return short.join(P.HELD_SEP);
  const kinds = [...new Set(names)];
  if (kinds.length <= 3) return fmt(P.GROUP_NOTE, { stem: kinds.join(P.HELD_SEP), n: numeral(n) });
  let most = kinds[0], cnt = -1;
  for (const k of kinds) { const c = names.filter(x => x === k).length; if (c > cnt) { cnt = c; most = k; } }
  return fmt(P.MANY_NOTE, { first: most, n: numeral(n) });
}
function bodyName(acts) { // scene.body_name: a whole body's name as the cast's bodies: give it
  const b = acts[0].body;
  if (!b || acts.some(a => a.body !== b)) return "";
  if ([...b].some(c => P.NUMERALS.includes(c))) return b;
  return fmt(P.GROUP_NOTE, { stem: b, n: numeral(acts.length) });
}
// scene._formations_of: members of one body (params.bodies; "" is none, never joined) whose
// tokens stand within JOIN token radii of each other (on whole pixels), joined
function formations(f, seen, k) {
  const idx = []; for (let a = 0; a < N; a++) if (seen[a]) idx.push(a);
  const out = { groups: {}, list: [] };
  if (idx.length < 2) return out;
  const r = tokenRadius(k) * k;
  const sx = [], sy = [];
  for (const a of idx) { // snapped, then to px
    const x = Math.round(f.x[a] * k) / k, y = YM.inv(Math.round(YM.fwd(f.y[a]) * k) / k);
    sx.push(x * k); sy.push(-YM.fwd(y) * k);
  }
  const parent = idx.map((_, n) => n);
  const root = n => { while (parent[n] !== n) { parent[n] = parent[parent[n]]; n = parent[n]; } return n; };
  const lim = (P.JOIN * r + 1) * (P.JOIN * r + 1);
  let any = false;
  for (let m = 0; m < idx.length; m++) for (let n = m + 1; n < idx.length; n++) {
    const dx = sx[m] - sx[n], dy = sy[m] - sy[n];
    const bm = P.bodies[idx[m]];
    if (bm && bm === P.bodies[idx[n]] && dx * dx + dy * dy < lim) {
      any = true; const ra = root(m), rb = root(n);
      if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }
  if (!any) return out;
  const present = new Map(); // each body's members in the scene
  for (const a of idx) present.set(P.bodies[a], (present.get(P.bodies[a]) || 0) + 1);
  const members = new Map();
  for (let n = 0; n < idx.length; n++) { const q = root(n); if (!members.has(q)) members.set(q, []); members.get(q).push(n); }
  for (const ns of members.values()) {
    if (ns.length < 2) continue;
    const who = ns.map(n => idx[n]), g = out.list.length;
    for (const a of who) out.groups[a] = g;
    const acts = who.map(a => Object.assign({ body: P.bodies[a] }, D.actors[a]));
    const whole = present.get(P.bodies[who[0]]) === ns.length; // all of his body there is here
    const name = (whole && bodyName(acts)) || groupName(acts.map(a => a.name), acts.map(a => shortLabel(a.label || a.name)));
    const parties = new Set(acts.map(a => a.party));
    // the name stands at the member at the formation's top (the middle one of a row)
    const mx = ns.reduce((s, n) => s + sx[n], 0) / ns.length;
    let top = ns[0];
    for (const n of ns) if (sy[n] < sy[top] || (sy[n] === sy[top] && Math.abs(sx[n] - mx) < Math.abs(sx[top] - mx))) top = n;
    const near = ns.filter(n => n !== top).sort((p, q) => ((sy[p] - sy[top]) ** 2 + (sx[p] - sx[top]) ** 2) - ((sy[q] - sy[top]) ** 2 + (sx[q] - sx[top]) ** 2))
      .slice(0, P.GROUP_BESIDE);
    out.list.push({ who, name, color: parties.size === 1 ? acts[0].color : INK,
      top: [Math.round(sx[top]), Math.round(sy[top])], near: near.map(n => [Math.round(sx[n]), Math.round(sy[n])]) });
  }
  return out;
}

// ---------------------------------------------------------------- drawing
const cv = document.getElementById("map");
let g = cv.getContext("2d");
const bar = document.getElementById("bar"), bg = bar.getContext("2d");
let W = 0, H = 0, DPR = 1, ui = 1, user = 1, map = [0, 0, 1, 1], narrow = false;
const S = { t: 0, closing: false, stepPinned: null, playing: false, speed: 1, skip: false, stopAt: null,
  notes: false, inset: true, manual: null, selected: null, frame: null, fr: null, drawnList: null, hashSet: 0 };
function layout() {
  W = window.innerWidth; H = window.innerHeight; DPR = window.devicePixelRatio || 1;
  narrow = W < 700 && H > W;
  document.body.classList.toggle("narrow", narrow);
  const mw = document.getElementById("mapwrap"), pn = document.getElementById("panel"), bw = document.getElementById("barwrap");
  let bh, pw;
  ui = uiScale(W, H, user);
  // the panel is laid out at 1/ui of its room and drawn ui times larger (as the window builds its
  // HUD): its text, buttons and rules grow together, and so do the bar's and the map's
  const k = ui, scaled = k !== 1 ? "scale(" + k + ")" : "";
  if (narrow) { // a phone held upright: map, bar, then the text panel below
    bh = Math.round(56 * k); const mh = Math.round(H * 0.5);
    map = [0, 0, W, mh];
    Object.assign(mw.style, { width: W + "px", height: mh + "px" });
    Object.assign(bw.style, { top: mh + "px", bottom: "", width: W + "px", height: bh + "px" });
    Object.assign(pn.style, { top: (mh + bh) + "px", left: "0px", width: W / k + "px", height: (H - mh - bh) / k + "px",
      transform: scaled, transformOrigin: "0 0" });
  } else { // hudbase.areas_at
    pw = Math.trunc(Math.min(Math.max(W * 0.28, 280 * k), 420 * k, W * 0.5));
    bh = Math.min(Math.round(66 * k), Math.floor(H / 3));
    map = [0, 0, Math.max(W - pw, 1), Math.max(H - bh, 1)];
    Object.assign(mw.style, { width: map[2] + "px", height: map[3] + "px" });
    Object.assign(bw.style, { top: "", bottom: "0px", width: W + "px", height: bh + "px" });
    Object.assign(pn.style, { top: "0px", left: "", width: pw / k + "px", height: map[3] / k + "px",
      transform: scaled, transformOrigin: "100% 0" });
  }
  for (const id of ["toast", "stagelist", "help", "search"]) document.getElementById(id).style.zoom = k !== 1 ? k : "";
  for (const [c, w, h] of [[cv, map[2], map[3]], [bar, W, bh]]) { c.width = Math.round(w * DPR); c.height = Math.round(h * DPR); }
  S.manual = null; dirty = true; barDirty = true;
}
function px(v) { return Math.round(v); }
function textPx(p, k) { return p.unit === "chi" ? Math.round(Math.min(Math.max(p.size * k, p.min), p.max)) : p.size; }
function emW(s) { let w = 0; for (const c of s) w += c.codePointAt(0) > 0x2e7f ? 1 : 0.55; return w; }
const FRAC = { c: [0.5, 0.5], n: [0.5, 0], s: [0.5, 1], e: [1, 0.5], w: [0, 0.5], ne: [1, 0], nw: [0, 0], se: [1, 1], sw: [0, 1] };
const widths = new Map();
function newCanvas(w, h) {
  if (typeof OffscreenCanvas === "function") return new OffscreenCanvas(w, h);
  const c = document.createElement("canvas"); c.width = w; c.height = h; return c;
}
function drawText(cam, x, y, text, size, color, anchor, o) {
  o = o || {};
  g.font = size + "px " + FONT;
  const wk = size + "|" + text;
  let w = widths.get(wk);
  if (w === undefined) { w = g.measureText(text).width; if (widths.size > 4096) widths.clear(); widths.set(wk, w); }
  const h = size * 1.2, pad = (o.bg || o.border) ? 2 : 0;
  const [fx, fy] = FRAC[anchor] || FRAC.c;
  const X = (o.screen ? x : cam.sx(x)) - fx * (w + 2 * pad), Y = (o.screen ? y : cam.sy(y)) - fy * (h + 2 * pad);
  if (o.bg) { g.fillStyle = o.bg; g.fillRect(X, Y, w + 2 * pad, h + 2 * pad); }
  if (o.border) { g.strokeStyle = o.border; g.lineWidth = 1; g.strokeRect(X + 0.5, Y + 0.5, w + 2 * pad - 1, h + 2 * pad - 1); }
  g.fillStyle = color; g.textBaseline = "middle"; g.textAlign = "left";
  g.fillText(text, X + pad, Y + pad + h / 2);
  return [X, Y, X + w + 2 * pad, Y + h + 2 * pad];
}
function path(cam, pts, closed) {
  g.beginPath();
  pts.forEach(([x, y], i) => { const X = cam.sx(x), Y = cam.sy(y); if (i) g.lineTo(X, Y); else g.moveTo(X, Y); });
  if (closed) g.closePath();
}
function drawPrim(cam, p) {
  if (p.k === "p") {
    path(cam, p.pts, true);
    if (p.fill) { g.fillStyle = p.fill; g.fill(); }
    if (p.stroke) { g.strokeStyle = p.stroke; g.lineWidth = p.w; g.stroke(); }
  } else if (p.k === "l") {
    path(cam, p.pts, p.closed);
    g.setLineDash(p.dash || []); g.strokeStyle = p.stroke; g.lineWidth = p.w; g.stroke(); g.setLineDash([]);
  } else if (p.k === "c") {
    const r = Math.max(p.r * cam.scale, p.min || 0);
    g.beginPath(); g.arc(cam.sx(p.at[0]), cam.sy(p.at[1]), r, 0, 2 * Math.PI);
    if (p.fill) { g.fillStyle = p.fill; g.fill(); }
    if (p.stroke) { g.strokeStyle = p.stroke; g.lineWidth = p.w; g.stroke(); }
  } else if (p.k === "t") {
    drawText(cam, p.at[0], p.at[1], p.text, textPx(p, cam.scale), p.color, p.anchor, { bg: p.bg, border: p.border });
  }
}
function hiddenThings(f) {
  const h = new Set();
  if (f.shown) D.thingNames.forEach((n, k) => { if (!f.shown[k]) h.add(n); });
  return h;
}
const planMemo = new Map(); // compose._static: the plan drawn once per camera, clip and things set out
function drawPlan(cam, clip, f, places, seen) {
  const hide = hiddenThings(f), detailed = cam.scale >= P.DETAIL_PX * ui;
  let down = "";
  for (let p = 0; p < M; p++) if (seen.vis[p] && f.propHolder[p] === SET_DOWN) down += p + ":" + Math.round(cam.sx(f.propX[p])) + "," + Math.round(cam.sy(f.propY[p])) + ";";
  const key = [cam.vp.join(), cam.scale, cam.cx, cam.cy, clip.join(), places, [...hide].sort().join(), DPR, ui, down].join("|");
  let bmp = planMemo.get(key);
  if (!bmp) {
    bmp = newCanvas(Math.ceil(clip[2] * DPR), Math.ceil(clip[3] * DPR));
    const keepG = g; g = bmp.getContext("2d");
    g.setTransform(DPR, 0, 0, DPR, -clip[0] * DPR, -clip[1] * DPR);
    drawPlanNow(cam, clip, hide, places);
    bmp.boxes = drawDown(cam, f, seen, detailed);
    g = keepG;
    if (planMemo.size >= 16) planMemo.delete(planMemo.keys().next().value);
    planMemo.set(key, bmp);
  }
  seen.down = bmp.boxes;
  g.setTransform(1, 0, 0, 1, 0, 0); g.drawImage(bmp, Math.round(clip[0] * DPR), Math.round(clip[1] * DPR)); g.setTransform(DPR, 0, 0, DPR, 0, 0);
}
function drawPlanNow(cam, clip, hide, places) { // places: the main view (names PLACE_PX × ui)
  g.fillStyle = "rgb(250,246,236)"; g.fillRect(clip[0], clip[1], clip[2], clip[3]);
  for (const p of D.plan.prims) if (!p.thing || !hide.has(p.thing)) drawPrim(cam, p);
  // scene.place_labels: features first, then places, leaving out those that collide
  const taken = [], k = cam.scale;
  for (const L of D.plan.labels) {
    if (hide.has(L.thing) || (L.place && !places)) continue;
    let y = L.y, anchor = L.anchor;
    if (L.place) y = L.y - 0.6 / Math.max(k, 1e-6) * 4;
    const size = places ? (P.PLACE_PX + (L.big ? 1 : 0)) * ui : L.size;
    const w = (emW(L.text) * size + 2) / k, h = (size + 2) / k;
    const fx = { c: .5, n: .5, s: .5, e: 1, w: 0 }[anchor] ?? .5, fy = { c: .5, n: 0, s: 1 }[anchor] ?? .5;
    const box = [L.x - fx * w, y - (1 - fy) * h, L.x + (1 - fx) * w, y + fy * h];
    if (taken.some(b => box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3])) continue;
    taken.push(box);
    if (L.place) { g.fillStyle = "rgb(150,140,126)"; g.beginPath(); g.arc(cam.sx(L.x), cam.sy(L.y), Math.max(0.25 * k, 1.5), 0, 7); g.fill(); }
    drawText(cam, L.x, y, L.text, size, L.place ? P.PLACE_INK : LABEL, anchor);
  }
}
function facingVec(deg) { const r = deg * Math.PI / 180; return [Math.sin(r), Math.cos(r)]; }
let shafts = null; // arrows of a frame: one path, stroked once (flushShafts)
function flushShafts() { if (shafts) { g.strokeStyle = PROP_INK; g.lineWidth = 1.5; g.stroke(shafts); shafts = null; } }
function matGlyph(cam, x, y, face) { // props.mat_glyph: a 筵 spread at its size, a line along the edge it faces
  const r = (face === null ? 180 : face) * Math.PI / 180, fx = Math.sin(r), fy = Math.cos(r), ax = fy, ay = -fx;
  const hl = P.MAT[0] / 2, hw = P.MAT[1] / 2;
  g.fillStyle = MAT_FILL; g.strokeStyle = MAT_INK; g.lineWidth = 1; g.beginPath();
  for (const [sa, sb] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) g.lineTo(cam.sx(x + sa * hl * ax + sb * hw * fx), cam.sy(y + sa * hl * ay + sb * hw * fy));
  g.closePath(); g.fill(); g.stroke(); g.beginPath();
  g.moveTo(cam.sx(x - hl * ax + hw * 0.6 * fx), cam.sy(y - hl * ay + hw * 0.6 * fy));
  g.lineTo(cam.sx(x + hl * ax + hw * 0.6 * fx), cam.sy(y + hl * ay + hw * 0.6 * fy)); g.stroke();
}
function propGlyph(cam, x, y, name, turn, face = null, held = false) { // scene.prop_glyph, in px
  const X = cam.sx(x), Y = cam.sy(y), u = ui, last = name.slice(-1);
  if ("筵席".includes(last)) { // props.MATS: spread at its size, rolled when held
    if (!held) { matGlyph(cam, x, y, face); return; }
    g.fillStyle = MAT_FILL; g.strokeStyle = MAT_INK; g.lineWidth = 1;
    g.fillRect(X - 5 * u, Y - 1.5 * u, 10 * u, 3 * u); g.strokeRect(X - 5 * u, Y - 1.5 * u, 10 * u, 3 * u); return;
  }
  if (last === "矢") {
    const an = (25 + (turn * 47) % 130) * Math.PI / 180, dx = Math.cos(an) * 6 * u, dy = -Math.sin(an) * 6 * u;
    shafts = shafts || new Path2D(); shafts.moveTo(X - dx, Y - dy); shafts.lineTo(X + dx, Y + dy);
    return;
  }
  g.strokeStyle = PROP_INK; g.lineWidth = 1.5;
  if (name.startsWith("弛")) { g.lineWidth = 2; g.beginPath(); g.moveTo(X - 4.5 * u, Y); g.quadraticCurveTo(X, Y - 2 * u, X + 4.5 * u, Y); g.stroke(); return; }
  if (name.includes("弓")) {
    g.lineWidth = 2; g.beginPath(); g.arc(X, Y, 4.5 * u, Math.PI * 20 / 180, Math.PI * 160 / 180); g.stroke();
    g.lineWidth = 1; g.beginPath(); g.moveTo(X + 4.5 * u * Math.cos(0.349), Y + 4.5 * u * Math.sin(0.349)); g.lineTo(X - 4.5 * u * Math.cos(0.349), Y + 4.5 * u * Math.sin(0.349)); g.stroke();
    return;
  }
  if ("觶爵觚散角".includes(last)) { g.fillStyle = "rgb(236,204,120)"; g.lineWidth = 1; g.beginPath(); g.arc(X, Y, 2.8 * u, 0, 7); g.fill(); g.stroke(); return; }
  if (last === "豐") { g.fillStyle = "rgb(214,184,130)"; g.beginPath(); g.arc(X, Y, 4 * u, 0, 7); g.fill(); g.stroke(); g.fillStyle = "rgb(236,204,120)"; g.beginPath(); g.arc(X, Y, 1.6 * u, 0, 7); g.fill(); g.stroke(); return; }
  if (last === "算") { for (const o of [-2, 0, 2]) { g.beginPath(); g.moveTo(X - 3 * u, Y - o * u); g.lineTo(X + 3 * u, Y - o * u); g.stroke(); } return; }
  const [w, h] = last === "俎" ? [4.5, 2.8] : [3, 3];
  g.fillStyle = last === "俎" ? "rgb(176,140,96)" : "rgb(226,196,140)"; g.lineWidth = 1;
  g.fillRect(X - w * u, Y - h * u, 2 * w * u, 2 * h * u); g.strokeRect(X - w * u, Y - h * u, 2 * w * u, 2 * h * u);
}
function heldNames(f, a) { // what a person holds, by the kind's last character (scene._person)
  const held = new Map();
  for (const pid of f.holding[a]) {
    const j = propIndex[pid]; let name = D.props[j].name.slice(-1);
    if (f.going.some(q => q[0] === j)) continue; // drawn on its way (dress.on_the_way)
    if (name === "弓" && D.bowNames[String(f.bow[j])] === "弛") name = "弛弓";
    held.set(name, (held.get(name) || 0) + 1);
  }
  return held;
}
// A token looks the same wherever he stands: drawn once into a bitmap (compose._as_sprites) and
// copied to each place
const sprites = new Map();
function drawToken(cam, f, a, dot, label, r0, held) {
  const A = D.actors[a], k = cam.scale;
  const seated = f.posture[a] === SIT || f.seated[a];
  let r = seated ? r0 * 0.8 : r0;
  if (f.posture[a] === BOW) r *= 1 - 0.28 * Math.abs(Math.sin(Math.PI * Math.max(f.count[a], 1) * f.phase[a]));
  if (dot) r *= P.DOT;
  // kept by what it looks like: facing to the degree, the radius to the quarter px (a bow's dip)
  const w = f.dress[a], face = Math.round(f.facing[a]);
  r = Math.round(r * k * 4) / (4 * k);
  const hk = held ? heldText(held) : "";
  const worn = f.wears[a];
  const key = [A.color, r * k, r0 * k, face, seated && !dot, label, D.worn.map(n => w[n] ? 1 : 0).join(""), ui, DPR, hk, worn.join(",")].join("|");
  let sp = sprites.get(key);
  if (!sp) {
    const half = Math.ceil(Math.max(1.7 * r * k, 1.05 * r0 * k * 1.42) + 6 + (held ? 16 * ui : 0));
    const side = Math.ceil(2 * half * DPR), bmp = newCanvas(side, side);
    const keepG = g; g = bmp.getContext("2d"); g.setTransform(DPR, 0, 0, DPR, 0, 0);
    tokenNow(A.color, half, half, r, r0, k, seated && !dot, face, label, w);
    costumeMarks(half, half, r, k, worn);
    if (held) heldGlyphs({ scale: k, sx: x => half + x * k, sy: y => half - y * k }, 0, 0, face, r, held);
    g = keepG;
    if (sprites.size > 4096) sprites.clear();
    sp = { bmp, half }; sprites.set(key, sp);
  }
  // copied onto whole device pixels, unscaled: a blit, where a scaled copy resamples
  const X = cam.sx(f.x[a]), Y = cam.sy(f.y[a]);
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.drawImage(sp.bmp, Math.round((X - sp.half) * DPR), Math.round((Y - sp.half) * DPR));
  g.setTransform(DPR, 0, 0, DPR, 0, 0);
  return r;
}
function tokenNow(col, X, Y, r, r0, k, seated, facing, label, w) {
  const R = r * k, [fx, fy] = facingVec(facing);
  if (seated) { const s = r0 * 1.05 * k; g.fillStyle = "rgb(236,228,210)"; g.strokeStyle = col; g.lineWidth = 1.5; g.fillRect(X - s, Y - s, 2 * s, 2 * s); g.strokeRect(X - s, Y - s, 2 * s, 2 * s); }
  // the nose: a triangle whose tip stands 0.6 r beyond the edge
  const qx = -fy, qy = fx, b = 0.55 * R, bx = X + fx * R * 0.6, by = Y - fy * R * 0.6;
  g.beginPath(); g.moveTo(X + fx * R * 1.6, Y - fy * R * 1.6); g.lineTo(bx + qx * b, by - qy * b); g.lineTo(bx - qx * b, by + qy * b); g.closePath();
  g.fillStyle = col; g.fill(); g.strokeStyle = "rgb(20,16,12)"; g.lineWidth = 1; g.stroke();
  g.beginPath(); g.arc(X, Y, R, 0, 2 * Math.PI); g.fill(); g.stroke();
  if (label !== null) {
    const em = Math.max(emW(label), 1), least = P.NAME_PX * ui;
    const size = Math.round(Math.min(Math.max(Math.min(2 * r * 0.92 / em, r * 1.15) * k, least), Math.max(18, least * 1.5)));
    g.font = size + "px " + FONT; g.fillStyle = "#fff"; g.textAlign = "center"; g.textBaseline = "middle";
    g.fillText(label, X, Y + 0.5);
  }
  // dress.marks: 袒 left shoulder, 決 right thumb, 遂 left forearm, 扑 across the back
  const lx = -fy, ly = fx;
  const P2 = (ax, ay) => [X + ax * k, Y - ay * k];
  if (w["扑"]) { const [x0, y0] = P2(-fx * 0.9 * r - lx * 0.9 * r, -fy * 0.9 * r - ly * 0.9 * r), [x1, y1] = P2(-fx * 1.25 * r + lx * 0.7 * r, -fy * 1.25 * r + ly * 0.7 * r); g.strokeStyle = "rgb(120,78,36)"; g.lineWidth = 3; g.beginPath(); g.moveTo(x0, y0); g.lineTo(x1, y1); g.stroke(); }
  if (w["袒"]) { const [cx, cy] = P2(lx * 0.78 * r, ly * 0.78 * r); g.fillStyle = "rgb(232,164,112)"; g.strokeStyle = "rgb(150,96,60)"; g.lineWidth = 1; g.beginPath(); g.arc(cx, cy, Math.max(0.42 * R, 2.5), 0, 7); g.fill(); g.stroke(); }
  if (w["遂"]) { const [x0, y0] = P2(lx * 1.05 * r + fx * 0.1 * r, ly * 1.05 * r + fy * 0.1 * r), [x1, y1] = P2(lx * 1.05 * r + fx * 0.8 * r, ly * 1.05 * r + fy * 0.8 * r); g.strokeStyle = "rgb(92,54,28)"; g.lineWidth = 3; g.beginPath(); g.moveTo(x0, y0); g.lineTo(x1, y1); g.stroke(); }
  if (w["決"]) { const [cx, cy] = P2(-lx * r + fx * 0.45 * r, -ly * r + fy * 0.45 * r); g.strokeStyle = "rgb(214,168,40)"; g.lineWidth = 2; g.beginPath(); g.arc(cx, cy, Math.max(0.3 * R, 2), 0, 7); g.stroke(); }
}
// dress.thing_mark: a worn thing where it is worn on a token centred at X, Y px (r in chi, k px
// a chi): the cap on the top of the disc, the band (marks.band) under it, the pin across it; a
// garment an arc along the foot of the disc, an apron there, shoes two dots below
function wearColour(kind, name) {
  for (const [w, c] of CO.colours) if (name.includes(w)) return c;
  return CO.defaults[kind] || "rgb(60,50,40)";
}
function thingMark(X, Y, r, k, spot, kind, name) {
  const c = wearColour(kind, name), P2 = (ax, ay) => [X + ax * r * k, Y - ay * r * k], ink = "rgb(20,16,12)";
  const line = (pts, w) => { g.strokeStyle = c; g.lineWidth = w; g.beginPath(); pts.forEach(([x, y], q) => q ? g.lineTo(x, y) : g.moveTo(x, y)); g.stroke(); };
  const poly = pts => { g.fillStyle = c; g.strokeStyle = ink; g.lineWidth = 1; g.beginPath(); pts.forEach(([x, y], q) => q ? g.lineTo(x, y) : g.moveTo(x, y)); g.closePath(); g.fill(); g.stroke(); };
  const m = CO.marks;
  if (spot === CO.spots[0]) { // the head
    if (kind === m.band) return line([P2(-0.66, 0.6), P2(0.66, 0.6)], 3);
    if (kind === m.pin) return line([P2(-0.95, 1.0), P2(0.95, 1.0)], 2);
    const h = kind === m.tall ? 0.75 : 0.55, pts = [P2(-0.6, 0.7), P2(0.6, 0.7)];
    for (let d = 20; d <= 160; d += 35) pts.push(P2(0.6 * Math.cos(d * Math.PI / 180), 0.7 + h * Math.sin(d * Math.PI / 180)));
    return poly(pts);
  }
  if (spot === CO.spots[1]) { // the body
    if (kind === m.apron) return poly([P2(-0.3, -0.55), P2(0.3, -0.55), P2(0.36, -0.98), P2(-0.36, -0.98)]);
    const pts = []; for (let d = 205; d <= 335; d += 10) pts.push(P2(1.05 * Math.cos(d * Math.PI / 180), 1.05 * Math.sin(d * Math.PI / 180)));
    return line(pts, 3);
  }
  for (const sd of [-1, 1]) { const [x, y] = P2(sd * 0.35, -1.25); g.fillStyle = c; g.strokeStyle = ink; g.lineWidth = 1; g.beginPath(); g.arc(x, y, Math.max(0.16 * r * k, 1.5), 0, 7); g.fill(); g.stroke(); }
}
function costumeMarks(X, Y, r, k, worn) { // dress.costume_marks: feet, body, then the head from the under-things up
  const rank = p => -CO.spots.indexOf(p.worn);
  const items = worn.map(p => D.props[p]).sort((a, b) => rank(a) - rank(b));
  for (const p of items) thingMark(X, Y, r, k, p.worn, p.kind, p.name);
}
function drawGoing(cam, f, r) { // dress.on_the_way: from the hands (before him) to where it is worn
  for (const [p, wearer, hands, along] of f.going) {
    if (wearer < 0 || !f.present[wearer] || !f.present[hands]) continue;
    const P = D.props[p], [fx, fy] = facingVec(f.facing[hands]);
    const sx = f.x[hands] + fx * 1.3 * r, sy = f.y[hands] + fy * 1.3 * r - (CO.spotAt[P.worn] || 0) * r;
    const x = sx + (f.x[wearer] - sx) * along, y = sy + (f.y[wearer] - sy) * along;
    thingMark(cam.sx(x), cam.sy(y), r, cam.scale, P.worn, P.kind, P.name);
  }
}
function heldText(held) { return [...held].map(([n, c]) => c === 1 ? n : n + "×" + c).join(P.HELD_SEP); }
function drawHeld(cam, f, a, held) { // zoomed in, or selected: what he holds named in a tag
  const k = cam.scale, size = Math.round(Math.min(Math.max(0.9 * k, 10), 13));
  drawText(cam, f.x[a] + tokenRadius(k) * 1.2, f.y[a], heldText(held), size, "rgb(60,40,20)", "w", { bg: "rgb(252,240,200)", border: "rgb(150,120,60)" });
}
function heldBow(cam, x, y, fx, fy, r, u, strung, n) { // dress.held_bow: in his left hand, the arrows across the string
  const lx = -fy, ly = fx, reach = 1.05 * r + 3 * u, gx = x + lx * reach + fx * 0.45 * r, gy = y + ly * reach + fy * 0.45 * r;
  const at = (t, s) => [cam.sx(gx + fx * 5 * u * t + lx * s), cam.sy(gy + fy * 5 * u * t + ly * s)];
  const poly = (pts, w) => { g.strokeStyle = PROP_INK; g.lineWidth = w; g.beginPath(); pts.forEach(([X, Y], q) => q ? g.lineTo(X, Y) : g.moveTo(X, Y)); g.stroke(); };
  const ts = [-1, -0.6, -0.3, 0, 0.3, 0.6, 1]; n = Math.max(0, Math.min(n, 4));
  if (strung) {
    poly(ts.map(t => at(t, 2.2 * u * (1 - t * t))), 2); poly([at(-1, 0), at(1, 0)], 1);
    for (let m = 0; m < n; m++) { const s = (m - (n - 1) / 2) * 1.3 * u; poly([[cam.sx(gx + fx * s - lx * 2.5 * u), cam.sy(gy + fy * s - ly * 2.5 * u)], [cam.sx(gx + fx * s + lx * 4 * u), cam.sy(gy + fy * s + ly * 4 * u)]], 1.2); }
  } else {
    poly(ts.map(t => at(t, -0.9 * u * (1 - t * t) + 0.8 * u * t * t)), 2);
    for (let m = 0; m < n; m++) { const s = (m - (n - 1) / 2) * 0.9 * u + 1.4 * u; poly([at(-0.9, s), at(0.9, s)], 1); }
  }
}
function heldGlyphs(cam, x, y, facing, r, held) { // scene.held_glyphs: a bow at his left, the rest behind him, side by side
  const k = cam.scale, [fx, fy] = facingVec(facing);
  const u = ui / k, bx = x - fx * (r + 5 * u), by = y - fy * (r + 5 * u);
  const bows = ["弓", "弛弓"].filter(n => held.has(n));
  if (bows.length === 1 && held.get(bows[0]) === 1) { // one bow: his own, in hand
    heldBow(cam, x, y, fx, fy, r, u, bows[0] === "弓", held.get("矢") || 0);
    held = new Map([...held].filter(([n]) => n !== bows[0] && n !== "矢"));
  }
  const items = []; for (const [n, c] of held) for (let q = 0; q < (n === "矢" ? Math.min(c, 4) : 1); q++) items.push(n);
  items.forEach((n, m) => {
    const off = (m - (items.length - 1) / 2) * 5 * u, gx = bx - fy * off, gy = by + fx * off;
    if (n === "矢") { shafts = shafts || new Path2D(); shafts.moveTo(cam.sx(gx - fx * 4 * u), cam.sy(gy - fy * 4 * u)); shafts.lineTo(cam.sx(gx + fx * 4 * u), cam.sy(gy + fy * 4 * u)); }
    else propGlyph(cam, gx, gy, n, 0, null, true);
  });
  flushShafts();
}
function drawDown(cam, f, seen, detailed) {
  // things set out, as objects; named when zoomed in
  const groupsDown = [];
  for (let p = 0; p < M; p++) {
    if (!seen.vis[p] || f.propHolder[p] !== SET_DOWN) continue;
    propGlyph(cam, f.propX[p], f.propY[p], D.props[p].name, p, f.lay[p] ? f.lay[p] - 1 : null);
    if (detailed) {
      const q = groupsDown.find(G => G.name === D.props[p].name && Math.hypot(G.x - f.propX[p], G.y - f.propY[p]) < 1.5);
      if (q) q.n++; else groupsDown.push({ name: D.props[p].name, x: f.propX[p], y: f.propY[p], n: 1 });
    }
  }
  flushShafts();
  // scene._set_down_objects: one count for the arrows (or 算) lying within a glyph's reach
  const clusters = [], boxes = []; // boxes: the counts, which the names placed after keep clear of
  for (let p = 0; p < M; p++) {
    if (!seen.vis[p] || f.propHolder[p] !== SET_DOWN) continue;
    const name = D.props[p].name, X = cam.sx(f.propX[p]), Y = cam.sy(f.propY[p]);
    const c = clusters.find(q => q.name === name && Math.hypot(q.pts[0][0] - X, q.pts[0][1] - Y) < 16 * ui);
    if (c) c.pts.push([X, Y]); else clusters.push({ name, pts: [[X, Y]] });
  }
  for (const c of clusters) {
    if (c.pts.length < 2 || !"矢算".includes(c.name.slice(-1))) continue;
    const X = c.pts.reduce((s, q) => s + q[0], 0) / c.pts.length, Y = c.pts.reduce((s, q) => s + q[1], 0) / c.pts.length;
    const tx = "×" + c.pts.length, sz = Math.round(10 * ui), w = emW(tx) * sz + 4, h = Math.round(1.45 * sz) + 2;
    drawText(null, X + 8 * ui, Y - 8 * ui, tx, sz, PROP_INK, "c", { bg: "rgb(252,240,200)", screen: true });
    boxes.push([X + 8 * ui - w / 2, Y - 8 * ui - h / 2, X + 8 * ui + w / 2, Y - 8 * ui + h / 2]);
  }
  for (const G of groupsDown) drawText(cam, G.x, G.y, G.n > 1 ? G.name + "×" + G.n : G.name, 11, "rgb(60,40,20)", "c", { bg: "rgb(252,240,200)", border: "rgb(150,120,60)" });
  return boxes;
}
function drawPeople(cam, clip, f, reach, captions, list, seen) {
  const k = cam.scale, r0 = tokenRadius(k);
  const detailed = k >= P.DETAIL_PX * ui;
  for (let p = 0; p < M; p++) if (seen.vis[p] && f.propHolder[p] < 0) {
    list.things.push(D.props[p].id);
    if (f.propHolder[p] === FLYING) propGlyph(cam, f.propX[p], f.propY[p], D.props[p].name, p); // in flight: drawn each frame
  }
  flushShafts();
  const sel = S.selected !== null && seen.pres[S.selected] ? S.selected : null;
  const fm = formations(f, seen.pres.map((v, a) => v && a !== sel), k);
  for (let a = 0; a < N; a++) {
    if (!seen.pres[a]) continue;
    const dot = fm.groups[a] !== undefined;
    const lab = dot ? null : shortLabel(f.labels[a] || D.actors[a].name.slice(0, 1));
    const held = heldNames(f, a), tag = held.size && (detailed || a === S.selected);
    const r = drawToken(cam, f, a, dot, lab, r0, held.size && !tag ? held : null);
    if (tag) drawHeld(cam, f, a, held);
    const code = f.posture[a];
    if (code === BOW || code === BOW_HANDS) {
      const word = code === BOW ? ({ 1: "拜", 2: "再拜", 3: "三拜" }[f.count[a]] || "拜") : D.postures[BOW_HANDS];
      drawText(cam, f.x[a] - r, f.y[a] - r, word, 10, code === BOW ? "rgb(150,36,30)" : "rgb(32,54,112)", "ne", { bg: code === BOW ? "rgb(255,248,230)" : "rgb(240,244,255)" });
    }
    list.people.push({ id: D.actors[a].id, label: lab, held: f.holding[a].map(pid => D.props[propIndex[pid]].name).sort() });
    if (C.wear) list.people[list.people.length - 1].wears = f.wears[a].map(p => D.props[p].name);
  }
  if (f.going.length) drawGoing(cam, f, r0);
  // a formation's name where labels.py first finds room: above the member at its top, then
  // around him (GROUP_ORDER), beside each of the others nearest him, a ring round each, then
  // rings further out with a leader line to him; clear of every token and of the names placed
  // before it, inside the view (else where it first tried)
  const obst = [];
  for (let a = 0; a < N; a++) if (seen.pres[a]) { const X = cam.sx(f.x[a]), Y = cam.sy(f.y[a]), R = (fm.groups[a] !== undefined ? r0 * P.DOT * 1.9 : r0 * 1.6) * k; obst.push([X - R, Y - R, X + R, Y + R]); }
  obst.push(...(seen.down || [])); // the counts of what lies set down (drawn with the plan)
  const size = Math.round(P.NAME_PX * ui);
  const DIRS = { e: [1, 0], w: [-1, 0], n: [0, -1], s: [0, 1], ne: [1, -1], nw: [-1, -1], se: [1, 1], sw: [-1, 1] };
  for (const G of fm.list) {
    list.groups.push({ name: G.name, members: G.who.map(a => D.actors[a].id).sort() });
    const ox = cam.vp[0] + cam.vp[2] / 2 - cam.cx * k, oy = cam.vp[1] + cam.vp[3] / 2 + cam.cy * k;
    const ax = G.top[0] + ox, ay = G.top[1] + oy, rd = r0 * k * P.DOT * 1.9;
    const w = emW(G.name) * size + 5, h = Math.round(1.45 * size) + 4;
    const cands = [], at = (cx, cy) => cands.push([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]);
    const ring = (x, y, from, to) => {
      for (let rg = from; rg <= to; rg++) for (let d = 0; d < 16; d++) {
        const c = Math.cos(2 * Math.PI * d / 16), sn = Math.sin(2 * Math.PI * d / 16), dist = rd + 1 + rg * (h + 2);
        at(x + c * (dist + Math.abs(c) * w / 2), y + sn * (dist + Math.abs(sn) * h / 2));
      }
    };
    for (const d of P.GROUP_ORDER) {
      const [dx, dy] = DIRS[d];
      let cx = ax + dx * (rd + 1 + w / 2), cy = ay + dy * (rd + 1 + h / 2);
      if (dx && dy) { const q = rd * (1 - Math.SQRT1_2); cx -= dx * q; cy -= dy * q; }
      at(cx, cy);
    }
    const near = G.near.map(([x, y]) => [x + ox, y + oy]);
    for (const [x, y] of near) for (const d of P.GROUP_ORDER) { const [dx, dy] = DIRS[d]; at(x + dx * (rd + 1 + w / 2), y + dy * (rd + 1 + h / 2)); }
    for (const [x, y] of [[ax, ay], ...near]) ring(x, y, 1, 1);
    const first = cands.length;
    ring(ax, ay, 1, 6);
    const meets = (b, o) => b[0] < o[2] && o[0] < b[2] && b[1] < o[3] && o[1] < b[3];
    const inside = b => b[0] >= clip[0] + 2 && b[1] >= clip[1] + 2 && b[2] <= clip[0] + clip[2] - 2 && b[3] <= clip[1] + clip[3] - 2;
    let j = cands.findIndex(b => inside(b) && !obst.some(o => meets(b, o)));
    if (j < 0) j = Math.max(cands.findIndex(inside), 0);
    const box = cands[j];
    obst.push(box);
    if (j >= first) { // labels.leader: from the edge of his dot to the nearest point of the box
      const bx = Math.min(Math.max(ax, box[0]), box[2]), by = Math.min(Math.max(ay, box[1]), box[3]);
      const dd = Math.hypot(bx - ax, by - ay);
      if (dd > rd) {
        g.strokeStyle = G.color; g.lineWidth = 1; g.beginPath();
        g.moveTo(ax + (bx - ax) * rd / dd, ay + (by - ay) * rd / dd); g.lineTo(bx, by); g.stroke();
      }
    }
    drawText(cam, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, G.name, size, G.color, "c", { bg: "rgb(255,252,240)", border: G.color, screen: true });
  }
  // what is said: in its bubble above the speaker where that is free (the tail from his head),
  // else where labels.py finds room round him (DEFAULT_ORDER, then rings), with a leader line
  if (captions) for (const [a, text] of f.captions) {
    if (a < 0 || a >= N || !seen.pres[a]) continue;
    const tx = "「" + text + "」", w = emW(tx) * 13 + 6, h = Math.round(1.45 * 13) + 4;
    const bx = cam.sx(f.x[a] + 0.6 * r0), by = cam.sy(f.y[a] + 2.2 * r0);
    const ax = cam.sx(f.x[a]), ay = cam.sy(f.y[a]), rr = r0 * k;
    const meets = (q, o) => q[0] < o[2] && o[0] < q[2] && q[1] < o[3] && o[1] < q[3];
    const usual = [bx - w / 2, by - h, bx + w / 2, by];
    let box = usual;
    if (obst.some(o => meets(usual, o))) {
      const cands = [];
      for (const d of ["e", "w", "ne", "se", "nw", "sw", "n", "s"]) {
        const [dx, dy] = DIRS[d];
        let cx = ax + dx * (rr + 1 + w / 2), cy = ay + dy * (rr + 1 + h / 2);
        if (dx && dy) { const q = rr * (1 - Math.SQRT1_2); cx -= dx * q; cy -= dy * q; }
        cands.push([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]);
      }
      for (let rg = 1; rg <= 6; rg++) for (let d = 0; d < 16; d++) {
        const c = Math.cos(2 * Math.PI * d / 16), sn = Math.sin(2 * Math.PI * d / 16), dist = rr + 1 + rg * (h + 2);
        const cx = ax + c * (dist + Math.abs(c) * w / 2), cy = ay + sn * (dist + Math.abs(sn) * h / 2);
        cands.push([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]);
      }
      const inside = q => q[0] >= clip[0] + 2 && q[1] >= clip[1] + 2 && q[2] <= clip[0] + clip[2] - 2 && q[3] <= clip[1] + clip[3] - 2;
      box = cands.find(q => inside(q) && !obst.some(o => meets(q, o))) || usual;
    }
    obst.push(box);
    g.strokeStyle = INK; g.lineWidth = 1; g.beginPath();
    if (box === usual) { g.moveTo(ax, cam.sy(f.y[a] + r0)); g.lineTo(bx, by); }
    else {
      const px2 = Math.min(Math.max(ax, box[0]), box[2]), py2 = Math.min(Math.max(ay, box[1]), box[3]), dd = Math.hypot(px2 - ax, py2 - ay);
      if (dd > rr) { g.moveTo(ax + (px2 - ax) * rr / dd, ay + (py2 - ay) * rr / dd); g.lineTo(px2, py2); }
    }
    g.stroke();
    drawText(null, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, tx, 13, INK, "c", { bg: "rgb(255,255,250)", border: INK, screen: true });
  }
  list.groups.sort((p, q) => (p.members.join() < q.members.join() ? -1 : 1));
  list.things.sort();
}
function drawTrail(cam, f) {
  const a = S.selected; if (a === null) return;
  const st = D.stages[f.stage], mo = C.motion, pts = [];
  for (let i = mo.start[a]; i < mo.start[a + 1]; i++) if (mo.t[i] >= st.t0 && mo.t[i] <= st.t1) pts.push([mo.values.x[i], mo.values.y[i]]);
  if (pts.length > 1) { path(cam, pts, false); g.setLineDash([4, 3]); g.strokeStyle = "rgba(150,36,30,0.8)"; g.lineWidth = 2; g.stroke(); g.setLineDash([]); }
  if (f.present[a]) { g.strokeStyle = "rgb(150,36,30)"; g.lineWidth = 2; g.beginPath(); g.arc(cam.sx(f.x[a]), cam.sy(f.y[a]), tokenRadius(cam.scale) * cam.scale + 4, 0, 7); g.stroke(); }
}
function nextMove(a, t) { // the selected person's next move: the next keyframe that moves him
  const mo = C.motion;
  for (let i = mo.start[a]; i < mo.start[a + 1] - 1; i++) {
    if (mo.t[i + 1] <= t) continue;
    if (mo.values.x[i + 1] !== mo.values.x[i] || mo.values.y[i + 1] !== mo.values.y[i]) {
      const s = stepAt(mo.t[i], false), st = D.steps[s];
      const len = Math.hypot(mo.values.x[i + 1] - mo.values.x[i], mo.values.y[i + 1] - mo.values.y[i]);
      return { now: mo.t[i] <= t, cite: st ? st.cite : "", t0: mo.t[i], len };
    }
  }
  return null;
}
function drawScale(cam, fr) {
  const chi = [1, 2, 5, 10, 20, 50, 100, 200].find(c => c * cam.scale >= 60) || 200;
  const u = ui, x = fr.insetBox ? fr.insetBox[0] + 8 * u : map[0] + 16 * u, y = fr.insetBox ? fr.insetBox[1] - 16 * u : map[1] + map[3] - 14 * u;
  g.strokeStyle = INK; g.lineWidth = 2 * u; g.beginPath(); g.moveTo(x, y); g.lineTo(x + chi * cam.scale, y); g.stroke();
  drawText(cam, x, y - 3 * u, chi + " 尺 ≈ " + (chi * V.chiM).toFixed(1) + " m", Math.round(10 * u), INK, "sw", { screen: true });
  drawText(cam, x + chi * cam.scale + 16 * u, y, "▲北", Math.round(11 * u), INK, "w", { screen: true });
}
function drawLegend(fr) {
  const u = ui; let x, y = map[1] + 10 * u, w;
  if (fr.insetBox) { const cw = columnW(map); x = map[0] + map[2] - cw + 4 * u; w = cw - 14 * u; }
  else { // compose._legend_at: in the margin beside the drawing if it has room, else top left
    if (narrow) return;
    const free = map[0] + map[2] - fr.cam.sx(V.whole[2]) - 16 * u;
    if (free >= 170 * u) { w = Math.min(300 * u, free); x = map[0] + map[2] - w - 8 * u; } else { w = Math.min(300 * u, map[2] - 20 * u); x = map[0] + 10 * u; }
  }
  g.fillStyle = "rgba(255,253,244,0.92)"; g.strokeStyle = "rgb(200,190,170)"; g.lineWidth = 1;
  g.fillRect(x, y, w, 46 * u); g.strokeRect(x + .5, y + .5, w, 46 * u);
  let cx = x + 8 * u;
  for (const [name, col] of [["主黨", "rgb(150,36,30)"], ["賓黨", "rgb(32,54,112)"], ["他", "rgb(64,96,72)"]]) {
    g.fillStyle = col; g.fillRect(cx, y + 8 * u, 11 * u, 11 * u);
    const b = drawText(null, cx + 15 * u, y + 14 * u, name, Math.round(12 * u), INK, "w", { screen: true }); cx = b[2] + 14 * u;
  }
  drawText(null, x + 8 * u, y + 34 * u, "▶ 面向　□ 坐　拜／揖 行禮", Math.round(12 * u), INK, "w", { screen: true });
}
function render() {
  const f = S.frame = sample(S.t, S.closing);
  g.setTransform(DPR, 0, 0, DPR, 0, 0);
  const fr = S.fr = framing(map, f, S.manual, S.inset);
  const list = { kind: fr.kind, inset: !!fr.inset, views: {}, scene: fr.kind === "elsewhere" ? sceneNow(f)[0] : "",
    box: fr.cam.worldBox(map, 0).map(v => Math.round(v * 100) / 100) };
  const main = { people: [], groups: [], things: [] };
  g.save(); g.beginPath(); g.rect(map[0], map[1], map[2], map[3]); g.clip();
  const seen = inView(f, fr.cam, map, P.REACH);
  drawPlan(fr.cam, map, f, true, seen);
  drawTrail(fr.cam, f);
  drawPeople(fr.cam, map, f, P.REACH, true, main, seen);
  drawScale(fr.cam, fr);
  g.restore();
  list.views.main = main;
  if (fr.inset) {
    const b = fr.insetBox, body = insetBody(b), ins = { people: [], groups: [], things: [] };
    g.fillStyle = "rgb(250,246,236)"; g.fillRect(b[0], b[1], b[2], b[3]);
    g.save(); g.beginPath(); g.rect(body[0], body[1], body[2], body[3]); g.clip();
    const iseen = inView(f, fr.inset, body, P.INSET_REACH);
    drawPlan(fr.inset, body, f, false, iseen);
    drawPeople(fr.inset, body, f, P.INSET_REACH, false, ins, iseen);
    g.restore();
    g.strokeStyle = "rgb(150,130,100)"; g.lineWidth = 1.5; g.strokeRect(b[0] + .5, b[1] + .5, b[2], b[3]);
    drawText(null, b[0] + 8 * ui, b[1] + 12 * ui, P.INSET_TITLE, Math.round(12 * ui), "rgb(150,36,30)", "w", { screen: true });
    list.views.inset = ins;
  }
  drawLegend(fr);
  // hud._over_map: the banner of a scene away from the school, at the top of the map, clear of the legend
  if (fr.kind === "elsewhere") drawText(null, map[0] + map[2] / 2, map[1] + 40 * ui, "此節在他處（不在此堂、庭之中）", Math.round(15 * ui), "rgb(150,36,30)", "c", { screen: true, bg: "rgb(255,250,236)", border: "rgb(150,36,30)" });
  S.drawnList = list;
  drawBar(f);
  panel(f);
}

// ---------------------------------------------------------------- the bar and the panel
let barMemo = null;
function drawBar(f) { // laid out at 1/ui of the bar, drawn ui times larger
  const w = bar.width / DPR / ui, h = bar.height / DPR / ui;
  const x0 = 14, tw = w - 28, X = t => x0 + tw * t / D.duration;
  const key = [w, h, DPR, ui, f.stage].join("|");
  if (barMemo && barMemo.key === key) {
    if (barMemo.x === X(f.t)) return;
    bg.setTransform(1, 0, 0, 1, 0, 0); bg.drawImage(barMemo.bmp, 0, 0);
  } else {
    drawBarNow(f, w, h, X);
    const bmp = newCanvas(bar.width, bar.height); bmp.getContext("2d").drawImage(bar, 0, 0);
    barMemo = { key, bmp };
  }
  barMemo.x = X(f.t);
  bg.setTransform(DPR * ui, 0, 0, DPR * ui, 0, 0);
  bg.fillStyle = "rgb(150,36,30)"; bg.fillRect(X(f.t) - 1, 0, 2, h - 30);
}
function drawBarNow(f, w, h, X) {
  bg.setTransform(DPR * ui, 0, 0, DPR * ui, 0, 0);
  bg.fillStyle = "rgb(236,229,212)"; bg.fillRect(0, 0, w, h);
  D.stages.forEach((s, k) => {
    bg.fillStyle = k === f.stage ? "rgb(252,226,150)" : (k % 2 ? "rgb(226,216,192)" : "rgb(240,234,218)");
    bg.fillRect(X(s.t0), 3, Math.max(X(s.t1) - X(s.t0), 1), h - 33);
  });
  bg.fillStyle = "rgba(90,70,50,0.35)";
  for (const s of D.steps) bg.fillRect(Math.round(X(s.t0)), h - 34, 1, 4);
  bg.font = "11px " + FONT; bg.textBaseline = "top";
  const right = [-1e9, -1e9];
  D.stages.forEach((s, k) => { // names on two rows, where they fit; the current one always
    const x = X(s.t0) + 2, name = (k + 1) + s.name, row = k % 2;
    let wd = bg.measureText(name).width, shown = name;
    const room = (k + 2 < D.stages.length ? X(D.stages[k + 2].t0) : w) - x - 4;
    while (wd > room && shown.length > 2 && k !== f.stage) { shown = shown.slice(0, -1); wd = bg.measureText(shown + "…").width; }
    if (shown !== name) shown += "…";
    if (x > right[row] || k === f.stage) { bg.fillStyle = k === f.stage ? "rgb(150,36,30)" : INK; bg.fillText(shown, x, row ? h - 14 : h - 28); right[row] = x + wd + 4; }
  });
}
const elStage = document.getElementById("stagehead"), elClock = document.getElementById("clock"),
  elCite = document.getElementById("cite"), elText = document.getElementById("text"), elSel = document.getElementById("selinfo");
let shownSec = -1, shownStep = -1, shownNotes = null;
function panel(f) {
  const sg = D.stages[f.stage], stepI = S.stepPinned !== null ? S.stepPinned : f.step, st = D.steps[stepI];
  const setText = (el, v) => { if (el.textContent !== v) el.textContent = v; };
  setText(elStage, sg ? sg.title : ""); // hud.stage_title
  setText(elClock, (S.playing ? "▶" : "‖") + "  ×" + S.speed + "   t = " + f.t.toFixed(1) + " s / " + D.duration.toFixed(0) + " s   步 " + (stepI + 1) + "/" + D.steps.length + (S.skip ? "  ·  略候" : "") + (S.stopAt !== null ? "  ·  講 → " + S.stopAt.toFixed(0) + " s" : ""));
  setText(document.getElementById("speed"), "×" + S.speed);
  setText(document.getElementById("b-play"), S.playing ? "‖" : "▶");
  const sc = C.score, el = document.getElementById("score");
  if (sc && sc.t.length) {
    const v = [0, 1, 2, 3, 4].map(o => { const [i, ok] = lookup(sc, o, f.t, f.closing ? f.step : null); return val(sc, "value", i, ok, 0); });
    setText(el, v[0] > 0 ? "第" + numeral(v[0]) + "番射　右 " + v[1] + " 算 / 左 " + v[2] + " 算" : "");
  }
  if (S.selected !== null) {
    const mv = nextMove(S.selected, f.t);
    setText(elSel, "選 " + D.actors[S.selected].name + "\n" + (mv ? (mv.now ? "正行" : "下一行") + "：「" + mv.cite + "」 · " + mv.len.toFixed(1) + " 尺 · t = " + mv.t0.toFixed(0) + " s" : "此後不復行 (no more moves)"));
  } else setText(elSel, "");
  if (stepI === shownStep && shownNotes === S.notes) return;
  shownStep = stepI; shownNotes = S.notes;
  elCite.innerHTML = "";
  if (st) { elCite.textContent = "「" + st.cite + "」"; }
  if (!TX.steps) return;
  const ts = TX.steps[stepI] || { sec: 0, lit: [] }, secI = ts.sec || (sg ? (TX.sections.find(s => s.name === sg.section || s.name === sg.name) || {}).index : 0);
  const sec = TX.sections.find(s => s.index === secI);
  const lit = (a, b) => ts.lit.some(([p, q]) => p < b && a < q);
  elText.innerHTML = "";
  if (!sec) { elText.textContent = "（此節不在文本中）"; shownSec = -1; return; }
  const head = document.createElement("div"); head.className = "head";
  head.textContent = "經文 · 第" + sec.index + "節 " + sec.name + "   頁 " + sec.page; elText.appendChild(head);
  let first = null;
  TX.clauses.forEach((c, ci) => {
    if (c.section !== sec.index) return;
    const sp = document.createElement("span"); sp.className = "cl"; sp.dataset.ci = ci;
    if (c.kind === "記") { const j = document.createElement("span"); j.className = "ji"; j.textContent = "記"; sp.appendChild(j); }
    sp.appendChild(document.createTextNode(c.text));
    if (lit(c.start, c.end)) { sp.classList.add("lit"); first = first || sp; if (S.notes) for (const n of c.notes) { const e = document.createElement("span"); e.className = "note"; e.textContent = "注　" + n; sp.appendChild(e); } }
    elText.appendChild(sp);
  });
  shownSec = sec.index;
  if (first) { // the lit clause a third of the way down, the rows above it whole
    const want = first.offsetTop - elText.clientHeight / 3; // offsets within #text (positioned)
    let top = 0;
    for (const el of elText.children) { if (el.offsetTop <= want) top = el.offsetTop; }
    elText.scrollTop = top;
  }
}
elText.addEventListener("click", e => { // a clause: to the first step saying it
  const sp = e.target.closest(".cl"); if (!sp) return;
  const c = TX.clauses[+sp.dataset.ci];
  const k = D.steps.findIndex(s => s.span[0] < c.end && c.start < s.span[1]);
  if (k >= 0) seek(D.steps[k].t0);
});

// ---------------------------------------------------------------- playing and the fragment
let dirty = true, barDirty = true, last = null;
function seek(x) {
  const m = moment(x);
  S.t = Math.min(Math.max(m.t, 0), D.duration); S.closing = !!m.closing; S.stepPinned = m.step === undefined ? null : m.step;
  dirty = true; if (!S.playing) writeHash();
}
function play() { if (S.t >= D.duration) seek(0); S.playing = true; last = null; dirty = true; }
function pause() { S.playing = false; dirty = true; writeHash(); }
function writeHash() {
  const h = "#t=" + S.t.toFixed(1);
  if (S.fromLink && S.fromLink.t === S.t) return; // a deep link stays as it was given
  if (location.hash !== h) { S.fromLink = null; history.replaceState(null, "", h); }
}
function readHash() {
  const h = decodeURIComponent(location.hash.slice(1));
  const m = /^(t|stage|after)=(.*)$/.exec(h);
  if (!m) return false;
  let mo;
  try {
    if (m[1] === "t") mo = moment(parseFloat(m[2]) || 0);
    else if (m[1] === "stage") mo = stageMoment(m[2]);
    else mo = at(m[2]);
  } catch (e) { toast(String(e.message), 8000); return false; } // long enough to read a list
  seek(mo); S.fromLink = { t: S.t };
  return true;
}
window.addEventListener("hashchange", () => { if (!S.fromLink || location.hash !== "#t=" + S.t.toFixed(1)) readHash(); });
let lastHash = 0;
function tick(now) {
  if (S.playing) {
    if (last !== null) {
      let t = S.t + (now - last) / 1000 * S.speed;
      if (S.skip) { for (const [a, b] of D.waits) if (t >= a && t < b) { t = b; break; } }
      if (S.stopAt !== null && t >= S.stopAt) { t = S.stopAt; S.playing = false; S.stopAt = null; }
      if (t >= D.duration) { t = D.duration; S.playing = false; }
      S.t = t; S.closing = false; S.stepPinned = null; S.fromLink = null; dirty = true;
      if (now - lastHash > 500 || !S.playing) { lastHash = now; history.replaceState(null, "", "#t=" + S.t.toFixed(1)); }
    }
    last = now;
  } else last = null;
  if (dirty) { dirty = false; const t0 = performance.now(); render(); S.drawMs = performance.now() - t0; }
  requestAnimationFrame(tick);
}

// ---------------------------------------------------------------- keys and pointer
function toast(s, ms) { const e = document.getElementById("toast"); e.textContent = s; e.hidden = false; clearTimeout(toast.h); toast.h = setTimeout(() => { e.hidden = true; }, ms || 1800); }
function jump(spans, i, d) {
  if (!spans.length) return;
  if (d < 0 && S.t > spans[i].t0 + 0.05) d += 1;
  seek(spans[Math.min(Math.max(i + d, 0), spans.length - 1)].t0);
}
function stepTo(d) { jump(D.steps, stepAt(S.t, S.closing), d); }
function stageTo(d) { jump(D.stages, stageAt(S.t, S.closing), d); }
function changeSpeed(d) {
  let i = 0; SPEEDS.forEach((s, k) => { if (Math.abs(s - S.speed) < Math.abs(SPEEDS[i] - S.speed)) i = k; });
  S.speed = SPEEDS[Math.min(Math.max(i + d, 0), SPEEDS.length - 1)]; toast("×" + S.speed); dirty = true;
}
function presentStep() { // P: play to the end of this step (the next when at its end), then pause
  let i = stepAt(S.t, S.closing), s = D.steps[i];
  if (S.closing || S.t >= s.t1 - 1e-6) { if (i + 1 >= D.steps.length) return; i++; s = D.steps[i]; seek(Math.max(S.t, s.t0)); }
  S.stopAt = s.t1; play(); toast("講 step " + (i + 1));
}
// L: the stage list with type-ahead
const SL = document.getElementById("stagelist"), SQ = document.getElementById("stageq"), SR = document.getElementById("stagerows");
let slPick = 0, slRows = [];
function stageMatches(q) {
  q = q.trim(); const idx = D.stages.map((_, k) => k);
  if (!q) return idx;
  if (/^\d+$/.test(q)) return idx.filter(k => String(k + 1).startsWith(q));
  const key = normalize(q);
  const pre = idx.filter(k => normalize(D.stages[k].name).startsWith(key));
  return pre.concat(idx.filter(k => !pre.includes(k) && normalize(D.stages[k].name + (D.stages[k].section || "")).includes(key)));
}
function fillStages() {
  slRows = stageMatches(SQ.value); slPick = Math.min(slPick, Math.max(slRows.length - 1, 0));
  SR.innerHTML = "";
  if (!slRows.length) { SR.innerHTML = "<li>無 no stage</li>"; return; }
  slRows.forEach((k, n) => { const li = document.createElement("li"); li.value = k + 1; li.innerHTML = ""; li.textContent = D.stages[k].name + " "; const sm = document.createElement("small"); sm.textContent = D.stages[k].t0.toFixed(0) + " s"; li.appendChild(sm); if (n === slPick) li.className = "pick"; li.onclick = () => { seek(D.stages[k].t0); closeStages(); }; SR.appendChild(li); });
  const p = SR.querySelector(".pick"); if (p) p.scrollIntoView({ block: "nearest" });
}
function openStages() { SL.hidden = false; SQ.value = ""; slPick = stageAt(S.t, S.closing); document.getElementById("nstages").textContent = D.stages.length; fillStages(); SQ.focus(); }
function closeStages() { SL.hidden = true; SQ.blur(); }
SQ.addEventListener("input", () => { slPick = 0; fillStages(); });
SQ.addEventListener("keydown", e => {
  if (e.key === "ArrowDown") { slPick = Math.min(slPick + 1, slRows.length - 1); fillStages(); e.preventDefault(); }
  else if (e.key === "ArrowUp") { slPick = Math.max(slPick - 1, 0); fillStages(); e.preventDefault(); }
  else if (e.key === "Enter") { if (slRows.length) seek(D.stages[slRows[slPick]].t0); closeStages(); e.preventDefault(); }
  else if (e.key === "Escape" || e.key === "Tab") { closeStages(); e.preventDefault(); }
  e.stopPropagation();
});
// /: find in the text; Enter goes to the moment of the words found (as --after)
const SB = document.getElementById("search"), SQ2 = document.getElementById("searchq");
SQ2.addEventListener("keydown", e => {
  e.stopPropagation();
  if (e.key === "Escape") { SB.hidden = true; SQ2.blur(); return; }
  if (e.key === "Enter") {
    try { seek(at(SQ2.value)); document.getElementById("searchnote").textContent = ""; SB.hidden = true; SQ2.blur(); }
    catch (err) { document.getElementById("searchnote").textContent = err.message; }
  }
});
const HELP = [["Space", "播放／暫停 play / pause"], ["← →", "上一步／下一步 step"], ["PgUp PgDn  [ ]", "上一節／下一節 stage"],
  ["Home End", "開頭／結尾 start / end"], ["+ −", "速度 speed (×0.25 … ×64)"], ["W", "略候 skip the waits (nobody moves)"],
  ["P  Enter", "講 play one step, then pause"], ["滾輪 wheel · 捏 pinch", "縮放 zoom"], ["拖曳 drag", "平移 pan"], ["F", "全圖 fit"],
  ["I", "侯道分圖 range inset on / off"], ["N", "鄭注 show / hide notes"], ["/", "搜尋經文 find in the text"],
  ["L  Tab", "節目 stage list: type, click, Enter"], ["點句 click", "跳至此句 jump to a clause"], ["點人 click", "選之 select: trail, next move"],
  ["H", "說明 this help"], ["Esc", "取消 close, deselect"], ["#t= #stage= #after=", "連結 link to a moment"]];
const HL = document.getElementById("help");
HL.innerHTML = "<b>按鍵 Keys</b><table>" + HELP.map(([k, w]) => "<tr><td>" + k + "</td><td>" + w + "</td></tr>").join("") + "</table>";
function scaleBy(step) { // Ctrl + / Ctrl − / Ctrl 0: the whole picture, as the window's (bindings.action_scale_ui)
  user = step === 0 ? 1 : Math.min(Math.max(user * Math.pow(1.25, step), P.UI_STEPS[0]), P.UI_STEPS[1]);
  layout(); barMemo = null;
}
document.addEventListener("keydown", e => {
  if ((e.ctrlKey || e.metaKey) && !e.altKey) {
    const step = { "+": 1, "=": 1, "-": -1, "_": -1, "0": 0 }[e.key];
    if (step !== undefined) { scaleBy(step); e.preventDefault(); }
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key;
  const acts = {
    " ": () => { S.stopAt = null; S.playing ? pause() : play(); }, "ArrowRight": () => stepTo(1), "ArrowLeft": () => stepTo(-1),
    "PageDown": () => stageTo(1), "PageUp": () => stageTo(-1), "]": () => stageTo(1), "[": () => stageTo(-1),
    "Home": () => seek(0), "End": () => seek(at_end()), "+": () => changeSpeed(1), "=": () => changeSpeed(1), "-": () => changeSpeed(-1),
    "w": () => { S.skip = !S.skip; toast(S.skip ? "略候 skipping the waits" : "不略候"); dirty = true; },
    "p": presentStep, "Enter": presentStep, "l": openStages, "Tab": openStages,
    "n": () => { S.notes = !S.notes; dirty = true; }, "/": () => { SB.hidden = false; SQ2.value = ""; SQ2.focus(); },
    "h": () => { HL.hidden = !HL.hidden; }, "?": () => { HL.hidden = !HL.hidden; }, "f": () => { S.manual = null; dirty = true; },
    "i": () => { S.inset = !S.inset; dirty = true; },
    "Escape": () => { if (!HL.hidden) HL.hidden = true; else { S.selected = null; dirty = true; } },
  };
  const fn = acts[k.length === 1 ? k.toLowerCase() : k];
  if (fn) { fn(); e.preventDefault(); }
});
function at_end() { const l = D.steps.length - 1; return { t: D.duration, closing: true, step: l >= 0 ? l : null }; }
for (const [id, fn] of [["b-prev", () => stepTo(-1)], ["b-next", () => stepTo(1)], ["b-play", () => { S.playing ? pause() : play(); }],
  ["b-slow", () => changeSpeed(-1)], ["b-fast", () => changeSpeed(1)], ["b-list", openStages], ["b-notes", () => { S.notes = !S.notes; dirty = true; }],
  ["b-help", () => { HL.hidden = !HL.hidden; }]]) document.getElementById(id).addEventListener("click", fn);
// pointer: click a person, drag to pan, wheel or pinch to zoom (touch too)
const pts = new Map(); let downAt = null, pinch = null;
function manualCam() { if (!S.manual) { const c = S.fr.cam; S.manual = { scale: c.scale, cx: c.cx, cy: c.cy }; } const c = new Camera(map.slice()); Object.assign(c, { scale: S.manual.scale, cx: S.manual.cx, cy: S.manual.cy }); return c; }
function keep(c) { S.manual = { scale: c.scale, cx: c.cx, cy: c.cy }; dirty = true; }
cv.addEventListener("pointerdown", e => { cv.setPointerCapture(e.pointerId); pts.set(e.pointerId, [e.offsetX, e.offsetY]); downAt = [e.offsetX, e.offsetY, 0]; if (pts.size === 2) { const [a, b] = [...pts.values()]; pinch = Math.hypot(a[0] - b[0], a[1] - b[1]); } });
cv.addEventListener("pointermove", e => {
  if (!pts.has(e.pointerId)) return;
  const old = pts.get(e.pointerId); pts.set(e.pointerId, [e.offsetX, e.offsetY]);
  if (pts.size === 2 && pinch) { const [a, b] = [...pts.values()]; const d = Math.hypot(a[0] - b[0], a[1] - b[1]); const c = manualCam(); c.zoomAt(d / pinch, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2); pinch = d; keep(c); if (downAt) downAt[2] = 99; return; }
  const dx = e.offsetX - old[0], dy = e.offsetY - old[1];
  if (downAt) downAt[2] += Math.abs(dx) + Math.abs(dy);
  if (downAt && downAt[2] > 4) { const c = manualCam(); c.pan(dx, dy); keep(c); }
});
cv.addEventListener("pointerup", e => {
  pts.delete(e.pointerId); if (pts.size < 2) pinch = null;
  if (downAt && downAt[2] <= 4) pick(e.offsetX, e.offsetY);
  downAt = null;
});
cv.addEventListener("wheel", e => { e.preventDefault(); const c = manualCam(); c.zoomAt(Math.pow(1.0015, -e.deltaY), e.offsetX, e.offsetY); keep(c); }, { passive: false });
function pick(x, y) {
  const f = S.frame, fr = S.fr; let cam = fr.cam, clip = map, reach = P.REACH;
  if (fr.inset && x >= fr.insetBox[0] && x < fr.insetBox[0] + fr.insetBox[2] && y >= fr.insetBox[1] && y < fr.insetBox[1] + fr.insetBox[3]) { cam = fr.inset; clip = insetBody(fr.insetBox); reach = P.INSET_REACH; }
  const seen = inView(f, cam, clip, reach); let best = null, bd = 1e9;
  for (let a = 0; a < N; a++) if (seen.pres[a]) { const d = Math.hypot(cam.sx(f.x[a]) - x, cam.sy(f.y[a]) - y); if (d < bd) { bd = d; best = a; } }
  S.selected = best !== null && bd <= tokenRadius(cam.scale) * cam.scale + 2 ? best : null; dirty = true;
}
bar.addEventListener("pointerdown", e => { const scrub = ev => { const w = bar.width / DPR / ui; seek(Math.min(Math.max((ev.offsetX / ui - 14) / (w - 28), 0), 1) * D.duration); }; scrub(e); bar.setPointerCapture(e.pointerId); bar.onpointermove = ev => { if (ev.buttons) scrub(ev); }; });
window.addEventListener("resize", () => { layout(); });

// ---------------------------------------------------------------- the contract
window.rite = {
  duration: D.duration,
  stages: D.stages.map(s => ({ name: s.name, t0: s.t0, t1: s.t1 })),
  state(x) { const m = moment(x); return stateOf(sample(m.t, m.closing), m.step); },
  states(xs) { return xs.map(x => this.state(x)); },
  at(text) { return at(text); },
  stage(name) { return stageMoment(name); },
  drawn() { if (dirty) { dirty = false; render(); } return JSON.parse(JSON.stringify(S.drawnList)); },
  seek(x) { seek(x); render(); dirty = false; },
  play, pause,
  get playing() { return S.playing; },
  now() { return S.t; },
  // one frame as played (t moves on, no fragment written): its draw time in ms
  frame(t) { S.t = Math.min(Math.max(+t, 0), D.duration); S.closing = false; S.stepPinned = null; const a = performance.now(); render(); return performance.now() - a; },
  firstFrame: null,
  get view() { return { map: map.slice(), narrow, ui, user }; },
  scale(step) { scaleBy(step); return ui; },
};
layout();
if (!readHash()) seek(0);
render();
window.rite.firstFrame = performance.now(); // ms from the start of navigation to the first frame drawn
requestAnimationFrame(tick);
document.documentElement.dataset.ready = "1";
})();
