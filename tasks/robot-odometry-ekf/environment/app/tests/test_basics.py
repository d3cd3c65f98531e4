# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Quick checks of the parsing and helper layers (python3 -m pytest -q /app/tests)."""

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from odoekf.angles import angle_diff, wrap  # noqa: E402
from odoekf.clocks import ClockMap  # noqa: E402
from odoekf.config import from_header  # noqa: E402
from odoekf.logfile import EncoderRecord, GyroRecord, LandmarkRecord, parse_log  # noqa: E402

LOG = """# odolog 1
# robot: AMR-101
# wheel_radius_m: 0.0762
# gyro_units: rad/s
ENC 100.000000 7 10 20
GYR 100.005000 3 0.010000
LMK 100.010000 9 104 2.5000 0.10000
SYN 100.300000 100.300000
garbage line
"""


def test_wrap_interval():
    assert wrap(math.pi) == math.pi
    assert abs(wrap(-math.pi) - math.pi) < 1e-12
    assert abs(wrap(3 * math.pi / 2) + math.pi / 2) < 1e-12
    assert abs(angle_diff(0.1, -0.1) - 0.2) < 1e-12


def test_parse_records():
    log = parse_log(LOG)
    assert log.header["robot"] == "AMR-101"
    kinds = [type(r) for r in log.records]
    assert kinds == [EncoderRecord, GyroRecord, LandmarkRecord]
    assert log.records[2].ident == 104
    assert len(log.syncs) == 1
    assert log.skipped == 1


def test_header_defaults():
    cfg = from_header(parse_log(LOG).header)
    assert cfg.encoder_bits == 32
    assert cfg.gyro_scale == 1.0


def test_identity_clock():
    assert ClockMap.fit([]).to_host(12.5) == 12.5
