# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's own localisation filter: the method of instruction.md, written compactly and independently of
the project's package. ``localize(log_text, map_text)`` returns [(seq, t, x, y, theta)] per encoder record."""

from __future__ import annotations

import math

import numpy as np

GATE = 9.21  # chi-square, 2 degrees of freedom, 99 %


def wrap(angle: float) -> float:
    a = math.fmod(angle + math.pi, 2.0 * math.pi)
    if a <= 0.0:
        a += 2.0 * math.pi
    return a - math.pi


def parse(log_text: str):
    header: dict[str, str] = {}
    records = []
    seen = set()
    syn = []
    for line in log_text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            body = line[1:].strip()
            if ":" in body:
                key, value = body.split(":", 1)
                header[key.strip().lower()] = value.strip()
            continue
        parts = line.split()
        kind = parts[0]
        if kind == "SYN":
            syn.append((float(parts[1]), float(parts[2])))
            continue
        key = (kind, int(parts[2]))
        if key in seen:
            continue
        seen.add(key)
        records.append(parts)
    return header, records, syn


def clock_map(syn: list[tuple[float, float]]):
    """host = a + c * mcu by least squares over the SYN pairs."""
    if not syn:
        return 0.0, 1.0, 0.0
    hosts = np.array([h for h, _m in syn])
    mcus = np.array([m for _h, m in syn])
    m_mean, h_mean = float(np.mean(mcus)), float(np.mean(hosts))
    dm = mcus - m_mean
    denom = float(np.dot(dm, dm))
    c = float(np.dot(dm, hosts - h_mean)) / denom if len(syn) >= 2 and denom > 0 else 1.0
    return h_mean, c, m_mean  # host = h_mean + c * (mcu - m_mean)


