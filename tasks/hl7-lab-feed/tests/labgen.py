# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Seeded generator of HL7 v2 ORU^R01 laboratory feeds (a directory of files) for the verifier.

A feed is drawn as plain data (senders, patients, orders, observations, follow-up messages) and then written
with each sender's conventions: delimiters, character set, escapes, segment terminators, batch envelopes,
MLLP framing. Knobs switch on each kind of difficulty; without any, a feed is "clean" (standard delimiters,
CR terminators, canonical units, plain numbers, final results sent once, full UTC timestamps, adult patients).
Only Random.random() is drawn, so a seed gives the same feed on every Python version.
"""
from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

KNOBS = frozenset({"delims", "framing", "corrections", "duplicates", "units", "values", "demographics",
                   "timestamps", "identifiers"})


# ---------------------------------------------------------------- random helpers (random() only)
def randint(rng: random.Random, lo: int, hi: int) -> int:
    return lo + min(int(rng.random() * (hi - lo + 1)), hi - lo)


def pick(rng: random.Random, seq):
    return seq[randint(rng, 0, len(seq) - 1)]


def chance(rng: random.Random, p: float) -> bool:
    return rng.random() < p


def shuffled(rng: random.Random, seq: list) -> list:
    items = list(seq)
    for i in range(len(items) - 1, 0, -1):
        j = randint(rng, 0, i)
        items[i], items[j] = items[j], items[i]
    return items


# ---------------------------------------------------------------- analytes as senders report them
@dataclass(frozen=True)
class UnitForm:
    factor: Decimal
    decimals: tuple[int, ...]  # decimals a sender reports in this unit
    spellings: tuple[str, ...]  # first: the standard spelling; others: accepted variants


COUNT = UnitForm(Decimal(1), (1, 2), ("10*9/L", "10^9/L", "/nL", "10*3/uL", "10^3/uL", "K/uL", "k/uL"))
PLT_COUNT = UnitForm(Decimal(1), (0,), COUNT.spellings)
ANALYTES = {
    # code: (canonical decimals, LOINC codes, name, sampling (low, high, crit_low, crit_high, floor, ceil),
    #        unit forms (canonical first), units that are not in the table)
    "GLU": (1, ("2345-7", "2339-0", "14749-6", "15074-8"), "Glucose", (3.9, 6.1, 2.5, 25.0, 0.8, 40.0),
            [UnitForm(Decimal(1), (1, 2), ("mmol/L", "mmol/l", "MMOL/L")),
             UnitForm(Decimal("0.0555"), (0,), ("mg/dL", "mg/dl", "MG/DL"))], ["mg/L", "mmol/mol"]),
    "CREA": (0, ("2160-0", "14682-9"), "Creatinine", (44, 106, None, 500, 10, 1400),
             [UnitForm(Decimal(1), (0,), ("umol/L", "\u00b5mol/L", "\u03bcmol/L", "UMOL/L", "umol/l")),
              UnitForm(Decimal("88.4"), (2,), ("mg/dL", "mg/dl"))], ["mmol/L", "mg/L"]),
    "K": (1, ("2823-3", "6298-4"), "Potassium", (3.5, 5.1, 2.8, 6.2, 1.8, 8.5),
          [UnitForm(Decimal(1), (1, 2), ("mmol/L", "mmol/l")), UnitForm(Decimal(1), (1,), ("mEq/L", "meq/L", "MEQ/L"))],
          ["mg/dL", "mmol"]),
    "NA": (0, ("2951-2", "2947-0"), "Sodium", (135, 145, 120, 160, 105, 180),
           [UnitForm(Decimal(1), (0, 1), ("mmol/L", "MMOL/L")), UnitForm(Decimal(1), (0,), ("mEq/L", "meq/l"))],
           ["mg/dL"]),
    "CA": (2, ("17861-6", "2000-8"), "Calcium", (2.15, 2.55, 1.65, 3.25, 1.2, 4.0),
           [UnitForm(Decimal(1), (2,), ("mmol/L", "mmol/l")), UnitForm(Decimal("0.2495"), (1,), ("mg/dL", "mg/dl")),
            UnitForm(Decimal("0.5"), (1, 2), ("mEq/L", "meq/L"))], ["mg/L", "%"]),
    "HGB": (0, ("718-7", "30313-1"), "Hemoglobin", (120, 170, 70, 200, 40, 230),
            [UnitForm(Decimal(1), (0,), ("g/L", "g/l")), UnitForm(Decimal(10), (1,), ("g/dL", "g/dl", "G/DL")),
             UnitForm(Decimal("16.11"), (1, 2), ("mmol/L", "mmol/l"))], ["%", "mg/dL"]),
    "WBC": (1, ("6690-2", "26464-8"), "Leukocytes", (4.0, 11.0, 2.0, 30.0, 0.3, 60.0), [COUNT], ["/uL", "10*6/L"]),
    "PLT": (0, ("777-3", "26515-7"), "Platelets", (150, 400, 50, 1000, 5, 1500), [PLT_COUNT], ["/uL", "%"]),
    "TNT": (0, ("67151-1", "6598-7"), "Troponin T", (0, 14, None, 100, 2, 3000),
            [UnitForm(Decimal(1), (0,), ("ng/L", "ng/l")), UnitForm(Decimal(1), (0,), ("pg/mL", "pg/ml")),
             UnitForm(Decimal(1000), (3,), ("ug/L", "\u00b5g/L")), UnitForm(Decimal(1000), (3,), ("ng/mL", "ng/ml"))],
            ["ng/dL", "%"]),
    "INR": (1, ("6301-6", "34714-6"), "INR", (0.8, 1.2, None, 5.0, 0.8, 9.0),
            [UnitForm(Decimal(1), (1, 2), ("{INR}", "{ratio}", "", "{inr}"))], ["s", "%"]),
}
PANELS = [("BMP", ["GLU", "CREA", "K", "NA", "CA"]), ("CBC", ["HGB", "WBC", "PLT"]), ("TROP", ["TNT"]),
          ("COAG", ["INR"]), ("LYTES", ["K", "NA"]), ("GLUC", ["GLU"])]
UNMAPPED_CODES = [("2093-3", "Cholesterol", "LN"), ("GLUC", "Glucose POC", "99LAB"), ("2345-7", "Glucose", "L"),
                  ("4548-4", "HbA1c", "LN"), ("NOTE", "Comment", "99LAB")]
TEXT_VALUES = ["HEMOLYZED", "Specimen clotted", "See comment", "QNS", "Not detected", "Pending review"]

DEFAULT_DELIMS = "|^~\\&"
ODD_DELIMS = ["|^~\\&#", "!^~\\&", "|@~\\&", "|^*\\&", "|^~!&", "#:*\\/", "|^~/&", "$^~\\%"]
FACILITIES = ["STMARY", "CITYGEN", "NORTHCL", "WESTVAL", "RIVERSIDE", "OAKPARK", "LAKEVIEW", "HILLCREST"]
ODD_FACILITIES = ["ST MARY&JOSEPH", "LAB#2/NORTH", "CITY^GEN", "A&E~WEST", "OAK!PARK", "RIVER:SIDE", "HILL$CREST",
                  "LAKE\\VIEW", "WEST@VAL", "SAINT*ANNE"]
APPS = ["LABSYS", "CERNLAB", "ORION", "MEDLAB", "SUNQ", "WINPATH", "LIS2"]
FAMILY_NAMES = ["SMITH", "NGUYEN", "GARCIA", "MULLER", "OKAFOR", "TANAKA", "ROSSI", "KOWALSKI", "SILVA", "BROWN"]
GIVEN_NAMES = ["ANNA", "JOHN", "MARIA", "WEI", "FATIMA", "LUCA", "SARA", "OMAR", "ELLEN", "PAVEL"]


# ---------------------------------------------------------------- plain feed data
@dataclass
class Sender:
    app: str
    facility: str
    authority: str  # MR assigning authority namespace ("" = none given)
    oid: str
    offset_min: int | None  # the sender's local UTC offset; None = writes no offsets
    delims: str = DEFAULT_DELIMS
    charset: str = ""  # MSH-18 ("" or "UNICODE UTF-8": UTF-8; "8859/1": Latin-1)
    terminator: str = "\r"
    control_prefix: str = ""
    next_control: int = 1
    hexify: float = 0.0  # share of characters of text fields written as \Xhh\
    comma_decimals: bool = False


@dataclass
class Patient:
    mrn: str
    authority: str
    sex: str
    birth: str  # PID-7 as written
    other_ids: list[tuple[str, str, str]] = field(default_factory=list)  # (id, authority, type) before/after MR
    mr_position: int = 0
    no_mr: bool = False
    birth_drawn: bool = True
    authority_oid: bool = False
    name: tuple[str, str] = ("DOE", "JANE")


@dataclass
class Obs:
    code: tuple[str, ...]  # OBX-3 components
    value_type: str
    value: list[str]  # OBX-5 components
    unit: str
    status: str
    obx14: str = ""
    ref_range: str = ""
    sender_flag: str = ""
    analyte: str | None = None
    canonical: Decimal | None = None
    form: tuple[UnitForm, str] | None = None


@dataclass
class Order:
    placer: str
    filler: str
    service: tuple[str, str]
    collected: str  # OBR-7 as written
    obs: list[Obs]


@dataclass
class Msg:
    sender: Sender
    when: dt.datetime  # UTC, for file placement
    msh7: str
    control: str
    kind: tuple[str, str] = ("ORU", "R01")
    processing: str = "P"
    patient: Patient | None = None
    orders: list[Order] = field(default_factory=list)
    extra: list[list] = field(default_factory=list)  # extra segments (e.g. MSA) as field lists
    notes: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- values
def _uniform(rng: random.Random, lo: float, hi: float) -> float:
    return lo + (hi - lo) * rng.random()


def canonical_value(rng: random.Random, code: str, category: str) -> Decimal:
    """A true value in the canonical unit: 'normal', 'abnormal' (outside the adult interval) or 'critical'."""
    _dec, _codes, _name, (low, high, clow, chigh, floor, ceil), _forms, _bad = ANALYTES[code]
    if category == "normal":
        x = _uniform(rng, low, high)
    elif category == "abnormal":
        if low > floor and chance(rng, 0.5):
            x = _uniform(rng, clow if clow is not None else floor, low)
        else:
            x = _uniform(rng, high, chigh if chigh is not None else ceil)
    else:
        if clow is not None and (chigh is None or chance(rng, 0.5)):
            x = _uniform(rng, floor, clow)
        else:
            x = _uniform(rng, chigh, ceil)
    return Decimal(repr(round(max(x, floor), 4)))


def is_critical(code: str, canonical: Decimal | None) -> bool:
    _low, _high, clow, chigh, _floor, _ceil = ANALYTES[code][3]
    if canonical is None:
        return False
    return (clow is not None and canonical < Decimal(str(clow))) or (chigh is not None and canonical > Decimal(str(chigh)))


def _tie(value: Decimal, decimals: int) -> bool:
    scaled = value.scaleb(decimals)
    return scaled - scaled.to_integral_value(rounding="ROUND_FLOOR") == Decimal("0.5")


def report_in_unit(rng: random.Random, code: str, canonical: Decimal, form: UnitForm) -> Decimal:
    """The value a sender reports in `form`, never exactly half-way at the canonical rounding digit."""
    dec = ANALYTES[code][0]
    places = pick(rng, form.decimals)
    step = Decimal(1).scaleb(-places)
    reported = (canonical / form.factor).quantize(step, rounding=ROUND_HALF_UP)
    if reported <= 0:
        reported = step
    while _tie(reported * form.factor, dec):
        reported += step
    return reported


def _num_text(value: Decimal, comma: bool) -> str:
    text = f"{value:f}"
    return text.replace(".", ",") if comma else text


# ---------------------------------------------------------------- timestamps
def _offset_text(minutes: int) -> str:
    sign = "-" if minutes < 0 else "+"
    minutes = abs(minutes)
    return f"{sign}{minutes // 60:02d}{minutes % 60:02d}"


def dtm(rng: random.Random, utc: dt.datetime, sender: Sender, knobs: frozenset, role: str,
        msh_offset: bool = True) -> str:
    """utc as the sender writes it. Without the timestamps knob: full seconds, '+0000' or no offset."""
    if "timestamps" not in knobs:
        text = utc.strftime("%Y%m%d%H%M%S")
        return text + ("+0000" if sender.offset_min == 0 else "")
    offset = sender.offset_min or 0
    if role != "msh" and chance(rng, 0.25):
        offset = pick(rng, [-300, -240, 0, 60, 120, 330, 600, -210])
    local = utc + dt.timedelta(minutes=offset)
    precision = pick(rng, ["min", "sec", "sec", "frac"] if role != "obr" else ["min", "sec", "frac", "hour"])
    text = local.strftime({"hour": "%Y%m%d%H", "min": "%Y%m%d%H%M", "sec": "%Y%m%d%H%M%S",
                           "frac": "%Y%m%d%H%M%S"}[precision])
    if precision == "frac":
        text += "." + str(randint(rng, 0, 9999)).rjust(4, "0")[: randint(rng, 1, 4)]
    explicit = role == "msh" or not msh_offset or offset != (sender.offset_min or 0) or chance(rng, 0.4)
    return text + (_offset_text(offset) if explicit else "")


# ---------------------------------------------------------------- drawing a feed
class FeedBuilder:
    def __init__(self, rng: random.Random, knobs: frozenset, n_senders: int, per_sender: int) -> None:
        self.rng, self.knobs = rng, knobs
        self.base = dt.datetime(randint(rng, 2022, 2025), randint(rng, 1, 12), randint(rng, 1, 28), 6, 0)
        self.seq = randint(rng, 10000, 90000)
        self.senders = self._senders(n_senders)
        self.per_sender = per_sender
        self.messages: list[Msg] = []
        self.used_mrns: list[str] = []

    def has(self, knob: str) -> bool:
        return knob in self.knobs

    def next_id(self) -> int:
        self.seq += randint(self.rng, 1, 7)
        return self.seq

    # -- senders and patients
    def _senders(self, n: int) -> list[Sender]:
        rng = self.rng
        facilities = shuffled(rng, FACILITIES)
        odd = shuffled(rng, ODD_FACILITIES)
        apps = shuffled(rng, APPS)
        delim_sets = shuffled(rng, ODD_DELIMS)
        terminators = shuffled(rng, ["\r\n", "\n", "\r", "\n"])
        senders = []
        for i in range(n):
            facility = facilities[i]
            if self.has("delims") and i % 2 == 0:
                facility = odd[i]
            plain = "".join(ch for ch in facility if ch.isalnum())
            authority = pick(rng, [plain, plain[:3] + "H", plain + "MRN"])
            if self.has("identifiers") and i == 1:
                authority = ""
            offset = 0 if chance(rng, 0.5) else None
            if self.has("timestamps"):
                offset = [-300, 60, 330, -420, 600, 0][(i + randint(rng, 0, 5)) % 6] if i else pick(rng, [-300, 120, 600])
            sender = Sender(apps[i], facility, authority, f"2.16.840.1.113883.3.{randint(rng, 100, 9999)}", offset)
            if self.has("delims"):
                sender.delims = delim_sets[i % len(delim_sets)]
                sender.charset = ["8859/1", "UNICODE UTF-8", ""][i % 3]
                sender.hexify = 0.03
            if self.has("framing"):
                sender.terminator = terminators[i % len(terminators)]
            sender.control_prefix = "" if self.has("duplicates") else apps[i][:2] + str(i)
            sender.next_control = 1000 if self.has("duplicates") else randint(rng, 1, 90000)
            sender.comma_decimals = self.has("values") and i % 2 == 1
            senders.append(sender)
        if self.has("duplicates") and n >= 3:  # a second application at the first sender's facility
            twin = senders[-1]
            twin.facility, twin.authority = senders[0].facility, senders[0].authority
            twin.delims, twin.charset = senders[0].delims, senders[0].charset
        return senders

    def control(self, sender: Sender) -> str:
        sender.next_control += 1
        return f"{sender.control_prefix}{sender.next_control}"

    def birth_for_age(self, years: int, on: dt.date) -> dt.date:
        anniversary_year = on.year - years
        day = randint(self.rng, 0, 364)
        birth = dt.date(anniversary_year, 1, 1) + dt.timedelta(days=day)
        if (birth.month, birth.day) > (on.month, on.day):  # not yet had this year's birthday: one year older
            birth = birth.replace(year=birth.year - 1) if not (birth.month == 2 and birth.day == 29) else birth - dt.timedelta(days=366)
        return birth

    def patient(self, sender: Sender) -> Patient:
        rng = self.rng
        if self.has("identifiers") and self.used_mrns and chance(rng, 0.3):
            mrn = pick(rng, self.used_mrns)  # the same MRN at another hospital: another patient
        else:
            mrn = str(randint(rng, 1, 9999999)).rjust(pick(rng, [7, 8, 6]), "0")
            self.used_mrns.append(mrn)
        sex = pick(rng, ["M", "F"])
        on = self.base.date()
        birth = self.birth_for_age(randint(rng, 25, 60), on)
        patient = Patient(mrn, sender.authority, sex, birth.strftime("%Y%m%d"),
                          name=(pick(rng, FAMILY_NAMES), pick(rng, GIVEN_NAMES)))
        if self.has("demographics"):
            patient.sex = pick(rng, ["M", "F", "U", "O", "", "A", "F", "M"])
            patient.birth_drawn = False  # drawn with the first order (depends on its date)
        if self.has("identifiers"):
            others = [(f"{randint(rng, 100, 999)}-{randint(rng, 10, 99)}-{randint(rng, 1000, 9999)}", "SSA", "SS"),
                      (f"V{randint(rng, 10000, 99999)}", sender.authority or "", "VN"),
                      (f"{randint(rng, 100000, 999999)}", "NHS", "NH")]
            patient.other_ids = others[: randint(rng, 1, 3)]
            patient.mr_position = randint(rng, 0, len(patient.other_ids))
            patient.no_mr = chance(rng, 0.08)
        return patient

    def demographic_birth(self, patient: Patient, observed: dt.date) -> None:
        rng = self.rng
        kind = pick(rng, ["infant", "child", "boundary", "boundary", "elderly", "adult", "leap", "missing", "boundary"])
        if kind == "infant":
            birth = observed - dt.timedelta(days=randint(rng, 2, 330))
        elif kind == "child":
            birth = self.birth_for_age(randint(rng, 2, 16), observed)
        elif kind == "elderly":
            birth = self.birth_for_age(randint(rng, 66, 97), observed)
        elif kind == "adult":
            birth = self.birth_for_age(randint(rng, 19, 63), observed)
        elif kind == "leap":
            year = pick(rng, [y for y in range(observed.year - 70, observed.year - 19) if y % 4 == 0 and y % 100 != 0])
            birth = dt.date(year, 2, 29)
        elif kind == "missing":
            patient.birth = ""
            return
        else:  # an observation a few days before, on or after a birthday that changes the range row
            years = pick(rng, [1, 18, 18, 65, 65])
            shift = randint(rng, -5, 1)  # negative: the birthday is still |shift| days ahead
            anniversary = observed - dt.timedelta(days=shift)
            try:
                birth = anniversary.replace(year=anniversary.year - years)
            except ValueError:
                birth = dt.date(anniversary.year - years, 2, 28)
        text = birth.strftime("%Y%m%d")
        patient.birth = text + (pick(rng, ["", "", "1230", "083015"]))

    # -- observations
    def code_of(self, code: str) -> tuple[str, ...]:
        rng = self.rng
        loinc = pick(rng, ANALYTES[code][1])
        name = ANALYTES[code][2]
        if self.has("identifiers"):
            form = randint(rng, 0, 3)
            if form == 1:
                return (code + "L", name, "99LAB", loinc, name, "LN")
            if form == 2:
                return (loinc, name, "LN", code + "L", name, "99LAB")
        return (loinc, name, "LN")

    def unit_form(self, sender: Sender, code: str) -> tuple[UnitForm, str]:
        rng = self.rng
        forms = ANALYTES[code][4]
        if not self.has("units"):
            return forms[0], forms[0].spellings[0]
        form = pick(rng, forms) if chance(rng, 0.75) else forms[0]
        spelling = pick(rng, form.spellings) if chance(rng, 0.5) else form.spellings[0]
        if sender.charset == "8859/1" and "\u03bc" in spelling:
            spelling = spelling.replace("\u03bc", "\u00b5")
        return form, spelling

    def category(self) -> str:
        r = self.rng.random()
        crit = 0.18 if self.has("corrections") else 0.08
        return "critical" if r < crit else "abnormal" if r < crit + 0.25 else "normal"

    def obs(self, sender: Sender, code: str, status: str = "F", canonical: Decimal | None = None,
            form: tuple[UnitForm, str] | None = None, obx3: tuple[str, ...] | None = None) -> Obs:
        rng = self.rng
        if canonical is None:
            canonical = canonical_value(rng, code, self.category())
        form_, spelling = form or self.unit_form(sender, code)
        reported = report_in_unit(rng, code, canonical, form_)
        comma = sender.comma_decimals and chance(rng, 0.7)
        value_type, value = "NM", [_num_text(reported, comma)]
        if self.has("values"):
            value_type, value = self.value_form(reported, comma, code, form_.factor)
        if self.has("units") and chance(rng, 0.07):
            spelling = pick(rng, ANALYTES[code][5] + ([""] if code != "INR" else []))
        low, high = ANALYTES[code][3][:2]
        flag = "H" if canonical > Decimal(str(high)) else "L" if canonical < Decimal(str(low)) else "N"
        return Obs(obx3 or self.code_of(code), value_type, value, spelling, status,
                   ref_range=f"{low}-{high}", sender_flag=flag, analyte=code, canonical=canonical,
                   form=(form_, spelling))

    def value_form(self, reported: Decimal, comma: bool, code: str, factor: Decimal) -> tuple[str, list[str]]:
        rng = self.rng
        num = _num_text(reported, comma)
        r = rng.random()
        if r < 0.38:
            return pick(rng, ["NM", "NM", "ST"]), [pick(rng, [num, num, f" {num} "])]
        if r < 0.52:
            op = pick(rng, ["<", ">", "<=", ">="])
            return pick(rng, ["NM", "ST"]), [f"{op}{pick(rng, ['', ' '])}{num}"]
        if r < 0.68:
            op = pick(rng, ["", "=", "<", ">", "<=", ">="])
            return "SN", [op, num]
        if r < 0.80:
            step = Decimal(1).scaleb(reported.as_tuple().exponent)
            upper = reported + step * randint(rng, 1, 30)
            while _tie(upper * factor, ANALYTES[code][0]):
                upper += step
            up = _num_text(upper, comma)
            if chance(rng, 0.5):
                return "SN", ["", num, "-", up]
            return pick(rng, ["NM", "ST"]), [f"{num}{pick(rng, ['-', ' - '])}{up}"]
        if r < 0.88:
            return "SN", ["", "1", pick(rng, [":", "/"]), str(randint(rng, 2, 512))]
        return pick(rng, ["ST", "TX"]), [pick(rng, TEXT_VALUES)]

    # -- orders and messages
    def order(self, sender: Sender, patient: Patient, collected: dt.datetime, msh7_has_offset: bool) -> Order:
        rng = self.rng
        panel, codes = pick(rng, PANELS)
        n = self.next_id()
        filler = f"{sender.app[:2]}{n}"
        if self.has("delims") and chance(rng, 0.5):
            filler = pick(rng, [f"{collected:%y}/{n}", f"{sender.app[:2]}-{n}#{randint(rng, 1, 9)}", f"{n}:{randint(rng, 1, 9)}",
                                f"L{n}*A", f"{n}@{sender.app[:3]}", f"{n}!B", f"Q{n}$", f"{n}\\{randint(rng, 1, 9)}"])
        when = self.dtm(collected, sender, "obr", msh7_has_offset)
        observations = [self.obs(sender, code) for code in codes]
        if self.has("identifiers") and chance(rng, 0.3):
            extra = pick(rng, UNMAPPED_CODES)
            observations.insert(randint(rng, 0, len(observations)), Obs(extra, "NM", [str(randint(rng, 1, 300))], "mg/dL", "F"))
        if self.has("timestamps"):
            for ob in observations:
                if chance(rng, 0.3):
                    ob.obx14 = self.dtm(collected - dt.timedelta(minutes=randint(rng, 1, 600)), sender, "obx",
                                        msh7_has_offset)
        return Order(f"P{n - randint(rng, 1, 99)}", filler, (panel, panel + " panel"), when, observations)

    def dtm(self, utc: dt.datetime, sender: Sender, role: str, msh_offset: bool = True) -> str:
        return dtm(self.rng, utc, sender, self.knobs, role, msh_offset)

    def message(self, sender: Sender, patient: Patient, when: dt.datetime, n_orders: int) -> Msg:
        rng = self.rng
        msh7 = self.dtm(when, sender, "msh")
        if self.has("timestamps") and chance(rng, 0.2) and sender.offset_min is None:
            msh7 = when.strftime("%Y%m%d%H%M%S")
        collected = when - dt.timedelta(minutes=randint(rng, 20, 240))
        orders = [self.order(sender, patient, collected, msh7[-5:-4] in "+-") for _ in range(n_orders)]
        if self.has("timestamps") and chance(rng, 0.15):
            orders[0].collected = ""  # no collection time: the message time stands in
        if not patient.birth_drawn:
            patient.birth_drawn = True
            self.demographic_birth(patient, collected.date())
        msg = Msg(sender, when, msh7, self.control(sender), patient=patient, orders=orders)
        if chance(rng, 0.2):
            msg.notes.append(pick(rng, ["Reviewed by lab", "Sample received late", "Repeat requested \\ confirm"]))
        return msg

    # -- follow-up messages: corrections, deletions, cancellations, duplicates, skipped messages
    def follow_up(self, original: Msg, scenario: str, forced_critical: bool = False) -> Msg:
        rng = self.rng
        order = pick(rng, original.orders)
        targets = [ob for ob in order.obs if ob.analyte]
        targets = targets[: randint(rng, 1, len(targets))]
        if forced_critical:
            ob = targets[0]
            ob.canonical = canonical_value(rng, ob.analyte, "critical")
            fresh = self.obs(original.sender, ob.analyte, ob.status, ob.canonical, ob.form, ob.code)
            ob.value_type, ob.value, ob.unit = fresh.value_type, fresh.value, fresh.unit
        new_obs = []
        for ob in targets:
            if scenario in ("cancel", "prelim_final"):
                ob.status = "P"
            new = {"correct": "C", "delete": "D", "cancel": "X", "prelim_final": "F", "late_prelim": "P",
                   "resend_same": "F"}[scenario]
            if new in ("D", "X"):
                new_obs.append(Obs(ob.code, ob.value_type if new == "X" else "", [], "", new))
            elif scenario == "resend_same":
                new_obs.append(Obs(ob.code, ob.value_type, list(ob.value), ob.unit, "F"))
            else:
                critical_before = forced_critical or is_critical(ob.analyte, ob.canonical)
                category = "normal" if critical_before or chance(rng, 0.5) else "critical"
                new_obs.append(self.obs(original.sender, ob.analyte, new, canonical_value(rng, ob.analyte, category),
                                        ob.form, ob.code))
        when = original.when + dt.timedelta(minutes=randint(rng, 30, 1800))
        sender = original.sender
        follow = Order(order.placer, order.filler, order.service, order.collected, new_obs)
        return Msg(sender, when, self.dtm(when, sender, "msh"), self.control(sender), patient=original.patient,
                   orders=[follow])

    def duplicate(self, original: Msg, altered: bool) -> Msg:
        copy = Msg(original.sender, original.when + dt.timedelta(minutes=randint(self.rng, 1, 300)), original.msh7,
                   original.control, patient=original.patient, orders=original.orders, notes=list(original.notes))
        if altered:
            order = original.orders[0]
            obs = [self.obs(original.sender, ob.analyte, ob.status, None, ob.form, ob.code) if ob.analyte else ob
                   for ob in order.obs]
            copy.orders = [Order(order.placer, order.filler, order.service, order.collected, obs), *original.orders[1:]]
        return copy

    def skipped(self, sender: Sender, kind: str, when: dt.datetime, patient: Patient) -> Msg:
        msh7 = self.dtm(when, sender, "msh")
        if kind == "ACK":
            return Msg(sender, when, msh7, self.control(sender), ("ACK", "R01"), extra=[["MSA", "AA", f"X{self.next_id()}"]])
        if kind == "ADT":
            return Msg(sender, when, msh7, self.control(sender), ("ADT", "A08"), patient=patient)
        if kind == "ORM":
            return Msg(sender, when, msh7, self.control(sender), ("ORM", "O01"), patient=patient,
                       orders=[self.order(sender, patient, when, True)])
        msg = self.message(sender, patient, when, 1)
        if kind == "TRAINING":
            msg.processing = "T"
        else:
            msg.kind = ("ORU", "R30")
        return msg

    def build(self) -> None:
        rng = self.rng
        for index, sender in enumerate(self.senders):
            pool = [self.patient(sender) for _ in range(max(3, self.per_sender // 3))]
            clock = self.base + dt.timedelta(minutes=randint(rng, 0, 120))
            stream: list[Msg] = []
            for _ in range(self.per_sender):
                clock += dt.timedelta(minutes=randint(rng, 3, 90))
                stream.append(self.message(sender, pick(rng, pool), clock, 1 if chance(rng, 0.7) else 2))
            extra: list[Msg] = []
            if self.has("corrections"):
                scenarios = ["correct", "delete", "cancel", "prelim_final", "late_prelim", "resend_same"]
                for i, msg in enumerate(stream):
                    if i == 0 and index == 0:
                        extra.append(self.follow_up(msg, pick(rng, ["correct", "delete"]), forced_critical=True))
                    elif chance(rng, 0.35):
                        extra.append(self.follow_up(msg, pick(rng, scenarios)))
                        if chance(rng, 0.1):
                            extra[-1].orders[0].obs[0].status = pick(rng, ["I", "R", "S", "W", ""])
            if self.has("duplicates"):
                for i, msg in enumerate(stream):
                    if (i == 1 and index == 0) or chance(rng, 0.08):
                        extra.append(self.duplicate(msg, altered=(i == 1 and index == 0) or chance(rng, 0.5)))
            if self.has("framing"):
                kinds = ["ACK", "ADT", "ORM", "TRAINING", "R30"]
                for k, kind in enumerate(kinds):
                    if k % len(self.senders) == index or chance(rng, 0.1):
                        extra.append(self.skipped(sender, kind, pick(rng, stream).when + dt.timedelta(minutes=1),
                                                  pick(rng, pool)))
            if index == 0:
                extra += self.forced(sender, pool, stream)
            self.messages += sorted(stream + extra, key=lambda m: m.when)

    def forced(self, sender: Sender, pool: list[Patient], stream: list[Msg]) -> list[Msg]:
        """One message per knob that always exercises it with a critical value (fixed difficulty per family)."""
        rng = self.rng
        out = []
        when = stream[len(stream) // 2].when + dt.timedelta(minutes=2)

        def critical(code: str, form: UnitForm, spelling: str, low: bool = True) -> Obs:
            _l, _h, clow, chigh, floor, ceil = ANALYTES[code][3]
            x = (floor + clow) / 2 if low and clow is not None else (chigh + ceil) / 2
            return self.obs(sender, code, "F", Decimal(repr(round(x, 3))), (form, spelling), (ANALYTES[code][1][0], code, "LN"))

        def add(patient: Patient, observations: list[Obs], minutes: int) -> Msg:
            msg = self.message(sender, patient, when + dt.timedelta(minutes=minutes), 1)
            msg.orders[0].obs = observations
            out.append(msg)
            return msg

        if self.has("units"):
            hgb = ANALYTES["HGB"][4][2]
            glu = ANALYTES["GLU"][4][1]
            obs = [critical("HGB", hgb, "mmol/L"), critical("GLU", glu, "mg/dl")]
            obs.append(self.obs(sender, "K", "F", Decimal("4.2"), (ANALYTES["K"][4][0], "mg/dL"), ("2823-3", "K", "LN")))
            add(pool[0], obs, 1)
        if self.has("values"):
            ob = critical("GLU", ANALYTES["GLU"][4][0], "mmol/L")
            ob.value_type, ob.value = "NM", [f"<{_num_text(report_in_unit(rng, 'GLU', Decimal('1.5'), ANALYTES['GLU'][4][0]), True)}"]
            ob2 = critical("K", ANALYTES["K"][4][0], "mmol/L", low=False)
            ob2.value = [ob2.value[0].replace(".", ",")] if ob2.value_type != "SN" else ob2.value
            ob2.value_type, ob2.value = "SN", [">", ob2.value[-1] if ob2.value_type == "SN" else ob2.value[0]]
            add(pool[0], [ob, ob2], 2)
        if self.has("demographics"):
            patient = Patient(str(randint(rng, 1, 999999)).rjust(7, "0"), sender.authority, pick(rng, ["F", "M"]),
                              "", name=("TEST", "FORCED"))
            msg = add(patient, [critical("GLU", ANALYTES["GLU"][4][0], "mmol/L")], 3)
            patient.birth = (msg.when.date() - dt.timedelta(days=365 * 40 + 3)).strftime("%Y%m%d") + "0815"
            infant = Patient(str(randint(rng, 1, 999999)).rjust(7, "0"), sender.authority, "U", "", name=("BABY", "BOY"))
            msg = add(infant, [self.obs(sender, "GLU", "F", Decimal("2.45"), (ANALYTES["GLU"][4][0], "mmol/L"),
                                        ("2345-7", "GLU", "LN"))], 4)
            infant.birth = (msg.when.date() - dt.timedelta(days=40)).strftime("%Y%m%d")
        if self.has("timestamps"):
            ob = critical("K", ANALYTES["K"][4][0], "mmol/L", low=False)
            ob.obx14 = self.dtm(when - dt.timedelta(minutes=50), sender, "obx")
            add(pool[0], [ob], 5)
        if self.has("identifiers"):
            patient = Patient(pool[0].mrn, pool[0].authority or "", pool[0].sex, pool[0].birth,
                              other_ids=[("123-45-6789", "SSA", "SS")], no_mr=True)
            add(patient, [critical("NA", ANALYTES["NA"][4][0], "mmol/L")], 6)
            auth = Patient(str(randint(rng, 1, 999999)).rjust(8, "0"), sender.authority or sender.facility, "F",
                           pool[0].birth, other_ids=[("V123", "X", "VN")], mr_position=1)
            auth.authority_oid = True
            add(auth, [critical("PLT", ANALYTES["PLT"][4][0], "10*9/L")], 7)
        if self.has("corrections"):
            msg = self.follow_up(stream[-1], "late_prelim")
            msg.orders[0].obs[0].status = pick(rng, ["I", "R", "S", "W"])
            out.append(msg)
        return out


# ---------------------------------------------------------------- writing HL7
def _rep(*comps) -> list[list[str]]:
    """One repetition: each component a string or a tuple of subcomponents."""
    return [list(c) if isinstance(c, tuple) else [c] for c in comps]


class Raw(str):
    """Text already escaped for the sender's delimiters (written as is)."""


