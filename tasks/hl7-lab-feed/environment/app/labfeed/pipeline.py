# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Read a feed directory and apply every observation in arrival order."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from labfeed import catalog, ranges, values
from labfeed.framing import split_messages
from labfeed.hl7 import REPETITION, Message, Segment
from labfeed.store import Result, ResultStore
from labfeed.timestamps import age_in_years, iso_utc, parse_date, to_utc

STATUSES = {"P", "F", "C", "D", "X"}
COUNT_KEYS = ["files", "messages", "skipped", "duplicates", "rejected", "processed", "observations",
              "unknown_status", "unmapped", "unit_errors"]


@dataclass
class Outcome:
    store: ResultStore = field(default_factory=ResultStore)
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNT_KEYS, 0))
    patients: set[str] = field(default_factory=set)


def feed_files(feed_dir: Path) -> list[Path]:
    return sorted(feed_dir.glob("*.hl7"))


def patient_of(pid: Segment) -> tuple[str, str, str]:
    """(patient id AUTHORITY:MRN, sex, birth date) from PID-3, PID-8, PID-7."""
    identifier = pid.field(3).split(REPETITION)[0].split("^")
    identifier += [""] * (5 - len(identifier))
    sex = "M" if pid.value(8) == "M" else "F"
    return f"{identifier[3]}:{identifier[0]}", sex, pid.value(7)


class FeedProcessor:
    def __init__(self) -> None:
        self.outcome = Outcome()
        self.table = ranges.RangeTable(ranges.load())
        self.seen_ids: list[str] = []

    def message(self, msg: Message) -> None:
        counts = self.outcome.counts
        msh = msg.header
        if msh.value(9, 1) != "ORU":
            counts["skipped"] += 1
            return
        control_id = msh.value(10)
        if control_id in self.seen_ids:
            counts["duplicates"] += 1
            return
        self.seen_ids.append(control_id)
        pids = [s for s in msg.segments if s.name == "PID"]
        if not pids:
            counts["rejected"] += 1
            return
        counts["processed"] += 1
        patient_id, sex, birth = patient_of(pids[0])
        self.outcome.patients.add(patient_id)
        sender = msh.value(4)
        order_id, order_time = None, ""
        for seg in msg.segments[1:]:
            if seg.name == "OBR":
                order_id = seg.value(3) or seg.value(2)
                order_time = seg.value(7)
            elif seg.name == "OBX":
                counts["observations"] += 1
                if order_id is not None:
                    self.observation(seg, patient_id, sex, birth, sender, order_id, order_time or msh.value(7),
                                     control_id)

    def observation(self, obx: Segment, patient_id: str, sex: str, birth: str, sender: str, order_id: str,
                    when: str, control_id: str) -> None:
        counts = self.outcome.counts
        status = obx.value(11)
        if status not in STATUSES:
            counts["unknown_status"] += 1
            return
        analyte = catalog.BY_LOINC.get(obx.value(3, 1))
        if analyte is None:
            counts["unmapped"] += 1
            return
        moment = to_utc(when)
        observed_at = iso_utc(moment) if moment else ""
        value, flag = "", ""
        number = values.parse_number(obx.field(5))
        if number is not None:
            factor = catalog.factor_for(analyte, obx.value(6))
            value = values.convert(number, factor, analyte.decimals)
            born = parse_date(birth)
            if born and moment:
                row = self.table.lookup(analyte.code, sex, age_in_years(born, moment.date()))
                flag = ranges.flag(float(value), row)
        self.outcome.store.apply(Result(patient_id, analyte.code, observed_at, value, analyte.unit, flag, status,
                                        sender, order_id, control_id))


def run_feed(feed_dir: Path) -> Outcome:
    processor = FeedProcessor()
    for path in feed_files(feed_dir):
        processor.outcome.counts["files"] += 1
        for segments in split_messages(path.read_bytes()):
            processor.outcome.counts["messages"] += 1
            processor.message(Message(segments))
    return processor.outcome
