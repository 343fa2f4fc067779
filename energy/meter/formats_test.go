package meter

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceFormats (fast tier) reads each instrument's export as the
// instrument writes it — excerpts written for these tests in each tool's
// layout (testdata/formats; docs/energy.md says where each layout comes
// from) — detected from its first lines, and checks the energy against
// the waveform's integral worked out by hand in each case.
func TestTraceFormats(t *testing.T) {
	for _, tc := range []struct {
		file, format string
		opt          TraceOptions
		joules       float64
		interval     float64
		digital      string // the channels, comma-separated
		warn         string // a warning that must be there
	}{
		// PPK2, 100 kHz: 1 mA, 5 mA on samples 3–6, at 3 V given by --volts.
		// Trapezoids over the ten 10 µs intervals: (1+1+3+5+5+5+3+1+1+1) mA
		// = 26 mA·10 µs × 3 V = 0.78 µJ.
		{"ppk2-bits.csv", "ppk2", TraceOptions{Volts: 3}, 26e-3 * 1e-5 * 3, 1e-5, "D0,D1,D2,D3,D4,D5,D6,D7", ""},
		{"ppk2-columns.csv", "ppk2", TraceOptions{Volts: 3}, 26e-3 * 1e-5 * 3, 1e-5, "D0,D1,D2,D3,D4,D5,D6,D7", ""},
		// Joulescope UI export at 1 MHz: 1 mA at 3.3 V for 5 µs = 16.5 nJ,
		// with and without its header (named by --meter without it).
		{"joulescope-export.csv", "joulescope", TraceOptions{}, 3.3e-3 * 5e-6, 1e-6, "", ""},
		{"joulescope-noheader.csv", "joulescope", TraceOptions{Format: "joulescope"}, 3.3e-3 * 5e-6, 1e-6, "", ""},
		// Statistics recording: 2 W for 2 s = 4 J, as its energy column says.
		{"joulescope-stats.csv", "joulescope", TraceOptions{}, 4, 0.5, "", ""},
		// PyMonsoon: nine samples of 100 mA at 4 V, timed at 5 kHz by index:
		// 0.4 W × 8 × 200 µs = 0.64 mJ (its time column repeats per packet).
		{"pymonsoon.csv", "pymonsoon", TraceOptions{}, 0.4 * 8 * 200e-6, 200e-6, "", ""},
		// Adafruit INA219 blocks across midnight, Power lines 970…1000 mW
		// every 0.5 s: (0.975 + 0.985 + 0.995) W × 0.5 s = 1.4775 J.
		{"ina219-serial.txt", "ina219-serial", TraceOptions{}, (0.975 + 0.985 + 0.995) * 0.5, 0.5, "", "2 lines that are no INA219 reading skipped"},
		// INA226 demo, 10…50 mW every --sample-interval 1 s: (15 + 25 + 35 + 45) mJ.
		{"ina226-serial.txt", "ina226-serial", TraceOptions{Interval: 1}, 0.120, 1, "", "2 lines that are no reading skipped"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", "formats", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			tr, err := ReadTrace(tc.file, f, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Format != tc.format {
				t.Errorf("read as %q, want %q", tr.Format, tc.format)
			}
			if !near(tr.Energy(), tc.joules, 1e-9*tc.joules) {
				t.Errorf("energy %.12g J, want %.12g J (columns: %s)", tr.Energy(), tc.joules, tr.Columns)
			}
			if !near(tr.SampleInterval, tc.interval, 1e-9*tc.interval) {
				t.Errorf("sample interval %g s, want %g s", tr.SampleInterval, tc.interval)
			}
			if got := strings.Join(tr.Digital, ","); got != tc.digital {
				t.Errorf("digital channels %q, want %q", got, tc.digital)
			}
			if tc.warn != "" && !strings.Contains(strings.Join(tr.Warnings, "; "), tc.warn) {
				t.Errorf("warnings %q lack %q", tr.Warnings, tc.warn)
			}
		})
	}
}

