# The two commands a newcomer runs: `make demo` and `make test`.
GO      ?= go
BIN     := bin/spac
DEMO    := demo/ba-50k-d16.mtx

.PHONY: all setup build demo test bench gpu ptx clean

all: build

setup:
	@scripts/setup.sh

build: setup
	$(GO) build -o $(BIN) ./cmd/spac

# Generate a Barabasi-Albert graph like the paper's Fig. 7 (50k vertices,
# average degree 16, each undirected edge a task) and compare every method
# on it at block size 1024.
demo: build
	@mkdir -p demo
	@test -f $(DEMO) || $(BIN) gen ba:n=50000,m=8 --seed 1 -o $(DEMO)
	$(BIN) compare $(DEMO) --model graph --as-stored --block-size 1024

# The last step compiles and vets the CUDA side too (build tag cuda), against
# the headers scripts/cuda-kit.sh fetches into .kit/ (once; no GPU needed), so
# a change that breaks the GPU build fails here.
test: setup
	@unformatted=$$(gofmt -l $$(find . -name '*.go' -not -path './.kit/*')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt: not formatted (run gofmt -w):" $$unformatted >&2; exit 1; fi
	$(GO) vet ./...
	$(GO) test ./...
	scripts/gpu-build.sh --vet

# Speed and memory targets are checked here, not in unit tests.
bench: setup
	scripts/bench.sh

# The CUDA binary: bin/gpu/{spac,*.test,lib/}. Fetches CUDA 11.8's cuda.h and a libcuda
# to link against into .kit/ (nothing installed system-wide); needs no nvcc and no GPU.
gpu: setup
	scripts/gpu-build.sh

# Regenerates the kernels' stale PTX with nvcc (scripts/cuda-kit.sh --nvcc unpacks one into .kit/).
ptx:
	scripts/gen-ptx.sh

clean:
	rm -rf bin demo
