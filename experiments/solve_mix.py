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
`--agents` spec to ship (agents/src/lineup.rs, PRESET_LINEUPS). To go on
from a shipped mix, give its spec with `--from` (its settings, with their
adaptive replies, start the lists) and the replies the last searches found
against it with `--town`/`--mafia-setting`.

With a third camp (the bandits of `extended` and `forum-16`, held at the
base lineup) the game is not zero-sum: the mafia can win games the
bandits would have won without costing the town anything. `--general`
then gives each camp its own payoff (the town's and the mafia's win
rates of every cell) and solves the bimatrix game by Lemke–Howson paths
(of its equilibria, the one of the smallest support, then the town's
highest rate); check the bandits' best reply to the result with `mafia
best-response --camp bandits`.

Only the standard library is used; `--mafia` names the binary (default:
target/release/mafia, built with `cargo build --release`).
"""

import argparse
import csv
import json
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
    """A setting's parameters as `:k=v…` (its adaptive reply's keys, `?signal`
    and `?then`, left out: see `reply_part`)."""
    return "".join(f":{k}={v}" for k, v in sorted(p.items()) if not k.startswith("?"))


def reply_part(camp, p, of_alternative):
    """A setting's adaptive reply as a spec part (`,CAMP?SIG=forum:…` for the
    camp, `,CAMP@?SIG=forum:…` for the alternative just given), or ''."""
    if "?signal" not in p:
        return ""
    return f",{camp}{'@' if of_alternative else ''}?{p['?signal']}=forum:{p['?then']}"


def describe(p):
    """A setting in words for the log: its parameters, and its reply."""
    text = params_text(p)[1:] or "(base)"
    if "?signal" in p:
        text += f"; if {p['?signal']}, from night 1: {p['?then']}"
    return text


def parse_setting(text):
    """`fake=0 preempt=1` (best-response's `setting` column) as a dict."""
    if text in ("", "(default)", "(usual layers)"):
        return {}
    return dict(kv.split("=", 1) for kv in text.split())


def parse_reply(row):
    """best-response's best reply as a setting: a fixed one, or (with
    `--adaptive-base best`) a fixed one with its adaptive reply."""
    if row.get("signal"):
        p = parse_setting(row["base_setting"])
        p["?signal"] = row["signal"]
        p["?then"] = ":".join(row["then"].split())
        return p
    return parse_setting(row["setting"])


def start_text(p):
    """A setting as `--town`/`--mafia-setting` take it (see `parse_start`)."""
    text = params_text(p)[1:]
    if "?signal" in p:
        text += f"?{p['?signal']}={p['?then']}"
    return text


def parse_start(text):
    """A starting setting from the command line: `P=V:P=V…`, optionally with
    an adaptive reply `?SIGNAL=P=V:…` (as the log prints a listed setting:
    `by_day=4:counter=1?claims>0=trust=0.25`), so a solve can go on from an
    earlier one's settings."""
    fixed, _, reply = text.partition("?")
    p = dict(kv.split("=", 1) for kv in fixed.split(":")) if fixed else {}
    if reply:
        signal, sep, then = reply.partition("=")
        if not sep or not then:
            sys.exit(f"bad starting setting `{text}`: an adaptive reply is `?SIGNAL=P=V:…`")
        p["?signal"] = signal
        p["?then"] = then
    return p


def parse_mix(spec):
    """The settings of a mix spec (`mafia run --agents`'s, as PRESET_LINEUPS
    holds them): `CAMP@SHARE=forum:…` parts become settings of their camp,
    a `CAMP@?SIGNAL=forum:…` part the adaptive reply of its camp's last
    setting; the shares and every other part (the base, a third camp's
    fixed strategy) are left out. Returns (town settings, mafia settings)."""
    lists = {"town": [], "mafia": []}
    for part in spec.split(","):
        head, sep, strategy = part.partition("=")
        camp, at, share = head.partition("@")
        if not sep or not at or camp not in lists:
            continue
        name, _, params = strategy.partition(":")
        if name != "forum":
            sys.exit(f"--from: `{part}` plays `{name}`; the solve varies `forum` settings only")
        p = dict(kv.split("=", 1) for kv in params.split(":")) if params else {}
        if share.startswith("?"):
            if not lists[camp]:
                sys.exit(f"--from: `{part}` replies for no setting before it")
            last = lists[camp][-1]
            last["?signal"] = share[1:]
            last["?then"] = params
        else:
            lists[camp].append(p)
    return lists["town"], lists["mafia"]


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
                parts.append(f"{camp}@{share:g}=forum{params_text(p)}" + reply_part(camp, p, True))
    return ",".join(parts)


def pure_spec(base, t, m):
    return (f"{base},town=forum{params_text(t)}" + reply_part("town", t, False)
            + f",mafia=forum{params_text(m)}" + reply_part("mafia", m, False))


def rates(args, spec, tmp, cache=None):
    """The town's and the mafia's win rates of one cell. With `cache` (a dict
    kept in `--cells`, a JSON-lines file) a cell already played on the same
    setup, games and seed is read back instead of played again."""
    key = f"{args.setup}|{args.games}|{args.seed}|{spec}"
    if cache is not None and key in cache:
        return tuple(cache[key])
    out = os.path.join(tmp, "cell.csv")
    run([args.mafia, "run", "--setup", args.setup, "--agents", spec, "--games", str(args.games),
         "--seed", str(args.seed), "--threads", str(args.threads), "--quiet", "--out", out])
    row = read_csv(out)[0]
    value = (float(row["town_rate"]), float(row["mafia_rate"]))
    if cache is not None:
        cache[key] = value
        with open(args.cells, "a") as f:
            f.write(json.dumps({"key": key, "rates": value}) + "\n")
    return value


def load_cells(path):
    """The cells `--cells` holds (none if the file does not exist yet)."""
    cache = {}
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    cell = json.loads(line)
                    cache[cell["key"]] = cell["rates"]
    return cache


def over_the_mix(p, mix, least=0.05):
    """An adaptive reply `p` that best-response found over the camp's mix
    (`--adaptive-base default`: each game plays its setting of the mix on
    day 1, then the reply) as pure settings the matrix can hold: the reply
    over the fixed part of each setting of the mix with a share of at least
    `least`; the largest share first."""
    out = []
    for share, s in sorted(mix, key=lambda q: -q[0]):
        if share >= least:
            q = {k: v for k, v in s.items() if not k.startswith("?")}
            q["?signal"], q["?then"] = p["?signal"], p["?then"]
            if q not in out:
                out.append(q)
    return out or [p]


def best_reply(args, spec, camp, seed, tmp, mix, over="best"):
    """The oracle: (gain, its bounds, the reply as a list of pure settings).
    `over`: what an adaptive reply lies over (best-response's
    `--adaptive-base`): `best`, the fixed search's best (the base when that
    is the mix); `default`, the camp's mix itself, as the published
    searches play it; such a reply joins as `over_the_mix` settings."""
    out = os.path.join(tmp, "br.csv")
    run([args.mafia, "best-response", "--setup", args.setup, "--agents", spec, "--camp", camp,
         "--max-games", str(args.br_games), "--rounds", str(args.br_rounds), "--confirm", str(args.confirm),
         "--seed", str(seed), "--threads", str(args.threads), "--quiet", "--out", out]
        + (["--signals", "auto", "--adaptive-base", over, "--adaptive-games", str(args.adaptive_games)]
           if args.adaptive else ["--signals", "none"]))
    # The oracle's replies join the mix as alternatives: pure strategies,
    # fixed settings, or with `--adaptive` a fixed setting with an adaptive
    # reply.
    row = read_csv(out)[0]
    p = parse_reply(row)
    settings = over_the_mix(p, mix) if row.get("signal") and row["base_setting"] == "(default)" else [p]
    return float(row["gain"]), float(row["gain_lo"]), float(row["gain_hi"]), settings


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


def lemke_howson(a, b, dropped, eps=1e-12):
    """One Nash equilibrium of the bimatrix game (row payoffs a[i][j],
    column payoffs b[i][j]) by the Lemke–Howson path that starts by
    dropping label `dropped` (0..n-1: a row, n..n+m-1: a column), with
    the lexicographic ratio test (no cycling on degenerate games).
    Returns (x, y) or None if the path did not close."""
    n, m = len(a), len(a[0])
    shift_a = 1 - min(min(r) for r in a)
    shift_b = 1 - min(min(r) for r in b)
    # Each tableau row: coefficients by label (0..n+m-1), then the
    # right-hand side. Q = {y >= 0: A y <= 1}: the row player's slacks
    # (labels 0..n-1) are basic at first. P = {x >= 0: B^T x <= 1}: the
    # column player's slacks (labels n..n+m-1).
    q = [[1.0 if k == i else 0.0 for k in range(n)] + [a[i][j] + shift_a for j in range(m)] + [1.0]
         for i in range(n)]
    p = [[b[i][j] + shift_b for i in range(n)] + [1.0 if k == j else 0.0 for k in range(m)] + [1.0]
         for j in range(m)]
    tabs = {"q": (q, list(range(n)), list(range(n))), "p": (p, list(range(n, n + m)), list(range(n, n + m)))}

    def pivot(name, enter):
        rows, basis, slack = tabs[name]
        best, best_key = None, None
        for r, row in enumerate(rows):
            c = row[enter]
            if c > eps:
                key = [row[-1] / c] + [row[s] / c for s in slack]
                if best_key is None or key < best_key:
                    best, best_key = r, key
        if best is None:
            return None
        row = rows[best]
        c = row[enter]
        rows[best] = row = [v / c for v in row]
        for r in range(len(rows)):
            if r != best and rows[r][enter] != 0.0:
                f = rows[r][enter]
                rows[r] = [u - f * v for u, v in zip(rows[r], row)]
        leaving = basis[best]
        basis[best] = enter
        return leaving

    # A row label enters P first (x_i leaves zero), a column label Q.
    name = "p" if dropped < n else "q"
    enter = dropped
    for _ in range(10 * (n + m) ** 2 + 100):
        leaving = pivot(name, enter)
        if leaving is None:
            return None
        if leaving == dropped:
            break
        name = "q" if name == "p" else "p"
        enter = leaving
    else:
        return None
    x = [0.0] * n
    y = [0.0] * m
    rows, basis, _ = tabs["p"]
    for r, lab in enumerate(basis):
        if lab < n:
            x[lab] = rows[r][-1]
    rows, basis, _ = tabs["q"]
    for r, lab in enumerate(basis):
        if lab >= n:
            y[lab - n] = rows[r][-1]
    sx, sy = sum(x), sum(y)
    if sx <= 0 or sy <= 0:
        return None
    return [v / sx for v in x], [v / sy for v in y]


def solve_general(a, b, eps=1e-9):
    """A Nash equilibrium of the bimatrix game (the town gets a[i][j], the
    mafia b[i][j]): the Lemke–Howson path from every starting label (a
    polynomial pivot per step, where support enumeration was exponential
    and stalled at 17 × 14 settings). Of the equilibria the paths reach,
    the one of the smallest support (the fewest alternatives: the
    cheapest lineup), then the town's highest value. Returns (x, y, town
    value) or None."""
    n, m = len(a), len(a[0])
    found = []
    for label in range(n + m):
        sol = lemke_howson(a, b, label)
        if sol is None:
            continue
        x, y = sol
        x = [v if v > eps else 0.0 for v in x]
        y = [v if v > eps else 0.0 for v in y]
        town = [sum(a[i][j] * y[j] for j in range(m)) for i in range(n)]
        maf = [sum(b[i][j] * x[i] for i in range(n)) for j in range(m)]
        value = sum(x[i] * town[i] for i in range(n))
        if max(town) <= value + 1e-7 and max(maf) <= sum(y[j] * maf[j] for j in range(m)) + 1e-7:
            found.append((x, y, value))
    if not found:
        return None
    return min(found, key=lambda f: (sum(v > 0 for v in f[0] + f[1]), -f[2]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--setup", default="classic")
    ap.add_argument("--base", help="the lineup, without a mix, the settings lie over (default: the "
                    "preset's own when it has no mix)")
    ap.add_argument("--town", action="append", default=[], metavar="P=V[:P=V…]",
                    help="a town setting to start with, optionally with an adaptive reply `?SIGNAL=P=V:…` "
                    "(repeatable; the base is always one)")
    ap.add_argument("--mafia-setting", action="append", default=[], metavar="P=V[:P=V…]",
                    help="a mafia setting to start with, as --town (repeatable; the base is always one)")
    ap.add_argument("--from", dest="from_mix", metavar="SPEC",
                    help="start from the settings of this mix (a lineup spec with `CAMP@SHARE=forum:…` parts, "
                         "such as a preset's in agents/src/lineup.rs), besides --town and --mafia-setting")
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
    ap.add_argument("--adaptive", action="store_true",
                    help="the oracle searches adaptive replies too (a fixed setting with a reply from night 1 "
                         "to a day-1 signal): the mix's alternatives may carry them (CAMP@?SIGNAL=…)")
    ap.add_argument("--adaptive-base", choices=["best", "default", "both"], default="best",
                    help="what the oracle's adaptive replies lie over (best-response's --adaptive-base): the fixed "
                         "search's best, the camp's mix (as the published searches play them; such a reply joins "
                         "as the reply over each setting of the mix with a 5%% share or more), or both in turn over "
                         "--br-seeds")
    ap.add_argument("--adaptive-games", type=int, default=300_000, help="best-response --adaptive-games")
    ap.add_argument("--general", action="store_true",
                    help="each camp maximises its own win rate (a bimatrix game, solved by Lemke–Howson paths) "
                         "instead of the town's rate as a zero-sum game: for setups with a third camp (the "
                         "bandits, held at the base) or many draws, where the mafia may gain without the town losing")
    ap.add_argument("--cells", metavar="FILE",
                    help="keep every played cell in FILE (JSON lines) and read it back: a solve that goes on "
                         "from another's settings plays only the cells it has not played (same setup, games, seed)")
    ap.add_argument("--threads", type=int, default=0, help="worker threads of every run (0 = every core)")
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
        town = [{}] + [parse_start(s) for s in args.town]
        mafia = [{}] + [parse_start(s) for s in args.mafia_setting]
        if args.from_mix:
            for lst, more in zip((town, mafia), parse_mix(args.from_mix)):
                lst.extend(p for p in more if p not in lst)
        bases = {"best": ["best"], "default": ["default"], "both": ["best", "default"]}[args.adaptive_base]
        cells = {}
        cache = load_cells(args.cells) if args.cells else None
        best = None
        for it in range(1, args.iterations + 1):
            for i, t in enumerate(town):
                for j, m in enumerate(mafia):
                    if (i, j) not in cells:
                        cells[(i, j)] = rates(args, pure_spec(base, t, m), tmp, cache)
            a = [[cells[(i, j)][0] for j in range(len(mafia))] for i in range(len(town))]
            general = solve_general(a, [[cells[(i, j)][1] for j in range(len(mafia))]
                                        for i in range(len(town))]) if args.general else None
            if args.general and general is None:
                print("note: no Lemke–Howson path closed (a degenerate matrix); "
                      "solving the town's rate as zero-sum instead", flush=True)
            x, y, value = general if general is not None else solve(a)
            spec = mix_spec(base, list(zip(x, town)), list(zip(y, mafia)))
            replies = {}
            mixes = {"town": list(zip(x, town)), "mafia": list(zip(y, mafia))}
            for camp in ("town", "mafia"):
                replies[camp] = [best_reply(args, spec, camp, args.br_seed + args.br_seeds * it + k, tmp,
                                            mixes[camp], bases[k % len(bases)])
                                 for k in range(args.br_seeds)]
            worse = max(g[0] for rs in replies.values() for g in rs)
            print(f"\niteration {it}: {len(town)} town × {len(mafia)} mafia settings, town wins {value:.4f}")
            for camp, xs, ss in (("town", x, town), ("mafia", y, mafia)):
                for share, s in sorted(zip(xs, ss), key=lambda p: -p[0]):
                    if share >= 5e-4:
                        print(f"  {camp:5} {share:.4f}  {describe(s)}")
            print(f"  spec: {spec}")
            print("  go on with: " + " ".join(
                f"{flag} '{start_text(p)}'" for flag, lst in (("--town", town), ("--mafia-setting", mafia))
                for p in lst if p), flush=True)
            for camp, rs in replies.items():
                for g in rs:
                    more = f" (over the mix: {len(g[3])} settings)" if len(g[3]) > 1 else ""
                    print(f"  {camp} best reply: {100 * g[0]:+.2f} [{100 * g[1]:+.2f}, {100 * g[2]:+.2f}] "
                          f"{describe(g[3][0]) if g[3][0] else '(the mix)'}{more}", flush=True)
            if best is None or worse < best[0]:
                best = (worse, spec, it)
            grew = False
            listed = False
            for camp, lst in (("town", town), ("mafia", mafia)):
                for g in replies[camp]:
                    # best-response's settings lie over the camp's usual layers: here the base.
                    for q in g[3] if 100 * g[0] > args.stop else []:
                        if not q:
                            continue
                        if q not in lst:
                            lst.append(q)
                            grew = True
                        else:
                            listed = True
            if not grew:
                print("\nno new best reply gains more than --stop" + (
                    ": solved" if not listed else " (a listed setting does: the matrix's payoffs miss what the "
                    "replies gain; try --general, or more --games)"), flush=True)
                break
        print(f"\nbest: iteration {best[2]}, larger best-reply gain {100 * best[0]:+.2f} points\n{best[1]}")


if __name__ == "__main__":
    main()
