"""Per-scene, per-mode summaries and mode-to-mode ratios from the raw runs."""
from . import stats

RATIO_PAIRS = (("conduit", "native"), ("conduit", "virgl"), ("virgl", "native"))
MEDIAN_FIELDS = ("guest_cpu_s", "host_cpu_s", "guest_cpu_ms_per_frame",
                 "bytes_raw_per_frame", "bytes_wire_per_frame", "round_trips_per_frame")


def summarize(runs, scenes, modes):
    """{scene: {mode: summary}} with FPS median, min, max and spread."""
    out = {}
    for scene in scenes:
        out[scene] = {}
        for mode in modes:
            mine = [r for r in runs if r["scene"] == scene and r["mode"] == mode]
            good = [r for r in mine if r.get("fps") and not r.get("error")]
            fps = [r["fps"] for r in good]
            entry = {"n": len(good), "failed": len(mine) - len(good),
                     "fps_median": stats.median(fps),
                     "fps_min": min(fps) if fps else None,
                     "fps_max": max(fps) if fps else None,
                     "fps_spread_pct": stats.spread_pct(fps)}
            for field in MEDIAN_FIELDS:
                values = [r[field] for r in good if r.get(field) is not None]
                entry[field] = stats.median(values)
            out[scene][mode] = entry
    return out


def ratios(summary, modes):
    """Geometric mean over scenes of the per-scene median FPS ratios, per pair."""
    out = {}
    for a, b in RATIO_PAIRS:
        if a not in modes or b not in modes:
            continue
        per_scene = {}
        for scene, by_mode in summary.items():
            fa, fb = by_mode[a]["fps_median"], by_mode[b]["fps_median"]
            if fa and fb:
                per_scene[scene] = fa / fb
        out[f"{a}/{b}"] = {"geomean": stats.geomean(per_scene.values()),
                           "scenes": len(per_scene), "per_scene": per_scene}
    return out