class Writer:
    def __init__(self, rng: random.Random, sender: Sender) -> None:
        self.rng, self.sender = rng, sender
        d = sender.delims
        self.fs, self.cs, self.rs, self.es, self.ss = d[0], d[1], d[2], d[3], d[4]
        self.codec = "latin-1" if sender.charset == "8859/1" else "utf-8"

    def esc(self, text: str, hexable: bool) -> str:
        if isinstance(text, Raw):
            return str(text)
        out = []
        special = {self.es: "E", self.fs: "F", self.cs: "S", self.ss: "T", self.rs: "R"}
        for ch in text:
            if ch in special:
                out.append(f"{self.es}{special[ch]}{self.es}")
            elif hexable and (ch == "\u00b5" or ch.isalnum()) and self.rng.random() < self.sender.hexify * (8 if ch == "\u00b5" else 1):
                out.append(f"{self.es}X{ch.encode(self.codec).hex().upper()}{self.es}")
            else:
                out.append(ch)
        return "".join(out)

    def field(self, value, hexable: bool = False) -> str:
        """value: None, a string, a tuple of components, or a list of repetitions (each a list of components)."""
        if value is None:
            return ""
        if isinstance(value, str):
            reps = [_rep(value)]
        elif isinstance(value, tuple):
            reps = [_rep(*value)]
        else:
            reps = value
        texts = []
        for rep in reps:
            comps = [self.ss.join(self.esc(s, hexable) for s in comp) for comp in rep]
            while comps and comps[-1] == "":
                comps.pop()
            texts.append(self.cs.join(comps))
        return self.rs.join(texts)

    def segment(self, name: str, fields: dict[int, object], hexable: frozenset = frozenset()) -> str:
        last = max(fields) if fields else 0
        if name in ("MSH", "FHS", "BHS"):
            parts = [self.field(fields.get(i), i in hexable) for i in range(3, last + 1)]
            return name + self.fs + self.sender.delims[1:] + self.fs + self.fs.join(parts)
        parts = [self.field(fields.get(i), i in hexable) for i in range(1, last + 1)]
        return name + self.fs + self.fs.join(parts)

    def raw_escape(self, body: str) -> str:
        return f"{self.es}{body}{self.es}"


