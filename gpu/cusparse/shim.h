// A small shim over cuSPARSE's generic SpMV API, opened at run time with
// dlopen so that the spac binary links no CUDA library but libcuda and runs
// against cuSPARSE of CUDA 11, 12 or 13 (or none). The types and enum values
// are cuSPARSE's own (see DESIGN.md); no cuSPARSE header is needed.
#ifndef SPAC_CUSPARSE_SHIM_H
#define SPAC_CUSPARSE_SHIM_H

#include <stddef.h>
#include <stdint.h>

// cudaDataType and cusparseSpMVAlg_t values.
enum {
    SPAC_CUDA_R_32F = 0,
    SPAC_CUDA_R_64F = 1,
    SPAC_SPMV_ALG_DEFAULT = 0,
    SPAC_SPMV_COO_ALG1 = 1,
    SPAC_SPMV_CSR_ALG1 = 2,
    SPAC_SPMV_CSR_ALG2 = 3,
    SPAC_SPMV_COO_ALG2 = 4
};

// spac_cusparse_open loads the library once (later calls return the first
// result): 0 on success with the file's name in path, -1 with the reasons in
// err.
int spac_cusparse_open(char *path, size_t pathlen, char *err, size_t errlen);
int spac_cusparse_version(int *major, int *minor, int *patch);
int spac_cusparse_create(uintptr_t *handle);
int spac_cusparse_destroy(uintptr_t handle);
// The stream the handle's calls queue on (0: the legacy default stream).
int spac_cusparse_set_stream(uintptr_t handle, uintptr_t stream);
int spac_cusparse_csr(uintptr_t *mat, int64_t rows, int64_t cols, int64_t nnz, uintptr_t rowptr, uintptr_t col,
                      uintptr_t val, int value_type);
int spac_cusparse_coo(uintptr_t *mat, int64_t rows, int64_t cols, int64_t nnz, uintptr_t row, uintptr_t col,
                      uintptr_t val, int value_type);
// Sliced ELL (CUDA 12.1 on) and BSR (row-major blocks): -2 where the library
// lacks the constructor.
int spac_cusparse_sell(uintptr_t *mat, int64_t rows, int64_t cols, int64_t nnz, int64_t values_size,
                       int64_t slice_size, uintptr_t slice_offsets, uintptr_t col, uintptr_t val, int value_type);
int spac_cusparse_bsr(uintptr_t *mat, int64_t brows, int64_t bcols, int64_t bnnz, int64_t block_dim,
                      uintptr_t rowptr, uintptr_t col, uintptr_t val, int value_type);
int spac_cusparse_destroy_mat(uintptr_t mat);
int spac_cusparse_dnvec(uintptr_t *vec, int64_t n, uintptr_t val, int value_type);
int spac_cusparse_destroy_vec(uintptr_t vec);
// y = A x (alpha 1, beta 0) with computeType = value_type.
int spac_cusparse_buffer_size(uintptr_t handle, uintptr_t mat, uintptr_t x, uintptr_t y, int value_type, int alg,
                              size_t *size);
// Returns -1 when the library has no cusparseSpMV_preprocess (before 12.4).
int spac_cusparse_preprocess(uintptr_t handle, uintptr_t mat, uintptr_t x, uintptr_t y, int value_type, int alg,
                             uintptr_t buffer);
int spac_cusparse_spmv(uintptr_t handle, uintptr_t mat, uintptr_t x, uintptr_t y, int value_type, int alg,
                       uintptr_t buffer);
const char *spac_cusparse_error(int status);

#endif
