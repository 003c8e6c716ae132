//go:build cuda

package gpu

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "cusparse_shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// ErrNoCuSPARSE wraps the reason cuSPARSE could not be opened.
var ErrNoCuSPARSE = errors.New("cuSPARSE is not available")

// cuSPARSELib opens the library once; it returns the file it opened.
func cuSPARSELib() (string, error) {
	var path, msg [2048]C.char
	if C.spac_cusparse_open(&path[0], C.size_t(len(path)), &msg[0], C.size_t(len(msg))) != 0 {
		return "", fmt.Errorf("%w: no libcusparse could be opened (%s); set SPAC_CUSPARSE to the file, or LD_LIBRARY_PATH to its folder (e.g. /usr/local/cuda/lib64)",
			ErrNoCuSPARSE, C.GoString(&msg[0]))
	}
	return C.GoString(&path[0]), nil
}

// CuSPARSEVersion opens cuSPARSE and reports its file and version.
func CuSPARSEVersion() (path, version string, err error) {
	path, err = cuSPARSELib()
	if err != nil {
		return "", "", err
	}
	var major, minor, patch C.int
	if rc := C.spac_cusparse_version(&major, &minor, &patch); rc != 0 {
		return path, "", csError("cusparseGetProperty", rc)
	}
	return path, fmt.Sprintf("%d.%d.%d", major, minor, patch), nil
}

func csError(what string, rc C.int) error {
	return fmt.Errorf("gpu: %s: %s (%d)", what, C.GoString(C.spac_cusparse_error(rc)), int(rc))
}

func valueType(p Precision) C.int {
	if p == FP32 {
		return C.SPAC_CUDA_R_32F
	}
	return C.SPAC_CUDA_R_64F
}

// cusparseOp is one cuSPARSE SpMV configuration: its own matrix descriptor
// (preprocessing is tied to one), dense vectors, algorithm and buffer.
type cusparseOp struct {
	sp   *SpMV // its csHandle runs the op
	mat  C.uintptr_t
	x, y C.uintptr_t
	vt   C.int
	alg  C.int
	buf  buffer
	name string
}

func (s *SpMV) newCuSPARSEOp(k Kernel) (*cusparseOp, error) {
	if _, err := cuSPARSELib(); err != nil {
		return nil, err
	}
	if s.m.Duplicates > 0 {
		return nil, fmt.Errorf("%w: cuSPARSE takes distinct entries, and %s has %d duplicates", ErrUnsupported, s.m.Name, s.m.Duplicates)
	}
	if s.csHandle == 0 {
		var h C.uintptr_t
		if rc := C.spac_cusparse_create(&h); rc != 0 {
			return nil, csError("cusparseCreate", rc)
		}
		s.csHandle = h
	}
	m := s.m
	op := &cusparseOp{sp: s, vt: valueType(s.p), name: string(k)}
	var rc C.int
	switch k {
	case CuSPARSECSR:
		op.alg = C.SPAC_SPMV_ALG_DEFAULT
		rc = C.spac_cusparse_csr(&op.mat, C.int64_t(m.NRows), C.int64_t(m.NCols), C.int64_t(m.NNZ()),
			C.uintptr_t(s.rowptr.ptr), C.uintptr_t(s.col.ptr), C.uintptr_t(s.val.ptr), op.vt)
	case CuSPARSECSRAlg2:
		op.alg = C.SPAC_SPMV_CSR_ALG2
		rc = C.spac_cusparse_csr(&op.mat, C.int64_t(m.NRows), C.int64_t(m.NCols), C.int64_t(m.NNZ()),
			C.uintptr_t(s.rowptr.ptr), C.uintptr_t(s.col.ptr), C.uintptr_t(s.val.ptr), op.vt)
	case CuSPARSECOO:
		op.alg = C.SPAC_SPMV_ALG_DEFAULT
		rc = C.spac_cusparse_coo(&op.mat, C.int64_t(m.NRows), C.int64_t(m.NCols), C.int64_t(m.NNZ()),
			C.uintptr_t(s.row.ptr), C.uintptr_t(s.col.ptr), C.uintptr_t(s.val.ptr), op.vt)
	default:
		return nil, fmt.Errorf("gpu: %s is not a cuSPARSE kernel", k)
	}
	if rc != 0 {
		return nil, csError("creating the matrix descriptor for "+string(k), rc)
	}
	if rc := C.spac_cusparse_dnvec(&op.x, C.int64_t(m.NCols), C.uintptr_t(s.x.ptr), op.vt); rc != 0 {
		op.close()
		return nil, csError("creating the x descriptor", rc)
	}
	if rc := C.spac_cusparse_dnvec(&op.y, C.int64_t(m.NRows), C.uintptr_t(s.y.ptr), op.vt); rc != 0 {
		op.close()
		return nil, csError("creating the y descriptor", rc)
	}
	var size C.size_t
	if rc := C.spac_cusparse_buffer_size(op.sp.csHandle, op.mat, op.x, op.y, op.vt, op.alg, &size); rc != 0 {
		op.close()
		return nil, csError("cusparseSpMV_bufferSize for "+string(k), rc)
	}
	buf, err := s.d.alloc(int64(size), "the cuSPARSE buffer of "+string(k))
	if err != nil {
		op.close()
		return nil, err
	}
	op.buf = buf
	// From CUDA 12.4 on, preprocessing once speeds up every later call; it
	// is the library's best, so the comparison gets it.
	if rc := C.spac_cusparse_preprocess(op.sp.csHandle, op.mat, op.x, op.y, op.vt, op.alg, C.uintptr_t(op.buf.ptr)); rc > 0 {
		op.close()
		return nil, csError("cusparseSpMV_preprocess for "+string(k), rc)
	}
	return op, nil
}

func (op *cusparseOp) run() error {
	// The handle queues on the stream it was last given: the device's
	// launch stream, which a capture (Device.Capture) changes.
	if st := op.sp.d.stream; st != op.sp.csStream {
		if rc := C.spac_cusparse_set_stream(op.sp.csHandle, C.uintptr_t(uintptr(unsafe.Pointer(st.C())))); rc != 0 {
			return csError("cusparseSetStream", rc)
		}
		op.sp.csStream = st
	}
	if rc := C.spac_cusparse_spmv(op.sp.csHandle, op.mat, op.x, op.y, op.vt, op.alg, C.uintptr_t(op.buf.ptr)); rc != 0 {
		return csError("cusparseSpMV ("+op.name+")", rc)
	}
	return nil
}

func (op *cusparseOp) close() {
	if op.mat != 0 {
		C.spac_cusparse_destroy_mat(op.mat)
		op.mat = 0
	}
	if op.x != 0 {
		C.spac_cusparse_destroy_vec(op.x)
		op.x = 0
	}
	if op.y != 0 {
		C.spac_cusparse_destroy_vec(op.y)
		op.y = 0
	}
	op.buf.free()
}

func destroyCuSPARSE(h C.uintptr_t) {
	if h != 0 {
		C.spac_cusparse_destroy(h)
	}
}
