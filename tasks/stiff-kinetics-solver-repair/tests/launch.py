# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's launcher for the agent's code (run as the sandbox user, never imported by the verifier).

    python3 -I launch.py INTEGRATE_DIR cli SCRIPT ARG...          run SCRIPT as __main__
    python3 -I launch.py INTEGRATE_DIR solve SOCKET CASES.json     call kinetics.solver.integrate per case

Before any of the agent's code runs it installs an audit hook (hooks cannot be removed) that refuses every
import of scipy.integrate or its submodules and extension modules, and every open or ctypes load of a file
under INTEGRATE_DIR, by whatever route. In solve mode the model handed to ``integrate`` evaluates f(t, c) and
J(t, c) in the verifier's process over SOCKET, where the evaluations are counted; nothing here counts them.
"""

import sys


def _install_guard(integrate_dir: str) -> None:
    import os

    prefix = os.path.realpath(integrate_dir).rstrip("/") + "/"

    def guard(event, args, _me=None, _prefix=prefix, _real=os.path.realpath, _fsdecode=os.fsdecode,
              _str=str, _bytes=bytes, _isinstance=isinstance, _fspath=os.fspath):
        if event == "import":
            name, path = args[0], args[1]
            if _isinstance(name, _str) and (name == "scipy.integrate" or name.startswith("scipy.integrate.")):
                raise ImportError(f"{name} is not available to this program")
        elif event == "open" or event == "ctypes.dlopen":
            path = args[0]
        elif event == "object.__setattr__":
            if args[0] is _me and args[1] in ("__code__", "__defaults__", "__kwdefaults__"):
                raise PermissionError("the launcher's audit hook cannot be changed")
            return
        else:
            return
        if path is None or not _isinstance(path, (_str, _bytes)):
            return
        text = _fsdecode(path) if _isinstance(path, _bytes) else path
        if "scipy/integrate" in text or (_real(text) + "/").startswith(_prefix):
            raise PermissionError(f"{text}: scipy.integrate is not available to this program")

    defaults = list(guard.__defaults__)
    defaults[0] = guard
    guard.__defaults__ = tuple(defaults)
    sys.addaudithook(guard)


class CountedModel:
    """f and J of one case, evaluated by the verifier over a socket (internal units, mol/L and s)."""

    def __init__(self, conn, index: int, n: int) -> None:
        import struct

        self._conn, self._index, self._n = conn, index, n
        self._struct = struct
        self.nfev = 0
        self.njev = 0

    def _ask(self, op: bytes, t: float, c, size: int):
        import numpy as np

        c = np.ascontiguousarray(c, dtype=np.float64).reshape(self._n)
        self._conn.sendall(op + self._struct.pack("<Id", self._index, float(t)) + c.tobytes())
        data = _recv_exact(self._conn, 8 * size)
        return np.frombuffer(data, dtype=np.float64).copy()

    def rhs(self, t, c):
        self.nfev += 1
        return self._ask(b"f", t, c, self._n)

    def jacobian(self, t, c):
        self.njev += 1
        return self._ask(b"j", t, c, self._n * self._n).reshape(self._n, self._n)


def _recv_exact(conn, size: int) -> bytes:
    chunks, got = [], 0
    while got < size:
        chunk = conn.recv(min(1 << 20, size - got))
        if not chunk:
            raise ConnectionError("the verifier closed the connection")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _solve(socket_path: str, cases_path: str) -> int:
    import json
    import os
    import socket
    import struct

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    with open(cases_path, encoding="utf-8") as handle:
        cases = json.load(handle)
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(socket_path)
    sys.path.insert(0, "/app")
    import numpy as np

    from kinetics.solver import integrate

    for index, case in enumerate(cases):
        model = CountedModel(conn, index, case["n"])
        try:
            result = integrate(model, np.array(case["y0"], dtype=float), np.array(case["t_out"], dtype=float),
                               rtol=case["rtol"], atol=case["atol"])
            states = np.ascontiguousarray(result.states, dtype=np.float64)
            if states.shape != (len(case["t_out"]), case["n"]):
                raise ValueError(f"states have shape {states.shape}")
        except Exception as exc:  # a failed case, reported as such
            print(f"case {index}: {type(exc).__name__}: {exc}", file=sys.stderr)
            conn.sendall(b"x" + struct.pack("<Id", index, 0.0))
            continue
        conn.sendall(b"r" + struct.pack("<Id", index, 0.0) + states.tobytes())
    conn.close()
    return 0


def main(argv: list[str]) -> int:
    integrate_dir, mode = argv[1], argv[2]
    _install_guard(integrate_dir)
    if mode == "solve":
        return _solve(argv[3], argv[4])
    import os
    import runpy

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.argv = argv[3:]
    runpy.run_path(argv[3], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
