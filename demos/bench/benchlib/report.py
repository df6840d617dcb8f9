"""results.json, results.csv, the PNG plots and report.html."""
import csv
import html
import json
import os

from .summary import MEDIAN_FIELDS

CSV_FIELDS = ("scene", "mode", "n", "failed", "fps_median", "fps_min", "fps_max",
              "fps_spread_pct") + MEDIAN_FIELDS
MODE_COLOURS = {"native": "#4c72b0", "virgl": "#dd8452", "conduit": "#55a868"}


def write_json(path, document):
    with open(path, "w") as f:
        json.dump(document, f, indent=2)
        f.write("\n")


def write_csv(path, summary):
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(CSV_FIELDS)
        for scene, by_mode in summary.items():
            for mode, entry in by_mode.items():
                row = [scene, mode] + [entry.get(k) for k in CSV_FIELDS[2:]]
                writer.writerow(["" if v is None else (f"{v:.4g}" if isinstance(v, float) else v)
                                 for v in row])


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")  # files only, no display needed
    import matplotlib.pyplot as plt
    return plt


def plot_scenes(path, summary, modes):
    plt = _pyplot()
    scenes = list(summary)
    height = max(4.0, 0.32 * len(scenes) * max(1, len(modes)) / 1.5)
    fig, ax = plt.subplots(figsize=(11, height))
    bar = 0.8 / max(1, len(modes))
    for i, mode in enumerate(modes):
        ys = [k + i * bar for k in range(len(scenes))]
        med = [summary[s][mode]["fps_median"] or 0 for s in scenes]
        lo = [m - (summary[s][mode]["fps_min"] or m) for s, m in zip(scenes, med)]
        hi = [(summary[s][mode]["fps_max"] or m) - m for s, m in zip(scenes, med)]
        ax.barh(ys, med, height=bar, xerr=[lo, hi], label=mode,
                color=MODE_COLOURS.get(mode), capsize=2)
    ax.set_yticks([k + bar * (len(modes) - 1) / 2 for k in range(len(scenes))])
    ax.set_yticklabels([_short(s) for s in scenes], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("FPS (median; whiskers: min to max)")
    ax.legend(loc="best", fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_ratios(path, ratios):
    plt = _pyplot()
    names = list(ratios)
    raw = [ratios[n]["geomean"] for n in names]
    values = [v or 0 for v in raw]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    bars = ax.bar(names, values, color=["#8172b3", "#c44e52", "#937860"][:len(names)])
    for rect, value, shown in zip(bars, values, raw):
        label = "n/a" if shown is None else f"{shown:.3f}"
        ax.annotate(label, (rect.get_x() + rect.get_width() / 2, value),
                    ha="center", va="bottom", fontsize=9)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_ylabel("geometric mean of per-scene FPS ratios")
    ax.set_ylim(0, max(values + [1.0]) * 1.2)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def _short(scene, limit=52):
    """Cuts the middle of long specs: the scene name and the last options tell them apart."""
    if len(scene) <= limit:
        return scene
    head = limit // 2 - 4
    return scene[:head] + "…" + scene[-(limit - head - 1):]


def _cell(value, digits=1):
    if value is None:
        return "n/a"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def write_html(path, document, images):
    summary, modes = document["summary"], document["config"]["modes"]
    e = html.escape
    rows = []
    for scene, by_mode in summary.items():
        for mode in modes:
            s = by_mode[mode]
            rows.append(
                "<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in (
                    scene, mode, s["n"], _cell(s["fps_median"]), _cell(s["fps_min"]),
                    _cell(s["fps_max"]), _cell(s["fps_spread_pct"]), _cell(s["guest_cpu_s"], 2),
                    _cell(s["host_cpu_s"], 2), _cell(s["bytes_raw_per_frame"], 0),
                    _cell(s["bytes_wire_per_frame"], 0), _cell(s["round_trips_per_frame"], 2)))
                + "</tr>")
    ratio_rows = "".join(
        f"<tr><td>{e(k)}</td><td>{_cell(v['geomean'], 3)}</td><td>{v['scenes']}</td></tr>"
        for k, v in document["ratios"].items())
    renderers = "".join(f"<li>{e(m)}: {e(str(r))}</li>" for m, r in document["renderers"].items())
    c = document["config"]
    failures = [r for r in document["runs"] if r.get("error")]
    failed = "".join(f"<li>{e(r['mode'])} {e(r['scene'])} #{r['rep']}: {e(r['error'])}</li>"
                     for r in failures)
    imgs = "".join(f'<p><img src="{e(name)}" alt="{e(name)}"></p>' for name in images)
    page = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>conduit bench {e(document['created'])}</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:2px 6px;font-size:13px}}td:nth-child(n+3){{text-align:right}}</style>
