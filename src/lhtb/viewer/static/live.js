// lhtb view --serve: the live view. A job page polls /live/<job>.json and keeps its "Live" table (running
// trials: phase, agent time, last seen working, interim rewards, checkpoints) and the rewards of finished trials
// current; a trial page polls /live/<job>/<trial>.json and tails the terminal recording. Nothing reloads the
// page; text goes in with textContent only. From file:// (no server) the script does nothing.
"use strict";
(function () {
  if (location.protocol !== "http:" && location.protocol !== "https:") return;
  var EVERY_MS = 2000;

  function secs(s) {
    if (s === null || s === undefined) return "\u2014";
    s = Math.max(0, Math.round(s));
    return s < 60 ? s + " s" : s < 3600 ? Math.floor(s / 60) + " min " + (s % 60) + " s" : (s / 3600).toFixed(1) + " h";
  }
  function fmt(x) { return x === null || x === undefined ? "\u2014" : Number(x).toFixed(3); }
  function td(tr, text, numeric) { var c = document.createElement("td"); c.textContent = text; if (numeric) c.className = "n"; tr.appendChild(c); return c; }
  function interim(t) { return (t.interim || []).map(function (p) { return fmt(p.reward) + (p.late ? " (late)" : "") + " @ " + secs(p.agent_sec); }).join(", ") || "\u2014"; }
  function seen(t) {
    if (t.last_active_sec === null || t.last_active_sec === undefined) return "not yet";
    return secs(t.agent_sec - t.last_active_sec) + " ago";
  }
  function poll(url, apply) {
    var stopped = false;
    function once() {
      fetch(url, { cache: "no-store" }).then(function (r) { return r.ok ? r.json() : null; }).then(function (data) {
        if (data) stopped = apply(data) === false;
      }).catch(function () { /* the server stopped: keep the page as it is */ stopped = true; })
        .then(function () { if (!stopped) setTimeout(once, EVERY_MS); });
    }
    once();
  }

  var jobLive = document.querySelector("#live[data-live]");
  if (jobLive) {
    var progress = document.getElementById("live-progress");
    var body = document.querySelector("#live-running tbody");
    poll(jobLive.getAttribute("data-live"), function (job) {
      progress.textContent = job.finished + " of " + job.total + " trials finished, " + job.running + " running \u00b7 updated " + new Date().toLocaleTimeString();
      body.textContent = "";
      Object.keys(job.trials).forEach(function (name) {
        var t = job.trials[name];
        var row = document.querySelector('table.trials tr[data-key="' + CSS.escape(name) + '"]');
        if (t.state === "finished" && !row) { // started after the page was built: a row of its own
          var trials = document.querySelector("table.trials tbody");
          row = document.createElement("tr"); row.setAttribute("data-key", name);
          var link = td(row, "");
          if (t.page) { var l = document.createElement("a"); l.href = "trials/" + encodeURIComponent(t.page) + ".html"; l.textContent = name; link.appendChild(l); }
          else link.textContent = name;
          for (var k = 1; k < 12; k++) td(row, "—", k >= 3);
          row.cells[1].textContent = "no result yet";
          if (trials) trials.appendChild(row);
        }
        if (t.state === "finished" && row) {
          var cell = row.cells[4]; // the reward column
          if (cell && cell.textContent !== fmt(t.reward)) { cell.textContent = fmt(t.reward); cell.setAttribute("data-sort", t.reward === null ? "" : String(t.reward)); }
          if (row.cells[1] && row.cells[1].textContent === "no result yet") row.cells[1].textContent = "finished (reload for details)";
          if (row.cells[5] && t.error) row.cells[5].textContent = t.error;
        }
        if (t.state !== "running" && t.state !== "starting") return;
        var tr = document.createElement("tr"); tr.setAttribute("data-key", name);
        var first = td(tr, "");
        if (t.page) { var a = document.createElement("a"); a.href = "trials/" + encodeURIComponent(t.page) + ".html"; a.textContent = name; first.appendChild(a); }
        else first.textContent = name;
        td(tr, t.phase || t.state);
        td(tr, t.agent_sec === undefined ? "\u2014" : secs(t.agent_sec) + " of " + secs(t.timeout_sec), true);
        td(tr, t.state === "running" ? seen(t) : "\u2014");
        td(tr, interim(t));
        td(tr, t.checkpoints ? String(t.checkpoints.length) : "0", true);
        td(tr, t.episodes === undefined ? "\u2014" : String(t.episodes), true);
        td(tr, t.input_tokens === undefined ? "\u2014" : String(t.input_tokens + t.output_tokens), true);
        body.appendChild(tr);
      });
    });
  }

  var trialLive = document.querySelector("#live-trial[data-live]");
  if (trialLive) {
    var state = document.getElementById("live-state"), facts = document.getElementById("live-facts");
    var player = document.querySelector(".player");
    var from = player && player.lhtbPlayer ? player.lhtbPlayer.events.length : 0;
    var base = trialLive.getAttribute("data-live");
    var url = function () { return base + "?cast_from=" + from; };
    var tick = function () {
      fetch(url(), { cache: "no-store" }).then(function (r) { return r.ok ? r.json() : null; }).then(function (t) {
        if (!t) return;
        state.textContent = t.state === "finished" ? "finished: reward " + fmt(t.reward) + (t.error ? " (" + t.error + ")" : "") + " \u2014 reload for the full page" : t.state + (t.phase ? ": " + t.phase : "");
        facts.textContent = "";
        [["agent time", t.agent_sec === undefined ? "\u2014" : secs(t.agent_sec) + (t.timeout_sec ? " of " + secs(t.timeout_sec) : "")],
         ["last seen working", t.state === "running" ? seen(t) : "\u2014"],
         ["interim rewards", interim(t)],
         ["checkpoints taken", t.checkpoints ? t.checkpoints.map(secs).join(", ") || "none" : "\u2014"],
         ["episodes", t.episodes === undefined ? "\u2014" : String(t.episodes)]].forEach(function (kv) {
          var dt = document.createElement("dt"); dt.textContent = kv[0]; var dd = document.createElement("dd"); dd.textContent = kv[1];
          facts.appendChild(dt); facts.appendChild(dd);
        });
        if (player && player.lhtbPlayer && t.cast) { player.lhtbPlayer.append(t.cast.events); from = t.cast.next; }
        if (t.state !== "finished" || (t.cast && t.cast.events.length)) setTimeout(tick, EVERY_MS);
      }).catch(function () { /* the server stopped */ });
    };
    tick();
  }
})();
