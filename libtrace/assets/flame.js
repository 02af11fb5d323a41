"use strict";
/* tracetool flame graph interaction, spec/visual.md section 8: hover details, zoom, regex
 * search, reset, keyboard, fragment state, self-test. Names are read with textContent and
 * getAttribute only; nothing is fetched, evaluated or timed. */
function tt_setup(svg, inReport) {
  if (!svg || svg.getAttribute("data-ready")) return null;
  svg.setAttribute("data-ready", "1");
  var NS = "http://www.w3.org/2000/svg";
  var W = +svg.getAttribute("width"), fh = +svg.getAttribute("data-fh");
  var fs = +svg.getAttribute("data-fs"), total = +svg.getAttribute("data-total");
  var icicle = svg.getAttribute("data-orient") === "icicle";
  var nametype = svg.getAttribute("data-nametype") || "";
  var standalone = !inReport && svg.ownerDocument.documentElement === svg;
  var q = function (c) { return svg.querySelector(c); };
  var details = q(".details"), matchedEl = q(".matched"), unzoomBtn = q(".unzoom");
  var searchBtn = q(".search"), icBtn = q(".ic");
  var gs = svg.querySelectorAll("g.f"), fr = [];
  var i, f;
  for (i = 0; i < gs.length; i++) {
    var g = gs[i], r = g.querySelector("rect"), t = g.querySelector("text");
    var tip = g.querySelector("title") ? g.querySelector("title").textContent : "";
    var lf = tip.indexOf("\n");
    fr.push({g: g, r: r, t: t, tip: tip, name: lf < 0 ? tip : tip.slice(0, lf),
      x: +r.getAttribute("data-x"), w: +r.getAttribute("data-w"),
      y: +r.getAttribute("y"), rx: r.getAttribute("x"), rw: r.getAttribute("width"),
      fill: r.getAttribute("fill"), text: t ? t.textContent : null,
      elided: g.getAttribute("class").indexOf("c-elided") >= 0});
  }
  if (!fr.length) return null;
  var yroot = fr[0].y;
  for (i = 0; i < fr.length; i++)
    fr[i].d = Math.round((icicle ? fr[i].y - yroot : yroot - fr[i].y) / fh);
  var cw = 0.605 * fs;
  try {
    var m = document.createElementNS(NS, "text");
    m.textContent = "0000000000";
    var fg = q("g.frames");
    fg.appendChild(m);
    var len = m.getComputedTextLength();
    fg.removeChild(m);
    if (len > 0) cw = len / 10;
  } catch (e) { /* not rendered: keep the estimate */ }
  var zoomed = null, term = null, ic = false;

  function wide(c) {
    return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) ||
      (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
      (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x20000 && c <= 0x3fffd);
  }
  function cells(s) {
    var n = 0;
    for (var ch of s) n += wide(ch.codePointAt(0)) ? 2 : 1;
    return n;
  }
  function cut(s, n) {
    var out = "", k = 0;
    for (var ch of s) {
      var w = wide(ch.codePointAt(0)) ? 2 : 1;
      if (k + w > n) break;
      out += ch; k += w;
    }
    return out;
  }
  function cands(s) {
    var c = [s], p = s.indexOf("("), end = p < 0 ? s.length : p, base = s.slice(0, end);
    if (base.indexOf("::") >= 0) {
      if (p >= 0) c.push(base);
      for (var j = base.indexOf("::"); j >= 0 && j + 2 < end; j = base.indexOf("::", j + 2))
        c.push(base.slice(j + 2));
      return c;
    }
    if (p < 0) return c;
    var d0 = base.lastIndexOf("."), d1 = d0 > 0 ? base.lastIndexOf(".", d0 - 1) : -1;
    if (d0 < 0) return c;
    if (d1 >= 0) c.push(s.slice(d1 + 1));
    c.push(base.slice(d1 + 1), base.slice(d0 + 1));
    return c;
  }
  function fit(name, boxw) {
    var n = Math.floor((boxw - 6) / cw);
    if (n < 3) return "";
    var c = cands(name);
    for (var j = 0; j < c.length; j++) if (c[j] && cells(c[j]) <= n) return c[j];
    return cut(c[c.length - 1], n - 2) + "..";
  }
  function setClass(g, c, on) {
    var cl = g.getAttribute("class").split(" ").filter(function (x) { return x && x !== c; });
    if (on) cl.push(c);
    g.setAttribute("class", cl.join(" "));
  }
  function place(f, x, w, parent) {
    f.r.setAttribute("x", x.toFixed(1));
    f.r.setAttribute("width", (w >= 2 ? w - 0.5 : w).toFixed(1));
    var s = fit(f.elided ? (f.text || f.name) : f.name, w);
    if (s && !f.t) {
      f.t = document.createElementNS(NS, "text");
      f.t.setAttribute("y", (f.y + (fh - 1) / 2 + 3).toFixed(1));
      f.g.appendChild(f.t);
    }
    if (f.t) {
      f.t.setAttribute("x", (x + 3).toFixed(1));
      f.t.textContent = s;
    }
    setClass(f.g, "parent", parent);
    setClass(f.g, "hide", false);
  }
  function unzoom() {
    zoomed = null;
    for (var j = 0; j < fr.length; j++) {
      var f = fr[j];
      f.r.setAttribute("x", f.rx);
      f.r.setAttribute("width", f.rw);
      if (f.t) {
        if (f.text === null) { f.g.removeChild(f.t); f.t = null; }
        else { f.t.setAttribute("x", (+f.rx + 3).toFixed(1)); f.t.textContent = f.text; }
      }
      setClass(f.g, "parent", false);
      setClass(f.g, "hide", false);
    }
    if (unzoomBtn) setClass(unzoomBtn, "hide", true);
    if (term !== null) search(term);
    save();
  }
  function zoom(z) {
    if (z === fr[0]) { unzoom(); return; }
    zoomed = z;
    var plan = [];
    for (var j = 0; j < fr.length; j++) {  /* read everything first */
      var f = fr[j];
      if (f.d < z.d && f.x <= z.x && z.x + z.w <= f.x + f.w)
        plan.push([f, 10, W - 20, true]);
      else if (f.d >= z.d && f.x >= z.x && f.x + f.w <= z.x + z.w && f.w > 0)
        plan.push([f, 10 + (f.x - z.x) * (W - 20) / z.w, f.w * (W - 20) / z.w, false]);
      else plan.push([f, 0, 0, null]);
    }
    for (j = 0; j < plan.length; j++) {  /* then write */
      var p = plan[j];
      if (p[3] === null) setClass(p[0].g, "hide", true);
      else place(p[0], p[1], p[2], p[3]);
    }
    if (unzoomBtn) setClass(unzoomBtn, "hide", false);
    if (term !== null) search(term);
    save();
  }
  function visible(f) { return f.g.getAttribute("class").indexOf("hide") < 0; }
  function pct(a, b) { return (b > 0 ? 100 * a / b : 0).toFixed(1) + "%"; }
  function search(t) {
    resetSearch(true);
    if (t === null || t === "") { term = null; save(); return ""; }
    term = t;
    var re;
    try { re = new RegExp(t, ic ? "i" : ""); } catch (e) {
      re = new RegExp(t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), ic ? "i" : "");
    }
    var iv = [];
    for (var j = 0; j < fr.length; j++) {
      var f = fr[j];
      if (f.elided || !visible(f) || !re.test(f.name)) continue;
      f.r.setAttribute("fill", "rgb(230,0,230)");
      iv.push([f.x, f.x + f.w]);
    }
    iv.sort(function (a, b) { return a[0] - b[0]; });
    var sum = 0, end = -Infinity;
    for (j = 0; j < iv.length; j++) {
      var a = Math.max(iv[j][0], end);
      if (iv[j][1] > a) sum += iv[j][1] - a;
      end = Math.max(end, iv[j][1]);
    }
    var z = zoomed || fr[0];
    var txt = "Matched: " + pct(sum, z.w) + (zoomed ? " of zoom, " + pct(sum, total) + " of total" : "");
    if (matchedEl) matchedEl.textContent = txt;
    save();
    return pct(sum, z.w);
  }
  function resetSearch(keep) {
    for (var j = 0; j < fr.length; j++) fr[j].r.setAttribute("fill", fr[j].fill);
    if (matchedEl) matchedEl.textContent = " ";
    if (!keep) { term = null; save(); }
  }
  function ask() {
    if (term !== null) { resetSearch(false); return; }
    var t = null;
    if (inReport) {
      var inp = svg.parentNode && svg.parentNode.querySelector("input[type=search]");
      if (inp) { inp.focus(); return; }
    }
    try { t = window.prompt("Search (regular expression)", ""); } catch (e) { t = null; }
    if (t) search(t);
  }
  function toggleIc() {
    ic = !ic;
    if (icBtn) setClass(icBtn, "on", ic);
    if (term !== null) search(term);
  }
  function save() {
    if (!standalone) return;
    var h = [];
    if (zoomed) h.push("z=" + zoomed.x + "," + zoomed.d);
    if (term !== null) h.push("s=" + encodeURIComponent(term));
    if (ic) h.push("i=1");
    try {
      if (location.hash !== "#tt-selftest")
        history.replaceState(null, "", h.length ? "#" + h.join("&") : location.pathname);
    } catch (e) { /* file:// may refuse */ }
  }
  function restore() {
    if (!standalone) return;
    var h = (location.hash || "").slice(1).split("&"), z = null, s = null;
    for (var j = 0; j < h.length; j++) {
      var kv = h[j].split("=");
      if (kv[0] === "z" && kv[1]) z = kv[1].split(",").map(Number);
      if (kv[0] === "s" && kv.length > 1) s = decodeURIComponent(kv.slice(1).join("="));
      if (kv[0] === "i") { ic = true; if (icBtn) setClass(icBtn, "on", true); }
    }
    if (z) for (j = 0; j < fr.length; j++)
      if (fr[j].x === z[0] && fr[j].d === z[1]) { zoom(fr[j]); break; }
    if (s !== null) search(s);
  }
  function frameOf(ev) {
    for (var n = ev.target; n && n !== svg; n = n.parentNode)
      if (n.getAttribute && /(^| )f( |$)/.test(n.getAttribute("class") || ""))
        for (var j = 0; j < fr.length; j++) if (fr[j].g === n) return fr[j];
    return null;
  }
  svg.addEventListener("click", function (ev) {
    var f = frameOf(ev);
    if (f) zoom(f);
  });
  svg.addEventListener("mouseover", function (ev) {
    var f = frameOf(ev);
    if (f && details) details.textContent = nametype + " " + f.tip.replace(/\n/g, " | ");
  });
  svg.addEventListener("mouseout", function () { if (details) details.textContent = " "; });
  function button(el, fn) {
    if (!el) return;
    el.addEventListener("click", function (ev) { ev.stopPropagation(); fn(); });
    el.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); fn(); }
    });
  }
  button(unzoomBtn, unzoom);
  button(searchBtn, ask);
  button(icBtn, toggleIc);
  (standalone ? window : svg).addEventListener("keydown", function (ev) {
    var k = ev.key;
    if (k === "Escape") { unzoom(); return; }
    if (k === "/" || (standalone && (k === "F3" || (ev.ctrlKey && k === "f")))) {
      ev.preventDefault(); ask();
    } else if (ev.ctrlKey && k === "i") { ev.preventDefault(); toggleIc(); }
  });
  var api = {zoom: zoom, unzoom: unzoom, search: search, reset: resetSearch, frames: fr,
    visible: function () { return fr.filter(visible).length; }};
  restore();
  return api;
}

