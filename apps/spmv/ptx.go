package spmv

import (
	_ "embed"

	"github.com/spac-gpu/spac/gpu"
)

// spmvPTX is kernels/spmv.ptx, made from spmv.cu by 'make ptx' (nvcc).
//
//go:embed kernels/spmv.ptx
var spmvPTX string

// Module holds the SpMV kernels, which NewSpMV loads.
var Module = gpu.PTXModule{Name: "spmv", PTX: spmvPTX, Entries: kernelEntries()}

// kernelEntries are the entry points the SpMV module must have.
func kernelEntries() []string {
	var names []string
	for _, base := range []string{"csr_scalar", "csr_vector", "coo_atomic", "zero_rows", "spac_smem", "spac_ldg", "spac_smem_x4", "spac_ldg_x4"} {
		for _, p := range []Precision{FP32, FP64} {
			names = append(names, entryName(base, p))
		}
	}
	return names
}

func entryName(base string, p Precision) string {
	suffix := "f64"
	if p == FP32 {
		suffix = "f32"
	}
	return "spmv_" + base + "_" + suffix
}
