package mcu

import (
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/catalog"
)

// Tier: fast (no tools).
func TestNewPlan(t *testing.T) {
	p, err := NewPlan(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Targets) != 1 || p.Targets[0].Name != "atmega328p" || len(p.Opts) != 2 {
		t.Errorf("default plan %+v", p)
	}
	for _, k := range p.Kernels {
		if k.Slow {
			t.Errorf("slow kernel %s in the default plan", k.Name)
		}
	}
	p, err = NewPlan(Options{Targets: []string{"cortex-m4", "rv32imac", "cortex-m4"}, Kernels: []string{"rsa2048-*", "aes128"}, Opts: []string{"-O2", "O2"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Targets) != 2 || len(p.Kernels) != 4 || p.Kernels[0].Name != "aes128" || len(p.Opts) != 1 || p.Images() != 8 {
		t.Errorf("named plan: %d targets, %d kernels, first %s, opts %v", len(p.Targets), len(p.Kernels), p.Kernels[0].Name, p.Opts)
	}
	if p, err := NewPlan(Options{Targets: []string{"all"}}); err != nil || len(p.Targets) != len(Targets()) {
		t.Errorf("--target all: %v, %v", p, err)
	}
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Targets: []string{"atmega2561"}}, `unknown target "atmega2561": want one of atmega328p, atmega2560, cortex-m0`},
		{Options{Kernels: []string{"aes129"}}, `did you mean aes128?`},
		{Options{Kernels: []string{"[x"}}, "bad --kernel pattern"},
		{Options{Opts: []string{"O9"}}, `unknown --opt "O9"`},
		{Options{MaxInputs: -1}, `--inputs -1`},
	} {
		if _, err := NewPlan(c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewPlan(%+v) = %v, want an error with %q", c.o, err, c.want)
		}
	}
}

// TestTargetsAreValid: every target file parses, every number has a unit
// and a source, and the registry has the parts both MCU issues need.
// Tier: fast.
func TestTargetsAreValid(t *testing.T) {
	names := map[string]Target{}
	for _, tg := range Targets() {
		names[tg.Name] = tg
		for _, q := range []catalog.Quantity{tg.Clock, tg.Flash, tg.SRAM} {
			if q.Source == "" || q.Value <= 0 {
				t.Errorf("%s: %v", tg.Name, q)
			}
		}
		if !tg.IsAVR() && tg.Proxy == "" {
			t.Errorf("%s: an emulated board must say how it stands for the part", tg.Name)
		}
		if len(Packages(tg)) < 4 {
			t.Errorf("%s: packages %v", tg.Name, Packages(tg))
		}
	}
	for _, want := range []string{"atmega328p", "atmega2560", "cortex-m0", "cortex-m3", "cortex-m4", "cortex-m7", "rv32imac"} {
		if _, ok := names[want]; !ok {
			t.Errorf("no target %s", want)
		}
	}
	m4 := names["cortex-m4"]
	if m4.TicksPerUnit() != 3.2 || m4.Simulator.CycleRule != "cortex-m4" || m4.Device != "nrf52840" || m4.ClockHz() != 64e6 {
		t.Errorf("cortex-m4: %g ticks per instruction, rule %q, device %q, %g Hz", m4.TicksPerUnit(), m4.Simulator.CycleRule, m4.Device, m4.ClockHz())
	}
	if mega := names["atmega2560"]; mega.SRAMBytes() != 8192 || mega.FlashBytes() != 256<<10 || !mega.CountsCycles() {
		t.Errorf("atmega2560: %+v", mega)
	}
	if rv := names["rv32imac"]; rv.TicksPerUnit() != 1 || rv.CountsCycles() {
		t.Errorf("rv32imac counts %q at %g ticks per instruction", rv.Unit(), rv.TicksPerUnit())
	}
}

// TestTargetFileErrors: a bad target file says which field and line.
// Tier: fast.
func TestTargetFileErrors(t *testing.T) {
	good, err := targetFiles.ReadFile("targets/cortex-m4.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ edit, with, want string }{
		{"name: cortex-m4", "name: m4", `name: "m4", want the file's name "cortex-m4"`},
		{`clock: "64 MHz [nRF52840 Product Specification v1.7, key features: 64 MHz Arm Cortex-M4F]"`, `clock: "64 MHz"`, "clock: no source"},
		{"icount_shift: 7", "icount_shift: 5", "icount_shift: 5 gives 0.8 ticks per instruction"},
		{"cycle_rule: cortex-m4", "cycle_rule: cortex-a53", `unknown rule "cortex-a53"`},
		{"name: qemu-system-arm", "name: qemu-system-arm64", `unknown simulator "qemu-system-arm64"`},
		{"platform: arm", "platform: mips", "no kernels/platform_mips.c"},
	} {
		data := strings.Replace(string(good), c.edit, c.with, 1)
		if data == string(good) {
			t.Fatalf("%q not in the file", c.edit)
		}
		if _, err := parseTarget("targets/cortex-m4.yaml", []byte(data)); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "cortex-m4.yaml:") {
			t.Errorf("%s → %v, want %q with the file and line", c.with, err, c.want)
		}
	}
}

// Tier: fast.
func TestComparableRSA(t *testing.T) {
	for name, want := range map[string]int{"aes128": 3072, "present80": 1024, "chacha20": 15360, "rsa1024-crt": 1024, "rsa512-sm-sram": 512} {
		k, ok := KernelByName(name)
		if !ok || k.ComparableRSABits() != want {
			t.Errorf("%s: comparable RSA %d, want %d", name, k.ComparableRSABits(), want)
		}
	}
}

// TestEveryKernelHasItsFiles: each registry entry names sources and a bench
// file that exist, and every bench file is some kernel's. Tier: fast.
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