</head><body>
<h1>conduit bench</h1>
<p>{e(document.get('started', document['created']))} to {e(document['created'])}
&middot; {e(document['machine']['cpu'])} ({document['machine']['cpus']} CPUs)
&middot; {e(c['program'])} {c['size'][0]}x{c['size'][1]} {'off-screen' if c['offscreen'] else 'on-screen'}
&middot; {c['repeat']} repetition(s) of {c['duration']} s per scene</p>
<p><code>{e(' '.join(document['command']))}</code></p>
<h2>Renderers</h2><ul>{renderers}</ul>
<h2>Geometric-mean ratios</h2>
<table><tr><th>ratio</th><th>geomean</th><th>scenes</th></tr>{ratio_rows}</table>
{imgs}
<h2>Per scene</h2>
<table><tr><th>scene</th><th>mode</th><th>n</th><th>FPS median</th><th>min</th><th>max</th>
<th>spread %</th><th>guest CPU s</th><th>host CPU s</th><th>bytes/frame raw</th>
<th>bytes/frame wire</th><th>round trips/frame</th></tr>
{''.join(rows)}</table>
{'<h2>Failed runs</h2><ul>' + failed + '</ul>' if failures else ''}
</body></html>
"""
    with open(path, "w") as f:
        f.write(page)


def write_markdown(path, document):
    """A Markdown table for docs/reports/benchmarks.md: median FPS (spread) per mode, ratios."""
    modes = document["config"]["modes"]
    pairs = list(document["ratios"])
    head = ["scene"] + [f"{m} FPS (spread %)" for m in modes] + pairs
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for scene, by_mode in document["summary"].items():
        cells = [f"`{scene}`"]
        for mode in modes:
            entry = by_mode[mode]
            cells.append("n/a" if entry["fps_median"] is None else
                         f"{entry['fps_median']:.1f} ({_cell(entry['fps_spread_pct'], 0)})")
        for pair in pairs:
            cells.append(_cell(document["ratios"][pair]["per_scene"].get(scene), 2))
        lines.append("| " + " | ".join(cells) + " |")
    geo = ["**geometric mean**"] + [""] * len(modes)
    geo += [f"**{_cell(document['ratios'][p]['geomean'], 3)}**" for p in pairs]
    lines.append("| " + " | ".join(geo) + " |")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_all(out_dir, document):
    """Writes every output file; returns their names."""
    write_json(os.path.join(out_dir, "results.json"), document)
    write_csv(os.path.join(out_dir, "results.csv"), document["summary"])
    write_markdown(os.path.join(out_dir, "results.md"), document)
    modes = document["config"]["modes"]
    images = ["scenes.png"]
    plot_scenes(os.path.join(out_dir, "scenes.png"), document["summary"], modes)
    if document["ratios"]:
        plot_ratios(os.path.join(out_dir, "ratios.png"), document["ratios"])
        images.append("ratios.png")
    write_html(os.path.join(out_dir, "report.html"), document, images)
    return ["results.json", "results.csv", "results.md", "report.html"] + images
