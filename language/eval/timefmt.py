"""Timespan and Timestamp: creation (``new``), parsing and formatting with format directives.

Timespan formats use Puppet's own directives (``%D %H %M %S %L %N`` with ``-``/``_``/``0`` pad
flags and widths; the most significant one shows the total).  Timestamps use Ruby's
``strftime``/``strptime`` directives.  Time zones are fixed offsets ("UTC", "EST", "+01:00");
the sandbox never reads the machine's time zone database, and "current" means UTC.
"""
from __future__ import annotations

import math
import re
from typing import Any

from ..types.guard import check_size
from ..types.values import (TIMESPAN_FORMATS, TIMESTAMP_FORMATS, TIMESTAMP_FORMATS_WITHOUT_ZONE, Timespan,
                            Timestamp, _civil_from_days, _days_from_civil, compile_python_regexp)
from .errors import EvalError
from .registry import Function
import time
from ..messages import render

NSECS = 1_000_000_000
NS_PER = {"D": 86400 * NSECS, "H": 3600 * NSECS, "M": 60 * NSECS, "S": NSECS, "L": 1_000_000}
_ORDER = {"N": 0, "L": 1, "S": 2, "M": 3, "H": 4, "D": 5}
_DEFAULT_WIDTH = {"D": 1, "H": 2, "M": 2, "S": 2, "L": 3, "N": 9}


class TimeFormatError(EvalError):
    def __init__(self, message: str):
        super().__init__(message, "TIME_FORMAT_ERROR")


# ---- Timespan formats ---------------------------------------------------------------------------

class _Seg:
    __slots__ = ("kind", "pad", "width", "total", "literal")

    def __init__(self, kind: str, pad: str | None = "0", width: int | None = None,
                 literal: str = ""):
        self.kind = kind
        self.pad = pad
        self.width = width
        self.total = False
        self.literal = literal


_SPAN_FORMATS: dict = {}


def parse_span_format(fmt: str) -> list:
    hit = _SPAN_FORMATS.get(fmt)
    if hit is not None:
        return hit
    segs: list = []
    highest = -1
    state = 0  # 0 literal, 1 pad, 2 width
    pad: str | None = "0"
    width = None
    fstart = 0

    def bad(pos):
        return TimeFormatError(render("BAD_FORMAT_SPECIFIER_IN_AT", value=fmt[fstart:pos],
                                      fmt=fmt, pos=pos))

    def lit(ch):
        if segs and segs[-1].kind == "lit":
            segs[-1].literal += ch
        else:
            segs.append(_Seg("lit", literal=ch))

    for pos, ch in enumerate(fmt):
        if state == 0:
            if ch == "%":
                state, fstart, pad, width = 1, pos, "0", None
            else:
                lit(ch)
            continue
        if ch == "%":
            lit(ch)
            state = 0
        elif ch == "-":
            if state != 1:
                raise bad(pos)
            pad, state = None, 2
        elif ch == "_":
            if state != 1:
                raise bad(pos)
            pad, state = " ", 2
        elif ch in _ORDER:
            highest = max(highest, _ORDER[ch])
            if width is not None:
                check_size(width, "a field of the time format")   # before padding to it
            segs.append(_Seg(ch, pad, width))
            state = 0
        elif ch.isdigit():
            if state == 1 and ch == "0":
                pad = "0"
            else:
                width = int(ch) if width is None else width * 10 + int(ch)
            state = 2
        else:
            raise bad(pos)
    if state != 0:
        raise bad(len(fmt) - 1)
    if highest >= 0:
        want = next(k for k, v in _ORDER.items() if v == highest)
        for s in segs:
            if s.kind == want:
                s.total = True
                break
    _SPAN_FORMATS[fmt] = segs
    return segs


def _fmt_value(seg: _Seg, n: int) -> str:
    w = seg.width if seg.width is not None else _DEFAULT_WIDTH[seg.kind]
    fragment = seg.kind in "LN"
    if fragment:
        if not seg.total and seg.pad != "0":
            n = int(re.sub(r"^([0-9]+?)0*$", r"\1", str(n)))
        if seg.pad is None:
            return str(n)
        return str(n).ljust(w)
    if seg.pad is None:
        return str(n)
    if seg.pad == " ":
        return str(n).rjust(w)
    return str(n).rjust(w, "0") if n >= 0 else "-" + str(-n).rjust(w - 1, "0")


