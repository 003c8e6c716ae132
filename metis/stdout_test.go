package metis

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// What METIS prints with printf goes to the process's stderr, never to its
// standard output, which carries spac's JSON and CSV; Go's os.Stdout still
// writes to the standard output. Checked in a child process, whose two
// streams the test reads apart.
func TestCStdoutIsStderr(t *testing.T) {
	if os.Getenv("SPAC_METIS_STDOUT_CHILD") == "1" {
		cPrintf("***probe from C\n")
		os.Stdout.WriteString("probe from Go\n")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCStdoutIsStderr$")
	cmd.Env = append(os.Environ(), "SPAC_METIS_STDOUT_CHILD=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v\nstdout: %s\nstderr: %s", err, out.String(), errOut.String())
	}
	if strings.Contains(out.String(), "***probe") || !strings.Contains(out.String(), "probe from Go") {
		t.Errorf("standard output %q: want Go's line and not C's", out.String())
	}
	if !strings.Contains(errOut.String(), "***probe from C") {
		t.Errorf("standard error %q: want C's line", errOut.String())
	}
}
