#!/usr/bin/env python3
"""The instruction-count gate: compares the counts gungraun just measured
(the `summary.json` files under TARGET/gungraun/mafia-instructions/) with
the committed baseline (baseline.json beside this file).

  check.py TARGET            fail (exit 1) if a bench's count grew by more than 2%
  check.py TARGET --update   write the measured counts as the new baseline

A count that grew needs either a faster change or a baseline updated in the
same commit, with the reason in the commit message. A count that fell by
more than 2% is reported, so the gain can be locked in by updating.
"""
import json
import pathlib
import sys

LIMIT = 0.02
HERE = pathlib.Path(__file__).resolve().parent
BASELINE = HERE / "baseline.json"


def measured(target):
    root = pathlib.Path(target) / "gungraun" / "mafia-instructions"
    counts = {}
    for f in sorted(root.rglob("summary.json")):
        d = json.loads(f.read_text())
        name = f"{d['function_name']}.{d['id']}"
        counts[name] = d["profiles"][0]["data"]["total"]["metrics"]["Ir"]["values"]["new"]
    return counts


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    counts = measured(sys.argv[1])
    if not counts:
        print(f"no gungraun summaries under {sys.argv[1]}/gungraun: run the benches first")
        return 2
    if "--update" in sys.argv[2:]:
        BASELINE.write_text(json.dumps(counts, indent=2, sort_keys=True) + "\n")
        print(f"wrote {BASELINE} ({len(counts)} benches)")
        return 0
    base = json.loads(BASELINE.read_text())
    failed = []
    print(f"{'bench':<28} {'baseline':>12} {'now':>12} {'change':>8}")
    for name in sorted(set(base) | set(counts)):
        b, n = base.get(name), counts.get(name)
        if b is None or n is None:
            failed.append(f"{name}: in the {'measurement' if b is None else 'baseline'} only")
            print(f"{name:<28} {b if b is not None else '-':>12} {n if n is not None else '-':>12}")
            continue
        change = (n - b) / b
        note = ""
        if change > LIMIT:
            failed.append(f"{name}: {b} -> {n} instructions ({change:+.2%}, the limit is +{LIMIT:.0%})")
            note = "  REGRESSION"
        elif change < -LIMIT:
            note = "  faster: lock it in with --update"
        print(f"{name:<28} {b:>12} {n:>12} {change:>+8.2%}{note}")
    if failed:
        print("\ninstruction counts: FAILED")
        for f in failed:
            print("  " + f)
        print("If the change is meant (a rule the engine now plays, a deeper strategy), update the baseline in the same")
        print("commit and say why: benches/instructions/run --update (README, \"Instruction counts\").")
        return 1
    print("instruction counts: ok (every bench within +2% of the baseline)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
