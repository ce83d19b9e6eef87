"""The rite as one self-contained web page: `python main.py web -o FILE.html`.

The page holds everything it needs inline (no request but the file itself): the compiled
timeline's channels as JSON, the plan as the composer's own primitives, the text of the rite, a
subset of the bundled font (only the characters the rite draws) as base64, and the script and
styles of assets/web/. Its script samples the channels as Timeline.sample does (a port: the
same keyframes, the same rules) and frames and groups people as viz.draw.compose does, from
data exported here; what it draws is held against the composer's list (`drawn`) by tests.
"""
from __future__ import annotations

import base64
import io
import json
import math
import types
from pathlib import Path

import numpy as np

ASSETS = Path(__file__).resolve().parents[2] / "assets" / "web"
FONT_FAMILY = "XiangsheWeb"
# what the page writes itself, besides the words of assets/web/ (read from there): kept in the
# font subset
PAGE_TEXT = ("播放暫停上一步下一步節目注說明尋速度略候講跳至關按鍵無此經文記第節頁面坐立拜揖執"
             "主黨賓黨他行下一行正行此後不復行選尺人耦等×·→←↑↓▲▼▶▏…「」（）：，。、；？！ "
             "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.,:;+-−=/#()[]%'\"")


def _r(v: float, nd: int = 3) -> float:
    return float(round(float(v), nd))


def _arr(a, nd: int | None = 3) -> list:
    a = np.asarray(a)
    if a.dtype.kind == "f" and nd is not None:
        return [(_r(x, nd) if math.isfinite(x) else (1e18 if x > 0 else -1e18))
                for x in a.tolist()]
    return a.tolist()


def _channel(c) -> dict:
    """A channel as the page samples it: rows sorted by (owner, t), each owner's first row."""
    starts = np.searchsorted(c.owner, np.arange(c.owners + 1), side="left") if len(c.t) else \
        np.zeros(c.owners + 1, int)
    vals = {}
    for k, v in c.values.items():
        v = np.asarray(v)
        vals[k] = _arr(v.astype(float), 4) if len(v) else []
    return {"interp": c.interp, "owners": int(c.owners), "start": starts.tolist(),
            "t": [float(x) for x in c.t.tolist()], "writer": c.writer.tolist() if len(c.writer)
            else [], "values": vals}


def _color(c) -> str | None:
    if c is None:
        return None
    c = tuple(int(v) for v in c)
    return (f"rgba({c[0]},{c[1]},{c[2]},{c[3] / 255:.3f})" if len(c) == 4
            else f"rgb({c[0]},{c[1]},{c[2]})")


def prim(p) -> dict:
    """A display primitive (viz.draw.display) as the page's drawing code reads it."""
    from viz.draw.display import Circle, Line, Polygon, Rect, Text

    if isinstance(p, Circle):
        return {"k": "c", "at": [_r(p.center[0]), _r(p.center[1])], "r": _r(p.r),
                "fill": _color(p.fill), "stroke": _color(p.stroke), "w": p.width,
                "min": p.min_px}
    if isinstance(p, Polygon):
        return {"k": "p", "pts": [[_r(x), _r(y)] for x, y in p.points], "fill": _color(p.fill),
                "stroke": _color(p.stroke), "w": p.width}
    if isinstance(p, Line):
        return {"k": "l", "pts": [[_r(x), _r(y)] for x, y in p.points], "stroke": _color(p.color),
                "w": p.width, "dash": list(p.dash) if p.dash else None, "closed": p.closed}
    if isinstance(p, Text):
        return {"k": "t", "at": [_r(p.pos[0]), _r(p.pos[1])], "text": p.text, "size": p.size,
                "color": _color(p.color), "anchor": p.anchor, "unit": p.unit,
                "min": p.min_px, "max": min(p.max_px, 1e6), "bg": _color(p.bg),
                "border": _color(p.border)}
    if isinstance(p, Rect):
        return {"k": "r", "box": list(p.box), "fill": _color(p.fill), "stroke": _color(p.stroke)}
    raise TypeError(f"no web form for {type(p).__name__}")


