package spmv

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spac-gpu/spac/internal/enum"
	"github.com/spac-gpu/spac/internal/precision"
)

// ErrUnsupported says a kernel cannot run this matrix (the reason follows).
var ErrUnsupported = errors.New("not supported for this matrix")

// Precision is the value type of a product: the one type of every command
// and application (package precision), with its spellings.
type Precision = precision.Precision

const (
	FP32 = precision.FP32
	FP64 = precision.FP64
)

// Kernel names an SpMV implementation.
type Kernel string

const (
	CSRScalar       Kernel = "csr-scalar"
	CSRVector       Kernel = "csr-vector"
	COOAtomic       Kernel = "coo-atomic"
	CSRD16          Kernel = "csr-d16"
	CSRD16Hot       Kernel = "csr-d16-hot"
	CSRD16RCM       Kernel = "csr-d16-rcm"
	SPACShared      Kernel = "spac-smem"
	SPACReadOnly    Kernel = "spac-ldg"
	SPACSharedX4    Kernel = "spac-smem-x4"
	SPACReadOnlyX4  Kernel = "spac-ldg-x4"
	SPACSeg         Kernel = "spac-seg"
	SPACSegLdg      Kernel = "spac-seg-ldg"
	SPACSeg8        Kernel = "spac-seg8"
	SPACSeg8LB      Kernel = "spac-seg8-lb"
	SPACSeg8PF      Kernel = "spac-seg8-pf"
	SPACSeg8LBPF    Kernel = "spac-seg8-lbpf"
	SPACD16         Kernel = "spac-d16"
	SPACD16Own      Kernel = "spac-d16-own"
	SPACD16Ord      Kernel = "spac-d16-ord"
	SPACD16Hot      Kernel = "spac-d16-hot"
	CuSPARSECSR     Kernel = "cusparse-csr"
	CuSPARSECSRAlg2 Kernel = "cusparse-csr-alg2"
	CuSPARSECOO     Kernel = "cusparse-coo"
	CuSPARSESELL    Kernel = "cusparse-sell"
	CuSPARSEBSR     Kernel = "cusparse-bsr"
)

// kernels names every kernel, in the order tables show them.
var kernels = func() *enum.Table[Kernel] {
	all := []Kernel{CSRScalar, CSRVector, COOAtomic, CSRD16, CSRD16Hot, CSRD16RCM, SPACShared, SPACReadOnly, SPACSharedX4, SPACReadOnlyX4, SPACSeg, SPACSegLdg, SPACSeg8,
		SPACSeg8LB, SPACSeg8PF, SPACSeg8LBPF, SPACD16, SPACD16Own, SPACD16Ord, SPACD16Hot, CuSPARSECSR, CuSPARSECSRAlg2, CuSPARSECOO, CuSPARSESELL, CuSPARSEBSR}
	names := make([]enum.Name[Kernel], len(all))
	for i, k := range all {
		names[i] = enum.Name[Kernel]{Value: k, Name: string(k)}
	}
	return enum.New("kernel", names...)
}()

// Kernels lists every kernel, in the order tables show them.
func Kernels() []Kernel { return kernels.Values() }

// UsesSchedule reports whether the kernel runs a SPAC schedule (it has one
// result per schedule and block size).
func (k Kernel) UsesSchedule() bool { return strings.HasPrefix(string(k), "spac-") }

// StagesX reports whether a SPAC kernel keeps x in shared memory.
func (k Kernel) StagesX() bool {
	return k == SPACShared || k == SPACSharedX4 || k == SPACSeg || k.IsSeg8()
}

// ReadOnlyVariant returns the read-only-x kernel of a shared-x SPAC kernel, else k
// (spac-seg8 and its variants have none of their own: spac-seg-ldg runs
// every schedule they run).
func (k Kernel) ReadOnlyVariant() Kernel {
	switch {
	case k == SPACShared:
		return SPACReadOnly
	case k == SPACSharedX4:
		return SPACReadOnlyX4
	case k == SPACSeg || k.IsSeg8():
		return SPACSegLdg
	}
	return k
}

// TasksPerThread is how many consecutive tasks of a schedule one thread of
// a SPAC kernel runs: 1 (a thread per task, the paper's mapping) or 4 (the
// -x4 kernels and spac-seg: a block of B tasks has B/4 threads, which load
// 16 bytes at a time) or 8 (spac-seg8 and spac-d16: B/8 threads).
func (k Kernel) TasksPerThread() int {
	switch {
	case k.IsSeg8() || k.IsSPACD16():
		return seg8Slots
	case k == SPACSharedX4 || k == SPACReadOnlyX4 || k.IsSeg():
		return 4
	}
	return 1
}

// entryBase is the kernel's entry point in kernels/spmv.cu less the
// "spmv_" prefix and the precision suffix: its name with underscores
// (spac-seg-ldg: spac_seg_ldg). Not for cuSPARSE.
func (k Kernel) entryBase() string { return strings.ReplaceAll(string(k), "-", "_") }

// IsSeg reports whether the kernel reads spac-seg's format (seg.go): x
// staged (spac-seg) or read through the read-only cache at each slot's
// column (spac-seg-ldg).
func (k Kernel) IsSeg() bool { return k == SPACSeg || k == SPACSegLdg }

// IsSeg8 reports whether the kernel reads spac-seg8's format (seg8.go):
// spac-seg8 itself or one of its variants, which run the same code with
// more of their loads in flight: -lb caps the registers for more resident
// blocks, -pf prefetches the slots of a later block into the L2, -lbpf does
// both.
func (k Kernel) IsSeg8() bool {
	return k == SPACSeg8 || k == SPACSeg8LB || k == SPACSeg8PF || k == SPACSeg8LBPF
}

// Prefetches reports whether a spac-seg8 variant takes a prefetch distance.
func (k Kernel) Prefetches() bool { return k == SPACSeg8PF || k == SPACSeg8LBPF }

// MaxBlockSize is the most tasks of a block kernel k runs: MaxThreads, but
// for spac-d16 and its variants, which run a schedule's parts of up to
// MaxBlockSize tasks as thread blocks of 1024 (NewSPACD16).
func (k Kernel) MaxBlockSize() int {
	if k.IsSPACD16() {
		return MaxBlockSize
	}
	return MaxThreads
}

// IsSPACD16 reports whether the kernel runs csr-d16's format over a
// schedule's parts: spac-d16, spac-d16-own, whose rows are whole, or
// spac-d16-ord and spac-d16-hot, over the matrix numbered in the
// schedule's order.
func (k Kernel) IsSPACD16() bool {
	return k == SPACD16 || k == SPACD16Own || k == SPACD16Ord || k == SPACD16Hot
}

// IsCuSPARSE reports whether the kernel is cuSPARSE's.
func (k Kernel) IsCuSPARSE() bool { return strings.HasPrefix(string(k), "cusparse-") }

// UsesBlockSize reports whether the launch depends on the block size.
func (k Kernel) UsesBlockSize() bool { return !k.IsCuSPARSE() }

// ParseKernels reads a comma-separated list of kernel names; "all" or ""
// is every kernel. Duplicates are dropped, order is kept.
func ParseKernels(s string) ([]Kernel, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "all" {
		return Kernels(), nil
	}
	ks, err := kernels.ParseList(s)
	if err != nil {
		return nil, fmt.Errorf("%w, or all", err)
	}
	return ks, nil
}
