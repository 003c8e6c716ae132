//go:build cuda

// GPU tests of the runtime itself; the applications' tests (apps/spmv,
// apps/cg, apps/cfd) exercise it with their kernels. Build here, run on
// the GPU machine from the repository root:
//
//	scripts/gpu-build.sh          # or make gpu: writes bin/gpu/gpu.test
//	bin/gpu/gpu.test -test.v      # on the GPU machine (carry bin/gpu)
package gpu

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
)

var dev *Device

func TestMain(m *testing.M) {
	ordinal := 0
	if s := os.Getenv("SPAC_GPU_DEVICE"); s != "" {
		ordinal, _ = strconv.Atoi(s)
	}
	d, err := Open(ordinal)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gpu tests:", err)
		os.Exit(1)
	}
	dev = d
	fmt.Fprintf(os.Stderr, "gpu tests on %s\n", d.Info())
	code := m.Run()
	d.Close()
	os.Exit(code)
}

// TestBuffers: uploads, writes, fills, copies and read-backs move what
// they say, empty slices included.
func TestBuffers(t *testing.T) {
	src := []int32{1, -2, 3, -4, 5, -6, 7}
	a, err := Upload(dev, src, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Free()
	if a.Bytes() != 28 {
		t.Errorf("Bytes = %d, want 28", a.Bytes())
	}
	got := make([]int32, len(src))
	if err := Download(a, got, "a"); err != nil || !slices.Equal(got, src) {
		t.Fatalf("Download = %v, %v; want %v", got, err, src)
	}
	b, err := dev.Alloc(28, "b")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	if err := b.Fill32(0xdeadbeef); err != nil {
		t.Fatal(err)
	}
	words := make([]uint32, 7)
	if err := Download(b, words, "b"); err != nil || words[6] != 0xdeadbeef {
		t.Fatalf("after Fill32: %x, %v", words, err)
	}
	if err := b.CopyFrom(a); err != nil {
		t.Fatal(err)
	}
	if err := ReadBack(b, got, "b"); err != nil || !slices.Equal(got, src) {
		t.Fatalf("after CopyFrom: %v, %v", got, err)
	}
	if err := Write(b, []int32{9, 9}, "b"); err != nil {
		t.Fatal(err)
	}
	if err := Download(b, got[:3], "b"); err != nil || got[0] != 9 || got[1] != 9 || got[2] != 3 {
		t.Fatalf("after Write: %v, %v", got[:3], err)
	}
	if err := Write(b, make([]int32, 8), "b"); err == nil {
		t.Error("Write past the end: no error")
	}
	if err := b.Zero(); err != nil {
		t.Fatal(err)
	}
	if err := Download(b, got, "b"); err != nil || slices.ContainsFunc(got, func(v int32) bool { return v != 0 }) {
		t.Fatalf("after Zero: %v, %v", got, err)
	}
	empty, err := Upload(dev, []float64{}, "empty")
	if err != nil || Ptr(empty) == 0 {
		t.Fatalf("an empty upload: %v (address %#x)", err, Ptr(empty))
	}
	empty.Free()
	empty.Free()
}

// TestTiming: Time and an Interval measure device work.
func TestTiming(t *testing.T) {
	b, err := dev.Alloc(64<<20, "timed")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	tm, err := dev.Time(b.Zero, 2, 10, "a memset")
	if err != nil || tm.Reps != 10 || tm.Median <= 0 || tm.Min > tm.Median || tm.Median > tm.Max {
		t.Fatalf("Time = %+v, %v", tm, err)
	}
	iv, err := dev.NewInterval()
	if err != nil {
		t.Fatal(err)
	}
	defer iv.Close()
	if err := iv.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.Fill32(1); err != nil {
		t.Fatal(err)
	}
	if err := iv.Stop(); err != nil {
		t.Fatal(err)
	}
	if d, err := iv.Elapsed(); err != nil || d <= 0 {
		t.Fatalf("Elapsed = %v, %v", d, err)
	}
	_, bw, err := dev.CopyBandwidth(256<<20, 5)
	if err != nil || bw < 100e9 {
		t.Errorf("copy bandwidth %.0f GB/s, %v", bw/1e9, err)
	}
	t.Logf("device copy: %.0f GB/s", bw/1e9)
}

// TestTransfer: an upload on a stream of its own arrives.
func TestTransfer(t *testing.T) {
	tr, err := dev.NewTransfer()
	if err != nil {
		t.Fatal(err)
	}
	src := make([]float64, 1<<20)
	for i := range src {
		src[i] = float64(i)
	}
	b, err := UploadAsync(tr, src, "async")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	if ready, err := tr.Ready(); err == nil && ready {
		t.Log("Ready after Close") // either answer is fine; it must not crash
	}
	got := make([]float64, len(src))
	if err := Download(b, got, "async"); err != nil || !slices.Equal(got, src) {
		t.Fatalf("the transfer's buffer differs: %v", err)
	}
}

// TestCaptureAndModules: a captured memset runs only when its graph is
// launched; a failed or nested capture leaves the device usable; a module
// loads once; mapped memory starts zeroed.
// TestResident: the driver's count of a kernel's resident blocks falls
// with the threads and the shared memory a block asks for.
func TestResident(t *testing.T) {
	m := dev.runtime
	small, err := m.Resident("gpu_spin", 32, 0, false)
	if err != nil || small < 1 {
		t.Fatalf("gpu_spin, 32 threads: %d blocks an SM, %v", small, err)
	}
	wide, err := m.Resident("gpu_spin", 1024, 0, false)
	if err != nil || wide < 1 || wide >= small {
		t.Errorf("gpu_spin, 1024 threads: %d blocks an SM (32 threads: %d), %v", wide, small, err)
	}
	heavy, err := m.Resident("gpu_spin", 32, dev.Info().SharedPerBlock, true)
	if err != nil || heavy < 1 || heavy >= small {
		t.Errorf("gpu_spin, 32 threads and %d bytes of shared memory: %d blocks an SM (without: %d), %v", dev.Info().SharedPerBlock, heavy, small, err)
	}
	if _, err := m.Resident("nothing", 32, 0, false); err == nil {
		t.Error("a kernel the module lacks: no error")
	}
}

func TestCaptureAndModules(t *testing.T) {
	b, err := dev.Alloc(4096, "captured")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	if err := b.Zero(); err != nil {
		t.Fatal(err)
	}
	g, err := dev.Capture(func() error { return b.Fill32(7) })
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	w := make([]uint32, 1024)
	if err := Download(b, w, "captured"); err != nil || w[0] != 0 {
		t.Fatalf("after the capture alone: %d, %v (a capture records, it does not run)", w[0], err)
	}
	if err := g.Launch(); err != nil {
		t.Fatal(err)
	}
	if err := Download(b, w, "captured"); err != nil || w[1023] != 7 {
		t.Fatalf("after the graph: %d, %v", w[1023], err)
	}
	boom := errors.New("boom")
	if _, err := dev.Capture(func() error { return boom }); !errors.Is(err, boom) {
		t.Errorf("a failing capture: %v, want boom", err)
	}
	if _, err := dev.Capture(func() error { _, err := dev.Capture(func() error { return nil }); return err }); err == nil {
		t.Error("a capture within a capture succeeded")
	}
	m1, err := dev.LoadModule(runtimeModule)
	if err != nil || m1 != dev.runtime {
		t.Errorf("LoadModule of a loaded module: %p, %v; want the loaded one %p", m1, err, dev.runtime)
	}
	if _, err := m1.Launch("nothing", 1, 1, 0); err == nil {
		t.Error("a kernel the module lacks: no error")
	}
	mp, err := dev.NewMapped(4)
	if err != nil {
		t.Fatal(err)
	}
	defer mp.Close()
	out := make([]float64, 4)
	if err := mp.Float64s(0, out); err != nil || slices.ContainsFunc(out, func(v float64) bool { return v != 0 }) {
		t.Errorf("mapped memory: %v, %v", out, err)
	}
	if err := mp.Await(0, 0); err != nil {
		t.Error(err)
	}
	var none *Device
	if _, err := none.Alloc(8, "x"); err == nil || errors.Is(err, ErrNoCUDA) {
		t.Errorf("a nil device: %v", err)
	}
	if _, err := Open(99); err == nil {
		t.Error("device 99: no error")
	}
}
