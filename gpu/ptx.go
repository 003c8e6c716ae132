package gpu

import (
	_ "embed"
	"fmt"
	"os"
)

// spmvPTX is gpu/kernels/spmv.ptx, made from spmv.cu by 'make ptx' (nvcc).
//
//go:embed kernels/spmv.ptx
var spmvPTX string

// PTX returns the kernels' PTX and where it came from: the file SPAC_PTX
// names when that is set, else the copy embedded in the binary.
func PTX() (ptx, source string, err error) {
	if path := os.Getenv("SPAC_PTX"); path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return "", "", fmt.Errorf("SPAC_PTX: %w", err)
		}
		return string(b), path, nil
	}
	return spmvPTX, "embedded", nil
}

// kernelEntries are the entry points the module must have.
func kernelEntries() []string {
	var names []string
	for _, base := range []string{"csr_scalar", "csr_vector", "coo_atomic", "zero_rows", "spac_smem", "spac_ldg", "spac_smem_x4", "spac_ldg_x4"} {
		for _, p := range []Precision{FP32, FP64} {
			names = append(names, entryName(base, p))
		}
	}
	return append(names, "spmv_spin")
}

func entryName(base string, p Precision) string {
	suffix := "f64"
	if p == FP32 {
		suffix = "f32"
	}
	return "spmv_" + base + "_" + suffix
}
