#!/usr/bin/env python3
"""Solves a preset's default lineup as a mix: double oracle over the `forum`
parameters of the town and the mafia, with `mafia best-response` as the oracle.

    python3 experiments/solve_mix.py --setup classic --iterations 8

Each camp keeps a list of pure ways to play (settings of its `forum`
parameters over the base lineup's). Every pair is played on the same games
(`mafia run`, one seed: common random numbers), which gives the town's win
rate as a matrix; the zero-sum game on that matrix is solved (regret
matching+, averaged), and each camp's solution becomes a mix of its settings
(`town@SHARE=forum:…`, `mafia@SHARE=…`, see `mafia strategies`).
`mafia best-response` then searches each camp's best pure reply to the other
camp's mix on fresh seeds; a reply that gains more than `--stop` points joins
its camp's list, and the next iteration solves again. The script prints the
mix of every iteration with both camps' best-reply gains (the
exploitability) and, last, the mix with the smallest larger gain: the
`--agents` spec to ship (agents/src/lineup.rs, PRESET_LINEUPS).

Only the standard library is used; `--mafia` names the binary (default:
target/release/mafia, built with `cargo build --release`).
"""

import argparse
import csv
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"failed ({out.returncode}): {' '.join(cmd)}\n{out.stderr}")
    return out.stdout


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def params_text(p):
    return "".join(f":{k}={v}" for k, v in sorted(p.items()))


def parse_setting(text):
    """`fake=0 preempt=1` (best-response's `setting` column) as a dict."""
    if text in ("", "(default)"):
        return {}
    return dict(kv.split("=", 1) for kv in text.split())


def mix_spec(base, town, mafia):
    """The lineup: the base, then each camp's settings with their shares
    (shares of 4 decimals; the last takes what the others leave)."""
    parts = [base]
    for camp, mix in (("town", town), ("mafia", mafia)):
        live = [(x, p) for x, p in mix if x >= 5e-4]
        total = sum(x for x, _ in live)
        shares = [round(x / total, 4) for x, _ in live]
        shares[-1] = round(1 - sum(shares[:-1]), 4)
        for share, (_, p) in zip(shares, live):
            if share > 0:
                parts.append(f"{camp}@{share:g}=forum{params_text(p)}")
    return ",".join(parts)


def pure_spec(base, t, m):
    return f"{base},town=forum{params_text(t)},mafia=forum{params_text(m)}"


def town_rate(args, spec, tmp):
    out = os.path.join(tmp, "cell.csv")
    run([args.mafia, "run", "--setup", args.setup, "--agents", spec, "--games", str(args.games),
         "--seed", str(args.seed), "--quiet", "--out", out])
    return float(read_csv(out)[0]["town_rate"])


def best_reply(args, spec, camp, seed, tmp):
    out = os.path.join(tmp, "br.csv")
    run([args.mafia, "best-response", "--setup", args.setup, "--agents", spec, "--camp", camp,
         "--max-games", str(args.br_games), "--rounds", str(args.br_rounds), "--confirm", str(args.confirm),
         "--seed", str(seed), "--quiet", "--out", out])
    row = read_csv(out)[0]
    return float(row["gain"]), float(row["gain_lo"]), float(row["gain_hi"]), parse_setting(row["setting"])


