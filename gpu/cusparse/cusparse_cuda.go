//go:build cuda

package cusparse

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"fmt"
)

var impl library = dlopened{}

var (
	_ library = dlopened{}
	_ shim    = dlopened{}
)

// dlopened is cuSPARSE through the shim (shim.c), which holds the library
// and its entry points.
type dlopened struct{}

func (dlopened) open() (shim, string, error) {
	var path, msg [2048]C.char
	if C.spac_cusparse_open(&path[0], C.size_t(len(path)), &msg[0], C.size_t(len(msg))) != 0 {
		return nil, "", fmt.Errorf("%w: no libcusparse could be opened (%s); set SPAC_CUSPARSE to the file, or LD_LIBRARY_PATH to its folder (e.g. /usr/local/cuda/lib64)",
			ErrUnavailable, C.GoString(&msg[0]))
	}
	return dlopened{}, C.GoString(&path[0]), nil
}

// status is nil or cuSPARSE's description of a status.
func status(rc C.int) error {
	if rc == 0 {
		return nil
	}
	return fmt.Errorf("%s (%d)", C.GoString(C.spac_cusparse_error(rc)), int(rc))
}

func (dlopened) version() (int, int, int, error) {
	var major, minor, patch C.int
	err := status(C.spac_cusparse_version(&major, &minor, &patch))
	return int(major), int(minor), int(patch), err
}

func (dlopened) create() (uintptr, error) {
	var h C.uintptr_t
	err := status(C.spac_cusparse_create(&h))
	return uintptr(h), err
}

func (dlopened) destroy(h uintptr) { C.spac_cusparse_destroy(C.uintptr_t(h)) }

func (dlopened) setStream(h, stream uintptr) error {
	return status(C.spac_cusparse_set_stream(C.uintptr_t(h), C.uintptr_t(stream)))
}

func (dlopened) csr(rows, cols, nnz int64, rowptr, col, val uint64, vt ValueType) (uintptr, error) {
	var m C.uintptr_t
	err := status(C.spac_cusparse_csr(&m, C.int64_t(rows), C.int64_t(cols), C.int64_t(nnz),
		C.uintptr_t(rowptr), C.uintptr_t(col), C.uintptr_t(val), C.int(vt)))
	return uintptr(m), err
}

func (dlopened) coo(rows, cols, nnz int64, row, col, val uint64, vt ValueType) (uintptr, error) {
	var m C.uintptr_t
	err := status(C.spac_cusparse_coo(&m, C.int64_t(rows), C.int64_t(cols), C.int64_t(nnz),
		C.uintptr_t(row), C.uintptr_t(col), C.uintptr_t(val), C.int(vt)))
	return uintptr(m), err
}

func (dlopened) sell(rows, cols, nnz, valuesSize, sliceSize int64, offsets, col, val uint64, vt ValueType) (uintptr, error) {
	var m C.uintptr_t
	rc := C.spac_cusparse_sell(&m, C.int64_t(rows), C.int64_t(cols), C.int64_t(nnz), C.int64_t(valuesSize), C.int64_t(sliceSize),
		C.uintptr_t(offsets), C.uintptr_t(col), C.uintptr_t(val), C.int(vt))
	if rc == -2 {
		return 0, fmt.Errorf("%w: this cuSPARSE has no cusparseCreateSlicedEll (CUDA 12.1 on)", ErrUnavailable)
	}
	return uintptr(m), status(rc)
}

func (dlopened) bsr(brows, bcols, bnnz, blockDim int64, rowptr, col, val uint64, vt ValueType) (uintptr, error) {
	var m C.uintptr_t
	rc := C.spac_cusparse_bsr(&m, C.int64_t(brows), C.int64_t(bcols), C.int64_t(bnnz), C.int64_t(blockDim),
		C.uintptr_t(rowptr), C.uintptr_t(col), C.uintptr_t(val), C.int(vt))
	if rc == -2 {
		return 0, fmt.Errorf("%w: this cuSPARSE has no cusparseCreateBsr", ErrUnavailable)
	}
	return uintptr(m), status(rc)
}

func (dlopened) destroyMat(m uintptr) { C.spac_cusparse_destroy_mat(C.uintptr_t(m)) }

func (dlopened) dnvec(n int64, val uint64, vt ValueType) (uintptr, error) {
	var v C.uintptr_t
	err := status(C.spac_cusparse_dnvec(&v, C.int64_t(n), C.uintptr_t(val), C.int(vt)))
	return uintptr(v), err
}

func (dlopened) destroyVec(v uintptr) { C.spac_cusparse_destroy_vec(C.uintptr_t(v)) }

func (dlopened) bufferSize(h, mat, x, y uintptr, vt ValueType, alg Alg) (int64, error) {
	var size C.size_t
	err := status(C.spac_cusparse_buffer_size(C.uintptr_t(h), C.uintptr_t(mat), C.uintptr_t(x), C.uintptr_t(y), C.int(vt), C.int(alg), &size))
	return int64(size), err
}

func (dlopened) preprocess(h, mat, x, y uintptr, vt ValueType, alg Alg, buf uint64) error {
	rc := C.spac_cusparse_preprocess(C.uintptr_t(h), C.uintptr_t(mat), C.uintptr_t(x), C.uintptr_t(y), C.int(vt), C.int(alg), C.uintptr_t(buf))
	if rc < 0 {
		return nil // no cusparseSpMV_preprocess before CUDA 12.4
	}
	return status(rc)
}

func (dlopened) spmv(h, mat, x, y uintptr, vt ValueType, alg Alg, buf uint64) error {
	return status(C.spac_cusparse_spmv(C.uintptr_t(h), C.uintptr_t(mat), C.uintptr_t(x), C.uintptr_t(y), C.int(vt), C.int(alg), C.uintptr_t(buf)))
}
