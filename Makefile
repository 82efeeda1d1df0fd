# Thin wrapper around CMake. The two commands README shows:
#   make run   - install missing Debian packages, build, run scenarios/quickstart.lua
#                into results/quickstart/ (--overwrite: a second `make run` runs it again,
#                the earlier output moved to results/quickstart/previous-<time>/)
#   make test  - install missing Debian packages, build, run every test suite,
#                then rebuild with AddressSanitizer + UBSan and run the unit suites again
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD ?= build
ASAN_BUILD ?= build-asan

.PHONY: all setup build run test test-fast asan clean bench

all: build

setup:
	./scripts/setup-deps.sh

build: setup
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/collsim run scenarios/quickstart.lua -j $(JOBS) --overwrite

test-fast: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

asan: setup
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCOLLSIM_SANITIZE=ON >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && COLLSIM_TEST_MAX_P=512 ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=1 \
	    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    ctest -L unit --output-on-failure -j $(JOBS)

test: test-fast asan

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
