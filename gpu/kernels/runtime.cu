// Kernels of package gpu's runtime itself (not of any application).
//
// Compiled to PTX for the virtual architecture compute_80 (make ptx) and
// embedded in the Go binary, like the applications' kernels.

// gpu_spin keeps one thread busy for the given number of clock cycles:
// Device.Time queues it first so that the host queues every timed
// repetition before the GPU starts them, and no launch gap is timed.
extern "C" __global__ void gpu_spin(long long cycles) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
}
