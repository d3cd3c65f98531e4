// lhtb view: sortable tables, a trial filter and expand/collapse-all buttons. No dependencies.
"use strict";
(function () {
  function key(cell) {
    if (!cell) return { empty: true };
    var raw = cell.hasAttribute("data-sort") ? cell.getAttribute("data-sort") : cell.textContent;
    if (raw === "" || raw === "None" || raw === "\u2014") return { empty: true };
    if (!cell.classList.contains("n")) return { text: raw.toLowerCase() };
    var n = Number(raw);
    if (isNaN(n)) n = parseFloat(raw.replace(/[$,%\s]/g, "")); // "45.0%", "$0.25", "1,234"
    return isNaN(n) ? { text: raw.toLowerCase() } : { num: n };
  }
  function compare(a, b) {
    if (a.empty || b.empty) return a.empty === b.empty ? 0 : a.empty ? 1 : -1;
    if (a.num !== undefined && b.num !== undefined) return a.num - b.num;
    var x = a.num !== undefined ? String(a.num) : a.text, y = b.num !== undefined ? String(b.num) : b.text;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  function sortBy(table, th, index) {
    var asc = th.getAttribute("aria-sort") !== "ascending";
    table.querySelectorAll("th").forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows).map(function (row, i) {
      return { row: row, k: key(row.cells[index]), i: i };
    });
    rows.sort(function (a, b) {
      var c = compare(a.k, b.k);
      if (a.k.empty || b.k.empty) return c || a.i - b.i; // empty cells stay last either way
      return (asc ? c : -c) || a.i - b.i;
    });
    rows.forEach(function (r) { body.appendChild(r.row); });
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    table.querySelectorAll("thead th").forEach(function (th, index) {
      th.title = "sort";
      th.addEventListener("click", function () { sortBy(table, th, index); });
    });
  });
  document.querySelectorAll("input.filter").forEach(function (input) {
    var table = input.closest("section").querySelector("table");
    input.addEventListener("input", function () {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        var text = row.textContent.toLowerCase();
        row.classList.toggle("hidden", !words.every(function (w) { return text.indexOf(w) >= 0; }));
      });
    });
  });
  document.querySelectorAll("button[data-details]").forEach(function (button) {
    button.addEventListener("click", function () {
      var open = button.getAttribute("data-details") === "open";
      button.closest("section").querySelectorAll("details").forEach(function (d) { d.open = open; });
    });
  });
})();
