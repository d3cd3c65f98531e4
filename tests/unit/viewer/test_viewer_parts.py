"""The viewer's pieces: clipping, JSON in scripts, odd trajectories and casts, the chart, the loopback server."""

from __future__ import annotations

import json
import threading
import urllib.request
from pathlib import Path

from lhtb.viewer.charts import Point, reward_curve_svg
from lhtb.viewer.markup import clip, esc, href, json_for_script, read_clipped
from lhtb.viewer.serve import HOST, make_server
from lhtb.viewer.trajectory import load_cast, render_recording, render_trajectory


def test_json_for_script_cannot_close_the_element() -> None:
    text = json_for_script({"a": "</script><!-- & \u2028"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"a": "</script><!-- & \u2028"}


def test_esc_and_href() -> None:
    assert esc('<a href="x">') == "&lt;a href=&quot;x&quot;&gt;"
    assert esc(None) == ""
    assert href("trials", 'a b"<.html') == "trials/a%20b%22%3C.html"
    assert href("..", "index.html") == "../index.html"


def test_clip_keeps_head_and_tail(tmp_path: Path) -> None:
    assert clip("abc", 10) == "abc"
    clipped = clip("a" * 50 + "b" * 50, 20)
    assert clipped.startswith("a" * 10) and clipped.endswith("b" * 10) and "80 characters left out" in clipped
    path = tmp_path / "log.txt"
    path.write_bytes(b"x" * 1000 + b"\xff" + b"y" * 1000)
    text = read_clipped(path, 100)
    assert text is not None and text.startswith("x" * 50) and text.endswith("y" * 50) and "1,901 bytes" in text
    assert read_clipped(tmp_path / "missing.txt") is None
    assert read_clipped(path) is not None and "\ufffd" in (read_clipped(path) or "")


def test_odd_trajectories(tmp_path: Path) -> None:
    path = tmp_path / "trajectory.json"
    assert render_trajectory(path) == ""
    path.write_text("{broken <script>")
    assert "Not valid JSON" in render_trajectory(path) and "&lt;script&gt;" in render_trajectory(path)
    path.write_text(json.dumps({"messages": ["<b>hi</b>"]}))
    assert "&lt;b&gt;hi" in render_trajectory(path)
    path.write_text(json.dumps({"steps": ["<i>plain</i>", {"source": "<x>", "tool_calls": "odd", "observation": 5}]}))
    html = render_trajectory(path)
    assert "&lt;i&gt;plain" in html and "src-other" in html and "<x>" not in html


def test_odd_casts(tmp_path: Path) -> None:
    path = tmp_path / "recording.cast"
    assert load_cast(path) is None and render_recording(path) == ""
    lines = [
        '{"version": 2, "width": 80, "height": 24, "env": {"X": "<y>"}}',
        '[1, "o"]',
        '["x", "o", "a"]',
        '[NaN, "o", "a"]',
        '[1, "i", "typed"]',
        '[2, "o", "ok"]',
        '[3, "o", "more"]',
    ]
    path.write_text("\n".join(lines))
    cast = load_cast(path)
    assert cast is not None
    assert cast["header"] == {"version": 2, "width": 80, "height": 24}
    assert cast["events"] == [[2.0, "o", "ok"], [3.0, "o", "more"]] and cast["skipped"] == 4
    limited = load_cast(path, limit=3)
    assert limited is not None and limited["truncated"] and limited["events"] == [[2.0, "o", "ok"]]
    assert "malformed" in render_recording(path)


def test_reward_curve_svg() -> None:
    assert "<svg" not in reward_curve_svg([])
    svg = reward_curve_svg([Point(0, 0.0, "a"), Point(60, 0.5, "b"), Point(90, None, "<err>"), Point(120, 1.0, "c")])
    assert svg.count("<polyline") == 1 and "&lt;err&gt;" in svg and "<err>" not in svg


def test_server_binds_loopback_only(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("hello viewer")
    server = make_server(tmp_path, 0)
    try:
        assert HOST == "127.0.0.1" and server.server_address[0] == "127.0.0.1"
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        with urllib.request.urlopen(f"http://127.0.0.1:{server.server_address[1]}/index.html", timeout=5) as reply:
            assert reply.read() == b"hello viewer"
    finally:
        server.shutdown()
        server.server_close()


def test_symlinks_are_not_followed(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("host secret")
    for name in ("stdout.txt", "trajectory.json", "recording.cast"):
        (tmp_path / name).symlink_to(secret)
    assert "host secret" not in (read_clipped(tmp_path / "stdout.txt") or "")
    assert "host secret" not in render_trajectory(tmp_path / "trajectory.json")
    assert load_cast(tmp_path / "recording.cast") is None
