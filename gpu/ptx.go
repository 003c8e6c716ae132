package gpu

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
)

// PTXModule is one module of kernels: PTX that nvcc made from a .cu file
// (scripts/gen-ptx.sh, 'make ptx') and that a package embeds, with the
// entry points the module must have. Packages with kernels of their own
// (apps/spmv, apps/cg, apps/cfd) load theirs with Device.LoadModule.
type PTXModule struct {
	Name    string // short name: errors, and the override file <PTX dir>/<Name>.ptx
	PTX     string // the embedded PTX
	Entries []string
}

// ptxDir is the folder of PTX files that replace the embedded ones ("":
// none); see SetPTXDir.
var ptxDir atomic.Pointer[string]

// SetPTXDir makes every module loaded from now on, in the whole process,
// come from dir/<Name>.ptx where that file exists, for trying a kernel
// change without rebuilding; "" restores the embedded copies. The spac
// command sets it from $SPAC_PTX_DIR.
func SetPTXDir(dir string) { ptxDir.Store(&dir) }

// Source returns the PTX to load and where it came from: the file
// <dir>/<Name>.ptx where SetPTXDir named a folder and the file exists,
// else the embedded copy.
func (m PTXModule) Source() (ptx, source string, err error) {
	if dir := ptxDir.Load(); dir != nil && *dir != "" {
		path := filepath.Join(*dir, m.Name+".ptx")
		b, err := os.ReadFile(path)
		if err == nil {
			return string(b), path, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", "", fmt.Errorf("PTX override: %w", err)
		}
	}
	if !strings.Contains(m.PTX, ".entry") {
		return "", "", fmt.Errorf("the embedded PTX of module %s holds no kernel: run 'make ptx' and rebuild", m.Name)
	}
	return m.PTX, "embedded", nil
}

// Variants names the kernels prefix_base_suffix of every base and suffix,
// base by base: the entries of a module whose kernels come in one variant
// per suffix (a precision, say).
func Variants(prefix string, bases []string, suffixes ...string) []string {
	names := make([]string, 0, len(bases)*len(suffixes))
	for _, b := range bases {
		for _, s := range suffixes {
			names = append(names, prefix+"_"+b+"_"+s)
		}
	}
	return names
}

var ptxHeader = regexp.MustCompile(`from (\S+)\.cu sha256 ([0-9a-f]{64})`)

// CheckSource reports whether the embedded PTX was generated from src (the
// .cu file's content; gen-ptx.sh records its SHA-256 in the first line),
// has every entry point, and targets compute_80.
func (m PTXModule) CheckSource(src []byte) error {
	h := ptxHeader.FindStringSubmatch(m.PTX)
	if h == nil {
		return fmt.Errorf("the PTX of module %s records no source hash: regenerate it with 'make ptx'", m.Name)
	}
	sum := sha256.Sum256(src)
	if h[2] != hex.EncodeToString(sum[:]) {
		return fmt.Errorf("the PTX of module %s is stale: %s.cu changed since it was generated; regenerate it with 'make ptx'", m.Name, h[1])
	}
	var missing []string
	for _, name := range m.Entries {
		if !regexp.MustCompile(`\.entry\s+` + regexp.QuoteMeta(name) + `\(`).MatchString(m.PTX) {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the PTX of module %s lacks kernels %s", m.Name, strings.Join(missing, ", "))
	}
	if !strings.Contains(m.PTX, ".target sm_80") {
		return fmt.Errorf("the PTX of module %s is not for compute_80 (.target sm_80)", m.Name)
	}
	return nil
}

// runtimePTX is gpu/kernels/runtime.ptx, made from runtime.cu by 'make ptx'.
//
//go:embed kernels/runtime.ptx
var runtimePTX string

// runtimeModule holds the runtime's own kernels, which Open loads.
var runtimeModule = PTXModule{Name: "runtime", PTX: runtimePTX, Entries: []string{"gpu_spin"}}

// OpenForTest opens device 0 for a test and closes it when the test ends;
// the test fails if it cannot (gpu.ErrNoCUDA without a CUDA build).
func OpenForTest(t interface {
	Helper()
	Fatal(args ...any)
	Cleanup(func())
}) *Device {
	t.Helper()
	d, err := Open(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// ReadKernelSource reads a kernel source for a test of its package's PTX:
// path is relative to the repository root, where a test binary carried to
// the GPU machine runs; go test runs in the package's folder, so the file
// is also looked for by its base name under kernels/ there.
func ReadKernelSource(t interface {
	Helper()
	Fatal(args ...any)
}, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("kernels", filepath.Base(path)))
	if errors.Is(err, os.ErrNotExist) {
		b, err = os.ReadFile(path)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// KernelDefine is the integer value of `#define name N` in a kernel source
// (ReadKernelSource), for a test that the Go side's constants are the
// kernels'; the test fails where src defines no such integer.
func KernelDefine(t interface {
	Helper()
	Fatalf(format string, args ...any)
}, src []byte, name string) int64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^#define ` + regexp.QuoteMeta(name) + `\s+(-?\d+)`).FindSubmatch(src)
	if m == nil {
		t.Fatalf("the kernel source defines no integer %s", name)
	}
	v, err := strconv.ParseInt(string(m[1]), 10, 64)
	if err != nil {
		t.Fatalf("#define %s: %v", name, err)
	}
	return v
}

// CheckNoCUDA is the test that a build without CUDA support says how to get
// one: Open and then load, a package's loading of its kernels into the
// device, answer ErrNoCUDA. A CUDA build skips it.
func CheckNoCUDA(t interface {
	Helper()
	Skip(args ...any)
	Fatalf(format string, args ...any)
}, load func(*Device) error) {
	t.Helper()
	if Built {
		t.Skip("this build has CUDA support")
	}
	d, err := Open(0)
	if !errors.Is(err, ErrNoCUDA) {
		t.Fatalf("gpu.Open: %v, want ErrNoCUDA", err)
	}
	if err := load(d); !errors.Is(err, ErrNoCUDA) {
		t.Fatalf("loading the kernels: %v, want ErrNoCUDA", err)
	}
}