// TestDigitalPhases (fast tier): the PPK2's D0 is high on samples 3–6, so
// one phase from 0.03 ms to the first low sample at 0.07 ms; attributed,
// it holds the 5 mA plateau and the falling edge (the trapezoids inside
// it: 5 + 5 + 5 + 3 mA × 10 µs × 3 V) over the 1 mA idle around it.
func TestDigitalPhases(t *testing.T) {
	for _, file := range []string{"ppk2-bits.csv", "ppk2-columns.csv"} {
		f, err := os.Open(filepath.Join("testdata", "formats", file))
		if err != nil {
			t.Fatal(err)
		}
		tr, err := ReadTrace(file, f, TraceOptions{Volts: 3})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		phases, warns, err := tr.DigitalPhases("d0")
		if err != nil || len(warns) != 0 || len(phases) != 1 {
			t.Fatalf("%s: phases %+v, warnings %v, %v", file, phases, warns, err)
		}
		p := phases[0]
		if !near(p.Start, 0.03e-3, 1e-15) || !near(p.End, 0.07e-3, 1e-15) || p.Line != 5 {
			t.Errorf("%s: phase %+v, want 0.03–0.07 ms from line 5", file, p)
		}
		ats, err := Attribute(tr, phases, AttributeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if want := (5 + 5 + 5 + 3) * 1e-3 * 1e-5 * 3; !near(ats[0].Joules, want, 1e-9*want) {
			t.Errorf("%s: phase energy %g J, want %g", file, ats[0].Joules, want)
		}
		if d2, _, err := tr.DigitalPhases("D2"); err != nil || len(d2) != 1 || !near(d2[0].Start, 0.09e-3, 1e-15) {
			t.Errorf("%s: D2 phases %+v, %v", file, d2, err)
		}
		if _, _, err := tr.DigitalPhases("D9"); err == nil || !strings.Contains(err.Error(), "it has D0, D1") {
			t.Errorf("%s: unknown channel: %v", file, err)
		}
	}
}

// TestTraceFormatErrors (fast tier): what each layout lacks is said with
// what would work; a file that is no known layout names them all.
func TestTraceFormatErrors(t *testing.T) {
	read := func(file string, opt TraceOptions) error {
		f, err := os.Open(filepath.Join("testdata", "formats", file))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		_, err = ReadTrace(file, f, opt)
		return err
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"PPK2 without --volts", read("ppk2-bits.csv", TraceOptions{}), "the Power Profiler app writes no voltage: give --volts"},
		{"INA226 without time", read("ina226-serial.txt", TraceOptions{}), "give --sample-interval"},
		{"headerless Joulescope, undetected", read("joulescope-noheader.csv", TraceOptions{}), "no export layout cryptocost knows (ppk2, joulescope"},
		{"unknown --meter", read("ppk2-bits.csv", TraceOptions{Format: "fluke"}), `unknown trace format "fluke": want one of ppk2`},
		{"unknown layout", func() error {
			_, err := ReadTrace("x.csv", strings.NewReader("Datum;Wert\n1;2\n"), TraceOptions{})
			return err
		}(), "name one with --meter"},
		{"bad PPK2 bits", func() error {
			_, err := ReadTrace("p.csv", strings.NewReader("Timestamp(ms),Current(uA),D0-D7\n0,1,0000\n0.01,1,00000000\n"), TraceOptions{Volts: 3})
			return err
		}(), `digital bits "0000": want 8 characters`},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, tc.err, tc.want)
		}
	}
	// The Power Profiler app's earlier "Bits" column is D0-D7 by another name.
	tr, err := ReadTrace("b.csv", strings.NewReader("Timestamp(ms),Current(uA),Bits\n0.00,10,00000000\n0.01,10,00000001\n0.02,10,00000000\n"), TraceOptions{Volts: 3})
	if err != nil || tr.Format != "ppk2" || len(tr.Digital) != 8 {
		t.Fatalf("Bits column: %v %v", tr, err)
	}
	if ph, _, err := tr.DigitalPhases("D0"); err != nil || len(ph) != 1 || !near(ph[0].Start, 1e-5, 1e-15) {
		t.Errorf("Bits D0 phases %+v %v", ph, err)
	}
	// A comment line that merely starts with "time" is no Joulescope header.
	tr, err = ReadTrace("c.csv", strings.NewReader("# time series of a sensor\ntime (s),power (W)\n0,1\n1,1\n"), TraceOptions{})
	if err != nil || tr.Format != "csv" || !near(tr.Energy(), 1, 1e-12) {
		t.Errorf("commented CSV: %v %v", tr, err)
	}
	// PyMonsoon with dropped samples: the host clock spans far more than
	// the samples at 5 kHz.
	csv := "Time(ms),Main(mA),Main Voltage(V),\n1.0,100,4,\n1.0,100,4,\n2.0,100,4,\n"
	tr, err = ReadTrace("m.csv", strings.NewReader(csv), TraceOptions{})
	if err != nil || !strings.Contains(strings.Join(tr.Warnings, ";"), "samples were dropped") {
		t.Errorf("dropped samples: %v %v", tr, err)
	}
	// A Joulescope statistics file whose energy column disagrees with its
	// power: a warning, the integral kept.
	stats := "#time,current,voltage,power,charge,energy\n0,0.4,5,2,0,0\n1,0.4,5,2,0.4,3\n"
	tr, err = ReadTrace("s.csv", strings.NewReader(stats), TraceOptions{})
	if err != nil || !near(tr.Energy(), 2, 1e-12) || !strings.Contains(strings.Join(tr.Warnings, ";"), "differ by more than 1 %") {
		t.Errorf("energy check: %v %v", tr, err)
	}
}
