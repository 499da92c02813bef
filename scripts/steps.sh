# Sourced by scripts/test.sh and .ci/run: a heading per step with the time since the run began, and `together`,
# which runs steps side by side and prints each one's output under its heading (docs/performance.md, "CI time").
STEPS_T0=${STEPS_T0:-$(date +%s)}
export STEPS_T0
step() { echo; echo "== $1 (at ${2:-$(($(date +%s) - STEPS_T0))} s)"; }
# together NAME COMMAND [NAME COMMAND …]: fails if any failed; each heading says when its step began, and the step's
# own time follows its output.
together() {
  local out; out=$(mktemp -d)
  local names=() pids=() began=() i failed=0
  while [ $# -gt 0 ]; do
    names+=("$1")
    began+=("$(($(date +%s) - STEPS_T0))")
    bash -c "start=\$(date +%s); $2; rc=\$?; echo \"(\$((\$(date +%s) - start)) s)\"; exit \$rc" >"$out/${#pids[@]}" 2>&1 &
    pids+=($!)
    shift 2
  done
  for i in "${!pids[@]}"; do
    local rc=0
    wait "${pids[$i]}" || rc=$?
    step "${names[$i]}" "${began[$i]}"
    cat "$out/$i"
    [ "$rc" = 0 ] || { echo "${names[$i]} failed (exit $rc)"; failed=1; }
  done
  rm -rf "$out"
  return "$failed"
}
