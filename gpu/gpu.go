package gpu

import (
	"errors"
	"fmt"
	"sort"
	"time"
)

// Built reports whether this binary has CUDA support (the build tag cuda).
const Built = built

// ErrNoCUDA is what Open returns in a binary built without the cuda tag
// (and with it every call that needs a device, which such a binary never
// has).
var ErrNoCUDA = errors.New("this spac binary has no CUDA support: build one with 'make gpu' " +
	"(scripts/gpu-build.sh fetches the CUDA 11.8 headers and a libcuda to link against into .kit/, " +
	"then builds bin/gpu/spac with 'go build -tags cuda'; no nvcc needed) and run that on the GPU machine")

// DeviceInfo describes the GPU a Device runs on.
type DeviceInfo struct {
	Ordinal        int    `json:"ordinal"`
	Name           string `json:"name"`
	Major, Minor   int    // compute capability
	SMs            int    `json:"multiprocessors"`
	L2Bytes        int    `json:"l2_bytes"`
	MemBytes       int64  `json:"memory_bytes"`
	SharedPerBlock int    `json:"shared_per_block"` // without opting in
	DriverVersion  int    `json:"driver_version"`   // e.g. 13000 for CUDA 13.0
}

func (d DeviceInfo) String() string {
	return fmt.Sprintf("%s (sm_%d%d, %d SMs, %.0f MiB L2, %.1f GiB, driver CUDA %d.%d)", d.Name, d.Major, d.Minor,
		d.SMs, float64(d.L2Bytes)/(1<<20), float64(d.MemBytes)/(1<<30), d.DriverVersion/1000, d.DriverVersion%1000/10)
}

// Timing summarizes repeated measurements of one operation.
type Timing struct {
	Reps   int
	Median time.Duration
	Min    time.Duration
	Max    time.Duration
}

// Summarize makes a Timing of the samples (which it sorts).
func Summarize(samples []time.Duration) Timing {
	if len(samples) == 0 {
		return Timing{}
	}
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	n := len(samples)
	med := samples[n/2]
	if n%2 == 0 {
		med = (samples[n/2-1] + samples[n/2]) / 2
	}
	return Timing{Reps: n, Median: med, Min: samples[0], Max: samples[n-1]}
}

// Kernel arguments are 8-byte slots, as gorgonia.org/cu's Launch reads
// them; a 4-byte parameter reads the low half of its slot.

// Int is an int (or int32) kernel argument.
func Int(v int) uint64 { return uint64(int64(v)) }
