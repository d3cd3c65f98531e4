# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""odoekf: pose tracking for the AMR fleet's differential-drive base.

Wheel encoders and the yaw gyro drive the prediction, range-bearing detections of surveyed landmarks (shelf
reflectors and fiducial tags) correct it, and an extended Kalman filter over (x, y, heading, gyro bias) fuses
them. ``odoekf.pipeline.localize`` runs a whole recorded log; ``localize.py`` is the command line.
"""

__version__ = "0.9.3"
