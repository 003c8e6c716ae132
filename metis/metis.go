// Package metis is a cgo binding to the graph partitioner METIS 5
// (METIS_PartGraphKway and METIS_PartGraphRecursive), linked against the
// system library with -lmetis. It needs METIS built with 32-bit idx_t
// (IDXTYPEWIDTH 32), as Debian's libmetis-dev is; the build fails otherwise.
//
// A [Graph] is given in METIS's CSR form and [PartGraph] returns the part of
// every vertex together with the objective value METIS reports (the weighted
// edge cut or the total communication volume).
//
// # Determinism and concurrency
//
// For a given graph, number of parts and [Options] (including Options.Seed)
// the result is deterministic: the same call returns the same partition every
// time, also when several goroutines call PartGraph at once. METIS 5.1 as
// packaged by Debian draws its random numbers from the C library's rand(),
// seeded with srand(Seed) at the start of every call, and glibc keeps one
// generator for the whole process: concurrent calls would interleave its
// stream. This package therefore defines rand() and srand() itself, with
// glibc's algorithm (so that results match a plain METIS run) but with one
// generator per thread; the dynamic linker binds METIS's references to these
// definitions, as it does for any symbol the executable defines. A cgo call
// stays on one thread from start to end, so each METIS call draws from its
// own stream, seeded by its own srand(). The rest of METIS 5.1 keeps its
// state in its arguments or in thread-local storage, so calls run in
// parallel. Other C code in the process that calls rand() gets the same
// per-thread generators.
//
// # Signals
//
// METIS 5.1 catches its own internal errors with signals: at the start of
// every call it installs a process-wide handler for SIGABRT and SIGTERM
// (GKlib's SIGMEM and SIGERR) with signal(), raises one of them on an
// error, and its handler longjmps back to the entry point of the call. In a
// Go program that handler replaces Go's for the length of the call, so a
// SIGTERM sent to the process then runs METIS's handler on whatever thread
// the kernel picks; on a thread that is not inside METIS there is nothing
// to jump to and the process dies in longjmp.
//
// This package therefore defines signal() (glibc's __sysv_signal, which
// METIS calls) and raise() for the whole process. On a thread inside a
// METIS call, signal() for SIGABRT or SIGTERM installs nothing, and raise()
// of either jumps straight back to that call's entry point (GKlib's
// gk_sigthrow), so METIS's internal errors still end the call with
// [ErrMETIS] or [ErrMemory]. Everywhere else both are the C library's.
// Go's handlers stay installed throughout: a SIGTERM or SIGINT that arrives
// while METIS runs is delivered to Go like any other, and METIS calls in
// flight run to completion (see Cancellation).
//
// # Cancellation
//
// METIS cannot be interrupted. A caller that needs cancellation runs
// PartGraph in its own goroutine and abandons the result when its context is
// done; the abandoned call still runs to completion on its thread.
//
// # Balance
//
// Options.UFactor is a target that METIS usually meets on large graphs (a
// 1414×1414 grid into 2000 parts stays within it at UFactor 1, 5, 30 and 100),
// not a guarantee. With few vertices per part KWay in METIS 5.1 ignores it:
// a 20×20 grid into 200 parts (2 vertices per part) gets 40 empty parts and
// parts of 3 vertices; Recursive does better there. Callers that need a hard
// bound check the part weights ([Graph.PartWeights]).
//
// # Validation
//
// METIS trusts its input and may crash or corrupt memory on a malformed
// graph. PartGraph checks everything that costs one pass over the arrays
// (lengths, monotone Xadj, neighbour ranges, self loops, weight signs and
// overflow of the weight totals) but not the symmetry of the adjacency;
// [Graph.Validate] checks that as well and should be called on graphs that
// are not known to be well formed.
package metis

