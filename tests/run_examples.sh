#!/usr/bin/env bash
# run_examples.sh SOURCE_ROOT BUILD_DIR [--every-layer] — the README's "Check your own
# structure" path, run as written, then the layers of the example projects (examples/)
# through the installed `lfcheck --build`, so the documented path is the tested one:
#   1. the README's install block (step 1), as written, in a user's directory of its own
#      (BUILD_DIR/examples-user, or examples-user-every-layer): `lfcheck` there is this
#      source tree and HOME a fresh directory, so `$HOME/.local` is a clean prefix; the
#      block ends in `mine`, a copy of examples/bounded_queue. Its apt-get line must name
#      exactly the packages the installed driver asks a project for.
#   2. the README's check block (step 5), as written, in `mine`: configure, the first
#      model verdict, every layer built and its ctest tests.
#   3. every layer of `mine` through `lfcheck --build build`: lin on both layers under
#      TSan and under ASan, stress under TSan and under ASan, props.
#   4. the other examples, in one build against the same prefix (examples/CMakeLists.txt
#      without bounded_queue, checked in 2 and 3): the model layer of those that have one,
#      stress under TSan of each, the installed driver's contract on a project's build
#      tree (tests/driver_on_project.sh), and the ctest tests of their seeded faults
#      (model and TSan: *.faults_caught) and of urcu_lfstack's hooks (unregistered_fails).
#   5. with --every-layer only (the test examples.installed.every_layer, label nightly):
#      the other examples' remaining layers too, stress and lin under ASan, lin under
#      TSan, props, the whole build and all its ctest tests.
# ./lfcheck test runs 1-4 (examples.installed); the nightly (ctest --preset nightly) 1-5.
# The compiler launcher of BUILD_DIR (ccache in a developer's tree) reaches every cmake
# through the environment (CMAKE_CXX_COMPILER_LAUNCHER), so the README's commands run
# unchanged. Exit status: 0 every step passed, 1 a check failed, 2 a step could not run.
set -u
src=$(cd "$1" && pwd) build=$(cd "$2" && pwd)
every_layer=${3:-}
case $every_layer in
  "") user=$build/examples-user ;;
  --every-layer) user=$build/examples-user-every-layer ;;
  *) echo "usage: run_examples.sh SOURCE_ROOT BUILD_DIR [--every-layer]"; exit 2 ;;
esac
step() { echo; echo "== $*"; }
fail() { echo "run_examples: $*"; exit 2; }
failed=0
check() {  # WHAT COMMAND...: a check of a layer; its failure fails the test, the rest still run
  local what=$1; shift
  echo "\$ $*"
  "$@" >"$user/check.log" 2>&1; local rc=$?
  if [ $rc -eq 0 ]; then echo "ok:   $what"
  else echo "FAIL: $what: exit $rc"; tail -n 15 "$user/check.log"; failed=$((failed + 1)); fi
}

# block NAME: the fenced block of README.md after the line "<!-- run by tests/run_examples.sh: NAME -->".
block() {
  awk -v marker="<!-- run by tests/run_examples.sh: $1 -->" '
    $0 == marker { found = 1; next }
    found == 1 && /^```/ { found = 2; next }
    found == 2 && /^```/ { exit }
    found == 2 { print }' "$src/README.md"
}
install_block=$(block install) check_block=$(block check)
[ -n "$install_block" ] && [ -n "$check_block" ] || fail "README.md has no install or check block for this test"

launcher=$(sed -n 's/^CMAKE_CXX_COMPILER_LAUNCHER:[A-Z]*=//p' "$build/CMakeCache.txt")
[ -n "$launcher" ] && export CMAKE_CXX_COMPILER_LAUNCHER=$launcher
rm -rf "$user"
mkdir -p "$user/home" && ln -s "$src" "$user/lfcheck" || fail "cannot make $user"
export HOME=$user/home
export PATH=$HOME/.local/bin:$PATH
prefix=$HOME/.local

step "the README's apt-get line names what the installed driver asks a project for"
readme_packages=$(sed -n '/^apt-get install -y --no-install-recommends/,/[^\\]$/p' "$src/README.md" |
  tr -d '\\' | tr ' ' '\n' | grep -E '^[a-z0-9][a-z0-9.+-]+$' | grep -vxE 'apt-get|install' | sort | tr '\n' ' ')
driver_packages=$(sed -n 's/^PROJECT_PACKAGES=(\(.*\))$/\1/p' "$src/lfcheck" | tr ' ' '\n' | sort | tr '\n' ' ')
if [ -n "$readme_packages" ] && [ "$readme_packages" = "$driver_packages" ]; then
  echo "ok:   $readme_packages"
else
  echo "FAIL: README apt-get line: '$readme_packages'; the driver asks a project for: '$driver_packages'"
  failed=$((failed + 1))
fi

