package spmv

import (
	_ "embed"

	"github.com/spac-gpu/spac/gpu"
)

// spmvPTX is kernels/spmv.ptx, made from spmv.cu by 'make ptx' (nvcc).
//
//go:embed kernels/spmv.ptx
var spmvPTX string

// Module holds the SpMV kernels, which NewSpMV loads: each in precision
// FP32 and FP64 (entryName), and spac-d16's narrow kernel that loads the
// row list early (d16EarlyRows), in FP32 only.
var Module = gpu.PTXModule{Name: "spmv", PTX: spmvPTX, Entries: append(gpu.Variants("spmv",
	[]string{"csr_scalar", "csr_vector", "coo_atomic", "csr_d16", "csr_d16_wide", "zero_rows", "gather", "spac_smem", "spac_ldg", "spac_smem_x4", "spac_ldg_x4", "spac_seg", "spac_seg_ldg", "spac_seg8",
		"spac_seg8_lb", "spac_seg8_pf", "spac_seg8_lbpf", "spac_d16", "spac_d16_wide"},
	"f32", "f64"), entryName(d16EarlyBase, FP32))}

// d16EarlySuffix names spac-d16's kernel that loads the row list early
// (addD16), d16EarlyBase its entry (narrow only).
const (
	d16EarlySuffix = "_early"
	d16EarlyBase   = "spac_d16" + d16EarlySuffix
)

func entryName(base string, p Precision) string {
	return "spmv_" + base + "_" + p.Suffix()
}