/*
#cgo LDFLAGS: -lmetis
#define _GNU_SOURCE
#include <dlfcn.h>
#include <metis.h>
#include <setjmp.h>
#include <stdio.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#if IDXTYPEWIDTH != 32
#error "package metis needs METIS built with IDXTYPEWIDTH 32"
#endif

// rand and srand replace the C library's for the whole process: glibc's additive generator (TYPE_3: x[i] = x[i-3] +
// x[i-31], 310 outputs discarded after seeding, output x >> 1), with its
// state in thread-local storage so that concurrent METIS calls, each seeded
// by its own srand(), draw reproducible streams.
static __thread int32_t spac_rand_state[31];
static __thread int spac_rand_front, spac_rand_rear, spac_rand_seeded;

static int32_t spac_rand_next(void) {
	int32_t *s = spac_rand_state;
	s[spac_rand_front] = (int32_t)((uint32_t)s[spac_rand_front] + (uint32_t)s[spac_rand_rear]);
	int32_t out = (int32_t)((uint32_t)s[spac_rand_front] >> 1);
	spac_rand_front = (spac_rand_front + 1) % 31;
	spac_rand_rear = (spac_rand_rear + 1) % 31;
	return out;
}

void srand(unsigned int seed) {
	int32_t word = seed == 0 ? 1 : (int32_t)seed;
	spac_rand_state[0] = word;
	for (int i = 1; i < 31; i++) {
		// 16807 * word % 2147483647 without overflow (Schrage), as glibc.
		long hi = word / 127773, lo = word % 127773;
		word = (int32_t)(16807 * lo - 2836 * hi);
		if (word < 0) word += 2147483647;
		spac_rand_state[i] = word;
	}
	spac_rand_front = 3;
	spac_rand_rear = 0;
	spac_rand_seeded = 1;
	for (int i = 0; i < 310; i++) spac_rand_next();
}

int rand(void) {
	if (!spac_rand_seeded) srand(1);
	return spac_rand_next();
}

// spac_in_metis is set on a thread for the length of its METIS call (not
// static: nodend.go's wrapper sets it too).
__thread int spac_in_metis;

// gk_sigthrow is GKlib's handler (exported by libmetis): it longjmps to the
// entry point of the calling thread's current METIS call.
extern void gk_sigthrow(int sig);

static int spac_metis_signal(int sig) { return sig == SIGABRT || sig == SIGTERM; }

// __sysv_signal is what signal() compiles to in METIS. Inside a METIS call
// it leaves the process's SIGABRT and SIGTERM handlers alone (they are Go's).
__sighandler_t __sysv_signal(int sig, __sighandler_t handler) {
	if (spac_in_metis && spac_metis_signal(sig)) return SIG_DFL;
	static __sighandler_t (*next)(int, __sighandler_t);
	if (!next) next = (__sighandler_t (*)(int, __sighandler_t))dlsym(RTLD_NEXT, "__sysv_signal");
	return next(sig, handler);
}

// raise, inside a METIS call, delivers METIS's own error signals to METIS's
// handler on this thread only, as a caught signal would.
int raise(int sig) {
	if (spac_in_metis && spac_metis_signal(sig)) gk_sigthrow(sig);
	static int (*next)(int);
	if (!next) next = (int (*)(int))dlsym(RTLD_NEXT, "raise");
	return next(sig);
}

// spac_metis_part calls METIS_PartGraphKway (recursive == 0) or
// METIS_PartGraphRecursive.
static int spac_metis_part(int recursive, idx_t nvtxs, idx_t *xadj, idx_t *adjncy,
		idx_t *vwgt, idx_t *adjwgt, idx_t nparts, real_t *tpwgts, idx_t *options,
		idx_t *objval, idx_t *part) {
	idx_t ncon = 1;
	int rc;
	spac_in_metis = 1;
	if (recursive) {
		rc = METIS_PartGraphRecursive(&nvtxs, &ncon, xadj, adjncy, vwgt, NULL, adjwgt,
			&nparts, tpwgts, NULL, options, objval, part);
	} else {
		rc = METIS_PartGraphKway(&nvtxs, &ncon, xadj, adjncy, vwgt, NULL, adjwgt,
			&nparts, tpwgts, NULL, options, objval, part);
	}
	spac_in_metis = 0;
	return rc;
}

// spac_raise_in_metis raises sig on this thread as METIS's error path
// does, inside a trap as METIS sets one, and returns the signal number the
// trap caught (0: raise returned instead). For the tests.
extern int gk_sigtrap(void);
extern int gk_siguntrap(void);
extern __thread int gk_cur_jbufs;
extern __thread jmp_buf gk_jbufs[];

static int spac_raise_in_metis(int sig) {
	int caught;
	spac_in_metis = 1;
	gk_sigtrap();
	if ((caught = setjmp(gk_jbufs[gk_cur_jbufs])) == 0) raise(sig);
	gk_siguntrap();
	spac_in_metis = 0;
	return caught;
}

// spac_c_stdout_to_stderr points the C library's stdout at its stderr
// (glibc's stdout is an assignable FILE *): METIS printf()s its
// warnings there, and the process's standard output is spac's data.
static void spac_c_stdout_to_stderr(void) {
	fflush(stdout);
	stdout = stderr;
}

// spac_c_printf_stdout prints s with printf, to the C library's stdout.
// For the tests.
static void spac_c_printf_stdout(const char *s) {
	printf("%s", s);
	fflush(stdout);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"unsafe"
)

// METIS reports some conditions only by printf() to the C library's
// stdout ("***Cannot bisect a graph with 0 vertices!" when a recursive
// bisection is asked for nearly as many parts as vertices), which is the
// process's standard output, where spac writes JSON and CSV. From init on
// the C library's stdout is its stderr, so such lines go with the other
// diagnostics; Go's os.Stdout writes to the file descriptor and is not
// touched.
func init() { C.spac_c_stdout_to_stderr() }

// cPrintf prints s with the C library's printf (the tests' probe of where
// METIS's printf goes).
func cPrintf(s string) {
	cs := C.CString(s)
	defer C.free(unsafe.Pointer(cs))
	C.spac_c_printf_stdout(cs)
}

// Graph is a graph in METIS's CSR form: the neighbours of vertex v are
// Adjncy[Xadj[v]:Xadj[v+1]], every undirected edge is listed in both
// directions (with the same weight), and there are no self loops or repeated
// edges.
type Graph struct {
	Xadj, Adjncy []int32
	Vwgt         []int32 // vertex weights, ≥ 0 with a positive total (nil or empty = all 1)
	Adjwgt       []int32 // edge weights parallel to Adjncy, ≥ 1 (nil or empty = all 1)
}

// Method selects the METIS partitioning routine.
type Method uint8

const (
	KWay      Method = iota // multilevel k-way, METIS_PartGraphKway (the default)
	Recursive               // multilevel recursive bisection, METIS_PartGraphRecursive
)

func (m Method) String() string {
	switch m {
	case KWay:
		return "KWay"
	case Recursive:
		return "Recursive"
	}
	return "Method(" + strconv.Itoa(int(m)) + ")"
}

// Objective is the quantity METIS minimises (METIS_OPTION_OBJTYPE).
type Objective uint8

const (
	EdgeCut    Objective = iota // total weight of cut edges (the default)
	CommVolume                  // total communication volume; KWay only
)

func (o Objective) String() string {
	switch o {
	case EdgeCut:
		return "EdgeCut"
	case CommVolume:
		return "CommVolume"
	}
	return "Objective(" + strconv.Itoa(int(o)) + ")"
}

// CType is the matching scheme used while coarsening (METIS_OPTION_CTYPE).
type CType uint8

const (
	CTypeDefault CType = iota // METIS's default, sorted heavy-edge matching
	CTypeRM                   // random matching
	CTypeSHEM                 // sorted heavy-edge matching
)

// IPType is the initial partitioning scheme of recursive bisection
// (METIS_OPTION_IPTYPE). METIS 5.1 fixes the scheme of KWay (it partitions
// the coarsest graph by recursive bisection), so a non-default IPType is an
// error with KWay.
type IPType uint8

const (
	IPTypeDefault IPType = iota // METIS's default, greedy graph growing
	IPTypeGrow                  // greedy graph growing
	IPTypeRandom                // random
)

// Options are the METIS options. The zero value gives METIS's defaults,
// except that the random seed is 0 rather than METIS's own default.
//
// METIS 5.1 fixes the refinement scheme (greedy for KWay, FM for Recursive),
// so there is no RType.
type Options struct {
	Method    Method
	Objective Objective // CommVolume needs KWay

	// Seed seeds METIS's random number generator (METIS_OPTION_SEED). Every
	// value, 0 included, is a valid seed, and results are deterministic for
	// a given seed.
	Seed int32

	// UFactor is the allowed load imbalance in thousandths
	// (METIS_OPTION_UFACTOR): the heaviest part may weigh up to
	// (1+UFactor/1000) times the average. 0 means METIS's default, 30 for
	// KWay and 1 for Recursive (where it applies to each bisection).
	UFactor int

	NCuts int // partitionings to compute, keeping the best (METIS_OPTION_NCUTS); 0 = 1
	NIter int // refinement iterations per level (METIS_OPTION_NITER); 0 = 10

	CType  CType  // coarsening matching scheme; 0 = METIS default (SHEM)
	IPType IPType // initial partitioning, Recursive only; 0 = METIS default (Grow)
	No2Hop bool   // do not use 2-hop matching while coarsening (METIS_OPTION_NO2HOP)

	// Contig asks for contiguous parts (METIS_OPTION_CONTIG; KWay only). The
	// graph must then be connected.
	Contig bool
	// MinConn minimises the maximum connectivity of the subdomain graph
	// (METIS_OPTION_MINCONN; KWay only).
	MinConn bool

	// TargetWeights, when not nil, is the share of the total vertex weight
	// each part is to get (METIS's tpwgts): one positive entry per part,
	// summing to 1 within 1e-3. nil: equal shares.
	TargetWeights []float32
}

// Errors returned by METIS, wrapped with the call's context, for example
// "metis: PartGraphKway on 1234 vertices into 56 parts: input error".
var (
	ErrInput  = errors.New("input error")   // METIS_ERROR_INPUT
	ErrMemory = errors.New("out of memory") // METIS_ERROR_MEMORY
	ErrMETIS  = errors.New("error")         // METIS_ERROR (also an unknown return code)
)

// ErrInvalidGraph is wrapped by the errors reporting a malformed Graph.
var ErrInvalidGraph = errors.New("metis: invalid graph")

// randStream returns the first n numbers rand() gives after srand(seed) on
// the calling thread: the tests compare them with glibc's.
func randStream(seed uint32, n int) []int32 {
	out := make([]int32, n)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	C.srand(C.uint(seed))
	for i := range out {
		out[i] = int32(C.rand())
	}
	return out
}

// Version returns the version of the METIS headers the package was built
// with, such as "5.1.0".
func Version() string {
	return fmt.Sprintf("%d.%d.%d", C.METIS_VER_MAJOR, C.METIS_VER_MINOR, C.METIS_VER_SUBMINOR)
}

// NumVertices returns the number of vertices, len(Xadj)-1 (0 for a nil Xadj).
func (g *Graph) NumVertices() int {
	if len(g.Xadj) == 0 {
		return 0
	}
	return len(g.Xadj) - 1
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidGraph}, args...)...)
}

// check does the O(n+m) checks that need no extra memory: lengths, Xadj
// monotone, neighbours in range, no self loops, weight signs and totals that
// fit METIS's 32-bit integers.
func (g *Graph) check() error {
	if len(g.Xadj) < 2 {
		return invalid("no vertices (len(Xadj) = %d, want n+1 ≥ 2)", len(g.Xadj))
	}
	n := len(g.Xadj) - 1
	if n > math.MaxInt32-1 {
		return invalid("%d vertices, more than METIS's 32-bit indices allow", n)
	}
	if g.Xadj[0] != 0 {
		return invalid("Xadj[0] = %d, want 0", g.Xadj[0])
	}
	if int(g.Xadj[n]) != len(g.Adjncy) {
		return invalid("Xadj[%d] = %d, want len(Adjncy) = %d", n, g.Xadj[n], len(g.Adjncy))
	}
	if len(g.Vwgt) != 0 && len(g.Vwgt) != n {
		return invalid("len(Vwgt) = %d, want 0 or n = %d", len(g.Vwgt), n)
	}
	if len(g.Adjwgt) != 0 && len(g.Adjwgt) != len(g.Adjncy) {
		return invalid("len(Adjwgt) = %d, want 0 or len(Adjncy) = %d", len(g.Adjwgt), len(g.Adjncy))
	}
	for v := 0; v < n; v++ {
		if g.Xadj[v+1] < g.Xadj[v] {
			return invalid("vertex %d: Xadj[%d] = %d < Xadj[%d] = %d", v, v+1, g.Xadj[v+1], v, g.Xadj[v])
		}
	}
	// Xadj is now non-decreasing from 0 to len(Adjncy).
	for v := 0; v < n; v++ {
		lo, hi := g.Xadj[v], g.Xadj[v+1]
		for p, u := range g.Adjncy[lo:hi] {
			if u < 0 || int(u) >= n {
				return invalid("vertex %d: neighbour %d at Adjncy[%d] out of range [0, %d)", v, u, int(lo)+p, n)
			}
			if int(u) == v {
				return invalid("vertex %d: self loop at Adjncy[%d]", v, int(lo)+p)
			}
		}
	}
	if len(g.Vwgt) != 0 {
		var sum int64
		for v, w := range g.Vwgt {
			if w < 0 {
				return invalid("vertex %d: negative weight Vwgt[%d] = %d", v, v, w)
			}
			sum += int64(w)
		}
		if sum == 0 {
			return invalid("all vertex weights are 0")
		}
		if sum > math.MaxInt32 {
			return invalid("total vertex weight %d overflows METIS's 32-bit weights", sum)
		}
	}
	if len(g.Adjwgt) != 0 {
		var sum int64
		for p, w := range g.Adjwgt {
			if w <= 0 {
				return invalid("edge weight Adjwgt[%d] = %d, want ≥ 1", p, w)
			}
			sum += int64(w)
		}
		if sum > math.MaxInt32 {
			return invalid("total edge weight %d overflows METIS's 32-bit weights", sum)
		}
	}
	return nil
}

// Validate checks that g is a well-formed METIS graph: the lengths of the
// arrays, Xadj starting at 0 and non-decreasing, neighbours in range, no self
// loops or repeated neighbours, every edge listed in both directions with the
// same weight, vertex weights ≥ 0 with a positive total, edge weights ≥ 1, and
// weight totals that fit in 32 bits. The error names the offending vertex and
// position and wraps [ErrInvalidGraph]. It takes O(n+m) time and memory.
func (g *Graph) Validate() error {
	if err := g.check(); err != nil {
		return err
	}
	n := len(g.Xadj) - 1
	m := len(g.Adjncy)

	// Repeated neighbours: at[u] = v while scanning v's list.
	at := make([]int32, n)
	for i := range at {
		at[i] = -1
	}
	for v := 0; v < n; v++ {
		for p := g.Xadj[v]; p < g.Xadj[v+1]; p++ {
			u := g.Adjncy[p]
			if at[u] == int32(v) {
				return invalid("vertex %d: neighbour %d repeated at Adjncy[%d]", v, u, p)
			}
			at[u] = int32(v)
		}
	}

	// Transpose: for every vertex u, the positions p of the entries v→u,
	// in increasing v.
	tptr := make([]int32, n+1)
	for _, u := range g.Adjncy {
		tptr[u+1]++
	}
	for u := 0; u < n; u++ {
		tptr[u+1] += tptr[u]
	}
	fill := make([]int32, n)
	copy(fill, tptr[:n])
	tsrc := make([]int32, m)
	tpos := make([]int32, m)
	for v := 0; v < n; v++ {
		for p := g.Xadj[v]; p < g.Xadj[v+1]; p++ {
			u := g.Adjncy[p]
			tsrc[fill[u]] = int32(v)
			tpos[fill[u]] = p
			fill[u]++
		}
	}

	// Every entry v→u (at position p) needs u→v (at position q), with the
	// same weight. Reuse at[] as at[w] = position of w in u's list. The
	// failure reported is the one at the smallest position.
	for i := range at {
		at[i] = -1
	}
	var bad error
	badPos := int32(math.MaxInt32)
	for u := 0; u < n; u++ {
		for q := g.Xadj[u]; q < g.Xadj[u+1]; q++ {
			at[g.Adjncy[q]] = q
		}
		for i := tptr[u]; i < tptr[u+1]; i++ {
			v, p := tsrc[i], tpos[i]
			if p >= badPos {
				continue
			}
			q := at[v]
			if q < 0 {
				bad, badPos = invalid("vertex %d: neighbour %d at Adjncy[%d] does not list %d back", v, u, p, v), p
			} else if len(g.Adjwgt) != 0 && g.Adjwgt[p] != g.Adjwgt[q] {
				bad, badPos = invalid("vertex %d: edge to %d has weight %d at Adjwgt[%d] but %d at Adjwgt[%d]",
					v, u, g.Adjwgt[p], p, g.Adjwgt[q], q), p
			}
		}
		for q := g.Xadj[u]; q < g.Xadj[u+1]; q++ {
			at[g.Adjncy[q]] = -1
		}
	}
	return bad
}

// connected reports whether g (already checked) is connected.
func (g *Graph) connected() bool {
	n := len(g.Xadj) - 1
	seen := make([]bool, n)
	stack := []int32{0}
	seen[0] = true
	count := 1
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, u := range g.Adjncy[g.Xadj[v]:g.Xadj[v+1]] {
			if !seen[u] {
				seen[u] = true
				count++
				stack = append(stack, u)
			}
		}
	}
	return count == n
}

// EdgeCut returns the total weight of the edges of g whose ends lie in
// different parts (each undirected edge counted once), which is the objective
// value METIS reports for [EdgeCut].
func (g *Graph) EdgeCut(part []int32) int64 {
	var cut int64
	for v := 0; v+1 < len(g.Xadj); v++ {
		for p := g.Xadj[v]; p < g.Xadj[v+1]; p++ {
			if part[g.Adjncy[p]] != part[v] {
				if len(g.Adjwgt) != 0 {
					cut += int64(g.Adjwgt[p])
				} else {
					cut++
				}
			}
		}
	}
	return cut / 2
}

// CommVolume returns the total communication volume of the partition: the sum
// over the vertices of the number of parts other than its own among its
// neighbours' (vertex sizes are all 1), which is the objective value METIS
// reports for [CommVolume].
func (g *Graph) CommVolume(part []int32) int64 {
	var vol int64
	var seen []int32 // parts already counted for the current vertex
	for v := 0; v+1 < len(g.Xadj); v++ {
		seen = seen[:0]
	next:
		for _, u := range g.Adjncy[g.Xadj[v]:g.Xadj[v+1]] {
			pu := part[u]
			if pu == part[v] {
				continue
			}
			for _, s := range seen {
				if s == pu {
					continue next
				}
			}
			seen = append(seen, pu)
		}
		vol += int64(len(seen))
	}
	return vol
}

// PartWeights returns the total vertex weight of each of the nparts parts.
func (g *Graph) PartWeights(part []int32, nparts int) []int64 {
	w := make([]int64, nparts)
	for v, p := range part {
		if len(g.Vwgt) != 0 {
			w[p] += int64(g.Vwgt[v])
		} else {
			w[p]++
		}
	}
	return w
}

// metisOptions fills METIS's options array from opts.
func (opts *Options) metisOptions(o *[C.METIS_NOPTIONS]C.idx_t) error {
	C.METIS_SetDefaultOptions(&o[0])
	o[C.METIS_OPTION_NUMBERING] = 0
	o[C.METIS_OPTION_SEED] = C.idx_t(opts.Seed)

	switch opts.Method {
	case KWay, Recursive:
	default:
		return fmt.Errorf("metis: unknown method %v", opts.Method)
	}
	switch opts.Objective {
	case EdgeCut:
		o[C.METIS_OPTION_OBJTYPE] = C.METIS_OBJTYPE_CUT
	case CommVolume:
		if opts.Method != KWay {
			return errors.New("metis: the CommVolume objective needs the KWay method")
		}
		o[C.METIS_OPTION_OBJTYPE] = C.METIS_OBJTYPE_VOL
	default:
		return fmt.Errorf("metis: unknown objective %v", opts.Objective)
	}
	switch opts.CType {
	case CTypeDefault:
	case CTypeRM:
		o[C.METIS_OPTION_CTYPE] = C.METIS_CTYPE_RM
	case CTypeSHEM:
		o[C.METIS_OPTION_CTYPE] = C.METIS_CTYPE_SHEM
	default:
		return fmt.Errorf("metis: unknown CType %d", opts.CType)
	}
	switch opts.IPType {
	case IPTypeDefault:
	case IPTypeGrow, IPTypeRandom:
		if opts.Method != Recursive {
			return errors.New("metis: IPType applies only to the Recursive method")
		}
		if opts.IPType == IPTypeGrow {
			o[C.METIS_OPTION_IPTYPE] = C.METIS_IPTYPE_GROW
		} else {
			o[C.METIS_OPTION_IPTYPE] = C.METIS_IPTYPE_RANDOM
		}
	default:
		return fmt.Errorf("metis: unknown IPType %d", opts.IPType)
	}
	if opts.No2Hop {
		o[C.METIS_OPTION_NO2HOP] = 1
	}
	if opts.Contig || opts.MinConn {
		if opts.Method != KWay {
			return errors.New("metis: Contig and MinConn apply only to the KWay method")
		}
		if opts.Contig {
			o[C.METIS_OPTION_CONTIG] = 1
		}
		if opts.MinConn {
			o[C.METIS_OPTION_MINCONN] = 1
		}
	}
	for _, f := range []struct {
		name string
		v    int
		opt  int
	}{
		{"UFactor", opts.UFactor, C.METIS_OPTION_UFACTOR},
		{"NCuts", opts.NCuts, C.METIS_OPTION_NCUTS},
		{"NIter", opts.NIter, C.METIS_OPTION_NITER},
	} {
		if f.v < 0 || f.v > math.MaxInt32 {
			return fmt.Errorf("metis: %s = %d out of range", f.name, f.v)
		}
		if f.v > 0 {
			o[f.opt] = C.idx_t(f.v)
		}
	}
	return nil
}

// PartGraph partitions g into nparts parts and returns part[v] ∈ [0, nparts)
// for every vertex and METIS's objective value: the weighted edge cut for
// [EdgeCut], the total communication volume for [CommVolume].
//
// It checks g in one pass (see [Graph.Validate] for the full check, which
// PartGraph does not do), requires 1 ≤ nparts ≤ number of vertices, and with
// Contig that g is connected. nparts == 1 returns all zeros without calling
// METIS. The input slices are passed to METIS without copying and are not
// modified. Calls may run concurrently (see the package comment).
func PartGraph(g *Graph, nparts int, opts Options) (part []int32, objval int64, err error) {
	if g == nil {
		return nil, 0, invalid("nil graph")
	}
	if err := g.check(); err != nil {
		return nil, 0, err
	}
	n := len(g.Xadj) - 1
	if nparts < 1 || nparts > n {
		return nil, 0, fmt.Errorf("metis: nparts = %d out of range [1, %d] for %d vertices", nparts, n, n)
	}
	var o [C.METIS_NOPTIONS]C.idx_t
	if err := opts.metisOptions(&o); err != nil {
		return nil, 0, err
	}
	if nparts == 1 {
		return make([]int32, n), 0, nil
	}
	if opts.Contig && !g.connected() {
		return nil, 0, fmt.Errorf("metis: Contig needs a connected graph")
	}

	var tpwgts *C.real_t
	if opts.TargetWeights != nil {
		tp, err := targetWeights(opts.TargetWeights, nparts)
		if err != nil {
			return nil, 0, err
		}
		tpwgts = &tp[0]
	}

	part = make([]int32, n)
	var dummy int32 // adjncy for a graph without edges
	adjncy := &dummy
	if len(g.Adjncy) > 0 {
		adjncy = &g.Adjncy[0]
	}
	var vwgt, adjwgt *C.idx_t
	if len(g.Vwgt) != 0 {
		vwgt = (*C.idx_t)(unsafe.Pointer(&g.Vwgt[0]))
	}
	if len(g.Adjwgt) != 0 {
		adjwgt = (*C.idx_t)(unsafe.Pointer(&g.Adjwgt[0]))
	}
	var recursive C.int
	name := "PartGraphKway"
	if opts.Method == Recursive {
		recursive, name = 1, "PartGraphRecursive"
	}
	var obj C.idx_t

	rc := C.spac_metis_part(recursive, C.idx_t(n),
		(*C.idx_t)(unsafe.Pointer(&g.Xadj[0])), (*C.idx_t)(unsafe.Pointer(adjncy)),
		vwgt, adjwgt, C.idx_t(nparts), tpwgts, &o[0], &obj, (*C.idx_t)(unsafe.Pointer(&part[0])))

	if rc != C.METIS_OK {
		var e error
		switch rc {
		case C.METIS_ERROR_INPUT:
			e = ErrInput
		case C.METIS_ERROR_MEMORY:
			e = ErrMemory
		default:
			e = ErrMETIS
		}
		return nil, 0, fmt.Errorf("metis: %s on %d vertices into %d parts: %w", name, n, nparts, e)
	}
	return part, int64(obj), nil
}

// targetWeights checks Options.TargetWeights for nparts parts and returns
// them in METIS's real_t, scaled to sum to 1 (METIS refuses sums off by
// more than its own tolerance).
func targetWeights(w []float32, nparts int) ([]C.real_t, error) {
	if len(w) != nparts {
		return nil, fmt.Errorf("metis: %d target weights for %d parts", len(w), nparts)
	}
	var sum float64
	for p, x := range w {
		if !(x > 0) || math.IsInf(float64(x), 0) {
			return nil, fmt.Errorf("metis: target weight %g of part %d is not a positive number", x, p)
		}
		sum += float64(x)
	}
	if math.Abs(sum-1) > 1e-3 {
		return nil, fmt.Errorf("metis: target weights sum to %g, want 1", sum)
	}
	tp := make([]C.real_t, nparts)
	for p, x := range w {
		tp[p] = C.real_t(float64(x) / sum)
	}
	return tp, nil
}

// raiseInMETIS raises sig on the calling thread as METIS's error path does
// and returns the signal METIS's trap caught (0 if raise returned).
func raiseInMETIS(sig int) int {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return int(C.spac_raise_in_metis(C.int(sig)))
}