def _plan(model) -> dict:
    """The plan as the composer draws it: each feature's primitives (tagged with its name, so
    the page leaves out what is not set out yet), the range's marks, and the place labels as
    candidates in the composer's order (the page drops those that collide at its zoom)."""
    from viz.draw import scene

    lay = model.layout
    rank = {k: i for i, k in enumerate(scene.KIND_ORDER)}
    feats = sorted(lay.features, key=lambda f: rank.get(f.kind, len(rank) // 2))
    out = []
    for f in feats:
        for p in scene.features(types.SimpleNamespace(features=(f,))):
            d = prim(p)
            d["thing"] = f.name
            out.append(d)
    out += [prim(p) for p in scene.range_marks(lay, model.breaks)]
    labels = []
    for f in lay.features:
        text = scene._label_of(f)  # noqa: SLF001 (the composer's own rule)
        if not text:
            continue
        (x, y), anchor = scene._feature_label_at(f)  # noqa: SLF001
        size = 12.0 if f.kind in ("hall", "stair", "gate") else 11.0
        labels.append({"x": _r(x), "y": _r(y), "text": text, "size": size, "anchor": anchor,
                       "thing": f.name, "place": False, "big": size == 12.0})
    named = {f.name for f in lay.features if scene._label_of(f)}  # noqa: SLF001
    skip = {"堂", "庭", "侯道", "棟", "楣"}
    for name, p in lay.places.items():
        note = getattr(p, "note", None) or ""
        if name in named or name in skip or "via point" in note:
            continue
        labels.append({"x": _r(p.x), "y": _r(p.y), "text": name, "size": 10.0, "anchor": "n",
                       "thing": name, "place": True})
    return {"prims": out, "labels": labels}


def _bounds(b) -> list | None:
    return None if b is None else [float(v) for v in b]


def _text(timeline, corpus) -> dict:
    """The text panel's material: sections, clauses (punctuated, with their 注), and for each
    step its section and the stretches it says; the folded text and the variant table, for
    `at(TEXT)` (a port of query.state.step_after)."""
    from viz.query.words import enacted_spans
    from viz.text.variants import _table

    if corpus is None:
        return {}
    steps = []
    for s in timeline.steps:
        sec = corpus.section_at(s.span[0]) if s.span[1] > s.span[0] else None
        steps.append({"sec": sec.index if sec else 0,
                      "lit": [list(x) for x in enacted_spans(corpus, s)]})
    table = {chr(k): v for k, v in _table().items()}
    return {"sections": [{"index": s.index, "name": s.name, "start": s.start, "end": s.end,
                          "page": corpus.page_at(s.start)} for s in corpus.sections],
            "clauses": [{"id": c.id, "section": c.section, "kind": c.kind, "start": c.start,
                         "end": c.end, "text": c.punct or c.text, "notes": list(c.notes)}
                        for c in corpus.clauses],
            "folded": corpus.folded, "variants": table, "steps": steps,
            "main": [[r.start, r.end] for r in corpus.runs if r.kind in ("經", "記")]}


def page_data(compiled, title: str) -> dict:
    """Everything the page knows of the rite, as JSON-ready data."""
    from viz.draw import compose, extent, hud, hudbase, scene
    from viz.model.dress import BOW_NAMES, WORN
    from viz.draw.props import MAT
    from viz.model.timeline import POSTURES
    from viz.query.waits import waits

    tl, lay, corpus = compiled.timeline, compiled.layout, compiled.corpus
    model = compose.Model(lay, tl, corpus)
    breaks = [{"north": b.north, "south": b.south, "gap": b.gap} for b in model.breaks]
    std = ("motion", "posture", "presence", "props", "label", "dress", "bow", "things", "score",
           "wear", "lay")  # wear: only a rite with worn things has it (don, doff); lay: only a
    # rite that lays things with a facing has rows (a 筵 spread)
    return {
        "title": title,
        "duration": tl.duration,
        "postures": list(POSTURES),
        "worn": list(WORN),
        "bowNames": {str(k): v for k, v in BOW_NAMES.items()},
        "actors": [{"id": a.id, "name": a.name, "party": a.party, "label": a.label,
                    "note": a.note, "color": _color(scene.party_color(a.party))}
                   for a in tl.actors],
        "props": [{"id": p.id, "name": p.name, "kind": p.kind, **({"worn": p.worn} if p.worn else {})}
                  for p in tl.props],
        "labelNames": list(tl.label_names),
        "thingNames": list(tl.thing_names),
        "stages": [{"name": s.name, "section": s.section, "t0": s.t0, "t1": s.t1,
                    "first": s.first_step, "last": s.last_step,
                    "title": hud.stage_title(s, corpus)} for s in tl.stages],
        "steps": [{"t0": s.t0, "t1": s.t1, "stage": s.stage, "cite": s.cite,
                   "span": list(s.span), "said": s.said, "captions": list(s.captions),
                   "note": s.note} for s in tl.steps],
        "channels": {k: _channel(tl.channels[k]) for k in std if k in tl.channels
                     and (k != "lay" or len(tl.channels[k].t))},
        "events": [{"t0": e.t0, "t1": e.t1, "actor": e.actor, "text": e.text}
                   for e in tl.events if e.kind == "say"],
        "waits": [list(map(float, w)) for w in waits(tl)],
        "view": {"breaks": breaks, "range": model.range, "elsewhere": model.elsewhere,
                 # each elsewhere scene, named and framed on its own (Model.scenes): the view
                 # frames the one most of those present stand in (extent.scene_box)
                 "scenes": [[n, list(b)] for n, b in model.scenes],
                 "whole": model.whole, "near": model.near,
                 "stageBounds": [model.stage_bounds(k) for k in range(len(tl.stages))],
                 # what the default view frames in each step (compose.Model.step_bounds: the
                 # people who act in it, where they go, and those near them); None: the stage
                 "stepBounds": [_bounds(model.step_bounds(k)) for k in range(len(tl.steps))],
                 "chiM": lay.chi_m},
        "params": {"TOKEN_PX": scene.TOKEN_PX, "NAME_PX": scene.NAME_PX,
                   "DETAIL_PX": scene.DETAIL_PX, "DOT": scene.DOT, "REACH": compose.REACH,
                   "INSET_REACH": compose.INSET_REACH, "INSET_W": list(compose.INSET_W),
                   "INSET_HEAD": compose.INSET_HEAD, "INSET_MIN_H": compose.INSET_MIN_H,
                   "UI_BASE": list(compose.UI_BASE), "tokenR": 1.5,
                   "UI_ROOM": list(hudbase.UI_ROOM), "UI_STEPS": list(compose.UI_STEPS),
                   "GROUP_NOTE": scene.GROUP_NOTE, "PAIRS_NOTE": scene.PAIRS_NOTE,
                   "MANY_NOTE": scene.MANY_NOTE, "HELD_SEP": scene.HELD_SEP,
                   "NUMERALS": scene.NUMERALS, "INSET_TITLE": compose.INSET_TITLE,
                   "SCENE_PAD": extent.SCENE_PAD,
                   # who may be named as one group: the cast's bodies: (scene._bodies; ""
                   # is none, never joined), within JOIN token radii of each other
                   "bodies": [getattr(a, "body", "") or "" for a in tl.actors],
                   "JOIN": scene.JOIN, "GROUP_ORDER": list(scene.GROUP_ORDER),
                   "GROUP_BESIDE": scene.GROUP_BESIDE,
                   # the window's place names: PLACE_PX × the UI scale (+1 for a hall's, a
                   # stair's, a gate's), places in PLACE_INK (scene.place_labels with ui)
                   "PLACE_PX": scene.PLACE_PX, "PLACE_INK": _color(scene.PLACE_INK),
                   # the inset folds away while this is not set out and nobody and nothing is
                   # on the range (compose._range_empty)
                   "RANGE_THING": "侯",
                   "MAT": list(MAT)},  # a 筵 spread: length × depth, 尺 (props.MAT)
        **({"costume": _costume()} if "wear" in tl.channels else {}),
        "plan": _plan(model),
        "text": _text(tl, corpus),
    }


def _costume() -> dict:
    """The worn things' words and colours the page draws them with (viz/draw/dress.py): for a
    rite with worn things only (the page's own code names none of them)."""
    from viz.draw import dress
    from viz.model.dress import SPOTS, UNDER

    return {"spots": list(SPOTS), "under": list(UNDER), "marks": dict(dress.MARKS),
            "colours": [[w, _color(c)] for w, c in dress.COLOURS],
            "defaults": {k: _color(c) for k, c in dress.DEFAULT_COLOUR.items()},
            "spotAt": dict(dress.SPOT_AT)}


def font_subset(chars: str, path: Path | None = None) -> bytes:
    """The font drawn with (the bundled one, or the rite's own: manifest font:), or the file
    at path, cut to these characters, as WOFF (WOFF2 where brotli is installed)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    from viz.backends.fonts import font_path

    # no bounding boxes worked out again on saving: they cost CFF outlines a minute's drawing
    font = TTFont(str(path or font_path()), recalcBBoxes=False, recalcTimestamp=False, lazy=True)
    opts = subset.Options()
    opts.recalc_bounds = False
    opts.layout_features = ["*"]
    opts.name_IDs = ["*"]
    opts.notdef_outline = True
    try:
        import brotli  # noqa: F401
        opts.flavor = "woff2"
    except ImportError:
        opts.flavor = "woff"
    sub = subset.Subsetter(opts)
    sub.populate(text="".join(sorted(set(chars))))
    sub.subset(font)
    buf = io.BytesIO()
    font.flavor = opts.flavor
    font.save(buf)
    return buf.getvalue()


def _font_chars(model, data: dict) -> str:
    from viz.draw.compose import chars_drawn

    page = "".join((ASSETS / n).read_text("utf-8") for n in ("page.html", "page.js"))
    return chars_drawn(model) + PAGE_TEXT + data["title"] + "".join(c for c in page if ord(c) > 127)


def _script_json(data) -> str:
    """JSON safe inside a <script> element."""
    s = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return s.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def build_page(compiled, title: str) -> bytes:
    """The page's bytes: page.html with the styles, the data, the font and the script inline."""
    from viz.draw import compose

    data = page_data(compiled, title)
    model = compose.Model(compiled.layout, compiled.timeline, compiled.corpus)
    chars = _font_chars(model, data)
    font = font_subset(chars)
    fmt = "woff2" if font[:4] == b"wOF2" else "woff"
    face = (f'@font-face{{font-family:"{FONT_FAMILY}";src:url(data:font/{fmt};base64,'
            f'{base64.b64encode(font).decode("ascii")}) format("{fmt}");}}')
    face += _fallback_face(chars)
    html = (ASSETS / "page.html").read_text("utf-8")
    css = (ASSETS / "page.css").read_text("utf-8")
    js = (ASSETS / "page.js").read_text("utf-8")
    out = (html.replace("/*FONT*/", face).replace("/*CSS*/", css)
           .replace("/*DATA*/", _script_json(data)).replace("/*JS*/", js.replace("</", "<\\/"))
           .replace("<!--TITLE-->", _esc(title)))
    return out.encode("utf-8")


def _fallback_face(chars: str) -> str:
    """The rite's fallback font (manifest fallback:) cut to the characters the font drawn with
    lacks and it has, as a second face of the family for those characters only (unicode-range);
    "" without a fallback or such characters."""
    from viz.backends.fonts import _has, fallback_path, font_path

    back = fallback_path()
    want = sorted({c for c in chars if not c.isspace()})
    if back is None or not want:
        return ""
    lack = [c for c, ok in zip(want, _has("".join(want), str(font_path())), strict=True) if not ok]
    has = [c for c, ok in zip(lack, _has("".join(lack), str(back)) if lack else [], strict=True)
           if ok]
    if not has:
        return ""
    sub = font_subset("".join(has), back)
    fmt = "woff2" if sub[:4] == b"wOF2" else "woff"
    rng = ",".join(f"U+{ord(c):X}" for c in has)
    return (f'@font-face{{font-family:"{FONT_FAMILY}";src:url(data:font/{fmt};base64,'
            f'{base64.b64encode(sub).decode("ascii")}) format("{fmt}");unicode-range:{rng};}}')


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_page(compiled, path: str | Path, title: str, overwrite: bool = False) -> tuple[Path, int]:
    """Build the page and write it atomically (refused if the file exists, unless overwrite)."""
    from viz.base.fileio import atomic_write_bytes

    data = build_page(compiled, title)
    return atomic_write_bytes(path, data, overwrite=overwrite), len(data)


# ------------------------------------------------------------------------------------------
# What the composer draws, as a list (the page's drawn() is held against it)

def drawn(compiled, size: tuple[int, int], t: float, closing: bool = False,
          model=None) -> dict:
    """What compose draws at t in a window of `size` (the default view): each person drawn
    with the name on his token (None for one of a group, drawn as a dot), each group's name
    with its members, what each holds, and each thing set out, in the main view and the
    range inset. Worked out by the composer's own functions (framing, _in_view, formations)."""
    from viz.draw import compose, scene
    from viz.draw.extent import scene_now
    from viz.draw.hud import areas
    from viz.model.dress import wears

    if model is None:
        model = compose.Model(compiled.layout, compiled.timeline, compiled.corpus)
    tl = model.timeline
    size = (int(size[0]), int(size[1]))
    frame = tl.sample(t, closing)
    view = compose.View()
    fr = compose.drawn_framing(model, view, size, t, closing, frame)
    ui = compose.ui_scale(size, view.ui)
    mbox = areas(size)["map"]
    views = [("main", fr.camera, mbox, compose.REACH)]
    if fr.inset is not None:
        views.append(("inset", fr.inset, compose.inset_body(fr.inset_box, ui), compose.INSET_REACH))
    out = {"kind": fr.kind, "inset": fr.inset is not None, "views": {},
           # the elsewhere scene framed (extent.scene_now's name), "" at the school
           "scene": scene_now(model, frame)[0] if fr.kind == "elsewhere" else "",
           # the world box the main view shows (尺: x0, y0, x1, y1)
           "box": [round(v, 2) for v in compose._world_box(fr.camera, mbox, 0.0)]}  # noqa: SLF001
    for name, cam, clip, reach in views:
        seen = compose._in_view(frame, cam, clip, reach)  # noqa: SLF001
        o = compose._options_for(cam, name == "main", ui,  # noqa: SLF001
                                 compose._world_box(cam, clip, 0.0), None, None)  # noqa: SLF001
        c = scene._Cols(seen, o)  # noqa: SLF001
        groups, reqs, _ = scene._formations_of(  # noqa: SLF001
            tl, np.flatnonzero(seen.present), c.at[np.flatnonzero(seen.present)], o)
        people = []
        for i, a in enumerate(tl.actors):
            if not seen.present[i]:
                continue
            lab = None if i in groups else scene.short_label(
                (frame.labels[i] if frame.labels else a.label) or a.name[:1])
            held = sorted(tl.props[tl.prop_index[p]].name for p in frame.holding[i])
            people.append({"id": a.id, "label": lab, "held": held})
            if "wear" in tl.channels:  # a rite with worn things: what he wears, drawn on him
                people[-1]["wears"] = [tl.props[p].name for p in wears(tl, frame, i)]
        names = []
        for kind, who, text, _req in reqs:
            g = groups[who]
            names.append({"name": text.text,
                          "members": sorted(tl.actors[i].id for i, gi in groups.items()
                                            if gi == g)})
        down = np.flatnonzero((seen.prop_holder < 0) & seen.prop_visible)
        things = sorted(tl.props[j].id for j in down.tolist())
        out["views"][name] = {"people": people, "groups": sorted(names, key=lambda d: d["members"]),
                              "things": things}
    return out
