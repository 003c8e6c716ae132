//go:build cuda

package cudacheck

/*
#cgo LDFLAGS: -lcuda
#include <cuda.h>
*/
import "C"

import (
	"fmt"
	"os"
)

func init() {
	rc := C.cuInit(0)
	if rc == C.CUDA_SUCCESS {
		return
	}
	name := "unknown error"
	var s *C.char
	if C.cuGetErrorName(rc, &s) == C.CUDA_SUCCESS && s != nil {
		name = C.GoString(s)
	}
	fmt.Fprintf(os.Stderr, "spac: this binary was built with CUDA support ('make gpu') and needs an NVIDIA GPU with a working driver, "+
		"but the driver cannot start: cuInit: %s (%d). On a machine without a GPU use the plain build ('make build'): "+
		"it runs every command, and 'spac spmv' there runs the CPU reference and the schedule executor.\n", name, int(rc))
	os.Exit(1)
}
