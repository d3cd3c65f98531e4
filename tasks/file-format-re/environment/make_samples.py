# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Build-time: write the sample trees and encode them with the reference encoder (deterministic)."""
import os
import random
import subprocess
import sys

SAMPLES = {
    "hello": ([], {"hello.txt": b"Hello, LHPK!\n"}),
    "docs": ([], None),
    "big": (["--chunk-size", "4096"], None),
    "raw": (["--store", "--no-index"], None),
}


def tree(name, rnd):
    if name == "docs":
        return {
            "README.md": b"<!-- lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary -->\n# Project\n\n" + b"Some text that repeats. " * 60 + b"\n",
            "docs/guide.txt": b"".join(b"line %d of the guide\n" % i for i in range(300)),
            "docs/empty.txt": b"",
            "data/table.csv": b"id,value\n" + b"".join(b"%d,%d\n" % (i, rnd.randrange(10**6)) for i in range(400)),
        }
    if name == "big":
        return {
            "blob.bin": bytes(rnd.randrange(256) for _ in range(10000)),
            "log/app.log": b"".join(b"2024-01-%02d INFO request %d ok\n" % (i % 28 + 1, i) for i in range(900)),
        }
    if name == "raw":
        return {"a/b/c.txt": b"deep file\n", "x.bin": bytes(range(256)) * 3, "z.txt": b"z" * 200}
    raise KeyError(name)


def main(out, encoder):
    rnd = random.Random(1234)
    for name, (flags, files) in SAMPLES.items():
        files = files or tree(name, rnd)
        root = os.path.join(out, name)
        for rel, data in files.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as h:
                h.write(data)
        subprocess.run([sys.executable, encoder, *flags, root, os.path.join(out, name + ".lhpk")], check=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