def message_lines(rng: random.Random, msg: Msg, knobs: frozenset) -> list[str]:
    s = msg.sender
    w = Writer(rng, s)
    facility = s.facility
    if "identifiers" in knobs and chance(rng, 0.5):
        facility = (s.facility, s.oid, "ISO")
    version = "2.7" if len(s.delims) == 6 else pick(rng, ["2.5.1", "2.3", "2.4"])
    lines = [w.segment("MSH", {3: s.app, 4: facility, 5: "HIS", 6: "CENTRAL", 7: msg.msh7,
                               9: (msg.kind[0], msg.kind[1], f"{msg.kind[0]}_{msg.kind[1]}"), 10: msg.control,
                               11: msg.processing, 12: version, 15: "AL", 16: "NE", 18: s.charset or None},
                       frozenset({4}))]
    for extra in msg.extra:
        lines.append(w.segment(extra[0], {i: v for i, v in enumerate(extra[1:], 1)}))
    if msg.kind == ("ADT", "A08"):
        lines.append(w.segment("EVN", {1: "A08", 2: msg.msh7}))
    p = msg.patient
    if p is not None:
        reps = [_rep(oid, "", "", (auth, "", "ISO") if auth and chance(rng, 0.3) else auth, kind)
                for oid, auth, kind in p.other_ids]
        authority = p.authority
        if p.authority_oid or ("identifiers" in knobs and authority and chance(rng, 0.5)):
            authority = (authority, s.oid, "ISO")
        if not p.no_mr:
            reps.insert(p.mr_position, _rep(p.mrn, "", "", authority, "MR"))
        lines.append(w.segment("PID", {1: "1", 3: reps, 5: (p.name[0], p.name[1]), 7: p.birth, 8: p.sex},
                               frozenset({3})))
        lines.append(w.segment("PV1", {1: "1", 2: pick(rng, ["O", "I", "E"])}))
    for k, order in enumerate(msg.orders, 1):
        lines.append(w.segment("ORC", {1: "RE" if msg.kind[0] == "ORU" else "NW", 2: order.placer,
                                       3: (order.filler, s.app)}, frozenset({3})))
        lines.append(w.segment("OBR", {1: str(k), 2: order.placer, 3: (order.filler, s.app),
                                       4: (order.service[0], order.service[1], "L"), 7: order.collected},
                               frozenset({2, 3})))
        for note in msg.notes if k == 1 else []:
            text = w.esc(note, True)
            if s.hexify:
                text = w.raw_escape("H") + text + w.raw_escape("N") + w.raw_escape(".br")
            lines.append(w.segment("NTE", {1: "1", 2: "L", 3: Raw(text)}))
        if msg.kind[0] != "ORU":
            continue
        for i, ob in enumerate(order.obs, 1):
            unit = None if ob.unit == "" else (ob.unit, "", "UCUM") if chance(rng, 0.5) else ob.unit
            value = ob.value
            if s.hexify and ob.value_type in ("ST", "TX") and value and not any(c.isdigit() for c in value[0]):
                value = [Raw(w.raw_escape("H") + w.esc(value[0], False) + w.raw_escape("N"))]
            fields = {1: str(i), 2: ob.value_type, 3: ob.code, 5: tuple(value) if value else None, 6: unit,
                      7: ob.ref_range, 8: ob.sender_flag, 11: ob.status, 14: ob.obx14 or None}
            lines.append(w.segment("OBX", fields, frozenset({5, 6})))
    return lines


