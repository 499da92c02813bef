# Sourced by scripts/test.sh and .ci/run: a heading per step with the time since the run began, and `together`,
# which runs steps side by side (docs/performance.md, "CI time").
STEPS_T0=${STEPS_T0:-$(date +%s)}
export STEPS_T0
step() { echo; echo "== $1 (at ${2:-$(($(date +%s) - STEPS_T0))} s)"; }
# together NAME COMMAND [NAME COMMAND …]: fails if any failed. The first step's output streams as it runs (the long
# one goes first, so a run that hangs shows where); the others' is kept and printed under their headings once the first
# has ended and they have too. Each heading says when its step began, and the step's own time follows its output.
together() {
  local out; out=$(mktemp -d)
  local names=() pids=() began=() i failed=0
  while [ $# -gt 0 ]; do
    names+=("$1")
    began+=("$(($(date +%s) - STEPS_T0))")
    local run="start=\$(date +%s); $2; rc=\$?; echo \"(\$((\$(date +%s) - start)) s)\"; exit \$rc"
    # The first writes to this shell's own output: a `>/dev/stdout` would truncate it when it is a file (a CI log).
    if [ ${#pids[@]} = 0 ]; then step "$1"; bash -c "$run" 2>&1 & else bash -c "$run" >"$out/${#pids[@]}" 2>&1 & fi
    pids+=($!)
    shift 2
  done
  for i in "${!pids[@]}"; do
    local rc=0
    wait "${pids[$i]}" || rc=$?
    if [ "$i" != 0 ]; then step "${names[$i]}" "${began[$i]}"; cat "$out/$i"; fi
    [ "$rc" = 0 ] || { echo "${names[$i]} failed (exit $rc)"; failed=1; }
  done
  rm -rf "$out"
  return "$failed"
}
