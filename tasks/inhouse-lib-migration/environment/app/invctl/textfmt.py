# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Plain-text tables."""


def table(headers, rows, align=None):
    """Render rows as a fixed-width table; `align` is a string of 'l'/'r' per column."""
    rows = [[str(cell) for cell in row] for row in rows]
    align = align or "l" * len(headers)
    widths = [len(h) for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))

    def line(cells):
        parts = []
        for i, cell in enumerate(cells):
            parts.append(cell.rjust(widths[i]) if align[i] == "r" else cell.ljust(widths[i]))
        return "  ".join(parts).rstrip()

    out = [line(headers), line(["-" * w for w in widths])]
    out.extend(line(row) for row in rows)
    return "\n".join(out)