def _slug(text: str) -> str:
    return "".join(ch for ch in text if ch.isalnum()) or "LAB"


def envelope(w: Writer, name: str, count: int, when: str) -> tuple[str, str]:
    s = w.sender
    head = w.segment(name, {3: s.app, 4: s.facility, 5: "HIS", 6: "CENTRAL", 7: when})
    return head, w.segment("BTS" if name == "BHS" else "FTS", {1: str(count)})


def file_bytes(rng: random.Random, messages: list[Msg], knobs: frozenset, options: set[str]) -> bytes:
    sender = messages[0].sender
    w = Writer(rng, sender)
    term = sender.terminator
    codec = "latin-1" if sender.charset == "8859/1" else "utf-8"
    chunks: list[bytes] = []
    for msg in messages:
        text = term.join(message_lines(rng, msg, knobs)) + term
        if "blank" in options and chance(rng, 0.5):
            text += term
        data = text.encode(codec)
        if "mllp" in options:
            data = b"\x0b" + data + b"\x1c\r"
        chunks.append(data)
    body = b"".join(chunks)
    if "batch" in options:
        fhs, fts = envelope(w, "FHS", 1, messages[0].msh7)
        bhs, bts = envelope(w, "BHS", len(messages), messages[0].msh7)
        body = ((fhs + term + bhs + term).encode(codec) + body + (bts + term + fts + term).encode(codec))
    return body


