package mcu

import (
	"os"
	"strings"
	"testing"
)

func readMap(t testing.TB) *LinkMap {
	t.Helper()
	f, err := os.Open("testdata/aes128-Os.map")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := ParseLinkMap(f)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestLinkMapTotals: the input sections add up to the output sections, and
// those are what avr-size -A printed for the same image (5662, 0, 340).
func TestLinkMapTotals(t *testing.T) {
	m := readMap(t)
	want := map[string]int{".text": 5662, ".data": 0, ".bss": 340}
	for sec, n := range want {
		if m.Outputs[sec] != n {
			t.Errorf("%s is %d B, avr-size says %d", sec, m.Outputs[sec], n)
		}
		sum := 0
		for _, in := range m.Inputs {
			if in.Output == sec {
				sum += in.Size
			}
		}
		if sum != n {
			t.Errorf("%s: input sections add up to %d, the section is %d", sec, sum, n)
		}
	}
}

// TestAttribute: the kernel's own objects and the library members they
// pulled in count; what the harness pulled in and startup code do not.
func TestAttribute(t *testing.T) {
	m := readMap(t)
	own := m.Attribute([]string{"aes.c.o"})
	if !own["aes.c.o"] || own["harness.c.o"] || own["aes_bench.c.o"] || own["libgcc.a(_udivmodsi4.o)"] {
		t.Errorf("attributed %v", own)
	}
	// aes.c: 1 KiB of S-boxes plus code (the sum of its .text.* sections
	// in the map, counted by hand: 2314).
	if got := m.Sum(".text", own); got != 2314 {
		t.Errorf("AES .text = %d, want 2314", got)
	}
	synthetic := &LinkMap{PulledBy: map[string]string{
		"libgcc.a(_mulsi3.o)":     "k.c.o",
		"libgcc.a(_umulhisi3.o)":  "libgcc.a(_mulsi3.o)",
		"libgcc.a(_clear_bss.o)":  "k.c.o",
		"libc.a(memcpy_P.o)":      "bench.c.o",
		"libgcc.a(_udivmodhi4.o)": "harness.c.o",
	}}
	got := synthetic.Attribute([]string{"k.c.o"})
	for f, want := range map[string]bool{"k.c.o": true, "libgcc.a(_mulsi3.o)": true, "libgcc.a(_umulhisi3.o)": true,
		"libgcc.a(_clear_bss.o)": false, "libc.a(memcpy_P.o)": false, "libgcc.a(_udivmodhi4.o)": false} {
		if got[f] != want {
			t.Errorf("%s attributed = %v, want %v", f, got[f], want)
		}
	}
}

func TestParseLinkMapRejectsOtherFiles(t *testing.T) {
	for _, text := range []string{"", "hello\n", "Linker script and memory map\n\n"} {
		if _, err := ParseLinkMap(strings.NewReader(text)); err == nil {
			t.Errorf("%q accepted as a map file", text)
		}
	}
}

func FuzzParseLinkMap(f *testing.F) {
	data, err := os.ReadFile("testdata/aes128-Os.map")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(data))
	f.Add("Linker script and memory map\n.text 0x0 0x10\n .text.f\n 0x0 0x10 a.o\n")
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseLinkMap(strings.NewReader(text))
		if err != nil {
			return
		}
		for _, in := range m.Inputs {
			if in.Size < 0 || !mapOutputs[in.Output] {
				t.Fatalf("bad input section %+v", in)
			}
		}
		m.Attribute([]string{"a.o"})
	})
}
