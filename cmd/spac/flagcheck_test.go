package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNumericFlagsRefused runs every numeric flag of every command with a
// value out of its range (NaN and the infinities for the float flags): a
// usage error (exit 2) before any input is read (the input does not
// exist), naming the flag, the value and the range accepted. The seeds
// (--seed, --mesh-seed) take any int64 and have no case.
func TestNumericFlagsRefused(t *testing.T) {
	t.Setenv("SPAC_CACHE_DIR", t.TempDir())
	in := filepath.Join(t.TempDir(), "none.mtx") // never read
	type flagCase struct{ flag, value, rng string }
	partFlagCases := []flagCase{
		{"dominant-weight", "0", "1 to 65536"}, {"dominant-weight", "70000", "1 to 65536"},
		{"coarsen", "-1", "0 to 8"}, {"coarsen", "9", "0 to 8"},
		{"polish", "-2", "-1 to 64"}, {"polish", "65", "-1 to 64"},
		{"imbalance", "NaN", "(0, 1]"}, {"imbalance", "+Inf", "(0, 1]"}, {"imbalance", "-Inf", "(0, 1]"},
		{"imbalance", "0", "(0, 1]"}, {"imbalance", "1.5", "(0, 1]"},
		{"tau", "0", "> 0"}, {"tau", "-2", "> 0"}, {"tau", "NaN", "> 0"}, {"tau", "-Inf", "> 0"},
		{"memory-per-task", "-1", "[0, 1e+06]"}, {"memory-per-task", "NaN", "[0, 1e+06]"}, {"memory-per-task", "1e+07", "[0, 1e+06]"},
	}
	partSizes := []flagCase{
		{"parts", "0", "1 or more"}, {"parts", "-3", "1 or more"},
		{"block-size", "0", "1 or more"}, {"block-size", "-1", "1 or more"},
	}
	commands := map[string][]flagCase{
		"partition": append(append([]flagCase{}, partSizes...), partFlagCases...),
		"compare":   append(append([]flagCase{}, partSizes...), partFlagCases...),
		"schedule": append([]flagCase{
			{"block-size", "0", "1 to 16384"}, {"block-size", "16385", "1 to 16384"}, {"block-size", "100000", "1 to 16384"},
			{"smem-budget", "16", "1KiB to 227KiB"}, {"smem-budget", "228KiB", "1KiB to 227KiB"},
			{"cache-max-size", "1KiB", "1MiB to 1TiB"}, {"cache-max-size", "2TiB", "1MiB to 1TiB"},
		}, partFlagCases...),
		"gen": {
			{"scale", "0", "> 0"}, {"scale", "-1", "> 0"}, {"scale", "NaN", "> 0"}, {"scale", "+Inf", "> 0"},
		},
		"spmv": append([]flagCase{
			{"block-size", "0", "32 to 16384"}, {"block-size", "16416", "32 to 16384"}, {"block-size", "2050", "32 to 16384"},
			{"iters", "0", "1 or more"}, {"warmup", "-1", "0 or more"}, {"cpu-iters", "0", "1 or more"},
			{"device", "-1", "0 or more"}, {"gen-scale", "0", "> 0"}, {"gen-scale", "NaN", "> 0"},
			{"smem-budget", "16", "1KiB to 48KiB"}, {"smem-budget", "64KiB", "1KiB to 48KiB"},
			{"cache-max-size", "0", "1MiB to 1TiB"},
		}, partFlagCases...),
		"cg": append([]flagCase{
			{"block-size", "0", "32 to 1024"}, {"block-size", "100", "32 to 1024"}, {"block-size", "2048", "32 to 1024"},
			{"runs", "0", "1 or more"}, {"tol", "NaN", "[0, 1]"}, {"tol", "-1", "[0, 1]"}, {"tol", "2", "[0, 1]"},
			{"tol", "+Inf", "[0, 1]"}, {"max-iters", "0", "1 or more"}, {"repeat", "-1", "0 or more"},
			{"probe", "0", "1 to 1024"}, {"probe", "2000", "1 to 1024"}, {"device", "-1", "0 or more"},
			{"adapt-delay", "-1s", "0s to 1h0m0s"}, {"adapt-delay", "2h", "0s to 1h0m0s"},
			{"background-nice", "-1", "0 to 19"}, {"background-nice", "20", "0 to 19"},
			{"gen-scale", "0", "> 0"}, {"gen-scale", "-Inf", "> 0"}, {"cache-max-size", "1B", "1MiB to 1TiB"},
		}, partFlagCases...),
		"cfd": {
			{"iterations", "-1", "0 or more"}, {"block-size", "0", "1 to 65536"}, {"block-size", "70000", "1 to 65536"},
		},
		"bfs": {
			{"roots", "0", "1 or more"}, {"roots", "-5", "1 or more"}, {"root", "-1", "0 or more"}, {"device", "-1", "0 or more"},
			{"alpha", "0", "> 0"}, {"alpha", "NaN", "> 0"}, {"alpha", "+Inf", "> 0"}, {"beta", "-1", "> 0"}, {"beta", "-Inf", "> 0"},
		},
		"sssp": {
			{"roots", "0", "1 or more"}, {"root", "-2", "0 or more"}, {"device", "-1", "0 or more"},
			{"delta", "-1", "[0, 3.4"}, {"delta", "NaN", "[0, 3.4"}, {"delta", "+Inf", "[0, 3.4"},
		},
	}
	for cmd, cases := range commands {
		for _, tc := range cases {
			t.Run(cmd+"/"+tc.flag+"="+tc.value, func(t *testing.T) {
				args := []string{cmd, in, "--" + tc.flag + "=" + tc.value}
				if cmd == "gen" {
					args = []string{cmd, "ba:n=100,m=2", "-o", filepath.Join(t.TempDir(), "x.mtx"), "--" + tc.flag + "=" + tc.value}
				}
				_, errOut, code, _ := executeStreams(t, args...)
				if code != 2 {
					t.Fatalf("exit %d, want 2: %s", code, errOut)
				}
				for _, want := range []string{"--" + tc.flag + " ", tc.value, tc.rng} {
					if !strings.Contains(errOut, want) {
						t.Errorf("message %q does not name %q", errOut, want)
					}
				}
			})
		}
	}
}

// TestRootUsage: no command is a usage error (the usage on standard
// error, exit 2); --version says what was built.
func TestRootUsage(t *testing.T) {
	out, errOut, code, _ := executeStreams(t)
	if code != 2 || out != "" || !strings.Contains(errOut, "Available Commands") {
		t.Errorf("spac alone: exit %d, stdout %q, stderr %q; want 2 and the usage on stderr", code, out, errOut)
	}
	out, _, code, _ = executeStreams(t, "--version")
	for _, want := range []string{"spac ", "revision ", "go1.", "CUDA"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--version: exit %d, %q; want %q in it", code, out, want)
		}
	}
}