def format_timespan(ts: Timespan, fmt: str) -> str:
    segs = parse_span_format(fmt)
    total = abs(ts.nsecs)
    out = ["-" if ts.nsecs < 0 else ""]
    for s in segs:
        k = s.kind
        if k == "lit":
            out.append(s.literal)
        elif k == "N":
            w = s.width if s.width is not None else 9
            ns = total
            if w < 9:
                ns //= 10 ** (9 - w)
                if not s.total:
                    ns %= 10 ** w
            elif not s.total:
                ns %= NSECS
            out.append(_fmt_value(s, ns))
        else:
            unit = NS_PER[k]
            v = total // unit
            if not s.total:
                v %= {"D": 1 << 62, "H": 24, "M": 60, "S": 60, "L": 1000}[k]
            out.append(_fmt_value(s, v))
    return "".join(out)


def parse_timespan(text: str, fmt: str) -> Timespan:
    segs = parse_span_format(fmt)
    rx = [r"\A-?"]
    for s in segs:
        if s.kind == "lit":
            rx.append("(" + re.escape(s.literal) + ")")
            continue
        dw = _DEFAULT_WIDTH[s.kind]
        if s.width is None:
            if s.pad in (None, "0"):
                rx.append("([0-9]+)" if s.total else f"([0-9]{{1,{dw}}})")
            else:
                rx.append(r"\s*([0-9]+)" if s.total else f"([0-9\\s]{{1,{dw}}})")
        else:
            if s.pad is None:
                rx.append(f"([0-9]{{1,{s.width}}})")
            elif s.pad == "0":
                rx.append(f"([0-9]{{{s.width}}})")
            else:
                rx.append(f"([0-9\\s]{{{s.width}}})")
    rx.append(r"\Z")
    # a format can repeat digit groups: match it like user regexps, under the deadline
    mt = compile_python_regexp("".join(rx)).match(text)
    err = TimeFormatError(render("UNABLE_PARSE_USING_FORMAT", text=text, fmt=fmt))
    if mt is None:
        raise err
    ns = 0
    for s, g in zip(segs, mt.groups()):
        if s.kind == "lit":
            continue
        g = g.lstrip()
        if not re.match(r"\A[0-9]+\Z", g):
            raise err
        if s.kind in "LN":
            if s.total:
                raise TimeFormatError(render("FORMAT_SPECIFIERS_L_AND_N"))
            n = int(g)
            p = 9 - len(g)
            ns += n if p <= 0 else n * 10 ** p
        else:
            ns += int(g) * NS_PER[s.kind]
    return Timespan(-ns if text.startswith("-") else ns)


SPAN_DEFAULTS = list(TIMESPAN_FORMATS)


def parse_timespan_any(text: str, formats) -> Timespan:
    if isinstance(formats, str):
        return parse_timespan(text, formats)
    for f in formats:
        try:
            return parse_timespan(text, f)
        except TimeFormatError:
            continue
    raise TimeFormatError(render("UNABLE_PARSE_USING_ANY_FORMATS", text=text,
                                 join=', '.join(formats)))


# ---- time zones ---------------------------------------------------------------------------------

_ZONES = {"UTC": 0, "GMT": 0, "Z": 0, "UT": 0, "EST": -300, "EDT": -240, "CST": -360,
          "CDT": -300, "MST": -420, "MDT": -360, "PST": -480, "PDT": -420, "CET": 60,
          "CEST": 120, "EET": 120, "EEST": 180, "WET": 0, "WEST": 60, "BST": 60, "IST": 330,
          "JST": 540, "AEST": 600, "AEDT": 660, "HST": -600, "AKST": -540, "AKDT": -480,
          "MET": 60, "MEST": 120, "MSK": 180, "NZST": 720, "NZDT": 780, "CURRENT": 0}


def zone_offset(tz: str) -> int:
    """Offset of a zone in seconds east of UTC; TimeFormatError for unknown zones."""
    t = tz.strip()
    mt = re.match(r"^([+-])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?$", t)
    if mt:
        secs = int(mt.group(2)) * 3600 + int(mt.group(3) or 0) * 60 + int(mt.group(4) or 0)
        return -secs if mt.group(1) == "-" else secs
    up = t.upper()
    if up in _ZONES:
        return _ZONES[up] * 60
    raise TimeFormatError(render("ILLEGAL_TIMEZONE", tz=tz))