/* #tt-selftest: zoom into the first depth-1 frame, search its literal name, report, reset. */
function tt_selftest(api) {
  try {
    var z = null;
    for (var j = 0; j < api.frames.length; j++) if (api.frames[j].d === 1) { z = api.frames[j]; break; }
    if (!z) return "FAIL no depth-1 frame";
    api.zoom(z);
    var m = api.search(z.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    var line = "zoom=" + z.name + " visible=" + api.visible() + " matched=" + m +
      " text=" + (z.t ? z.t.textContent : "");
    api.unzoom();
    api.reset(false);
    return line + " reset=" + api.visible();
  } catch (e) {
    return "FAIL " + e.message;
  }
}

/* Entry point: onload of a standalone SVG, or the report's script once per .tt-flame
 * (idempotent through data-ready). */
function tt_init(svg) {
  var inReport = svg.ownerDocument.documentElement !== svg;
  var api = tt_setup(svg, inReport);
  if (api && location.hash === "#tt-selftest") {
    var line = tt_selftest(api), doc = svg.ownerDocument;
    if (!inReport) {
      var d = doc.createElementNS("http://www.w3.org/2000/svg", "desc");
      d.setAttribute("class", "tt-selftest");
      d.textContent = line;
      svg.appendChild(d);
    } else {
      var pre = doc.querySelector("pre.tt-selftest");
      if (!pre) {
        pre = doc.createElement("pre");
        pre.setAttribute("class", "tt-selftest");
        doc.body.appendChild(pre);
      }
      pre.textContent += line + "\n";
    }
  }
  return api;
}