step "the README's install and check blocks, as written, in $user (HOME=$HOME)"
printf '%s\n' "$install_block" "$check_block"
start=$SECONDS
# set -x with the seconds since the start: each README command's start in the log (bash
# takes no PS4 from the environment when run as root).
(cd "$user" && bash -euo pipefail -c "PS4='+ [\$SECONDS s] '; set -x
$install_block
$check_block") >"$user/readme.log" 2>&1
rc=$?
echo "exit $rc after $((SECONDS - start)) s (log: $user/readme.log); the commands' start times:"
grep -E '^\+ \[[0-9]+ s\] ' "$user/readme.log"
if [ $rc -ne 0 ]; then
  grep -E "error|Error|FAIL|Failed|lfcheck:" "$user/readme.log" | head -30
  fail "the README's commands failed"
fi
# The project must have used the installed copy, never the source tree.
grep -q "^lfcheck_DIR:PATH=$prefix/" "$user/mine/build/CMakeCache.txt" ||
  fail "mine did not find lfcheck in $prefix: $(grep '^lfcheck_DIR' "$user/mine/build/CMakeCache.txt")"
ls "$prefix"/lib*/liblfcheck_stress_runner_thread.a "$prefix"/lib*/liblfcheck_stress_runner_address.a >/dev/null ||
  fail "the install has no TSan/ASan stress runner"

step "every layer of mine through lfcheck --build"
b=(--build "$user/mine/build")
check "lin bounded_queue, both layers, TSan" lfcheck "${b[@]}" lin bounded_queue --sanitizer thread --scenarios 4 --quiet
check "lin bounded_queue, both layers, ASan" lfcheck "${b[@]}" lin bounded_queue --sanitizer address --scenarios 4 --quiet
check "stress bounded_queue, TSan" lfcheck "${b[@]}" stress bounded_queue --ops 40000 --quiet
check "stress bounded_queue, ASan" lfcheck "${b[@]}" stress bounded_queue --sanitizer address --ops 40000 --quiet
check "props bounded_queue" lfcheck "${b[@]}" props bounded_queue

step "the other examples in one build against $prefix"
others=$user/examples
cmake -S "$src/examples" -B "$others" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DLFCHECK_TEST_SCALE=10 \
  "-DLFCHECK_EXAMPLES=handoff;ticket_lock;boost_spsc_queue;urcu_lfstack" >"$user/examples-configure.log" 2>&1 ||
  { tail -30 "$user/examples-configure.log"; fail "configure failed"; }
grep -q "^lfcheck_DIR:PATH=$prefix/" "$others/CMakeCache.txt" ||
  fail "examples did not find lfcheck in $prefix: $(grep '^lfcheck_DIR' "$others/CMakeCache.txt")"
b=(--build "$others")
check "model handoff" lfcheck "${b[@]}" model handoff --quiet
check "model ticket_lock" lfcheck "${b[@]}" model ticket_lock --quiet
for s in handoff ticket_lock boost_spsc_queue urcu_lfstack; do
  check "stress $s, thread" lfcheck "${b[@]}" stress $s --sanitizer thread --ops 40000 --quiet
done

step "the installed lfcheck driver on a project's build tree"
"$src/tests/driver_on_project.sh" "$prefix/bin/lfcheck" "$others" "$user/mine/build" || failed=$((failed + 1))

if [ -n "$every_layer" ]; then
  step "the other examples' remaining layers"
  for s in handoff ticket_lock boost_spsc_queue urcu_lfstack; do
    check "stress $s, address" lfcheck "${b[@]}" stress $s --sanitizer address --ops 40000 --quiet
  done
  for s in boost_spsc_queue urcu_lfstack; do
    for san in thread address; do
      check "lin $s (real threads), $san" lfcheck "${b[@]}" lin $s --sanitizer $san --scenarios 4 --quiet
    done
    check "props $s" lfcheck "${b[@]}" props $s
  done

  step "ctest of the other examples (every layer, the seeded faults caught)"
  cmake --build "$others" >"$user/examples-build.log" 2>&1 ||
    { grep -E "error|Error" "$user/examples-build.log" | head -30; fail "build failed"; }
  ctest --test-dir "$others" -LE nightly --output-on-failure --no-tests=error --timeout 900 || failed=$((failed + 1))
else
  step "the other examples' ctest tests of their seeded faults and hooks (the model and TSan builds above)"
  cmake --build "$others" --target lfcheck-stress-urcu_lfstack >"$user/examples-build.log" 2>&1 ||
    { grep -E "error|Error" "$user/examples-build.log" | head -30; fail "build failed"; }
  ctest --test-dir "$others" -R '[.]faults_caught$|^urcu_lfstack[.]unregistered_fails$' --output-on-failure \
    --no-tests=error --timeout 900 || failed=$((failed + 1))
  echo "(the other examples' ASan layers, lin, props and their other ctest tests: examples.installed.every_layer, in the nightly)"
fi

echo "run_examples: $failed failed"
[ $failed -eq 0 ]
