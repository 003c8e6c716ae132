//go:build mpi

package ptscotch

/*
#cgo pkg-config: mpi-c
#cgo CFLAGS: -I/usr/include/scotch
#cgo LDFLAGS: -lptscotch -lscotch
#include <mpi.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ptscotch.h>

_Static_assert(sizeof(SCOTCH_Num) == 4, "package ptscotch needs Scotch built with 32-bit SCOTCH_Num (Debian's default)");

// The last message Scotch reported; Scotch's own error library would print it.
static char spac_scotch_msg[1024];
static pthread_mutex_t spac_scotch_mu = PTHREAD_MUTEX_INITIALIZER;

static void spac_scotch_keep(const char *kind, const char *fmt, va_list ap) {
	pthread_mutex_lock(&spac_scotch_mu);
	int n = snprintf(spac_scotch_msg, sizeof spac_scotch_msg, "%s", kind);
	if (n >= 0 && n < (int)sizeof spac_scotch_msg) vsnprintf(spac_scotch_msg + n, sizeof spac_scotch_msg - n, fmt, ap);
	pthread_mutex_unlock(&spac_scotch_mu);
}

void SCOTCH_errorProg(const char * const name) { (void)name; }

void SCOTCH_errorPrint(const char * const fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	spac_scotch_keep("", fmt, ap);
	va_end(ap);
}

void SCOTCH_errorPrintW(const char * const fmt, ...) {
	(void)fmt; // warnings are not errors: dropped
}

static void spac_scotch_last(char *out, int n) {
	pthread_mutex_lock(&spac_scotch_mu);
	snprintf(out, n, "%s", spac_scotch_msg);
	spac_scotch_msg[0] = 0;
	pthread_mutex_unlock(&spac_scotch_mu);
}

// spac_scotch_part builds the distributed graph, partitions it and frees
// it, in one call (see the package comment). It returns 0, or the step
// that failed: 1 init, 2 build, 3 check, 4 strategy, 5 partition.
static int spac_scotch_part(int64_t fcomm, SCOTCH_Num nlocal, SCOTCH_Num *xadj, SCOTCH_Num *adjncy,
		SCOTCH_Num *vwgt, SCOTCH_Num *adjwgt, SCOTCH_Num nparts, double balrat, int64_t seed,
		int check, SCOTCH_Num *part) {
	MPI_Comm comm = MPI_Comm_f2c((MPI_Fint)fcomm);
	SCOTCH_Context ctx;
	SCOTCH_Dgraph org, g;
	SCOTCH_Strat s;
	int step = 0;
	// A context of our own: deterministic (Scotch's threads then give the
	// same result on every run) and seeded.
	if (SCOTCH_contextInit(&ctx) != 0) return 1;
	SCOTCH_contextOptionSetNum(&ctx, SCOTCH_OPTIONNUMDETERMINISTIC, 1);
	// One thread per process: Scotch's threads wait by spinning, and the
	// ranks already share the cores (two ranks of two threads each on two
	// cores made a bipartition 25 times slower; see the package comment).
	if (SCOTCH_contextThreadSpawn(&ctx, 1, NULL) != 0) { SCOTCH_contextExit(&ctx); return 1; }
	SCOTCH_contextRandomSeed(&ctx, (SCOTCH_Num)seed);
	if (SCOTCH_dgraphInit(&org, comm) != 0) { SCOTCH_contextExit(&ctx); return 1; }
	SCOTCH_Num nedges = xadj[nlocal];
	if (SCOTCH_dgraphBuild(&org, 0, nlocal, nlocal, xadj, xadj + 1, vwgt, NULL,
			nedges, nedges, adjncy, NULL, adjwgt) != 0) { step = 2; goto out; }
	if (check && SCOTCH_dgraphCheck(&org) != 0) { step = 3; goto out; }
	if (SCOTCH_dgraphInit(&g, comm) != 0) { step = 1; goto out; }
	if (SCOTCH_contextBindDgraph(&ctx, &org, &g) != 0) { step = 1; goto bound; }
	SCOTCH_stratInit(&s);
	if (SCOTCH_stratDgraphMapBuild(&s, SCOTCH_STRATQUALITY, 0, nparts, balrat) != 0) { step = 4; goto strat; }
	if (SCOTCH_dgraphPart(&g, nparts, &s, part) != 0) step = 5;
strat:
	SCOTCH_stratExit(&s);
bound:
	SCOTCH_dgraphExit(&g);
out:
	SCOTCH_dgraphExit(&org);
	SCOTCH_contextExit(&ctx);
	return step;
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/spac-gpu/spac/mpi"
)

// Part partitions the distributed graph g into parts parts and returns the
// part of every local vertex. Collective over c, which must be an MPI
// communicator; every rank passes its own share and the same parts and
// options. Errors are agreed on (mpi.Agree): every rank returns one when
// any rank failed.
func Part(c mpi.Comm, g *Graph, parts int, opts Options) ([]int32, error) {
	fcomm, ok := c.Handle()
	if !ok {
		return nil, fmt.Errorf("ptscotch: the communicator is not MPI's: PT-Scotch runs under mpirun only")
	}
	total, err := mpi.Sum(c, int64(len(g.Xadj)-1))
	if err != nil {
		return nil, err
	}
	err = g.check(total)
	if err == nil && (parts < 1 || int64(parts) > max(total, 1)) {
		err = fmt.Errorf("ptscotch: %d parts for %d vertices", parts, total)
	}
	if err == nil && total > 1<<31-1 {
		err = fmt.Errorf("ptscotch: %d vertices exceed Scotch's 32-bit numbers (a Scotch built with 64-bit SCOTCH_Num is needed)", total)
	}
	if err = mpi.Agree(c, err); err != nil {
		return nil, err
	}
	n := len(g.Xadj) - 1
	part := make([]int32, max(n, 1))
	if parts == 1 {
		return part[:n], nil
	}
	// Scotch wants weights on every rank or on none: a rank without them
	// (no vertices, or no edges) passes ones.
	have := []int64{0, 0}
	if g.Vwgt != nil {
		have[0] = 1
	}
	if g.Adjwgt != nil {
		have[1] = 1
	}
	if err := c.Allreduce(have, mpi.OpMax); err != nil {
		return nil, err
	}
	vwgt, adjwgt := g.Vwgt, g.Adjwgt
	if have[0] == 1 && vwgt == nil {
		vwgt = ones(n)
	}
	if have[1] == 1 && adjwgt == nil {
		adjwgt = ones(len(g.Adjncy))
	}
	// Scotch reads no entry of an empty array but wants a pointer, and a
	// distinct one for each array: it takes an edge weight array that
	// aliases the edge array (or vertex weights aliasing Xadj) for none,
	// and the ranks must agree on which arrays they have.
	ptr := func(s []int32) *C.SCOTCH_Num {
		if s == nil {
			return nil
		}
		if len(s) == 0 {
			s = make([]int32, 1)
		}
		return (*C.SCOTCH_Num)(unsafe.Pointer(&s[0]))
	}
	adjncy := g.Adjncy
	if adjncy == nil {
		adjncy = []int32{}
	}
	check := C.int(0)
	if opts.Check {
		check = 1
	}
	step := C.spac_scotch_part(C.int64_t(fcomm), C.SCOTCH_Num(n), ptr(g.Xadj), ptr(adjncy), ptr(vwgt), ptr(adjwgt),
		C.SCOTCH_Num(parts), C.double(opts.imbalance()), C.int64_t(opts.Seed), check, ptr(part))
	if step != 0 {
		var msg [1024]C.char
		C.spac_scotch_last(&msg[0], C.int(len(msg)))
		what := [...]string{1: "SCOTCH_dgraphInit", 2: "SCOTCH_dgraphBuild", 3: "SCOTCH_dgraphCheck", 4: "SCOTCH_stratDgraphMapBuild", 5: "SCOTCH_dgraphPart"}[step]
		err = fmt.Errorf("ptscotch: %s on %d local vertices (%d in all) into %d parts failed", what, n, total, parts)
		if s := C.GoString(&msg[0]); s != "" {
			err = fmt.Errorf("%w: %s", err, s)
		}
	}
	if err = mpi.Agree(c, err); err != nil {
		return nil, err
	}
	return part[:n], nil
}

// Version is the version of the PT-Scotch library, such as "7.0.3".
func Version() string {
	var a, b, d C.int
	C.SCOTCH_version(&a, &b, &d)
	return fmt.Sprintf("%d.%d.%d", a, b, d)
}

func ones(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = 1
	}
	return s
}
