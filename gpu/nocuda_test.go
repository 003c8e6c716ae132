//go:build !cuda

package gpu

import (
	"errors"
	"strings"
	"testing"
)

func TestNoCUDA(t *testing.T) {
	if Built {
		t.Fatal("Built in a build without the cuda tag")
	}
	d, err := Open(0)
	if d != nil || !errors.Is(err, ErrNoCUDA) {
		t.Fatalf("Open = %v, %v; want ErrNoCUDA", d, err)
	}
	for _, want := range []string{"no CUDA support", "make gpu"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the message %q does not say %q", err, want)
		}
	}
}
