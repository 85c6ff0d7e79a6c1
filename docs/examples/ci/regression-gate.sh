#!/bin/sh
# What the CI examples run (docs/ci.md): the earlier version of a pipeline definition from the target
# branch, the regression game and its gate, or a sharded analysis merged and gated with --compare.
#
#   regression-gate.sh before          the earlier version: git show "$BASE_REF:$PIPELINE"
#   regression-gate.sh game            the regression game of the two versions, gated
#   regression-gate.sh shard I K       part I of K of each version's analysis, saved as a session file
#   regression-gate.sh merge-gate      the parts merged, the later study gated against the earlier one
#
# Settings (environment): PIPELINE and CASES (paths in the repository), BASE_REF (default
# origin/main), OUT (default agentblame-out), CACHE (the model responses kept between runs, default
# .agentblame/responses.jsonl), AGENTBLAME (the command, default the installed package's).
set -eu

AGENTBLAME="${AGENTBLAME:-npx --no-install agentblame}"
PIPELINE="${PIPELINE:?set PIPELINE to the pipeline definition, e.g. pipelines/support.pipeline.js}"
CASES="${CASES:?set CASES to the evaluation cases, e.g. eval/cases.json}"
BASE_REF="${BASE_REF:-origin/main}"
OUT="${OUT:-agentblame-out}"
CACHE="${CACHE:-.agentblame/responses.jsonl}"

mkdir -p "$OUT" "$(dirname "$CACHE")"
# Without a model endpoint the cache is only read, and it must exist.
[ -f "$CACHE" ] || : > "$CACHE"

case "${1:-}" in
  before)
    git show "$BASE_REF:$PIPELINE" > "$OUT/before.pipeline.js"
    ;;
  game)
    $AGENTBLAME "$PIPELINE" --against "$OUT/before.pipeline.js" --cases "$CASES" --cache "$CACHE" \
      --gate --summary "$OUT/summary.md" --junit "$OUT/junit.xml" --html "$OUT/report.html"
    ;;
  shard)
    part="${2:?shard I K}/${3:?shard I K}"
    $AGENTBLAME "$PIPELINE" --cases "$CASES" --cache "$CACHE" --shard "$part" --save "$OUT/after-${2}.agentblame-session.json"
    $AGENTBLAME "$OUT/before.pipeline.js" --cases "$CASES" --cache "$CACHE" --shard "$part" --save "$OUT/before-${2}.agentblame-session.json"
    ;;
  merge-gate)
    $AGENTBLAME "$OUT"/after-*.agentblame-session.json --save "$OUT/after.agentblame-session.json" > /dev/null
    $AGENTBLAME "$OUT"/before-*.agentblame-session.json --save "$OUT/before.agentblame-session.json" > /dev/null
    $AGENTBLAME "$OUT/after.agentblame-session.json" --compare "$OUT/before.agentblame-session.json" \
      --gate --summary "$OUT/summary.md" --junit "$OUT/junit.xml" --html "$OUT/report.html"
    ;;
  *)
    echo "usage: regression-gate.sh before | game | shard I K | merge-gate" >&2
    exit 2
    ;;
esac
