"use strict";
/* The report's page script: flame graph interaction (tt_init per graph, a search field
 * each) and table sorting by column. Data stays in the markup. */
(function () {
  var graphs = document.querySelectorAll("svg.tt-flame");
  for (var i = 0; i < graphs.length; i++) {
    var api = tt_init(graphs[i]);
    var box = graphs[i].parentNode, inp = box && box.querySelector("input[type=search]");
    if (api && inp) {
      inp.addEventListener("input", (function (a, el) {
        return function () { if (el.value) a.search(el.value); else a.reset(false); };
      })(api, inp));
    }
  }
  function sortBy(table, col, btn) {
    var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
    var desc = btn.getAttribute("data-dir") !== "desc";
    rows.sort(function (a, b) {
      var x = a.cells[col], y = b.cells[col];
      var vx = x.getAttribute("data-v"), vy = y.getAttribute("data-v"), c;
      if (vx !== null && vy !== null) c = parseFloat(vx) - parseFloat(vy);
      else c = x.textContent.localeCompare(y.textContent);
      return desc ? -c : c;
    });
    for (var j = 0; j < rows.length; j++) body.appendChild(rows[j]);
    btn.setAttribute("data-dir", desc ? "desc" : "asc");
    var th = btn.parentNode;
    var all = table.querySelectorAll("th[aria-sort]");
    for (j = 0; j < all.length; j++) all[j].removeAttribute("aria-sort");
    th.setAttribute("aria-sort", desc ? "descending" : "ascending");
  }
  var heads = document.querySelectorAll("table.sortable th");
  for (var k = 0; k < heads.length; k++) {
    var th = heads[k], b = document.createElement("button");
    b.type = "button";
    b.textContent = th.textContent;
    th.textContent = "";
    th.appendChild(b);
    b.addEventListener("click", (function (t, c, el) {
      return function () { sortBy(t, c, el); };
    })(th.closest("table"), th.cellIndex, b));
  }
})();
