package meter

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The three logger styles in testdata hold one waveform (0.4, 0.4, 0.6,
// 0.8, 0.8 W at 1 ms steps): 2.4 mJ by the trapezoidal rule, by hand
// (0.4 + 0.5 + 0.7 + 0.8 W·ms).
func TestReadTraceStyles(t *testing.T) {
	for _, f := range []string{"monsoon.csv", "otii.csv", "ina219.csv"} {
		data, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		tr, err := ReadTrace(f, bytes.NewReader(data), TraceOptions{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !near(tr.Energy(), 2.4e-3, 1e-15) || len(tr.Samples) != 5 {
			t.Errorf("%s: %v J over %d samples, want 2.4 mJ; columns %s", f, tr.Energy(), len(tr.Samples), tr.Columns)
		}
	}
}

// waveform is piecewise linear through its breakpoints (t s, P W); its
// integral is the polygon's area, computed here independently of the
// sampling.
type waveform [][2]float64

func (w waveform) at(t float64) float64 {
	for i := 1; i < len(w); i++ {
		if t <= w[i][0] {
			a, b := w[i-1], w[i]
			return a[1] + (t-a[0])/(b[0]-a[0])*(b[1]-a[1])
		}
	}
	return w[len(w)-1][1]
}

func (w waveform) integral(from, to float64) float64 {
	var e float64
	for i := 1; i < len(w); i++ {
		a, b := math.Max(w[i-1][0], from), math.Min(w[i][0], to)
		if b > a {
			e += (w.at(a) + w.at(b)) / 2 * (b - a)
		}
	}
	return e
}

// csvOf samples w every dt from 0 to end, writing time in timeUnit and
// current in currentUnit at a constant volts (voltage column when
// withVolts), skipping samples inside skip.
func csvOf(w waveform, dt, end float64, timeUnit string, tScale float64, currentUnit string, iScale float64, volts float64, withVolts bool, skip [2]float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "time (%s),current (%s)", timeUnit, currentUnit)
	if withVolts {
		b.WriteString(",voltage (mV)")
	}
	b.WriteString("\n")
	n := int(math.Round(end / dt))
	for k := 0; k <= n; k++ {
		t := float64(k) * dt
		if t > skip[0] && t < skip[1] {
			continue
		}
		fmt.Fprintf(&b, "%.9g,%.12g", t/tScale, w.at(t)/volts/iScale)
		if withVolts {
			fmt.Fprintf(&b, ",%.12g", volts*1000)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// A sensor's day in miniature: idle at 10 mW, three signatures at
// 100 mW with 1 ms ramps; every edge on a sample, so the trapezoidal rule
// is exact and the expected values are the polygon's areas.
var day = waveform{
	{0, 0.010}, {0.100, 0.010}, {0.101, 0.100}, {0.300, 0.100}, {0.301, 0.010},
	{0.500, 0.010}, {0.501, 0.100}, {0.700, 0.100}, {0.701, 0.010},
	{0.900, 0.010}, {0.901, 0.100}, {1.100, 0.100}, {1.101, 0.010}, {1.300, 0.010},
}

// The same waveform in unit variants integrates to the same energy.
func TestTraceUnitVariants(t *testing.T) {
	want := day.integral(0, 1.3)
	for _, v := range []struct {
		name string
		csv  string
		opt  TraceOptions
	}{
		{"s, mA, mV column", csvOf(day, 1e-3, 1.3, "s", 1, "mA", 1e-3, 3.0, true, [2]float64{}), TraceOptions{}},
		{"ms, A, --volts", csvOf(day, 1e-3, 1.3, "ms", 1e-3, "A", 1, 3.0, false, [2]float64{}), TraceOptions{Volts: 3.0}},
		{"us, uA, --volts", csvOf(day, 1e-3, 1.3, "us", 1e-6, "uA", 1e-6, 2.5, false, [2]float64{}), TraceOptions{Volts: 2.5}},
	} {
		tr, err := ReadTrace(v.name, strings.NewReader(v.csv), v.opt)
		if err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		if !near(tr.Energy(), want, 1e-12) {
			t.Errorf("%s: %.12g J, want %.12g J", v.name, tr.Energy(), want)
		}
	}
	// Header without units, units by flag.
	noUnits := strings.Replace(strings.Replace(csvOf(day, 1e-3, 1.3, "s", 1, "mA", 1e-3, 3, false, [2]float64{}), " (s)", "", 1), " (mA)", "", 1)
	if _, err := ReadTrace("n", strings.NewReader(noUnits), TraceOptions{Volts: 3}); err == nil || !strings.Contains(err.Error(), "--time-unit") {
		t.Errorf("no units: %v", err)
	}
	tr, err := ReadTrace("n", strings.NewReader(noUnits), TraceOptions{Volts: 3, TimeUnit: "s", CurrentUnit: "mA"})
	if err != nil || !near(tr.Energy(), want, 1e-12) {
		t.Errorf("units by flag: %v %v", tr, err)
	}
}

// A gap is reported with its interval and line; the energy across it is
// the linear interpolation (exact here: the waveform is flat there).
func TestTraceGap(t *testing.T) {
	csv := csvOf(day, 1e-3, 1.3, "s", 1, "mA", 1e-3, 3, false, [2]float64{0.35, 0.45})
	tr, err := ReadTrace("g.csv", strings.NewReader(csv), TraceOptions{Volts: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Gaps) != 1 || !near(tr.Gaps[0].From, 0.349, 1e-9) || !near(tr.Gaps[0].To, 0.45, 1e-9) {
		t.Fatalf("gaps %+v", tr.Gaps)
	}
	if w := strings.Join(tr.Warnings, "|"); !strings.Contains(w, "between 0.349 s and 0.45 s (line 352)") {
		t.Errorf("gap warning %q", w)
	}
	if !near(tr.Energy(), day.integral(0, 1.3), 1e-12) {
		t.Errorf("energy across a flat gap %v", tr.Energy())
	}
}

func TestTraceErrors(t *testing.T) {
	for _, tc := range []struct{ name, csv, want string }{
		{"non-monotonic", "time (s),current (mA)\n0,1\n0.002,1\n0.001,1\n", "t.csv:4: time 0.001 s is not after the previous sample's 0.002 s (line 3)"},
		{"repeated time", "time (s),power (mW)\n0,1\n0,1\n", "t.csv:3: time 0 s is not after"},
		{"mixed units", "time (s),current (mA)\n0,1\n1,1\ntime (s),current (A)\n2,1\n", "t.csv:4: a second header with other units"},
		{"value with unit", "time (s),power (mW)\n0,1\n1,2mW\n", `t.csv:3: power (mW) "2mW" is not a number`},
		{"no current or power", "time (s),temperature (C)\n0,1\n", "no current or power column"},
		{"current without voltage", "time (s),current (mA)\n0,1\n1,1\n", "--volts"},
		{"unknown unit", "time (s),current (kA)\n0,1\n", `unknown current unit "kA"`},
		{"one sample", "time (s),power (W)\n0,1\n", "at least two"},
		{"empty", "", "empty"},
		{"NaN", "time (s),power (W)\n0,NaN\n1,1\n", "is NaN"},
	} {
		opt := TraceOptions{}
		if tc.name == "non-monotonic" || tc.name == "mixed units" {
			opt.Volts = 3
		}
		_, err := ReadTrace("t.csv", strings.NewReader(tc.csv), opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// A repeated identical header (concatenated logs) is skipped, with a warning.
	tr, err := ReadTrace("t.csv", strings.NewReader("time (s),power (W)\n0,1\n1,1\ntime (s),power (W)\n2,1\n"), TraceOptions{})
	if err != nil || len(tr.Samples) != 3 || !strings.Contains(strings.Join(tr.Warnings, ""), "line 4: the header repeats") {
		t.Errorf("repeated header: %v %v", tr, err)
	}
	if _, err := ReadTrace("t.csv", strings.NewReader("time (s),power (W)\n0,1\n1,1\n2,1\n"), TraceOptions{MaxSamples: 2}); err == nil || !strings.Contains(err.Error(), "more than 2 samples") {
		t.Errorf("sample cap: %v", err)
	}
	huge := "time (s),power (W)\n0,1\n1," + strings.Repeat("1", maxLine+1) + "\n"
	if _, err := ReadTrace("t.csv", strings.NewReader(huge), TraceOptions{}); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("line cap: %v", err)
	}
}

func TestIntegrateWindow(t *testing.T) {
	s := []Sample{{T: 0, Watts: 0}, {T: 2, Watts: 2}, {T: 4, Watts: 2}}
	for _, c := range []struct{ a, b, want float64 }{
		{0, 4, 2 + 4}, {1, 3, 1.5 + 2}, {0.5, 1.5, 1}, {2, 4, 4}, {3, 3.5, 1},
	} {
		got, _, err := IntegrateWindow(s, c.a, c.b)
		if err != nil || !near(got, c.want, 1e-12) {
			t.Errorf("∫[%g,%g] = %v, %v; want %v", c.a, c.b, got, err, c.want)
		}
	}
	if _, _, err := IntegrateWindow(s, -1, 1); err == nil {
		t.Error("window before the samples accepted")
	}
}

// S003 in software: three "sign" phases between markers, each 100 mW over
// an idle of 10 mW, ramps inside the phases. Gross energy of one phase is
// the polygon's area over its markers; net subtracts 10 mW × duration.
func TestAttribute(t *testing.T) {
	tr, err := ReadTrace("day.csv", strings.NewReader(csvOf(day, 1e-3, 1.3, "s", 1, "mA", 1e-3, 3, false, [2]float64{})), TraceOptions{Volts: 3})
	if err != nil {
		t.Fatal(err)
	}
	markers := `{"clock": "test"}
{"t": 0.100, "phase": "sign", "event": "start"}
{"t": 0.301, "phase": "sign", "event": "end"}
{"phase": "sign", "start": 0.500, "end": 0.701}
{"t_ns": 900000000, "phase": "sign", "event": "start"}
{"t_ns": 1101000000, "phase": "sign", "event": "end"}
`
	phases, err := ReadMarkers("m.jsonl", strings.NewReader(markers), 0)
	if err != nil || len(phases) != 3 {
		t.Fatalf("markers: %v %v", phases, err)
	}
	ats, err := Attribute(tr, phases, AttributeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range ats {
		gross := day.integral(a.Start, a.End)
		if !near(a.Joules, gross, 1e-12) || !near(a.BaselineWatts, 0.010, 1e-12) || !near(a.NetJoules, gross-0.010*0.201, 1e-12) {
			t.Errorf("phase %d: gross %v (want %v) baseline %v net %v", i, a.Joules, gross, a.BaselineWatts, a.NetJoules)
		}
		// 0.201 s at 100 mW minus the two ramps' halves: 0.0200 + 2 × (0.001 × 0.045) J.
		if !near(a.Joules, 0.100*0.199+2*0.001*0.055, 1e-12) {
			t.Errorf("phase %d gross %v by hand", i, a.Joules)
		}
		if !near(a.Coulombs, gross/3, 1e-12) {
			t.Errorf("phase %d charge %v", i, a.Coulombs)
		}
	}
	// Markers off the trace's clock are caught, and --offset fixes them.
	late, _ := ReadMarkers("m.jsonl", strings.NewReader(markers), 10)
	if _, err := Attribute(tr, late, AttributeOptions{}); err == nil || !strings.Contains(err.Error(), "--offset") {
		t.Errorf("markers off the trace: %v", err)
	}
	// No idle between phases: refused unless a baseline is given.
	busy := []Phase{{Name: "a", Start: 0, End: 0.65, Line: 1}, {Name: "b", Start: 0.65, End: 1.3, Line: 2}}
	if _, err := Attribute(tr, busy, AttributeOptions{}); err == nil || !strings.Contains(err.Error(), "--baseline-power") {
		t.Errorf("no idle: %v", err)
	}
	if ats, err := Attribute(tr, busy, AttributeOptions{BaselineWatts: 0.01}); err != nil || !near(ats[0].NetJoules, day.integral(0, 0.65)-0.0065, 1e-12) {
		t.Errorf("given baseline: %v %v", ats, err)
	}
	// A phase over a gap is flagged.
	gappy, _ := ReadTrace("g.csv", strings.NewReader(csvOf(day, 1e-3, 1.3, "s", 1, "mA", 1e-3, 3, false, [2]float64{0.55, 0.65})), TraceOptions{Volts: 3})
	ats, _ = Attribute(gappy, phases, AttributeOptions{})
	if len(ats[1].Warnings) == 0 || !strings.Contains(ats[1].Warnings[0], "spans a gap") {
		t.Errorf("gap in a phase: %v", ats[1].Warnings)
	}
}

func TestMarkerErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"unmatched end", `{"t":1,"phase":"a","event":"end"}`, "m:1: phase \"a\" ends but never started"},
		{"never ends", `{"t":1,"phase":"a","event":"start"}`, "m:1: phase \"a\" starts but never ends"},
		{"backwards", "{\"t\":2,\"phase\":\"a\",\"event\":\"start\"}\n{\"t\":1,\"phase\":\"a\",\"event\":\"end\"}", "m:2: phase \"a\" ends (1 s) before it starts"},
		{"overlap", "{\"phase\":\"a\",\"start\":1,\"end\":3}\n{\"phase\":\"b\",\"start\":2,\"end\":4}", "m:2: phase \"b\" (2–4 s) overlaps \"a\""},
		{"bad json", `{"t":1,`, "m:1:"},
		{"unknown field", `{"time":1,"phase":"a","event":"start"}`, `unknown field "time"`},
		{"no time", `{"phase":"a","event":"start"}`, "no time"},
		{"bad event", `{"t":1,"phase":"a","event":"begin"}`, `event "begin"`},
		{"empty", "", "no phases"},
	} {
		_, err := ReadMarkers("m", strings.NewReader(tc.in), 0)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// MarkerWriter's output reads back.
func TestMarkerWriter(t *testing.T) {
	var buf bytes.Buffer
	mw, err := NewMarkerWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	mw.Start("sign")
	mw.End("sign")
	mw.Start("verify")
	mw.End("verify")
	phases, err := ReadMarkers("w", &buf, 0)
	if err != nil || len(phases) != 2 || phases[0].Name != "sign" || phases[1].Start < phases[0].End {
		t.Errorf("written markers: %v %v", phases, err)
	}
}

func FuzzReadTrace(f *testing.F) {
	for _, name := range []string{"monsoon.csv", "otii.csv", "ina219.csv"} {
		data, _ := os.ReadFile(filepath.Join("testdata", name))
		f.Add(data)
	}
	f.Add([]byte("time (s),current (mA),voltage (V)\n0,1,3\n1,2,3\ntime (s),current (A),voltage (V)\n2,1,3\n"))
	f.Add([]byte("t (ms),power (mW)\n0,1\n\n5,2\n1,3\n"))
	// The instruments' own layouts (formats.go), each detected from its
	// first lines.
	formats, _ := filepath.Glob(filepath.Join("testdata", "formats", "*"))
	for _, name := range formats {
		data, _ := os.ReadFile(name)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ReadTrace("fuzz.csv", bytes.NewReader(data), TraceOptions{Volts: 3, MaxSamples: 10000, Interval: 1})
		if err != nil {
			return
		}
		if len(tr.Samples) < 2 {
			t.Fatalf("%d samples accepted", len(tr.Samples))
		}
		for i := 1; i < len(tr.Samples); i++ {
			if !(tr.Samples[i].T > tr.Samples[i-1].T) {
				t.Fatalf("time not increasing at %d", i)
			}
		}
		if e := tr.Energy(); math.IsNaN(e) {
			t.Fatalf("energy NaN")
		}
		if len(tr.Digital) > 0 && len(tr.DigitalStates) != len(tr.Samples) {
			t.Fatalf("%d digital states for %d samples", len(tr.DigitalStates), len(tr.Samples))
		}
		for _, ch := range tr.Digital {
			phases, _, err := tr.DigitalPhases(ch)
			for _, p := range phases {
				if err == nil && !(p.End > p.Start) {
					t.Fatalf("phase %+v", p)
				}
			}
		}
	})
}

func FuzzReadMarkers(f *testing.F) {
	data, _ := os.ReadFile(filepath.Join("testdata", "markers.jsonl"))
	f.Add(data)
	f.Add([]byte("{\"phase\":\"a\",\"start\":1,\"end\":3}\n{\"t_ns\":4000000000,\"phase\":\"b\",\"event\":\"start\"}\n{\"t\":5,\"phase\":\"b\",\"event\":\"end\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		phases, err := ReadMarkers("fuzz", bytes.NewReader(data), 0)
		if err != nil {
			return
		}
		for i, p := range phases {
			if !(p.End > p.Start) || (i > 0 && p.Start < phases[i-1].End) {
				t.Fatalf("accepted a bad phase %+v", p)
			}
		}
	})
}

// TestTraceResult checks energy trace's result for a constant 1 W over
// 2 s. Tier: fast.
func TestTraceResult(t *testing.T) {
	tr := &Trace{File: "t.csv", Columns: "time,power", Samples: []Sample{{T: 0, Watts: 1}, {T: 2, Watts: 1}}}
	r := TraceResult(tr)
	if r.Subject.Name != "trace/t.csv" || len(r.Metrics) < 3 {
		t.Fatalf("got %+v", r)
	}
	if r.Metrics[0].Name != "energy" || r.Metrics[2].Name != "power" {
		t.Errorf("metrics %v, %v", r.Metrics[0].Name, r.Metrics[2].Name)
	}
}
