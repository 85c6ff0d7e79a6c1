#!/bin/sh
# What the CI examples run (docs/ci.md): the earlier version of a pipeline definition from the target
# branch, and the regression game with its gate, in one job or sharded across a matrix and merged.
#
#   regression-gate.sh before          the earlier version: git show "$BASE_REF:$PIPELINE"
#   regression-gate.sh game            the regression game of the two versions, gated
#   regression-gate.sh shard I K       part I of K of the game, saved as a session file
#   regression-gate.sh merge-gate      the parts merged and gated
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
    $AGENTBLAME "$PIPELINE" --against "$OUT/before.pipeline.js" --cases "$CASES" --cache "$CACHE" \
      --shard "$part" --save "$OUT/game-${2}.agentblame-session.json" > /dev/null
    # The part's model responses go to the merging job with its session file.
    cp "$CACHE" "$OUT/responses-${2}.jsonl"
    ;;
  merge-gate)
    # The parts' caches are merged into CACHE; they answer the earlier version's run of the passing cases.
    set -- "$OUT"/game-*.agentblame-session.json --cache "$CACHE"
    for cache in "$OUT"/responses-*.jsonl; do
      if [ -f "$cache" ]; then set -- "$@" --cache "$cache"; fi
    done
    $AGENTBLAME "$@" --gate --summary "$OUT/summary.md" --junit "$OUT/junit.xml" --html "$OUT/report.html"
    ;;
  *)
    echo "usage: regression-gate.sh before | game | shard I K | merge-gate" >&2
    exit 2
    ;;
esac
