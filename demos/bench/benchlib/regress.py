"""Comparing a results.json with a baseline: which scenes got slower."""


def medians(results):
    """{(mode, scene): median fps} from a results.json document."""
    out = {}
    for scene, modes in results.get("summary", {}).items():
        for mode, summary in modes.items():
            fps = summary.get("fps_median")
            if fps:
                out[(mode, scene)] = fps
    return out


def regressions(current, baseline, max_regression_pct):
    """Scenes whose median FPS fell more than the allowed percentage.

    Returns a sorted list of (mode, scene, baseline fps, current fps, change %).
    Only scenes and modes that the current run attempted are compared; one of
    those that ran in the baseline but failed now counts as a 100% regression,
    so a broken mode cannot pass the check.
    """
    now = medians(current)
    config = current.get("config", {})
    modes = set(config.get("modes", [m for m, _ in now]))
    scenes = set(config.get("scenes", [s for _, s in now]))
    found = []
    for key, old in medians(baseline).items():
        if key[0] not in modes or key[1] not in scenes:
            continue
        new = now.get(key, 0.0)
        change = (new - old) / old * 100.0
        if -change > max_regression_pct:
            found.append((key[0], key[1], old, new, change))
    return sorted(found)


def format_regressions(found, max_regression_pct):
    if not found:
        return f"no scene regressed by more than {max_regression_pct:g}%"
    lines = [f"{len(found)} scene(s) regressed by more than {max_regression_pct:g}%:"]
    for mode, scene, old, new, change in found:
        lines.append(f"  {mode:8} {scene}: {old:.1f} -> {new:.1f} fps ({change:+.1f}%)")
    return "\n".join(lines)
