#!/usr/bin/env bash
# run_examples.sh SOURCE_ROOT BUILD_DIR — examples/ as a user builds them: lfcheck
# installed from BUILD_DIR (`cmake --install`, into BUILD_DIR/examples-prefix), then
# examples/ configured against that prefix alone (find_package(lfcheck CONFIG)),
# built and tested with ctest (all but the nightly label), then the installed driver
# is run on that build tree (tests/driver_on_project.sh). So the package (install
# rules, config file, lfcheck_add_structure and ./lfcheck outside lfcheck's tree)
# cannot rot.
# One build job (it runs beside the rest of the suite); the compiler launcher of
# BUILD_DIR (ccache) is passed on. Exit status: ctest's verdict (0 pass, 1 a test
# failed), 2 if installing, configuring or building failed.
set -u
src=$1 build=$2
prefix=$build/examples-prefix out=$build/examples
export CMAKE_BUILD_PARALLEL_LEVEL=1   # also the sanitizer sub-builds' `cmake --build`
step() { echo "== $*"; }
fail() { echo "run_examples: $*"; exit 2; }

launcher=$(sed -n 's/^CMAKE_CXX_COMPILER_LAUNCHER:[A-Z]*=//p' "$build/CMakeCache.txt")
step "cmake --install $build --prefix $prefix"
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >"$build/examples-install.log" 2>&1 ||
  { tail -20 "$build/examples-install.log"; fail "install failed"; }

step "configure examples/ against $prefix"
# At the flags of lfcheck's own build (CMakePresets.json, default): -O1 -g1.
cmake -S "$src/examples" -B "$out" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DLFCHECK_TEST_SCALE=10 \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
  ${launcher:+-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher"} >"$build/examples-configure.log" 2>&1 ||
  { tail -30 "$build/examples-configure.log"; fail "configure failed"; }
# The examples must use the installed copy, never the source tree.
grep -q "^lfcheck_DIR:PATH=$prefix/" "$out/CMakeCache.txt" ||
  fail "examples did not find lfcheck in $prefix: $(grep '^lfcheck_DIR' "$out/CMakeCache.txt")"

step "build examples (1 job; log: $build/examples-build.log)"
start=$(date +%s)
cmake --build "$out" >"$build/examples-build.log" 2>&1 ||
  { grep -E "error|Error" "$build/examples-build.log" | head -30; fail "build failed"; }
echo "built in $(( $(date +%s) - start )) s"

step "ctest examples"
ctest --test-dir "$out" -LE nightly --output-on-failure --no-tests=error --timeout 900
rc=$?

step "the installed lfcheck driver on the examples' build tree"
"$src/tests/driver_on_project.sh" "$prefix/bin/lfcheck" "$out" || rc=1
[ $rc -eq 0 ] || exit 1
