package metis

/*
#cgo LDFLAGS: -lmetis
#include <metis.h>

extern __thread int spac_in_metis;

// spac_metis_nodend calls METIS_NodeND with the thread marked as inside
// METIS, so that its signal() and raise() calls stay on this thread (see
// the package comment, Signals).
static int spac_metis_nodend(idx_t nvtxs, idx_t *xadj, idx_t *adjncy, idx_t *options, idx_t *perm, idx_t *iperm) {
	int rc;
	spac_in_metis = 1;
	rc = METIS_NodeND(&nvtxs, xadj, adjncy, NULL, options, perm, iperm);
	spac_in_metis = 0;
	return rc;
}
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// NodeND computes METIS's nested-dissection ordering of g (METIS_NodeND),
// the fill-reducing order sparse direct solvers use and, for SpMV, an
// ordering that keeps neighbours close: the parts of each bisection are
// numbered one after the other and the separator last. It returns perm
// and its inverse: perm[new] = old, iperm[old] = new (row new of the
// permuted matrix is row perm[new] of g's).
//
// Only Seed of opts applies (the other fields choose partitioning
// routines); vertex and edge weights are ignored. g is checked as by
// PartGraph. The result is deterministic for a given seed; calls may run
// concurrently (see the package comment).
func NodeND(g *Graph, opts Options) (perm, iperm []int32, err error) {
	if g == nil {
		return nil, nil, invalid("nil graph")
	}
	if err := g.check(); err != nil {
		return nil, nil, err
	}
	n := len(g.Xadj) - 1
	if n == 0 {
		return []int32{}, []int32{}, nil
	}
	var o [C.METIS_NOPTIONS]C.idx_t
	C.METIS_SetDefaultOptions(&o[0])
	o[C.METIS_OPTION_NUMBERING] = 0
	o[C.METIS_OPTION_SEED] = C.idx_t(opts.Seed)
	perm, iperm = make([]int32, n), make([]int32, n)
	var dummy int32 // adjncy for a graph without edges
	adjncy := &dummy
	if len(g.Adjncy) > 0 {
		adjncy = &g.Adjncy[0]
	}
	rc := C.spac_metis_nodend(C.idx_t(n), (*C.idx_t)(unsafe.Pointer(&g.Xadj[0])), (*C.idx_t)(unsafe.Pointer(adjncy)),
		&o[0], (*C.idx_t)(unsafe.Pointer(&perm[0])), (*C.idx_t)(unsafe.Pointer(&iperm[0])))
	if rc != C.METIS_OK {
		e := ErrMETIS
		switch rc {
		case C.METIS_ERROR_INPUT:
			e = ErrInput
		case C.METIS_ERROR_MEMORY:
			e = ErrMemory
		}
		return nil, nil, fmt.Errorf("metis: NodeND on %d vertices: %w", n, e)
	}
	return perm, iperm, nil
}
