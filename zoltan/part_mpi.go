//go:build mpi

package zoltan

/*
#cgo pkg-config: mpi-c
#cgo CFLAGS: -I/usr/include/trilinos
#cgo LDFLAGS: -ltrilinos_zoltan
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <zoltan.h>

_Static_assert(sizeof(ZOLTAN_ID_TYPE) == 4, "package zoltan needs Zoltan built with unsigned int ids (Debian's default)");

typedef struct {
	int n;
	ZOLTAN_ID_TYPE *gids;
	int *ptr;
	ZOLTAN_ID_TYPE *pins;
} spac_hg;

static int spac_num_obj(void *d, int *ierr) {
	*ierr = ZOLTAN_OK;
	return ((spac_hg *)d)->n;
}

static void spac_obj_list(void *d, int ng, int nl, ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int wdim, float *w, int *ierr) {
	spac_hg *h = d;
	for (int i = 0; i < h->n; i++) {
		gids[i] = h->gids[i];
		lids[i] = (ZOLTAN_ID_TYPE)i;
	}
	*ierr = ZOLTAN_OK;
}

static void spac_hg_size(void *d, int *nlists, int *npins, int *format, int *ierr) {
	spac_hg *h = d;
	*nlists = h->n;
	*npins = h->ptr[h->n];
	*format = ZOLTAN_COMPRESSED_VERTEX;
	*ierr = ZOLTAN_OK;
}

static void spac_hg_cs(void *d, int ng, int nv, int np, int format, ZOLTAN_ID_PTR vgid, int *vptr, ZOLTAN_ID_PTR pins, int *ierr) {
	spac_hg *h = d;
	if (nv != h->n || np != h->ptr[h->n] || format != ZOLTAN_COMPRESSED_VERTEX) { *ierr = ZOLTAN_FATAL; return; }
	for (int i = 0; i < h->n; i++) {
		vgid[i] = h->gids[i];
		vptr[i] = h->ptr[i];
	}
	memcpy(pins, h->pins, sizeof(ZOLTAN_ID_TYPE) * (size_t)np);
	*ierr = ZOLTAN_OK;
}

static int spac_zoltan_ready;

// spac_zoltan_part partitions the hypergraph and writes the part of every
// local vertex; it returns 0 or the step that failed: 1 initialize,
// 2 create, 3 parameters, 4 partition, 5 the answer.
static int spac_zoltan_part(int64_t fcomm, int n, ZOLTAN_ID_TYPE *gids, int *ptr, ZOLTAN_ID_TYPE *pins,
		int nparts, double tol, unsigned int seed, int *part) {
	MPI_Comm comm = MPI_Comm_f2c((MPI_Fint)fcomm);
	if (!spac_zoltan_ready) {
		float ver;
		if (Zoltan_Initialize(0, NULL, &ver) != ZOLTAN_OK) return 1;
		spac_zoltan_ready = 1;
	}
	struct Zoltan_Struct *zz = Zoltan_Create(comm);
	if (zz == NULL) return 2;
	spac_hg h = {n, gids, ptr, pins};
	char parts[32], imb[32], sd[32];
	snprintf(parts, sizeof parts, "%d", nparts);
	snprintf(sd, sizeof sd, "%u", seed);
	snprintf(imb, sizeof imb, "%.6f", tol);
	const char *params[][2] = {
		{"DEBUG_LEVEL", "0"},
		{"LB_METHOD", "HYPERGRAPH"},
		{"HYPERGRAPH_PACKAGE", "PHG"},
		{"LB_APPROACH", "PARTITION"},
		{"NUM_GID_ENTRIES", "1"},
		{"NUM_LID_ENTRIES", "1"},
		{"OBJ_WEIGHT_DIM", "0"},
		{"EDGE_WEIGHT_DIM", "0"},
		{"RETURN_LISTS", "PARTITION ASSIGNMENTS"},
		{"NUM_GLOBAL_PARTS", parts},
		{"IMBALANCE_TOL", imb},
		{"PHG_CUT_OBJECTIVE", "CONNECTIVITY"},
		{"PHG_EDGE_SIZE_THRESHOLD", "1.0"},
		{"SEED", sd},
	};
	int step = 0;
	for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
		if (Zoltan_Set_Param(zz, params[i][0], params[i][1]) != ZOLTAN_OK) { step = 3; goto out; }
	}
	Zoltan_Set_Num_Obj_Fn(zz, spac_num_obj, &h);
	Zoltan_Set_Obj_List_Fn(zz, spac_obj_list, &h);
	Zoltan_Set_HG_Size_CS_Fn(zz, spac_hg_size, &h);
	Zoltan_Set_HG_CS_Fn(zz, spac_hg_cs, &h);
	int changes, ngid, nlid, nimp, nexp;
	ZOLTAN_ID_PTR igid = NULL, ilid = NULL, egid = NULL, elid = NULL;
	int *iproc = NULL, *ipart = NULL, *eproc = NULL, *epart = NULL;
	int rc = Zoltan_LB_Partition(zz, &changes, &ngid, &nlid, &nimp, &igid, &ilid, &iproc, &ipart,
		&nexp, &egid, &elid, &eproc, &epart);
	if (rc != ZOLTAN_OK && rc != ZOLTAN_WARN) { step = 4; goto free; }
	// With PARTITION ASSIGNMENTS the export list holds every local vertex.
	if (nexp != n) { step = 5; goto free; }
	for (int i = 0; i < nexp; i++) {
		ZOLTAN_ID_TYPE l = elid[i];
		if (l >= (ZOLTAN_ID_TYPE)n) { step = 5; goto free; }
		part[l] = epart[i];
	}
free:
	Zoltan_LB_Free_Part(&igid, &ilid, &iproc, &ipart);
	Zoltan_LB_Free_Part(&egid, &elid, &eproc, &epart);
out:
	Zoltan_Destroy(&zz);
	return step;
}
*/
import "C"

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/spac-gpu/spac/mpi"
)

