# The two commands a newcomer runs: `make demo` and `make test`.
GO      ?= go
BIN     := bin/spac
DEMO    := demo/ba-50k-d16.mtx
# MPI=1 (the default): `make test` also installs OpenMPI, PT-Scotch and
# Zoltan (scripts/setup.sh --mpi) and runs the MPI build's tests, which
# start mpirun with 1, 2 and 4 processes. MPI=0: neither.
MPI     ?= 1
# The packages with code or tests under the mpi build tag.
MPI_PKGS := ./mpi/... ./ptscotch ./zoltan ./hypergraph ./dist ./cmd/spac

.PHONY: all setup build demo test test-mpi bench gpu mpi ptx clean

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
ifeq ($(MPI),1)
	@scripts/setup.sh --mpi
	$(MAKE) --no-print-directory test-mpi
endif

# The MPI build's vet and tests alone (the packages are installed: make mpi).
# The tests start mpirun -np 1, 2 and 4 (--oversubscribe, and
# --allow-run-as-root as root); about a minute and a half on two cores.
test-mpi:
	$(GO) vet -tags mpi $(MPI_PKGS)
	$(GO) test -tags mpi $(MPI_PKGS)

# The MPI build: bin/mpi/spac, with 'partition --mpi' (distributed SPAC on
# PT-Scotch) and the hypergraph method (Zoltan PHG). Installs OpenMPI,
# PT-Scotch and Zoltan from Debian's packages first. Run it under mpirun:
#   mpirun -np 4 bin/mpi/spac partition big.mtx --mpi -o big.parts.tsv
mpi:
	@scripts/setup.sh --mpi
	$(GO) build -tags mpi -o bin/mpi/spac ./cmd/spac

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
