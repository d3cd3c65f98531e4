"""End to end: run a small real job (oracle and nop, 2 attempts), then render every report format and figure."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from helpers import run
from typer.testing import CliRunner

from lhtb.cli.app import app
from lhtb.figures.render import FIGURE_NAMES
from lhtb.report.models import Report
from lhtb.report.render import FORMATS

PARTIAL = (
    'if [ "$(cat /app/out.txt 2>/dev/null)" = hello ]; then echo 0.8; else echo 0.3; fi > /logs/verifier/reward.txt\n'
)


def test_report_and_figures_on_a_real_job(make_task, tmp_path: Path) -> None:
    make_task("hello")  # oracle 1.0, nop 0.0
    make_task("partial", test_sh=PARTIAL)  # oracle 0.8 (near miss), nop 0.3
    make_task("crash", test_sh="exit 3\n")  # verifier error for both: counts as 0
    run(make_task.root, tmp_path / "jobs", ("oracle", "nop"), name="rep", attempts=2)
    job_dir = tmp_path / "jobs" / "rep"
    check_every_report_format(job_dir, tmp_path)
    check_every_figure(job_dir, tmp_path)


def check_every_report_format(job_dir: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    outputs = {}
    for fmt in FORMATS:
        target = tmp_path / f"report.{fmt}"
        result = runner.invoke(app, ["report", str(job_dir), "-f", fmt, "-o", str(target)])
        assert result.exit_code == 0, result.output
        outputs[fmt] = target.read_text()
    report = Report.model_validate_json(outputs["json"])
    oracle, nop = report.leaderboard
    assert (oracle.agent, nop.agent) == ("oracle", "nop")
    assert oracle.n_trials == 6 and oracle.n_scored == 6 and oracle.errors_by_class == {"verifier_error": 2}
    assert oracle.mean_reward == pytest.approx((1 + 1 + 0.8 + 0.8 + 0 + 0) / 6)
    assert nop.mean_reward == pytest.approx(0.6 / 6)
    assert oracle.pass_rates["0.95"] == pytest.approx(2 / 6) and oracle.pass_at_k["2"] == pytest.approx(1 / 3)
    assert oracle.near_misses == 2 and report.spearman_rho == pytest.approx(1.0)
    assert oracle.failure_modes["solved"] == 2 and oracle.failure_modes["false_finish"] == 2
    assert oracle.failure_modes["verifier_error"] == 2
    assert nop.failure_modes["verifier_error"] == 2 and nop.failure_modes["solved"] == 0
    assert oracle.ci_low is not None and oracle.ci_low <= oracle.mean_reward <= (oracle.ci_high or 0)
    records = list(csv.DictReader(io.StringIO(outputs["csv"])))
    assert [r["agent"] for r in records if r["scope"] == "leaderboard"] == ["oracle", "nop"]
    for fmt in ("table", "md", "html"):
        assert "oracle" in outputs[fmt] and "Spearman" in outputs[fmt] and "false finish" in outputs[fmt], fmt


def check_every_figure(job_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "figures"
    result = CliRunner().invoke(app, ["figures", str(job_dir), "-o", str(out)])
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "figures.json").read_text())
    assert set(manifest) == set(FIGURE_NAMES)
    for name in FIGURE_NAMES:
        png, svg = out / f"{name}.png", out / f"{name}.svg"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
        assert 5_000 < png.stat().st_size < 400_000, name
        text = svg.read_text()
        assert text.lstrip().startswith("<?xml") and svg.stat().st_size > 5_000, name
        assert manifest[name]["series"] == ["oracle", "nop"], name
        for agent in ("oracle", "nop"):
            assert re.search(rf'id="series:{agent}(:[^"]*)?"', text), (name, agent)