// Available reports whether this build has Zoltan.
func Available() bool { return true }

// Partition partitions the hypergraph whose shares the ranks hold into
// opts.Parts parts and returns the part of every local vertex. Collective
// over c (an MPI communicator); errors are agreed on (mpi.Agree).
func Partition(c mpi.Comm, h *Hypergraph, opts Options) ([]int32, error) {
	fcomm, ok := c.Handle()
	if !ok {
		return nil, fmt.Errorf("zoltan: the communicator is not MPI's: Zoltan runs under MPI only")
	}
	err := h.check()
	total, serr := mpi.Sum(c, int64(len(h.Vertices)))
	if serr != nil {
		return nil, serr
	}
	if err == nil && (opts.Parts < 1 || int64(opts.Parts) > total) {
		err = fmt.Errorf("zoltan: %d parts for %d vertices", opts.Parts, total)
	}
	if err == nil && (len(h.Nets) > math.MaxInt32 || len(h.Vertices) > math.MaxInt32) {
		err = fmt.Errorf("zoltan: %d pins on this rank exceed Zoltan's int counts", len(h.Nets))
	}
	if err = mpi.Agree(c, err); err != nil {
		return nil, err
	}
	n := len(h.Vertices)
	part := make([]int32, n)
	if opts.Parts == 1 {
		return part, nil
	}
	// Zoltan reads no entry of an empty array but wants pointers.
	pin := func(s []uint32) *C.ZOLTAN_ID_TYPE {
		if len(s) == 0 {
			s = make([]uint32, 1)
		}
		return (*C.ZOLTAN_ID_TYPE)(unsafe.Pointer(&s[0]))
	}
	ints := func(s []int32) *C.int {
		if len(s) == 0 {
			s = make([]int32, 1)
		}
		return (*C.int)(unsafe.Pointer(&s[0]))
	}
	step := C.spac_zoltan_part(C.int64_t(fcomm), C.int(n), pin(h.Vertices), ints(h.Ptr), pin(h.Nets),
		C.int(opts.Parts), C.double(1+opts.imbalance()), C.uint(uint32(opts.Seed)), ints(part))
	if step != 0 {
		what := [...]string{1: "Zoltan_Initialize", 2: "Zoltan_Create", 3: "Zoltan_Set_Param", 4: "Zoltan_LB_Partition", 5: "reading Zoltan's part assignments"}[step]
		err = fmt.Errorf("zoltan: %s failed on %d local vertices (%d in all) into %d parts (Zoltan's own message, if any, is on standard error)", what, n, total, opts.Parts)
	}
	if err = mpi.Agree(c, err); err != nil {
		return nil, err
	}
	return part, nil
}
