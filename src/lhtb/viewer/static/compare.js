// lhtb view: the compare page. Groups the embedded scored trials by the two sides picked (an agent, a job,
// or an agent within a job) and fills the per-task and per-subtask tables. Text goes in with textContent only.
"use strict";
(function () {
  var data = JSON.parse(document.getElementById("compare-data").textContent);
  var by = document.getElementById("compare-by"), selA = document.getElementById("compare-a");
  var selB = document.getElementById("compare-b"), summary = document.getElementById("compare-summary");

  function side(r) {
    if (by.value === "job") return r.job;
    if (by.value === "both") return r.agent + " @ " + r.job;
    return r.agent;
  }
  function options() {
    var seen = {}, list = [];
    data.forEach(function (r) { var k = side(r); if (!seen[k]) { seen[k] = 1; list.push(k); } });
    list.sort();
    [selA, selB].forEach(function (sel, i) {
      var keep = sel.value; sel.textContent = "";
      list.forEach(function (k) { var o = document.createElement("option"); o.value = k; o.textContent = k; sel.appendChild(o); });
      if (list.indexOf(keep) >= 0) sel.value = keep; else if (list.length > i) sel.value = list[Math.min(i, list.length - 1)];
    });
  }
  function mean(xs) { var s = 0; xs.forEach(function (x) { s += x; }); return xs.length ? s / xs.length : null; }
  function fmt(x) { return x === null ? "\u2014" : x.toFixed(3); }
  function cell(row, text, numeric, sort) {
    var td = document.createElement("td"); td.textContent = text; if (numeric) td.className = "n";
    if (sort !== undefined) td.setAttribute("data-sort", String(sort)); row.appendChild(td); return td;
  }
  function head(table, names) {
    var tr = document.createElement("tr");
    names.forEach(function (n) { var th = document.createElement("th"); th.textContent = n; tr.appendChild(th); });
    table.tHead.textContent = ""; table.tHead.appendChild(tr);
  }
  function group(name) {
    var tasks = {};
    data.forEach(function (r) {
      if (side(r) !== name) return;
      var t = tasks[r.task] || (tasks[r.task] = { rewards: [], subtasks: {} });
      t.rewards.push(r.reward);
      Object.keys(r.subtasks).forEach(function (s) { (t.subtasks[s] || (t.subtasks[s] = [])).push(r.subtasks[s]); });
    });
    return tasks;
  }
  function diffCell(row, a, b) {
    var d = a === null || b === null ? null : b - a;
    var td = cell(row, d === null ? "\u2014" : (d > 0 ? "+" : "") + d.toFixed(3), true, d === null ? "" : d);
    if (d !== null) td.className = "n " + (d > 0 ? "ok" : d < 0 ? "bad" : "");
    return d;
  }
  function render() {
    var a = group(selA.value), b = group(selB.value);
    var tasks = Object.keys(a).concat(Object.keys(b)).filter(function (t, i, all) { return all.indexOf(t) === i; });
    var rows = tasks.map(function (t) {
      var ma = a[t] ? mean(a[t].rewards) : null, mb = b[t] ? mean(b[t].rewards) : null;
      return { task: t, a: ma, b: mb, na: a[t] ? a[t].rewards.length : 0, nb: b[t] ? b[t].rewards.length : 0,
               d: ma === null || mb === null ? null : mb - ma };
    });
    rows.sort(function (x, y) {
      var dx = x.d === null ? -1 : Math.abs(x.d), dy = y.d === null ? -1 : Math.abs(y.d);
      return dy - dx || (x.task < y.task ? -1 : 1);
    });
    var table = document.getElementById("compare-tasks");
    head(table, ["task", "A: " + selA.value, "n", "B: " + selB.value, "n", "\u0394 (B \u2212 A)"]);
    var body = table.tBodies[0]; body.textContent = "";
    var both = [], wins = 0, losses = 0;
    rows.forEach(function (r) {
      var tr = document.createElement("tr"); tr.setAttribute("data-task", r.task);
      cell(tr, r.task); cell(tr, fmt(r.a), true, r.a === null ? "" : r.a); cell(tr, String(r.na), true);
      cell(tr, fmt(r.b), true, r.b === null ? "" : r.b); cell(tr, String(r.nb), true);
      var d = diffCell(tr, r.a, r.b);
      if (d !== null) { both.push(d); if (d > 0) wins++; else if (d < 0) losses++; }
      body.appendChild(tr);
    });
    var md = mean(both);
    summary.textContent = both.length
      ? "Over the " + both.length + " task(s) both sides ran: mean \u0394 " + (md > 0 ? "+" : "") + md.toFixed(3) +
        "; B higher on " + wins + ", lower on " + losses + ", equal on " + (both.length - wins - losses) + "."
      : "The two sides share no task.";
    var subs = document.getElementById("compare-subtasks");
    head(subs, ["task", "subtask", "A mean", "B mean", "\u0394 (B \u2212 A)"]);
    var sbody = subs.tBodies[0]; sbody.textContent = "";
    rows.forEach(function (r) {
      var names = Object.keys((a[r.task] || { subtasks: {} }).subtasks).concat(Object.keys((b[r.task] || { subtasks: {} }).subtasks));
      names.filter(function (n, i) { return names.indexOf(n) === i; }).forEach(function (n) {
        var sa = a[r.task] && a[r.task].subtasks[n] ? mean(a[r.task].subtasks[n]) : null;
        var sb = b[r.task] && b[r.task].subtasks[n] ? mean(b[r.task].subtasks[n]) : null;
        var tr = document.createElement("tr");
        cell(tr, r.task); cell(tr, n); cell(tr, fmt(sa), true, sa === null ? "" : sa); cell(tr, fmt(sb), true, sb === null ? "" : sb);
        diffCell(tr, sa, sb); sbody.appendChild(tr);
      });
    });
  }
  by.addEventListener("change", function () { options(); render(); });
  selA.addEventListener("change", render); selB.addEventListener("change", render);
  options(); render();
})();
