//go:build cuda

// See shim.h. Opaque cuSPARSE handles and descriptors are pointers;
// enums are ints; statuses are returned as they come (0 is success).
#include "shim.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*create_fn)(void **);
typedef int (*destroy_fn)(void *);
typedef int (*property_fn)(int, int *);
typedef int (*csr_fn)(void **, int64_t, int64_t, int64_t, void *, void *, void *, int, int, int, int);
typedef int (*coo_fn)(void **, int64_t, int64_t, int64_t, void *, void *, void *, int, int, int);
typedef int (*sell_fn)(void **, int64_t, int64_t, int64_t, int64_t, int64_t, void *, void *, void *, int, int, int, int);
typedef int (*bsr_fn)(void **, int64_t, int64_t, int64_t, int64_t, int64_t, void *, void *, void *, int, int, int, int,
                      int);
typedef int (*dnvec_fn)(void **, int64_t, void *, int);
typedef int (*bufsize_fn)(void *, int, const void *, void *, void *, const void *, void *, int, int, size_t *);
typedef int (*spmv_fn)(void *, int, const void *, void *, void *, const void *, void *, int, int, void *);
typedef const char *(*errstr_fn)(int);
typedef int (*set_stream_fn)(void *, void *);

static struct {
    int tried, ok;
    void *lib;
    char path[512];
    char err[2048];
    create_fn create;
    destroy_fn destroy;
    property_fn property;
    csr_fn create_csr;
    coo_fn create_coo;
    destroy_fn destroy_mat;
    dnvec_fn create_dnvec;
    destroy_fn destroy_dnvec;
    bufsize_fn buffer_size;
    spmv_fn spmv;
    set_stream_fn set_stream;
    spmv_fn preprocess; /* NULL before CUDA 12.4 */
    sell_fn create_sell; /* NULL before CUDA 12.1 */
    bsr_fn create_bsr;   /* NULL where the library has no BSR descriptor */
    errstr_fn errstr;   /* optional */
} cs;

enum { INDEX_32I = 2, INDEX_BASE_ZERO = 0, OP_NON_TRANSPOSE = 0, ORDER_ROW = 2 };

static void append_err(const char *what) {
    size_t n = strlen(cs.err);
    if (n + 3 < sizeof cs.err) snprintf(cs.err + n, sizeof cs.err - n, "%s%s", n ? "; " : "", what);
}

static int try_open(const char *name) {
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        append_err(e ? e : name);
        return 0;
    }
    struct {
        const char *name;
        void **slot;
    } need[] = {
        {"cusparseCreate", (void **)&cs.create},
        {"cusparseDestroy", (void **)&cs.destroy},
        {"cusparseGetProperty", (void **)&cs.property},
        {"cusparseCreateCsr", (void **)&cs.create_csr},
        {"cusparseCreateCoo", (void **)&cs.create_coo},
        {"cusparseDestroySpMat", (void **)&cs.destroy_mat},
        {"cusparseCreateDnVec", (void **)&cs.create_dnvec},
        {"cusparseDestroyDnVec", (void **)&cs.destroy_dnvec},
        {"cusparseSpMV_bufferSize", (void **)&cs.buffer_size},
        {"cusparseSpMV", (void **)&cs.spmv},
        {"cusparseSetStream", (void **)&cs.set_stream},
    };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        *need[i].slot = dlsym(lib, need[i].name);
        if (!*need[i].slot) {
            char msg[600];
            snprintf(msg, sizeof msg, "%s has no %s (too old for the generic SpMV API)", name, need[i].name);
            append_err(msg);
            dlclose(lib);
            return 0;
        }
    }
    cs.preprocess = (spmv_fn)dlsym(lib, "cusparseSpMV_preprocess");
    cs.create_sell = (sell_fn)dlsym(lib, "cusparseCreateSlicedEll");
    cs.create_bsr = (bsr_fn)dlsym(lib, "cusparseCreateBsr");
    cs.errstr = (errstr_fn)dlsym(lib, "cusparseGetErrorString");
    cs.lib = lib;
    snprintf(cs.path, sizeof cs.path, "%s", name);
    return 1;
}

int spac_cusparse_open(char *path, size_t pathlen, char *err, size_t errlen) {
    if (!cs.tried) {
        cs.tried = 1;
        const char *env = getenv("SPAC_CUSPARSE");
        if (env && *env) {
            cs.ok = try_open(env);
        } else {
            static const char *names[] = {
                "libcusparse.so.12",
                "libcusparse.so.11",
                "libcusparse.so",
                "/usr/local/cuda/lib64/libcusparse.so.12",
                "/usr/local/cuda/lib64/libcusparse.so.11",
                "/usr/local/cuda/lib64/libcusparse.so",
                "/usr/local/cuda/targets/x86_64-linux/lib/libcusparse.so.12",
            };
            for (size_t i = 0; i < sizeof names / sizeof names[0] && !cs.ok; i++) cs.ok = try_open(names[i]);
        }
    }
    if (path && pathlen) snprintf(path, pathlen, "%s", cs.ok ? cs.path : "");
    if (err && errlen) snprintf(err, errlen, "%s", cs.ok ? "" : cs.err);
    return cs.ok ? 0 : -1;
}

int spac_cusparse_version(int *major, int *minor, int *patch) {
    int rc = cs.property(0, major);
    if (rc == 0) rc = cs.property(1, minor);
    if (rc == 0) rc = cs.property(2, patch);
    return rc;
}

int spac_cusparse_create(uintptr_t *handle) {
    void *h = NULL;
    int rc = cs.create(&h);
    *handle = (uintptr_t)h;
    return rc;
}