def assemble(builder: FeedBuilder, file_size: tuple[int, int]) -> dict[str, bytes]:
    rng, knobs = builder.rng, builder.knobs
    files: dict[str, bytes] = {}
    framing = "framing" in knobs
    option_cycle = shuffled(rng, [{"batch"}, {"mllp"}, {"blank", "upper"}, {"batch", "mllp"}, set(), {"upper"}])
    n_file = 0
    for sender in builder.senders:
        stream = [m for m in builder.messages if m.sender is sender]
        start = 0
        k = 0
        while start < len(stream):
            size = randint(rng, *file_size)
            chunk = stream[start:start + size]
            start += size
            k += 1
            options = option_cycle[n_file % len(option_cycle)] if framing else set()
            n_file += 1
            ext = ".HL7" if "upper" in options else ".hl7"
            name = f"{chunk[0].when:%Y%m%d_%H%M%S}_{_slug(sender.facility)}_{_slug(sender.app)}_{k:02d}"
            files[name + ext] = file_bytes(rng, chunk, knobs, options)
    if framing:  # files that are not feed files: ignored
        some = sorted(files)[0]
        files[some[:-4] + ".txt"] = files[some]
        files[sorted(files)[-1] + ".bak"] = files[sorted(files)[-1]]
    if "duplicates" in knobs:  # a whole file sent again
        some = pick(rng, sorted(files))
        files[some[:-4] + "_resend" + some[-4:]] = files[some]
    return files


def make_feed(rng: random.Random, knobs: frozenset, n_senders: int = 3, per_sender: int = 10,
              file_size: tuple[int, int] = (3, 8)) -> dict[str, bytes]:
    builder = FeedBuilder(rng, knobs, n_senders, per_sender)
    builder.build()
    return assemble(builder, file_size)


def write_feed(directory: Path, files: dict[str, bytes]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (directory / name).write_bytes(data)
