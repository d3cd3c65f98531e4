// lhtb view: a tiny asciinema v2 player. Output events are replayed into a <pre> as plain text: escape
// sequences are parsed and dropped (except "erase to end of line"), \r returns to the line start, \n starts a
// new line, \b steps back. The cast is embedded in the page as JSON (<script type="application/json">).
"use strict";
(function () {
  var MAX_LINES = 3000; // older lines scroll away
  var IDLE_CAP = 2; // seconds: longer pauses in the recording are shortened to this

  function Term() { this.reset(); }
  Term.prototype.reset = function () { this.lines = [""]; this.row = 0; this.col = 0; this.state = 0; this.params = ""; };
  Term.prototype.newline = function () {
    this.row += 1; this.col = 0;
    if (this.row >= this.lines.length) this.lines.push("");
    if (this.lines.length > MAX_LINES) { var drop = this.lines.length - MAX_LINES; this.lines.splice(0, drop); this.row -= drop; }
  };
  Term.prototype.put = function (run) {
    var line = this.lines[this.row];
    while (line.length < this.col) line += " ";
    this.lines[this.row] = line.slice(0, this.col) + run + line.slice(this.col + run.length);
    this.col += run.length;
  };
  Term.prototype.feed = function (s) {
    var i = 0, n = s.length;
    while (i < n) {
      var c = s.charAt(i), code = s.charCodeAt(i);
      if (this.state === 0) {
        if (code >= 32 && code !== 127) {
          var j = i + 1;
          while (j < n) { var k = s.charCodeAt(j); if (k < 32 || k === 127) break; j++; }
          this.put(s.slice(i, j)); i = j; continue;
        }
        if (c === "\x1b") this.state = 1;
        else if (c === "\n") this.newline();
        else if (c === "\r") this.col = 0;
        else if (c === "\b") { if (this.col > 0) this.col -= 1; }
        else if (c === "\t") this.put("        ".slice(this.col % 8));
      } else if (this.state === 1) { // after ESC
        if (c === "[") { this.state = 2; this.params = ""; }
        else if ("]PX^_".indexOf(c) >= 0) this.state = 3;
        else if ("()*+#%".indexOf(c) >= 0) this.state = 5;
        else this.state = 0;
      } else if (this.state === 2) { // CSI: parameters, then a final byte
        if (code >= 0x40 && code <= 0x7e) {
          if (c === "K" && (this.params === "" || this.params === "0")) this.lines[this.row] = this.lines[this.row].slice(0, this.col);
          this.state = 0;
        } else if (this.params.length < 64) this.params += c;
      } else if (this.state === 3) { // OSC/DCS string: ends with BEL or ESC \
        if (c === "\x07") this.state = 0; else if (c === "\x1b") this.state = 4;
      } else if (this.state === 4) { this.state = c === "\\" ? 0 : 3; }
      else { this.state = 0; } // one byte after a charset selector
      i += 1;
    }
  };
  Term.prototype.text = function () { return this.lines.join("\n"); };

  function Player(root, cast) {
    this.root = root; this.events = cast.events || []; this.term = new Term();
    this.screen = root.querySelector(".screen"); this.clock = root.querySelector(".clock");
    this.markerEl = root.querySelector(".marker"); this.playBtn = root.querySelector(".play");
    this.speedEl = root.querySelector(".speed"); this.seekEl = root.querySelector(".seek"); this.timer = null;
    this.total = this.events.length ? this.events[this.events.length - 1][0] : 0;
    var self = this;
    this.seekEl.max = String(this.total);
    // Seeking replays the output from the start up to that time: the screen is what it was then.
    this.seekEl.addEventListener("input", function () { self.seek(Number(self.seekEl.value)); });
    this.playBtn.addEventListener("click", function () { if (self.timer) self.pause(); else self.play(); });
    root.querySelector(".restart").addEventListener("click", function () { var was = !!self.timer; self.pause(); self.rewind(); if (was) self.play(); });
    root.querySelector(".end").addEventListener("click", function () { self.pause(); self.apply(Infinity); self.show(); });
    this.follow = root.hasAttribute("data-follow"); // a running trial's: shows its latest output as it comes
    this.rewind();
    if (this.follow) { this.apply(Infinity); this.show(); }
    else if (!this.events.length) this.screen.textContent = "(the recording has no output events)";
  }
  // The live view (live.js) hands over the events recorded since the page was built or last polled.
  Player.prototype.append = function (events) {
    if (!events.length) return;
    var atEnd = !this.timer && this.i >= this.events.length;
    Array.prototype.push.apply(this.events, events);
    this.total = this.events[this.events.length - 1][0];
    this.seekEl.max = String(this.total);
    if (this.follow && atEnd) this.apply(Infinity);
    this.show();
  };
  Player.prototype.seek = function (t) {
    var was = !!this.timer; this.pause(); this.term.reset(); this.i = 0; this.t = 0; this.marker = "";
    this.apply(t); this.t = Math.min(Math.max(t, 0), this.total); this.show(); if (was) this.play();
  };
  Player.prototype.rewind = function () { this.term.reset(); this.i = 0; this.t = 0; this.marker = ""; this.show(); };
  Player.prototype.speed = function () { var v = Number(this.speedEl.value); return v > 0 ? v : 1; };
  Player.prototype.apply = function (until) {
    while (this.i < this.events.length && this.events[this.i][0] <= until) {
      var ev = this.events[this.i]; this.i += 1;
      if (ev[1] === "o") this.term.feed(ev[2]); else if (ev[1] === "m") this.marker = ev[2];
      this.t = Math.max(this.t, ev[0]);
    }
  };
  Player.prototype.show = function () {
    var stick = this.screen.scrollTop + this.screen.clientHeight >= this.screen.scrollHeight - 4;
    this.screen.textContent = this.term.text();
    if (stick) this.screen.scrollTop = this.screen.scrollHeight;
    this.clock.textContent = this.t.toFixed(1) + " / " + this.total.toFixed(1) + " s";
    if (document.activeElement !== this.seekEl) this.seekEl.value = String(this.t);
    this.markerEl.textContent = this.marker;
    this.playBtn.textContent = this.timer ? "❚❚ pause" : this.i >= this.events.length && this.i > 0 ? "▶ replay" : "▶ play";
  };
  Player.prototype.pause = function () { if (this.timer) clearTimeout(this.timer); this.timer = null; this.show(); };
  Player.prototype.play = function () {
    if (this.i >= this.events.length) this.rewind();
    this.timer = -1; this.schedule();
  };
  Player.prototype.schedule = function () {
    var self = this;
    if (this.i >= this.events.length) { this.timer = null; this.show(); return; }
    var next = this.events[this.i][0];
    var wait = Math.min(Math.max(next - this.t, 0), IDLE_CAP) / this.speed();
    this.timer = setTimeout(function () {
      self.apply(next + 0.03 * self.speed()); // events closer than a frame are drawn together
      self.show(); if (self.timer) self.schedule();
    }, wait * 1000);
    this.show();
  };

  document.querySelectorAll(".player").forEach(function (root) {
    var data = root.querySelector("script.cast-data");
    try { root.lhtbPlayer = new Player(root, JSON.parse(data.textContent)); }
    catch (e) { root.querySelector(".screen").textContent = "cannot play this recording: " + e; }
  });
})();
