# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Level files in the XSB text format.

    #  wall            @  player            $  box            .  goal
    +  player on goal  *  box on goal       space, '-' or '_'  floor

Lines starting with ';' are comments. Trailing spaces may be missing, so rows can have different lengths;
cells beyond the end of a row are outside the level. Row 0 is the first map line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# direction letter -> (row delta, column delta)
DIRECTIONS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
FLOOR_CHARS = " -_"
MAP_CHARS = set("#@+$*." + FLOOR_CHARS)

Cell = tuple  # (row, column)


class LevelError(ValueError):
    pass


@dataclass
class Level:
    walls: frozenset
    goals: frozenset
    boxes: frozenset
    player: tuple
    height: int
    width: int
    title: str = ""
    comments: list = field(default_factory=list)

    def is_wall(self, cell: Cell) -> bool:
        r, c = cell
        return cell in self.walls or not (0 <= r < self.height and 0 <= c < self.width)

    def floor_cells(self) -> list:
        """Every non-wall cell reachable by the player when boxes are ignored, sorted."""
        seen = {self.player}
        stack = [self.player]
        while stack:
            r, c = stack.pop()
            for dr, dc in DIRECTIONS.values():
                nxt = (r + dr, c + dc)
                if nxt not in seen and not self.is_wall(nxt):
                    seen.add(nxt)
                    stack.append(nxt)
        return sorted(seen)

    def to_text(self) -> str:
        lines = [f"; {line}" for line in self.comments]
        for r in range(self.height):
            row = []
            for c in range(self.width):
                cell = (r, c)
                if cell in self.walls:
                    row.append("#")
                elif cell == self.player:
                    row.append("+" if cell in self.goals else "@")
                elif cell in self.boxes:
                    row.append("*" if cell in self.goals else "$")
                elif cell in self.goals:
                    row.append(".")
                else:
                    row.append(" ")
            lines.append("".join(row).rstrip())
        return "\n".join(lines) + "\n"


def expand_rle(line: str) -> list:
    """Map rows of one line: a count before a character repeats it, '|' separates rows (SOK notation)."""
    if not any(ch.isdigit() or ch == "|" for ch in line):
        return [line]
    rows, row, count = [], [], ""
    for ch in line.rstrip():
        if ch.isdigit():
            count += ch
        elif ch == "|":
            if count:
                raise LevelError(f"count {count} before a row separator")
            rows.append("".join(row))
            row = []
        else:
            row.append(ch * int(count or 1))
            count = ""
    if count:
        raise LevelError(f"count {count} at the end of a row")
    rows.append("".join(row))
    return rows


def parse_level(text: str) -> Level:
    comments, rows = [], []
    for raw in text.splitlines():
        line = raw.rstrip("\r\n")
        if line.lstrip().startswith(";"):
            comments.append(line.lstrip()[1:].strip())
            continue
        if not line.strip():
            if rows:
                break  # a blank line ends the map
            continue
        rows.extend(expand_rle(line))
    if not rows:
        raise LevelError("no map lines")
    walls, goals, boxes, players = set(), set(), set(), []
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch not in MAP_CHARS:
                raise LevelError(f"row {r}: unknown character {ch!r}")
            if ch == "#":
                walls.add((r, c))
            if ch in ".+*":
                goals.add((r, c))
            if ch in "$*":
                boxes.add((r, c))
            if ch in "@+":
                players.append((r, c))
    if len(players) != 1:
        raise LevelError(f"expected one player, found {len(players)}")
    if len(boxes) != len(goals) or not boxes:
        raise LevelError(f"{len(boxes)} boxes but {len(goals)} goals")
    title = next((c.split(":", 1)[1].strip() for c in comments if c.lower().startswith("title:")), "")
    return Level(
        walls=frozenset(walls),
        goals=frozenset(goals),
        boxes=frozenset(boxes),
        player=players[0],
        height=len(rows),
        width=max(len(line) for line in rows),
        title=title,
        comments=comments,
    )
