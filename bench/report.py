"""make bench's report: the table of goals and the details of each row, as Markdown."""

import json

from config import CONNECTIONS, LOGGED_IN_DURATION, PAIR_DURATION, PUBLIC_PAIRS, WORKERS


def row(figure: str, goal: str, measured: str, passed: bool | None, **details) -> dict:
    verdict = "PASS" if passed else ("not run" if passed is None else "FAIL")
    return {"figure": figure, "goal": goal, "measured": measured, "verdict": verdict, **details}


def table(rows: list[dict]) -> str:
    lines = ["| figure | goal | measured | verdict |", "|---|---|---|---|"]
    lines += [f"| {r['figure']} | {r['goal']} | {r['measured']} | {r['verdict']} |" for r in rows]
    return "\n".join(lines)


def detail_sections(details: dict) -> str:
    out = []
    for number, opening in enumerate(details.get("1", {}).get("openings", []), start=1):
        c = opening["clients"]
        out.append(f"### Class opening {number}, step by step (ms, as the clients saw them)\n")
        out.append("| step | answers | p50 | p95 |\n|---|---:|---:|---:|")
        out += [f"| {s} | {v['n']} | {v['p50']} | {v['p95']} |" for s, v in c["steps_ms"].items()]
        if c["error_samples"]:
            samples = "; ".join(json.dumps(e, ensure_ascii=False) for e in c["error_samples"])
            out.append(f"\nErrors (first five): {samples}")
        out.append("")
    if "2" in details and "pages" in details["2"]:
        out.append(f"\n### Logged-in pages and APIs ({CONNECTIONS} connections, {LOGGED_IN_DURATION} each)\n")
        out.append("Server time: gunicorn's own time for each answer (its access log); clients: as wrk saw them, with")
        out.append(f"the wait for a free worker ({WORKERS} workers of gunicorn.conf.py's threads).\n")
        out.append("| who | page | req/s | server p50 ms | server p95 ms | clients p50 ms | clients p95 ms | errors |")
        out.append("|---|---|---:|---:|---:|---:|---:|---:|")
        for r in sorted(details["2"]["pages"], key=lambda r: -(r.get("server_p95_ms") or 1e9)):
            if r.get("server_p95_ms") is None:
                out.append(f"| {r['who']} | {r['path']} | | | | | | {r.get('note', '')} |")
            else:
                out.append(
                    f"| {r['who']} | {r['path']} | {r['rps']:.0f} | {r['server_p50_ms']:.0f} | "
                    f"{r['server_p95_ms']:.0f} | {r['p50_ms']:.1f} | {r['p95_ms']:.1f} | {r['errors']} |"
                )
    if "3" in details and "pages" in details["3"]:
        out.append(
            f"\n### Public pages ({CONNECTIONS} connections; the median of {PUBLIC_PAIRS} ratios, each of "
            f"{PAIR_DURATION} of the static file then the page)\n"
        )
        out.append("| page | bytes | req/s | static req/s | ratio | p95 ms | errors |")
        out.append("|---|---:|---:|---:|---:|---:|---:|")
        for r in details["3"]["pages"]:
            if r.get("ratio") is None:
                out.append(f"| {r['path']} | | | | | | {r.get('note', '')} |")
            else:
                out.append(
                    f"| {r['path']} | {r['bytes']} | {r['rps']:.0f} | {r['static_rps']:.0f} | {r['ratio']:.2f} | "
                    f"{r['p95_ms']:.1f} | {r['errors'] + r['static_errors']} |"
                )
    if "5" in details and "pages" in details["5"]:
        out.append(f"\n### Lighthouse mobile (median of {details['5']['runs']})\n")
        out.append("| page | performance | LCP s | CLS |\n|---|---:|---:|---:|")
        for page, r in details["5"]["pages"].items():
            out.append(f"| {page} | {r['performance']:.0f} | {r['lcp_ms'] / 1000:.2f} | {r['cls']:.3f} |")
    return "\n".join(out)