def solve(a, iters=20000):
    """Town maximises a[i][j], the mafia minimise it: regret matching+ with
    alternating updates and linearly weighted averages. Returns (x, y, value)."""
    n, m = len(a), len(a[0])
    rt, rm = [0.0] * n, [0.0] * m
    xs, ys = [0.0] * n, [0.0] * m

    def strat(r):
        s = sum(r)
        return [v / s for v in r] if s > 0 else [1 / len(r)] * len(r)

    for t in range(1, iters + 1):
        x = strat(rt)
        y = strat(rm)
        u = [sum(a[i][j] * y[j] for j in range(m)) for i in range(n)]
        ev = sum(x[i] * u[i] for i in range(n))
        rt = [max(0.0, rt[i] + u[i] - ev) for i in range(n)]
        x = strat(rt)
        w = [sum(a[i][j] * x[i] for i in range(n)) for j in range(m)]
        ev = sum(y[j] * w[j] for j in range(m))
        rm = [max(0.0, rm[j] - (w[j] - ev)) for j in range(m)]
        y = strat(rm)
        xs = [xs[i] + t * x[i] for i in range(n)]
        ys = [ys[j] + t * y[j] for j in range(m)]
    x = [v / sum(xs) for v in xs]
    y = [v / sum(ys) for v in ys]
    value = sum(x[i] * a[i][j] * y[j] for i in range(n) for j in range(m))
    return x, y, value


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--setup", default="classic")
    ap.add_argument("--base", help="the lineup, without a mix, the settings lie over (default: the "
                    "preset's own when it has no mix)")
    ap.add_argument("--town", action="append", default=[], metavar="P=V[:P=V…]",
                    help="a town setting to start with (repeatable; the base is always one)")
    ap.add_argument("--mafia-setting", action="append", default=[], metavar="P=V[:P=V…]",
                    help="a mafia setting to start with (repeatable; the base is always one)")
    ap.add_argument("--iterations", type=int, default=8)
    ap.add_argument("--games", type=int, default=400_000, help="games per matrix cell (one seed)")
    ap.add_argument("--seed", type=int, default=1000, help="the matrix's seed")
    ap.add_argument("--br-seed", type=int, default=2000, help="first seed of the best replies (one per iteration)")
    ap.add_argument("--br-games", type=int, default=1_000_000, help="best-response --max-games")
    ap.add_argument("--br-rounds", type=int, default=2, help="best-response --rounds")
    ap.add_argument("--br-seeds", type=int, default=2,
                    help="best-response searches per camp and iteration (each its own seed)")
    ap.add_argument("--confirm", type=int, default=100_000, help="best-response --confirm")
    ap.add_argument("--stop", type=float, default=1.0, help="points: a reply gaining less joins no list")
    ap.add_argument("--mafia", default=os.path.join(HERE, "..", "target", "release", "mafia"))
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        base = args.base
        if base is None:
            out = os.path.join(tmp, "base.csv")
            run([args.mafia, "run", "--setup", args.setup, "--games", "1", "--quiet", "--out", out])
            base = read_csv(out)[0]["agents"]
            if base.startswith("preset:"):
                sys.exit(f"{args.setup} plays a mix by default (`{base}`): give --base, the lineup under it "
                         "(the `forum:…` default layer of PRESET_LINEUPS in agents/src/lineup.rs)")
        print(f"base: {base}", flush=True)
        town = [{}] + [dict(kv.split("=", 1) for kv in s.split(":")) for s in args.town]
        mafia = [{}] + [dict(kv.split("=", 1) for kv in s.split(":")) for s in args.mafia_setting]
        cells = {}
        best = None
        for it in range(1, args.iterations + 1):
            for i, t in enumerate(town):
                for j, m in enumerate(mafia):
                    if (i, j) not in cells:
                        cells[(i, j)] = town_rate(args, pure_spec(base, t, m), tmp)
            a = [[cells[(i, j)] for j in range(len(mafia))] for i in range(len(town))]
            x, y, value = solve(a)
            spec = mix_spec(base, list(zip(x, town)), list(zip(y, mafia)))
            replies = {}
            for camp in ("town", "mafia"):
                replies[camp] = [best_reply(args, spec, camp, args.br_seed + args.br_seeds * it + k, tmp)
                                 for k in range(args.br_seeds)]
            worse = max(g[0] for rs in replies.values() for g in rs)
            print(f"\niteration {it}: {len(town)} town × {len(mafia)} mafia settings, town wins {value:.4f}")
            for camp, xs, ss in (("town", x, town), ("mafia", y, mafia)):
                for share, s in sorted(zip(xs, ss), key=lambda p: -p[0]):
                    if share >= 5e-4:
                        print(f"  {camp:5} {share:.4f}  {params_text(s)[1:] or '(base)'}")
            print(f"  spec: {spec}")
            for camp, rs in replies.items():
                for g in rs:
                    print(f"  {camp} best reply: {100 * g[0]:+.2f} [{100 * g[1]:+.2f}, {100 * g[2]:+.2f}] "
                          f"{' '.join(f'{k}={v}' for k, v in g[3].items()) or '(the mix)'}", flush=True)
            if best is None or worse < best[0]:
                best = (worse, spec, it)
            grew = False
            for camp, lst in (("town", town), ("mafia", mafia)):
                for g in replies[camp]:
                    # best-response's settings lie over the camp's usual layers: here the base.
                    if 100 * g[0] > args.stop and g[3] and g[3] not in lst:
                        lst.append(g[3])
                        grew = True
            if not grew:
                print("\nno best reply gains more than --stop: solved", flush=True)
                break
        print(f"\nbest: iteration {best[2]}, larger best-reply gain {100 * best[0]:+.2f} points\n{best[1]}")


if __name__ == "__main__":
    main()