int spac_cusparse_destroy(uintptr_t handle) { return cs.destroy((void *)handle); }
int spac_cusparse_set_stream(uintptr_t handle, uintptr_t stream) { return cs.set_stream((void *)handle, (void *)stream); }

int spac_cusparse_csr(uintptr_t *mat, int64_t rows, int64_t cols, int64_t nnz, uintptr_t rowptr, uintptr_t col,
                      uintptr_t val, int value_type) {
    void *m = NULL;
    int rc = cs.create_csr(&m, rows, cols, nnz, (void *)rowptr, (void *)col, (void *)val, INDEX_32I, INDEX_32I,
                           INDEX_BASE_ZERO, value_type);
    *mat = (uintptr_t)m;
    return rc;
}

int spac_cusparse_coo(uintptr_t *mat, int64_t rows, int64_t cols, int64_t nnz, uintptr_t row, uintptr_t col,
                      uintptr_t val, int value_type) {
    void *m = NULL;
    int rc = cs.create_coo(&m, rows, cols, nnz, (void *)row, (void *)col, (void *)val, INDEX_32I, INDEX_BASE_ZERO,
                           value_type);
    *mat = (uintptr_t)m;
    return rc;
}

int spac_cusparse_sell(uintptr_t *mat, int64_t rows, int64_t cols, int64_t nnz, int64_t values_size,
                       int64_t slice_size, uintptr_t slice_offsets, uintptr_t col, uintptr_t val, int value_type) {
    if (!cs.create_sell) return -2;
    void *m = NULL;
    int rc = cs.create_sell(&m, rows, cols, nnz, values_size, slice_size, (void *)slice_offsets, (void *)col,
                            (void *)val, INDEX_32I, INDEX_32I, INDEX_BASE_ZERO, value_type);
    *mat = (uintptr_t)m;
    return rc;
}

int spac_cusparse_bsr(uintptr_t *mat, int64_t brows, int64_t bcols, int64_t bnnz, int64_t block_dim,
                      uintptr_t rowptr, uintptr_t col, uintptr_t val, int value_type) {
    if (!cs.create_bsr) return -2;
    void *m = NULL;
    int rc = cs.create_bsr(&m, brows, bcols, bnnz, block_dim, block_dim, (void *)rowptr, (void *)col, (void *)val,
                           INDEX_32I, INDEX_32I, INDEX_BASE_ZERO, value_type, ORDER_ROW);
    *mat = (uintptr_t)m;
    return rc;
}

int spac_cusparse_destroy_mat(uintptr_t mat) { return cs.destroy_mat((void *)mat); }

int spac_cusparse_dnvec(uintptr_t *vec, int64_t n, uintptr_t val, int value_type) {
    void *v = NULL;
    int rc = cs.create_dnvec(&v, n, (void *)val, value_type);
    *vec = (uintptr_t)v;
    return rc;
}

int spac_cusparse_destroy_vec(uintptr_t vec) { return cs.destroy_dnvec((void *)vec); }

// alpha = 1 and beta = 0 in the value type, host memory.
static const float one32 = 1.0f, zero32 = 0.0f;
static const double one64 = 1.0, zero64 = 0.0;
#define ALPHA(t) ((t) == SPAC_CUDA_R_32F ? (const void *)&one32 : (const void *)&one64)
#define BETA(t) ((t) == SPAC_CUDA_R_32F ? (const void *)&zero32 : (const void *)&zero64)

int spac_cusparse_buffer_size(uintptr_t handle, uintptr_t mat, uintptr_t x, uintptr_t y, int value_type, int alg,
                              size_t *size) {
    return cs.buffer_size((void *)handle, OP_NON_TRANSPOSE, ALPHA(value_type), (void *)mat, (void *)x,
                          BETA(value_type), (void *)y, value_type, alg, size);
}

int spac_cusparse_preprocess(uintptr_t handle, uintptr_t mat, uintptr_t x, uintptr_t y, int value_type, int alg,
                             uintptr_t buffer) {
    if (!cs.preprocess) return -1;
    return cs.preprocess((void *)handle, OP_NON_TRANSPOSE, ALPHA(value_type), (void *)mat, (void *)x,
                         BETA(value_type), (void *)y, value_type, alg, (void *)buffer);
}

int spac_cusparse_spmv(uintptr_t handle, uintptr_t mat, uintptr_t x, uintptr_t y, int value_type, int alg,
                       uintptr_t buffer) {
    return cs.spmv((void *)handle, OP_NON_TRANSPOSE, ALPHA(value_type), (void *)mat, (void *)x, BETA(value_type),
                   (void *)y, value_type, alg, (void *)buffer);
}

const char *spac_cusparse_error(int status) {
    if (cs.errstr) {
        const char *s = cs.errstr(status);
        if (s) return s;
    }
    switch (status) {
    case 0: return "CUSPARSE_STATUS_SUCCESS";
    case 1: return "CUSPARSE_STATUS_NOT_INITIALIZED";
    case 2: return "CUSPARSE_STATUS_ALLOC_FAILED";
    case 3: return "CUSPARSE_STATUS_INVALID_VALUE";
    case 4: return "CUSPARSE_STATUS_ARCH_MISMATCH";
    case 5: return "CUSPARSE_STATUS_MAPPING_ERROR";
    case 6: return "CUSPARSE_STATUS_EXECUTION_FAILED";
    case 7: return "CUSPARSE_STATUS_INTERNAL_ERROR";
    case 8: return "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case 9: return "CUSPARSE_STATUS_ZERO_PIVOT";
    case 10: return "CUSPARSE_STATUS_NOT_SUPPORTED";
    case 11: return "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES";
    }
    return "unknown cuSPARSE status";
}
