# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Read a feed directory and apply every accepted observation in arrival order."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from labfeed import catalog, ranges, values
from labfeed.framing import split_messages
from labfeed.hl7 import Message, Segment
from labfeed.store import Result, ResultStore
from labfeed.timestamps import completed_years, iso_utc, parse_date, parse_offset, to_utc

STATUSES = {"P", "F", "C", "D", "X"}
COUNT_KEYS = ["files", "messages", "skipped_messages", "duplicate_messages", "rejected_messages",
              "processed_messages", "observations", "unknown_status", "unmapped_observations", "unit_errors"]


@dataclass
class Outcome:
    store: ResultStore = field(default_factory=ResultStore)
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNT_KEYS, 0))


@dataclass(frozen=True)
class Patient:
    patient_id: str
    sex: str
    birth: dt.date | None


def feed_files(feed_dir: Path) -> list[Path]:
    return sorted((p for p in feed_dir.iterdir() if p.is_file() and p.name.lower().endswith(".hl7")),
                  key=lambda p: p.name)


def patient_of(pid: Segment, facility: str) -> Patient | None:
    for rep in range(len(pid.repetitions(3))):
        comps = pid.components(3, rep)
        comps += [""] * (5 - len(comps))
        if comps[4] == "MR" and comps[0]:
            authority = comps[3] or facility
            sex = pid.value(8)
            return Patient(f"{authority}:{comps[0]}", sex if sex in ("M", "F") else "U", parse_date(pid.value(7)))
    return None


def analyte_of(obx: Segment) -> catalog.Analyte | None:
    comps = obx.components(3) + [""] * 6
    for code, system in ((comps[0], comps[2]), (comps[3], comps[5])):
        if system == "LN" and code in catalog.BY_LOINC:
            return catalog.BY_LOINC[code]
    return None


class FeedProcessor:
    def __init__(self) -> None:
        self.outcome = Outcome()
        self.table = ranges.RangeTable(ranges.load())
        self.seen: set[tuple[str, str, str]] = set()

    def message(self, msg: Message) -> None:
        counts = self.outcome.counts
        msh = msg.header
        if (msh.value(9, 1), msh.value(9, 2)) != ("ORU", "R01") or msh.value(11) != "P":
            counts["skipped_messages"] += 1
            return
        key = (msh.value(3), msh.value(4), msh.value(10))
        if key in self.seen:
            counts["duplicate_messages"] += 1
            return
        self.seen.add(key)
        facility = msh.value(4)
        pids = [s for s in msg.segments if s.name == "PID"]
        patient = patient_of(pids[0], facility) if pids else None
        if patient is None:
            counts["rejected_messages"] += 1
            return
        counts["processed_messages"] += 1
        default_offset = parse_offset(msh.value(7))
        order_id, order_time = None, ""
        for seg in msg.segments[1:]:
            if seg.name == "OBR":
                order_id = seg.value(3) or seg.value(2)
                order_time = seg.value(7)
            elif seg.name == "OBX":
                counts["observations"] += 1
                if order_id is not None:
                    self.observation(seg, patient, facility, order_id,
                                     seg.value(14) or order_time or msh.value(7), default_offset, msh.value(10))

    def observation(self, obx: Segment, patient: Patient, sender: str, order_id: str, when: str,
                    default_offset: dt.timedelta | None, control_id: str) -> None:
        counts = self.outcome.counts
        status = obx.value(11)
        if status not in STATUSES:
            counts["unknown_status"] += 1
            return
        analyte = analyte_of(obx)
        if analyte is None:
            counts["unmapped_observations"] += 1
            return
        moment = to_utc(when, default_offset)
        observed_at = iso_utc(moment) if moment else ""
        value, flag = "", ""
        if status in ("P", "F", "C"):
            quantity = values.parse_value(obx.value(2), obx.components(5))
            if quantity.kind != "text":
                factor = catalog.factor_for(analyte, obx.value(6))
                if factor is None:
                    counts["unit_errors"] += 1
                    return
                low = values.rounded(quantity.low * factor, analyte.decimals)
                if quantity.kind == "range":
                    high = values.rounded(quantity.high * factor, analyte.decimals)
                    value = f"{values.fmt(low)}-{values.fmt(high)}"
                else:
                    value = quantity.comparator + values.fmt(low)
                    age = completed_years(patient.birth, moment.date()) if patient.birth and moment else None
                    flag = ranges.flag(low, self.table.lookup(analyte.code, patient.sex, age))
        result = Result(patient.patient_id, analyte.code, observed_at, value, analyte.unit, flag, status, sender,
                        order_id)
        self.outcome.store.apply(status, result, control_id)


def run_feed(feed_dir: Path) -> Outcome:
    processor = FeedProcessor()
    for path in feed_files(feed_dir):
        processor.outcome.counts["files"] += 1
        for raw in split_messages(path.read_bytes()):
            processor.outcome.counts["messages"] += 1
            processor.message(Message(raw))
    return processor.outcome