def localize(log_text: str, map_text: str) -> list[tuple[int, float, float, float, float]]:
    header, records, syn = parse(log_text)
    radius = float(header["wheel_radius_m"])
    base = float(header["wheel_base_m"])
    ticks = float(header["ticks_per_rev"])
    bits = int(header["encoder_bits"])
    sign_l, sign_r = (float(v) for v in header.get("encoder_sign", "1 1").split())
    gyro_scale = math.pi / 180.0 if header["gyro_units"].lower() in ("deg/s", "dps") else 1.0
    offset = float(header.get("sensor_offset_m", "0"))
    x0, y0, th0 = (float(v) for v in header["initial_pose"].split())
    s0 = [float(v) for v in header["initial_sigma"].split()]
    k_wheel = float(header["sigma_wheel"])
    sig_g = float(header["sigma_gyro_rad_s"])
    sig_b0 = float(header["sigma_bias0_rad_s"])
    q_b = float(header["bias_walk_rad_s"])
    R = np.diag([float(header["sigma_range_m"]) ** 2, float(header["sigma_bearing_rad"]) ** 2])

    marks = {}
    for line in map_text.splitlines()[1:]:
        if line.strip():
            ident, mx, my = line.split(",")
            marks[int(ident)] = (float(mx), float(my))
    mark_ids = sorted(marks)
    mark_xy = np.array([marks[i] for i in mark_ids], dtype=float).reshape(-1, 2)

    h_mean, c, m_mean = clock_map(syn)
    modulus = 1 << bits
    half = modulus >> 1
    m_per_tick = 2.0 * math.pi * radius / ticks

    events = []
    for parts in records:
        kind = parts[0]
        if kind == "ENC":
            t = h_mean + c * (float(parts[1]) - m_mean)
            events.append((t, 1, int(parts[2]), int(parts[3]), int(parts[4])))
        elif kind == "GYR":
            t = h_mean + c * (float(parts[1]) - m_mean)
            events.append((t, 0, float(parts[3]) * gyro_scale, 0, 0))
        elif kind == "LMK":
            events.append((float(parts[1]), 2, int(parts[3]), float(parts[4]), float(parts[5])))
    events.sort(key=lambda e: (e[0], e[1]))

    s = np.array([x0, y0, wrap(th0), 0.0])
    P = np.diag([s0[0] ** 2, s0[1] ** 2, s0[2] ** 2, sig_b0 ** 2])
    out = []
    started = False
    t_prev = 0.0
    prev_l = prev_r = 0
    gyro: list[float] = []
    I4 = np.eye(4)

    def update(z_r, z_b, mx, my, ident_known):
        nonlocal s, P
        x, y, th = s[0], s[1], s[2]
        ct, st = math.cos(th), math.sin(th)
        dx = mx - x - offset * ct
        dy = my - y - offset * st
        q = dx * dx + dy * dy
        r = math.sqrt(q)
        H = np.array([[-dx / r, -dy / r, (dx * offset * st - dy * offset * ct) / r, 0.0],
                      [dy / q, -dx / q, (-dx * offset * ct - dy * offset * st) / q - 1.0, 0.0]])
        nu = np.array([z_r - r, wrap(z_b - (math.atan2(dy, dx) - th))])
        S = H @ P @ H.T + R
        Si = np.linalg.inv(S)
        return float(nu @ Si @ nu), H, nu, S, Si

    def associate(z_r, z_b):
        """Index of the map landmark with the smallest squared Mahalanobis distance (vectorised over the map)."""
        if len(mark_ids) == 0:
            return None
        x, y, th = s[0], s[1], s[2]
        ct, st = math.cos(th), math.sin(th)
        dx = mark_xy[:, 0] - x - offset * ct
        dy = mark_xy[:, 1] - y - offset * st
        q = dx * dx + dy * dy
        r = np.sqrt(q)
        zero = np.zeros_like(r)
        Hs = np.stack([np.stack([-dx / r, -dy / r, (dx * offset * st - dy * offset * ct) / r, zero], axis=1),
                       np.stack([dy / q, -dx / q, (-dx * offset * ct - dy * offset * st) / q - 1.0, zero], axis=1)],
                      axis=1)
        nus = np.stack([z_r - r, (z_b - (np.arctan2(dy, dx) - th) + math.pi) % (2 * math.pi) - math.pi], axis=1)
        Ss = np.einsum("nij,jk,nlk->nil", Hs, P, Hs) + R
        d2 = np.einsum("ni,nij,nj->n", nus, np.linalg.inv(Ss), nus)
        return int(np.argmin(d2))

    for ev in events:
        t, kind = ev[0], ev[1]
        if kind == 0:
            if started:
                gyro.append(ev[2])
            continue
        if kind == 2:
            if not started:
                continue
            ident, z_r, z_b = ev[2], ev[3], ev[4]
            if ident != 0 and ident in marks:
                d2, H, nu, S, Si = update(z_r, z_b, *marks[ident], True)
            else:
                best = associate(z_r, z_b)
                if best is None:
                    continue
                d2, H, nu, S, Si = update(z_r, z_b, *mark_xy[best], False)
            if d2 > GATE:
                continue
            K = P @ H.T @ Si
            s = s + K @ nu
            s[2] = wrap(s[2])
            A = I4 - K @ H
            P = A @ P @ A.T + K @ R @ K.T
            continue
        # encoder record
        seq, cl, cr = ev[2], ev[3], ev[4]
        if not started:
            started = True
            t_prev, prev_l, prev_r = t, cl, cr
            gyro = []
            out.append((seq, t, s[0], s[1], s[2]))
            continue
        dt = t - t_prev
        tl = (cl - prev_l + half) % modulus - half
        tr = (cr - prev_r + half) % modulus - half
        t_prev, prev_l, prev_r = t, cl, cr
        dl = sign_l * tl * m_per_tick
        dr = sign_r * tr * m_per_tick
        if tl == 0 and tr == 0:
            P[3, 3] += q_b * q_b * dt
            for w in gyro:  # parked: each gyro sample measures the bias
                Hb = np.array([0.0, 0.0, 0.0, 1.0])
                S = float(P[3, 3]) + sig_g * sig_g
                K = P[:, 3] / S
                s = s + K * (w - s[3])
                P = P - np.outer(K, Hb @ P)
                P = 0.5 * (P + P.T)
        else:
            ds = 0.5 * (dl + dr)
            vl, vr = k_wheel * k_wheel * abs(dl), k_wheel * k_wheel * abs(dr)
            th = s[2]
            if gyro:
                n = len(gyro)
                wbar = sum(gyro) / n
                dth = (wbar - s[3]) * dt
                M = np.array([[0.25 * (vl + vr), 0.0], [0.0, sig_g * sig_g * dt * dt / n]])
                dbias = -dt
            else:
                dth = (dr - dl) / base
                M = np.array([[0.25 * (vl + vr), 0.5 * (vr - vl) / base],
                              [0.5 * (vr - vl) / base, (vl + vr) / (base * base)]])
                dbias = 0.0
            tm = th + 0.5 * dth
            cm, sm = math.cos(tm), math.sin(tm)
            F = np.array([[1.0, 0.0, -ds * sm, -ds * sm * 0.5 * dbias],
                          [0.0, 1.0, ds * cm, ds * cm * 0.5 * dbias],
                          [0.0, 0.0, 1.0, dbias],
                          [0.0, 0.0, 0.0, 1.0]])
            G = np.array([[cm, -0.5 * ds * sm], [sm, 0.5 * ds * cm], [0.0, 1.0], [0.0, 0.0]])
            s = np.array([s[0] + ds * cm, s[1] + ds * sm, wrap(th + dth), s[3]])
            P = F @ P @ F.T + G @ M @ G.T
            P[3, 3] += q_b * q_b * dt
        gyro = []
        out.append((seq, t, s[0], s[1], s[2]))
    return out
