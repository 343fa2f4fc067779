package mcu

import (
	"strings"
	"testing"
)

func TestNewPlan(t *testing.T) {
	p, err := NewPlan(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Target.Name != "atmega328p" || len(p.Opts) != 2 {
		t.Errorf("default plan %+v", p)
	}
	for _, k := range p.Kernels {
		if k.Slow {
			t.Errorf("slow kernel %s in the default plan", k.Name)
		}
	}
	p, err = NewPlan(Options{Kernels: []string{"rsa2048-*", "aes128"}, Opts: []string{"-O2", "O2"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Kernels) != 4 || p.Kernels[0].Name != "aes128" || len(p.Opts) != 1 {
		t.Errorf("named plan: %d kernels, first %s, opts %v", len(p.Kernels), p.Kernels[0].Name, p.Opts)
	}
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Target: "atmega2560"}, `unknown target "atmega2560": want one of atmega328p`},
		{Options{Kernels: []string{"aes129"}}, `did you mean aes128?`},
		{Options{Kernels: []string{"[x"}}, "bad --kernel pattern"},
		{Options{Opts: []string{"O9"}}, `unknown --opt "O9"`},
	} {
		if _, err := NewPlan(c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewPlan(%+v) = %v, want an error with %q", c.o, err, c.want)
		}
	}
}

func TestComparableRSA(t *testing.T) {
	for name, want := range map[string]int{"aes128": 3072, "present80": 1024, "chacha20": 15360, "rsa1024-crt": 1024, "rsa512-sm-sram": 512} {
		k, ok := KernelByName(name)
		if !ok || k.ComparableRSABits() != want {
			t.Errorf("%s: comparable RSA %d, want %d", name, k.ComparableRSABits(), want)
		}
	}
}

// TestEveryKernelHasItsFiles: each registry entry names sources and a bench
// file that exist, and every bench file is some kernel's.
func TestEveryKernelHasItsFiles(t *testing.T) {
	for _, k := range Kernels() {
		for _, f := range append(k.Sources, k.Bench) {
			if _, err := kernelSources.ReadFile("kernels/" + f); err != nil {
				t.Errorf("kernel %s: %v", k.Name, err)
			}
		}
		if k.Verified == "" || k.Family == "" || k.Label == "" {
			t.Errorf("kernel %s lacks a description", k.Name)
		}
	}
}