# ---- Timestamp strftime --------------------------------------------------------------------------

_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]


class _Broken:
    """A timestamp broken down in a zone."""

    def __init__(self, nsecs: int, offset: int, zone: str):
        self.nsecs = nsecs
        self.offset = offset
        self.zone = zone
        local = nsecs // NSECS + offset
        self.frac = nsecs % NSECS
        days, rem = divmod(local, 86400)
        self.year, self.month, self.day = _civil_from_days(days)
        self.hour, rem = divmod(rem, 3600)
        self.minute, self.second = divmod(rem, 60)
        self.wday = (days + 3) % 7  # 0 = Monday
        self.yday = days - _days_from_civil(self.year, 1, 1) + 1
        self.epoch = nsecs // NSECS


_STRF = re.compile(r"%([-_0^#]*)(\d*)(:{0,2})([a-zA-Z%+])")


def _iso_week(b: _Broken) -> tuple:
    wd = b.wday + 1
    days = _days_from_civil(b.year, b.month, b.day)
    thursday = days - (wd - 1) + 3
    y, _, _ = _civil_from_days(thursday)
    week = (thursday - _days_from_civil(y, 1, 1)) // 7 + 1
    return y, week


def ruby_strftime(nsecs: int, fmt: str, offset: int = 0, zone: str = "UTC") -> str:
    b = _Broken(nsecs, offset, zone)

    def num(v, width, flags, default_pad="0"):
        pad = default_pad
        if "-" in flags:
            return str(v)
        if "_" in flags:
            pad = " "
        if "0" in flags:
            pad = "0"
        s = str(abs(v))
        w = width
        if v < 0:
            return "-" + s.rjust(w - 1, pad) if pad == "0" else ("-" + s).rjust(w, pad)
        return s.rjust(w, pad)

    def text(s, width, flags, change_case="upper"):
        if "^" in flags:
            s = s.upper()
        if "#" in flags:
            # Ruby's "change case" flag: upper case for names, lower case for %p and %Z
            s = s.upper() if change_case == "upper" else s.lower()
        if width and len(s) < width:
            pad = "0" if "0" in flags else " "
            s = s.rjust(width, pad)
        return s

    def repl(mt):
        flags, width, colons, d = mt.group(1), mt.group(2), mt.group(3), mt.group(4)
        w = int(width) if width else 0
        check_size(w, "a field of the time format")   # before padding to it
        if d == "Y":
            return num(b.year, max(w, 4) if b.year >= 0 else max(w, 5), flags)
        if d == "C":
            return num(b.year // 100, max(w, 2), flags)
        if d == "y":
            return num(b.year % 100, max(w, 2), flags)
        if d == "m":
            return num(b.month, max(w, 2), flags)
        if d == "d":
            return num(b.day, max(w, 2), flags)
        if d == "e":
            return num(b.day, max(w, 2), flags, " ")
        if d == "j":
            return num(b.yday, max(w, 3), flags)
        if d == "H":
            return num(b.hour, max(w, 2), flags)
        if d == "k":
            return num(b.hour, max(w, 2), flags, " ")
        if d in "Il":
            h = b.hour % 12 or 12
            return num(h, max(w, 2), flags, "0" if d == "I" else " ")
        if d == "M":
            return num(b.minute, max(w, 2), flags)
        if d == "S":
            return num(b.second, max(w, 2), flags)
        if d == "L":
            digits = w or 3
            return str(b.frac).rjust(9, "0")[:digits].ljust(digits, "0")
        if d == "N":
            digits = w or 9
            return str(b.frac).rjust(9, "0")[:digits].ljust(digits, "0")
        if d == "z":
            off = b.offset
            sign = "-" if off < 0 else "+"
            off = abs(off)
            hh, mm, ss = off // 3600, (off % 3600) // 60, off % 60
            if colons == ":":
                s = f"{hh:02d}:{mm:02d}"
            elif colons == "::":
                s = f"{hh:02d}:{mm:02d}:{ss:02d}"
            else:
                s = f"{hh:02d}{mm:02d}"
            s = sign + s
            if w and len(s) < w:
                pad = " " if "_" in flags else "0"
                s = (sign + s[1:].rjust(w - 1, pad)) if pad == "0" else s.rjust(w)
            return s
        if d == "Z":
            return text(b.zone, w, flags, "lower")
        if d == "A":
            return text(_DAYS[b.wday], w, flags)
        if d == "a":
            return text(_DAYS[b.wday][:3], w, flags)
        if d == "B":
            return text(_MONTHS[b.month - 1], w, flags)
        if d in "bh":
            return text(_MONTHS[b.month - 1][:3], w, flags)
        if d == "p":
            s = "PM" if b.hour >= 12 else "AM"
            return text(s.lower() if "#" in flags else s, w, flags.replace("#", ""))
        if d == "P":
            return text("pm" if b.hour >= 12 else "am", w, flags)
        if d == "u":
            return num(b.wday + 1, max(w, 1), flags)
        if d == "w":
            return num((b.wday + 1) % 7, max(w, 1), flags)
        if d == "s":
            return num(b.epoch, max(w, 1), flags)
        if d == "n":
            return "\n"
        if d == "t":
            return "\t"
        if d == "%":
            return "%"
        if d == "F":
            return ruby_strftime(nsecs, "%Y-%m-%d", offset, zone)
        if d == "T" or d == "X":
            return ruby_strftime(nsecs, "%H:%M:%S", offset, zone)
        if d == "D" or d == "x":
            return ruby_strftime(nsecs, "%m/%d/%y", offset, zone)
        if d == "R":
            return ruby_strftime(nsecs, "%H:%M", offset, zone)
        if d == "r":
            return ruby_strftime(nsecs, "%I:%M:%S %p", offset, zone)
        if d == "c":
            return ruby_strftime(nsecs, "%a %b %e %H:%M:%S %Y", offset, zone)
        if d == "v":
            return ruby_strftime(nsecs, "%e-%^b-%4Y", offset, zone)
        if d == "+":
            return mt.group(0)  # date(1)'s format: Ruby's Time has no %+
        if d in "GgV":
            y, week = _iso_week(b)
            if d == "G":
                return num(y, max(w, 4), flags)
            if d == "g":
                return num(y % 100, max(w, 2), flags)
            return num(week, max(w, 2), flags)
        if d == "U":
            sunday_based = (b.yday + 6 - (b.wday + 1) % 7) // 7
            return num(sunday_based, max(w, 2), flags)
        if d == "W":
            monday_based = (b.yday + 6 - b.wday) // 7
            return num(monday_based, max(w, 2), flags)
        return mt.group(0)

    built = [0]

    def counted(mt):
        out = repl(mt)
        if "^" in mt.group(1) and mt.group(4) in "FTXDxRrc":
            out = out.upper()  # a composite format upper-cased as a whole
        built[0] += len(out)
        check_size(built[0], "the formatted time")
        return out

    return _STRF.sub(counted, fmt)


def format_timestamp(ts: Timestamp, fmt: str, timezone: str | None = None) -> str:
    if timezone:
        off = zone_offset(timezone)
        zone = "UTC" if off == 0 and timezone.upper() in ("UTC", "GMT", "Z", "UT") else ""
        return ruby_strftime(ts.nsecs, fmt, off, zone)
    return ruby_strftime(ts.nsecs, fmt, 0, "UTC")


# ---- Timestamp strptime ----------------------------------------------------------------------------

_ZONE_RX = r"(?:[A-Za-z]{1,5}|[+-]\d{2}(?::?\d{2})?)"
_STRP = {
    "Y": r"(?P<year>[+-]?\d+)", "C": r"(?P<century>\d{1,2})", "y": r"(?P<year2>\d{1,2})",
    "m": r"(?P<mon>\d{1,2})", "d": r"(?P<mday>\s?\d{1,2})", "e": r"(?P<mday>\s?\d{1,2})",
    "j": r"(?P<yday>\d{1,3})", "H": r"(?P<hour>\s?\d{1,2})", "k": r"(?P<hour>\s?\d{1,2})",
    "I": r"(?P<hour12>\s?\d{1,2})", "l": r"(?P<hour12>\s?\d{1,2})", "M": r"(?P<min>\d{1,2})",
    "S": r"(?P<sec>\d{1,2})", "L": r"(?P<frac>\d+)", "N": r"(?P<frac>\d+)",
    "z": r"(?P<zone>" + _ZONE_RX + ")", "Z": r"(?P<zone>" + _ZONE_RX + ")",
    "p": r"(?P<ampm>[AaPp]\.?[Mm]\.?)", "P": r"(?P<ampm>[AaPp]\.?[Mm]\.?)",
    "A": r"(?P<wdayname>[A-Za-z]+)", "a": r"(?P<wdayname>[A-Za-z]+)",
    "B": r"(?P<monname>[A-Za-z]+)", "b": r"(?P<monname>[A-Za-z]+)", "h": r"(?P<monname>[A-Za-z]+)",
    "s": r"(?P<epoch>-?\d+)", "u": r"(?P<wday>\d)", "w": r"(?P<wday>\d)", "%": "%",
    "n": r"\s+", "t": r"\s+",
}
_COMPOSITE = {"F": "%Y-%m-%d", "T": "%H:%M:%S", "D": "%m/%d/%y", "R": "%H:%M",
              "r": "%I:%M:%S %p", "c": "%a %b %e %H:%M:%S %Y", "x": "%m/%d/%y", "X": "%H:%M:%S"}


def _strp_regex(fmt: str) -> str:
    out = []
    i = 0
    used: set = set()
    while i < len(fmt):
        ch = fmt[i]
        if ch == "%" and i + 1 < len(fmt):
            j = i + 1
            while j < len(fmt) and (fmt[j] in "-_0^#:" or fmt[j].isdigit()):
                j += 1
            d = fmt[j] if j < len(fmt) else ""
            i = j + 1
            if d in _COMPOSITE:
                out.append(_strp_regex(_COMPOSITE[d]))
                continue
            pat = _STRP.get(d)
            if pat is None:
                raise TimeFormatError(render("UNABLE_PARSE_FORMAT", fmt=fmt))
            names = re.findall(r"\?P<(\w+)>", pat)
            for n in names:
                if n in used:
                    pat = pat.replace(f"?P<{n}>", "?:")
                used.add(n)
            out.append(pat)
            continue
        if ch.isspace():
            out.append(r"\s*")
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


def strptime(text: str, fmt: str) -> dict | None:
    """Ruby ``DateTime._strptime``-like: the parsed fields, or None; 'leftover' when text remains."""
    try:
        rx = _strp_regex(fmt)
    except TimeFormatError:
        return None
    mt = compile_python_regexp(rx).match(text)
    if not mt:
        return None
    d = {k: v for k, v in mt.groupdict().items() if v is not None}
    if mt.end() < len(text):
        d["leftover"] = text[mt.end():]
    return d


def parse_timestamp(text: str, fmt: Any = None, timezone: str | None = None) -> Timestamp:
    has_tz = bool(timezone) and timezone != "default"
    if fmt is None:
        fmt = _TS_DEFAULTS_WO_TZ if has_tz else _TS_DEFAULTS
    parsed = None
    if isinstance(fmt, (list, tuple)):
        for f in fmt:
            p = strptime(text, f)
            if p is None or "leftover" in p or (has_tz and "zone" in p):
                continue
            parsed = p
            break
        if parsed is None:
            raise TimeFormatError(render("UNABLE_PARSE_USING_ANY_FORMATS", text=text,
                                         join=', '.join(fmt)))
    else:
        parsed = strptime(text, fmt)
        if parsed is None or "leftover" in parsed:
            raise TimeFormatError(render("UNABLE_PARSE_USING_FORMAT", text=text, fmt=fmt))
        if has_tz and "zone" in parsed:
            raise TimeFormatError(render("USING_TIMEZONE_DESIGNATOR_IN_FORMAT"))
    if not has_tz and "zone" in parsed:
        timezone = parsed["zone"]
        has_tz = True
    year = int(parsed.get("year", 1970)) if "year" in parsed else None
    if year is None and "year2" in parsed:
        y2 = int(parsed["year2"])
        year = y2 + (1900 if y2 >= 69 else 2000)
    if "epoch" in parsed:
        secs = int(parsed["epoch"])
        ns = secs * NSECS
    else:
        if year is None:
            year = 1970
        mon = int(parsed.get("mon", 1))
        if "monname" in parsed:
            names = [m_[:3].lower() for m_ in _MONTHS]
            key = parsed["monname"][:3].lower()
            if key not in names:
                raise TimeFormatError(render("TIME_UNPARSABLE", text=text))
            mon = names.index(key) + 1
        mday = int(parsed.get("mday", "1").strip())
        # A parsed day of the year (%j) is read but not used: Puppet builds the time from year,
        # month and day only (Timestamp('2016 032', '%Y %j') is 2016-01-01).
        if not (1 <= mon <= 12 and 1 <= mday <= 31):
            raise TimeFormatError(render("TIME_UNPARSABLE", text=text))
        days = _days_from_civil(year, mon, mday)
        hour = int(parsed.get("hour", "0").strip())
        if "hour12" in parsed:
            hour = int(parsed["hour12"].strip()) % 12
            if parsed.get("ampm", "a")[0] in "pP":
                hour += 12
        minute = int(parsed.get("min", 0))
        sec = int(parsed.get("sec", 0))
        frac = parsed.get("frac", "")
        frac_ns = int(frac.ljust(9, "0")[:9]) if frac else 0
        ns = ((days * 86400) + hour * 3600 + minute * 60 + sec) * NSECS + frac_ns
    if has_tz and timezone is not None:
        ns -= zone_offset(timezone) * NSECS
    return Timestamp(ns)


_TS_DEFAULTS_WO_TZ = list(TIMESTAMP_FORMATS_WITHOUT_ZONE)
_TS_DEFAULTS = list(TIMESTAMP_FORMATS)


# ---- new ----------------------------------------------------------------------------------------------

new_timespan = Function("new_timespan")
_FORMATS = "Variant[String[2],Array[String[2], 1]]"


def _nsecs_of_seconds(s: float) -> int:
    """Seconds as nanoseconds, truncated; a float too large for that is Ruby's FloatDomainError,
    whose text is the value."""
    ns = s * NSECS
    if isinstance(ns, float) and not math.isfinite(ns):
        raise EvalError(render("FLOAT_DOMAIN_VALUE", ruby_float="Infinity" if ns > 0 else "-Infinity"))
    return int(ns)


@new_timespan.dispatch("Variant[Integer,Float] seconds")
def _ts_seconds(c, s):
    return Timespan(_nsecs_of_seconds(s))


@new_timespan.dispatch("String[1] string", f"{_FORMATS} format?")
def _ts_string(c, s, fmt=None):
    return parse_timespan_any(s, SPAN_DEFAULTS if fmt is None else fmt)


def _from_fields(neg, days, hours, minutes, seconds, ms=0, us=0, ns=0) -> Timespan:
    total = (((((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000 + ms) * 1000 + us) * 1000 + ns
    return Timespan(-total if neg else total)


@new_timespan.dispatch("Integer days", "Integer hours", "Integer minutes", "Integer seconds",
                       "Integer milliseconds?", "Integer microseconds?", "Integer nanoseconds?")
def _ts_fields(c, d, h, mi, s, ms=0, us=0, ns=0):
    return _from_fields(False, d, h, mi, s, ms, us, ns)


@new_timespan.dispatch(f"Struct[{{string => String[1], Optional[format] => {_FORMATS}}}] hash_arg")
def _ts_string_hash(c, h):
    return parse_timespan_any(h["string"], h.get("format") or SPAN_DEFAULTS)


@new_timespan.dispatch("Struct[{Optional[negative] => Boolean, Optional[days] => Integer, "
                       "Optional[hours] => Integer, Optional[minutes] => Integer, "
                       "Optional[seconds] => Integer, Optional[milliseconds] => Integer, "
                       "Optional[microseconds] => Integer, Optional[nanoseconds] => Integer}] hash_arg")
def _ts_fields_hash(c, h):
    g = lambda k: h.get(k) or 0
    return _from_fields(bool(h.get("negative")), g("days"), g("hours"), g("minutes"), g("seconds"),
                        g("milliseconds"), g("microseconds"), g("nanoseconds"))


new_timestamp = Function("new_timestamp")


@new_timestamp.dispatch()
def _now(c):
    return Timestamp(time.time_ns())


@new_timestamp.dispatch("Variant[Integer,Float] seconds")
def _tst_seconds(c, s):
    return Timestamp(_nsecs_of_seconds(s))


@new_timestamp.dispatch("String[1] string", f"{_FORMATS} format?", "String[1] timezone?")
def _tst_string(c, s, fmt=None, tz=None):
    return parse_timestamp(s, fmt, tz)


@new_timestamp.dispatch(f"Struct[{{string => String[1], Optional[format] => {_FORMATS}, "
                        "Optional[timezone] => String[1]}] hash_arg")
def _tst_hash(c, h):
    return parse_timestamp(h["string"], h.get("format"), h.get("timezone"))
