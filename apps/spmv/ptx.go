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
// FP32 and FP64 (entryName), and spac-d16's kernels that load the row list
// early (d16EarlyRows), in FP32 only.
var Module = gpu.PTXModule{Name: "spmv", PTX: spmvPTX, Entries: append(gpu.Variants("spmv",
	[]string{"csr_scalar", "csr_vector", "coo_atomic", "csr_d16", "csr_d16_wide", "zero_rows", "gather", "spac_smem", "spac_ldg", "spac_smem_x4", "spac_ldg_x4", "spac_seg", "spac_seg_ldg", "spac_seg8",
		"spac_seg8_lb", "spac_seg8_pf", "spac_seg8_lbpf", "spac_d16", "spac_d16_wide"},
	"f32", "f64"), entryName(d16EarlyBases[0], FP32), entryName(d16EarlyBases[1], FP32))}

// d16EarlySuffix names spac-d16's kernels that load the row list early
// (addD16), d16EarlyBases their narrow and wide entries.
const d16EarlySuffix = "_early"

var d16EarlyBases = [2]string{"spac_d16" + d16EarlySuffix, "spac_d16_wide" + d16EarlySuffix}

func entryName(base string, p Precision) string {
	return "spmv_" + base + "_" + p.Suffix()
}
