"""Medians, spread, geometric means and Conduit's `conduit-stats:` counters."""
import math
import re

_STATS_LINE = re.compile(r"^.*?conduit-stats:\s*(.*)$", re.M)
_PAIR = re.compile(r"([A-Za-z_][A-Za-z0-9_.-]*)=(\S+)")
# The guest library's human-readable exit summary, one line per process.
_SUMMARY_LINE = re.compile(
    r"conduit: batches (?P<batches>\d+), commands \d+, bytes (?P<raw_bytes>\d+) raw / "
    r"(?P<wire_bytes>\d+) sent.*?sync round trips (?P<round_trips>\d+), "
    r"(?:swaps|frames) (?P<frames>\d+)")

# Accepted spellings of the counters the bench reports.
STAT_KEYS = {
    "frames": ("frames", "swaps"),
    "bytes_raw": ("bytes_raw", "raw_bytes", "wire_bytes_raw", "uncompressed_bytes"),
    "bytes_wire": ("bytes_wire", "wire_bytes", "compressed_bytes", "wire_bytes_compressed"),
    "round_trips": ("round_trips", "sync_round_trips", "roundtrips"),
    "host_cpu_ms": ("host_cpu_ms",),
}


def median(values):
    vals = sorted(values)
    if not vals:
        return None
    mid = len(vals) // 2
    return vals[mid] if len(vals) % 2 else (vals[mid - 1] + vals[mid]) / 2.0


def spread_pct(values):
    """(max - min) / median in percent: how far repetitions disagree."""
    med = median(values)
    if not values or not med:
        return None
    return (max(values) - min(values)) / med * 100.0


def geomean(values):
    vals = [v for v in values if v is not None and v > 0]
    if not vals:
        return None
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


def _number(text):
    try:
        return float(text)
    except ValueError:
        return None


def parse_conduit_stats(text):
    """Totals from `conduit-stats: key=value ...` lines.

    Each line carries running totals for one connection (`conn=ID`, or one
    implicit connection): the last line per connection counts, connections add.
    Without such lines, the guest library's exit summaries count, one per
    process. Returns None when neither is present.
    """
    per_conn = {}
    for m in _STATS_LINE.finditer(text):
        pairs = dict(_PAIR.findall(m.group(1)))
        per_conn[pairs.get("conn", "")] = pairs
    if not per_conn:
        for i, m in enumerate(_SUMMARY_LINE.finditer(text)):
            per_conn[i] = m.groupdict()
    if not per_conn:
        return None
    totals = {}
    for name, spellings in STAT_KEYS.items():
        for pairs in per_conn.values():
            for key in spellings:
                value = _number(pairs.get(key, ""))
                if value is not None:
                    totals[name] = totals.get(name, 0.0) + value
                    break
    return totals


def per_frame(stats, frames):
    """Bytes and round trips per frame; None where a counter is missing."""
    out = {"bytes_raw_per_frame": None, "bytes_wire_per_frame": None,
           "round_trips_per_frame": None}
    if not stats:
        return out
    frames = stats.get("frames") or frames
    if not frames:
        return out
    for key, name in (("bytes_raw", "bytes_raw_per_frame"),
                      ("bytes_wire", "bytes_wire_per_frame"),
                      ("round_trips", "round_trips_per_frame")):
        if key in stats:
            out[name] = stats[key] / frames
    return out
