#!/usr/bin/env bash
# Regenerates reports/three-nights.{csv,roles.csv,days.csv,txt}: does the
# no-kill rule (C8: three nights without a kill = the town wins) favour the
# town? The `classic` preset with the `forum` strategies at their defaults
# (named explicitly, so a later change of the default lineup does not change
# this study), `no_kill_limit` 3 versus off, at three absence rates (C16),
# one million games each. All six variants share seed 2026, so game i has
# the same deal in every variant.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release -q -- run \
  --setup classic --agents forum \
  --sweep no_kill_limit=3,off --sweep absence=0,0.05,0.1 \
  --games 1000000 --seed 2026 --quiet \
  --out reports/three-nights.csv > reports/three-nights.txt
echo "wrote reports/three-nights.txt and reports/three-nights*.csv"
