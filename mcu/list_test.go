package mcu

import (
	"bytes"
	"strings"
	"testing"
)

// TestQuickKernels are symmetric-key kernels only. Tier: fast.
func TestQuickKernels(t *testing.T) {
	names := QuickKernels()
	if len(names) == 0 {
		t.Fatal("no quick kernels")
	}
	for _, n := range names {
		k, ok := KernelByName(n)
		if !ok {
			t.Fatalf("%s: no such kernel", n)
		}
		switch k.Family {
		case "block", "stream", "aead", "hash", "mac":
		default:
			t.Errorf("%s: family %s is not quick", n, k.Family)
		}
	}
}

// TestFastKernels leaves out a study's slow kernels. Tier: fast.
func TestFastKernels(t *testing.T) {
	for _, name := range ReferenceNames() {
		ref, err := ReferenceByName(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range ref.FastKernels() {
			if k, _ := KernelByName(n); k.Slow {
				t.Errorf("%s: slow kernel %s", name, n)
			}
		}
	}
}

// TestWriteLists writes a line per target and per kernel. Tier: fast.
func TestWriteLists(t *testing.T) {
	var b bytes.Buffer
	if err := WriteTargets(&b); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(b.String(), "\n"); got != len(Targets())+1 {
		t.Errorf("targets: %d lines, want %d", got, len(Targets())+1)
	}
	b.Reset()
	if err := WriteKernels(&b); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(b.String(), "\n"); got != len(Kernels())+1 {
		t.Errorf("kernels: %d lines, want %d", got, len(Kernels())+1)
	}
}
