package meter

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Trace is a power waveform imported from an external meter's CSV log.
type Trace struct {
	File    string
	Samples []Sample
	// Columns says which column was read as what, in which unit.
	Columns string
	// Gaps are intervals much longer than the usual sample interval; the
	// energy across them is interpolated linearly (a warning names each).
	Gaps     []Gap
	Warnings []string
	// Format is the export layout the trace was read as (TraceFormats).
	Format string
	// SampleInterval is the median time between samples (seconds): the
	// instrument's sample period as the file shows it.
	SampleInterval float64
	// Digital names the digital channels the file carries (PPK2's D0–D7,
	// Joulescope's in0/in1), and DigitalStates holds, per sample, bit i =
	// channel i's level (DigitalPhases turns them into phases).
	Digital       []string
	DigitalStates []uint16
	// lines maps sample i to its line in the file.
	lines []int
	// energyColumn is the file's own accumulated energy per sample (J),
	// when it has one.
	energyColumn []float64
}

// TraceOptions override what the header says or lacks.
type TraceOptions struct {
	// Units for the time, current, voltage and power columns ("s", "ms",
	// "mA", "uA", "V", "mW", ...), overriding the header's.
	TimeUnit, CurrentUnit, VoltageUnit, PowerUnit string
	// Volts is a constant supply voltage for a trace with current but no
	// voltage column.
	Volts float64
	// MaxGap is the longest interval between samples not reported as a
	// gap, in seconds (0: ten times the median interval).
	MaxGap float64
	// MaxSamples caps the samples read (0: 20 million), so a hostile or
	// mistaken input cannot exhaust memory.
	MaxSamples int
	// Format names the export layout (TraceFormats: "ppk2", "joulescope",
	// ...); empty detects it from the file's first lines.
	Format string
	// Interval is the time between samples (seconds) for loggers that
	// write no time (INA226 sketches printing every delay(1000) ms).
	Interval float64
	// SampleRate overrides a format's nominal sample rate (Hz) where the
	// time comes from the sample index (PyMonsoon: 5 kHz).
	SampleRate float64
}

// The units a column may have, in its base unit (s, A, V, W).
var (
	timeUnits    = map[string]float64{"s": 1, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}
	currentUnits = map[string]float64{"a": 1, "ma": 1e-3, "ua": 1e-6, "µa": 1e-6, "na": 1e-9}
	voltageUnits = map[string]float64{"v": 1, "mv": 1e-3}
	powerUnits   = map[string]float64{"w": 1, "mw": 1e-3, "uw": 1e-6, "µw": 1e-6}
	// unitInHeader finds "(mA)", "[mA]" or a trailing "_mA" / " mA".
	unitInHeader = regexp.MustCompile(`[\(\[]\s*([a-zA-Zµ]+)\s*[\)\]]|[_ ]([a-zA-Zµ]+)\s*$`)
)

type column struct {
	index int
	name  string
	unit  string
	scale float64
}

type layout struct {
	time, current, voltage, power *column
	// energy is an accumulated-energy column (J) checked against the
	// integral (Joulescope's statistics export), nil if none.
	energy  *column
	digital []digitalColumn
}

// digitalColumn is a column of digital levels: one channel ("D3", "in0")
// or, as PPK2's "D0-D7" column, eight written as a bit string.
type digitalColumn struct {
	index int
	// first is the channel number of the first (bits == 1) or of D0.
	first, bits int
}

// dialect is what an export format tells the CSV reader that its header
// does not (formats.go).
type dialect struct {
	// headerInComment: the header is the first line, written as a '#'
	// comment (Joulescope).
	headerInComment bool
	// header is used when the file has none (Joulescope without "add
	// header").
	header []string
	// units are the units of header names that carry none, by role
	// ("time": "s"): Joulescope's statistics export is in SI units.
	units map[string]string
	// period, if set, replaces the time column: sample i is at i·period
	// seconds, and the time column is the host's clock, only checked
	// (PyMonsoon).
	period float64
	// hostTimeScale converts the ignored time column to seconds.
	hostTimeScale float64
	// noVoltage replaces the error for a current trace without voltage.
	noVoltage string
}

// digitalName matches a digital channel's column: PPK2's "D0"…"D7" and
// "D0-D7", Joulescope's "in0"/"in1".
var digitalName = regexp.MustCompile(`^(?i)(?:d([0-7])(?:-d([0-7]))?|in([0-9]))$`)

// classify maps a header to column roles. Monsoon PowerTool exports
// "Time(s),Main(mA),Main Voltage(V)"; Otii "Timestamp (s),Main current (A)";
// INA219 sketches "time_ms,bus_voltage_V,shunt_voltage_mV,current_mA,power_mW".
func classify(header []string, opt TraceOptions, d *dialect) (layout, []string, error) {
	var l layout
	var notes []string
	for i, h := range header {
		name := strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		low := strings.ToLower(name)
		if name == "" {
			continue // a trailing comma (PyMonsoon ends every line with one)
		}
		if low == "bits" {
			// The Power Profiler app's earlier name for its D0-D7 column.
			l.digital = append(l.digital, digitalColumn{index: i, first: 0, bits: 8})
			continue
		}
		if m := digitalName.FindStringSubmatch(name); m != nil {
			dc := digitalColumn{index: i, bits: 1}
			switch {
			case m[2] != "": // "D0-D7"
				lo, _ := strconv.Atoi(m[1])
				hi, _ := strconv.Atoi(m[2])
				dc.first, dc.bits = lo, hi-lo+1
			case m[1] != "":
				dc.first, _ = strconv.Atoi(m[1])
			default:
				dc.first, _ = strconv.Atoi(m[3])
			}
			l.digital = append(l.digital, dc)
			continue
		}
		unit := ""
		if m := unitInHeader.FindStringSubmatch(name); m != nil {
			unit = m[1] + m[2]
		}
		var role **column
		var units map[string]float64
		var override string
		switch {
		case d != nil && d.units != nil && (low == "energy" || strings.HasPrefix(low, "energy ")):
			role, units = &l.energy, map[string]float64{"j": 1}
			if unit == "" {
				unit = d.units["energy"]
			}
		case strings.Contains(low, "shunt"):
			notes = append(notes, fmt.Sprintf("column %q ignored (a shunt voltage: the current column is used)", name))
			continue
		case strings.Contains(low, "time") || low == "t" || strings.HasPrefix(low, "t_") || strings.HasPrefix(low, "t("):
			role, units, override = &l.time, timeUnits, opt.TimeUnit
		case strings.Contains(low, "volt"):
			role, units, override = &l.voltage, voltageUnits, opt.VoltageUnit
		case strings.Contains(low, "power"):
			role, units, override = &l.power, powerUnits, opt.PowerUnit
		case strings.Contains(low, "current") || strings.HasPrefix(low, "main") || low == "i" || strings.HasPrefix(low, "i_") || strings.HasPrefix(low, "i("):
			role, units, override = &l.current, currentUnits, opt.CurrentUnit
		default:
			notes = append(notes, fmt.Sprintf("column %q ignored (not time, current, voltage or power)", name))
			continue
		}
		if *role != nil {
			notes = append(notes, fmt.Sprintf("column %q ignored (the first %s column, %q, is used)", name, roleName(role, &l), (*role).name))
			continue
		}
		if override != "" {
			unit = override
		}
		if unit == "" && d != nil && d.units != nil {
			unit = d.units[roleName(role, &l)]
		}
		if unit == "" {
			return l, nil, fmt.Errorf("column %q has no unit: name it in the header (%q) or give --%s-unit", name, name+" ("+exampleUnit(role, &l)+")", roleName(role, &l))
		}
		scale, ok := units[strings.ToLower(unit)]
		if !ok {
			var want []string
			for u := range units {
				want = append(want, u)
			}
			return l, nil, fmt.Errorf("column %q: unknown %s unit %q (want one of %s)", name, roleName(role, &l), unit, strings.Join(sortedStrings(want), ", "))
		}
		*role = &column{index: i, name: name, unit: unit, scale: scale}
	}
	switch {
	case l.time == nil:
		return l, nil, fmt.Errorf("no time column in header %q: name one \"time (s)\"", strings.Join(header, ","))
	case l.power == nil && l.current == nil:
		return l, nil, fmt.Errorf("no current or power column in header %q: want \"current (mA)\" (with a voltage column or --volts) or \"power (mW)\"", strings.Join(header, ","))
	case l.power == nil && l.voltage == nil && opt.Volts <= 0:
		if d != nil && d.noVoltage != "" {
			return l, nil, fmt.Errorf("a current column (%q) but no voltage: %s", l.current.name, d.noVoltage)
		}
		return l, nil, fmt.Errorf("a current column (%q) but no voltage: add a voltage column or give --volts, the supply voltage", l.current.name)
	}
	return l, notes, nil
}

func roleName(role **column, l *layout) string {
	switch role {
	case &l.time:
		return "time"
	case &l.current:
		return "current"
	case &l.voltage:
		return "voltage"
	case &l.energy:
		return "energy"
	}
	return "power"
}

func exampleUnit(role **column, l *layout) string {
	return map[string]string{"time": "s", "current": "mA", "voltage": "V", "power": "mW"}[roleName(role, l)]
}

func sortedStrings(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

// readCSV reads a CSV trace: a header naming a time column and a
// current (with a voltage column or opt.Volts) or power column, each with
// its unit, then one sample per line. Lines starting with '#' are
// comments. Time must increase strictly; a repeated header with other
// units (concatenated logs) is an error; gaps are warnings. d says what a
// format's header does not (nil: the header says everything).
func readCSV(name string, r io.Reader, opt TraceOptions, d *dialect) (*Trace, error) {
	if opt.MaxSamples <= 0 {
		opt.MaxSamples = 20_000_000
	}
	br := bufio.NewReaderSize(&lineLimit{r: r, max: maxLine}, 1<<16)
	if d != nil && d.headerInComment {
		// The header is the first line behind a '#': drop the '#' so the
		// CSV reader sees it, later comment lines stay comments.
		if b, err := br.Peek(1); err == nil && b[0] == '#' {
			br.ReadByte()
		}
	}
	cr := csv.NewReader(br)
	cr.Comment = '#'
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	t := &Trace{File: name}
	var header []string
	if d != nil && d.header != nil {
		header = d.header
	} else {
		h, err := cr.Read()
		if err == io.EOF {
			return nil, fmt.Errorf("%s: empty: a trace needs a header and samples", name)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		header = append([]string(nil), h...)
	}
	l, notes, err := classify(header, opt, d)
	if err != nil {
		return nil, fmt.Errorf("%s:1: %w", name, err)
	}
	for _, dc := range l.digital {
		for b := range dc.bits {
			prefix := "D"
			if strings.HasPrefix(strings.ToLower(header[dc.index]), "in") {
				prefix = "in"
			}
			t.Digital = append(t.Digital, fmt.Sprintf("%s%d", prefix, dc.first+b))
		}
	}
	if len(t.Digital) > 0 {
		t.Columns += "; digital " + strings.Join(t.Digital, ", ")
	}
	period := 0.0
	if d != nil {
		period = d.period
	}
	hostFirst, hostLast := math.NaN(), math.NaN()
	t.Warnings = append(t.Warnings, notes...)
	cols := describeLayout(l, opt)
	t.Columns = cols
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("%s:%d: %v", name, pe.Line, pe.Err)
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if l.time.index >= len(rec) {
			return nil, fmt.Errorf("%s:%d: %d fields, but the header puts time in field %d", name, line, len(rec), l.time.index+1)
		}
		if !looksNumeric(rec[l.time.index]) {
			// A header again: concatenated logs. Same units: skip it; other
			// units: the samples after it would be misread.
			again, _, err := classify(rec, opt, d)
			if err == nil && describeLayout(again, opt) == cols {
				t.Warnings = append(t.Warnings, fmt.Sprintf("line %d: the header repeats (concatenated logs?); skipped", line))
				continue
			}
			if err == nil {
				return nil, fmt.Errorf("%s:%d: a second header with other units (%s, after %s): mixed units in one trace; split the file", name, line, describeLayout(again, opt), cols)
			}
			return nil, fmt.Errorf("%s:%d: time %q is not a number", name, line, rec[l.time.index])
		}
		s, err := parseSample(rec, l, opt)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		if period > 0 {
			// The time column is the host's clock: keep its ends to check
			// the sample count against, and time the samples by index.
			host := s.T / l.time.scale * d.hostTimeScale
			if math.IsNaN(hostFirst) {
				hostFirst = host
			}
			hostLast = host
			s.T = float64(len(t.Samples)) * period
		}
		if len(l.digital) > 0 {
			st, err := parseDigital(rec, l.digital)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, line, err)
			}
			t.DigitalStates = append(t.DigitalStates, st)
		}
		if l.energy != nil {
			if l.energy.index >= len(rec) {
				return nil, fmt.Errorf("%s:%d: no value for column %q", name, line, l.energy.name)
			}
			e, err := strconv.ParseFloat(strings.TrimSpace(rec[l.energy.index]), 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %s %q is not a number", name, line, l.energy.name, rec[l.energy.index])
			}
			t.energyColumn = append(t.energyColumn, e*l.energy.scale)
		}
		if n := len(t.Samples); n > 0 && !(s.T > t.Samples[n-1].T) {
			return nil, fmt.Errorf("%s:%d: time %.9g s is not after the previous sample's %.9g s (line %d): a trace's time must increase; sort it, or split logs that restart their clock",
				name, line, s.T, t.Samples[n-1].T, t.lines[n-1])
		}
		if len(t.Samples) >= opt.MaxSamples {
			return nil, fmt.Errorf("%s:%d: more than %d samples: cut the trace to the measured interval", name, line, opt.MaxSamples)
		}
		t.Samples = append(t.Samples, s)
		t.lines = append(t.lines, line)
	}
	if err := t.finish(opt); err != nil {
		return nil, err
	}
	if period > 0 {
		nominal := t.Samples[len(t.Samples)-1].T
		host := hostLast - hostFirst
		t.Columns += fmt.Sprintf("; sample i at i × %g s (the file's time column is the host's clock per USB packet: %.6g s over the same samples)", period, host)
		// The host stamps each USB packet as it arrives, so its span may
		// exceed the samples' by a packet or two; much more means samples
		// were dropped and the index clock runs short.
		if host > nominal*1.05+0.05 {
			t.Warnings = append(t.Warnings, fmt.Sprintf("the host clock spans %.6g s but %d samples at %g Hz span %.6g s: samples were dropped (or --sample-rate is not the instrument's); the energy covers the samples kept",
				host, len(t.Samples), 1/period, nominal))
		}
	}
	if l.energy != nil && len(t.energyColumn) == len(t.Samples) {
		// The instrument's own accumulated energy against our integral.
		theirs := t.energyColumn[len(t.energyColumn)-1] - t.energyColumn[0]
		ours := t.Energy()
		t.Columns += fmt.Sprintf("; the file's own accumulated energy %q: %.6g J over the samples, the integral %.6g J", l.energy.name, theirs, ours)
		if math.Abs(theirs-ours) > 0.01*math.Abs(theirs)+1e-12 {
			t.Warnings = append(t.Warnings, fmt.Sprintf("the instrument's accumulated energy (%.6g J) and the integral of its samples (%.6g J) differ by more than 1 %%: its rows are averages over windows the integral cannot see", theirs, ours))
		}
	}
	return t, nil
}

// finish checks the sample count, the sample interval and the gaps.
func (t *Trace) finish(opt TraceOptions) error {
	if len(t.Samples) < 2 {
		return fmt.Errorf("%s: %d samples: a trace needs at least two", t.File, len(t.Samples))
	}
	t.SampleInterval = medianInterval(t.Samples)
	t.Gaps = findGaps(t.Samples, opt.MaxGap, t.lines)
	for _, g := range t.Gaps {
		t.Warnings = append(t.Warnings, "gap: "+g.String()+"; the energy across it is interpolated linearly")
	}
	return nil
}

// medianInterval is the median time between consecutive samples.
func medianInterval(s []Sample) float64 {
	d := make([]float64, 0, len(s)-1)
	for i := 1; i < len(s); i++ {
		d = append(d, s[i].T-s[i-1].T)
	}
	sort.Float64s(d)
	return d[len(d)/2]
}

// parseDigital reads the digital columns of one row into a bit set.
func parseDigital(rec []string, cols []digitalColumn) (uint16, error) {
	var st uint16
	bit := 0
	for _, dc := range cols {
		if dc.index >= len(rec) {
			return 0, fmt.Errorf("no value for digital column %d", dc.index+1)
		}
		v := strings.TrimSpace(rec[dc.index])
		if dc.bits == 1 {
			switch v {
			case "0":
			case "1":
				st |= 1 << bit
			default:
				return 0, fmt.Errorf("digital level %q: want 0 or 1", v)
			}
			bit++
			continue
		}
		// PPK2's "D0-D7": the byte in binary as the Power Profiler app
		// writes it (toString(2).padStart(8, '0')), most significant bit
		// first, so the last character is D0.
		if len(v) != dc.bits {
			return 0, fmt.Errorf("digital bits %q: want %d characters of 0 and 1 (D%d…D%d, the last is D%d)", v, dc.bits, dc.first+dc.bits-1, dc.first, dc.first)
		}
		for k := range dc.bits {
			switch v[dc.bits-1-k] {
			case '0':
			case '1':
				st |= 1 << (bit + k)
			default:
				return 0, fmt.Errorf("digital bits %q: want only 0 and 1", v)
			}
		}
		bit += dc.bits
	}
	return st, nil
}

func describeLayout(l layout, opt TraceOptions) string {
	parts := []string{fmt.Sprintf("time %q in %s", l.time.name, l.time.unit)}
	if l.power != nil {
		parts = append(parts, fmt.Sprintf("power %q in %s", l.power.name, l.power.unit))
	} else {
		parts = append(parts, fmt.Sprintf("current %q in %s", l.current.name, l.current.unit))
		if l.voltage != nil {
			parts = append(parts, fmt.Sprintf("voltage %q in %s", l.voltage.name, l.voltage.unit))
		} else {
			parts = append(parts, fmt.Sprintf("a constant %g V (--volts)", opt.Volts))
		}
	}
	return strings.Join(parts, ", ")
}

func looksNumeric(s string) bool {
	_, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return err == nil
}

func parseSample(rec []string, l layout, opt TraceOptions) (Sample, error) {
	get := func(c *column) (float64, error) {
		if c.index >= len(rec) {
			return 0, fmt.Errorf("no value for column %q", c.name)
		}
		raw := strings.TrimSpace(rec[c.index])
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return 0, fmt.Errorf("%s %q is not a number (units belong in the header, once)", c.name, raw)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%s is %v", c.name, v)
		}
		return v * c.scale, nil
	}
	s := Sample{Amps: math.NaN(), Volts: math.NaN()}
	var err error
	if s.T, err = get(l.time); err != nil {
		return s, err
	}
	if l.current != nil {
		if s.Amps, err = get(l.current); err != nil {
			return s, err
		}
	}
	if l.voltage != nil {
		if s.Volts, err = get(l.voltage); err != nil {
			return s, err
		}
	} else if opt.Volts > 0 {
		s.Volts = opt.Volts
	}
	if l.power != nil {
		if s.Watts, err = get(l.power); err != nil {
			return s, err
		}
	} else {
		s.Watts = s.Volts * s.Amps
	}
	return s, nil
}

// Span is the trace's first and last time.
func (t *Trace) Span() (from, to float64) { return t.Samples[0].T, t.Samples[len(t.Samples)-1].T }

// Energy integrates the whole trace.
func (t *Trace) Energy() float64 { return Integrate(t.Samples) }

// GapsIn lists the gaps overlapping [a, b].
func (t *Trace) GapsIn(a, b float64) []Gap {
	var out []Gap
	for _, g := range t.Gaps {
		if g.To > a && g.From < b {
			out = append(out, g)
		}
	}
	return out
}

// maxLine bounds a trace's line: a meter writes tens of bytes per sample,
// and a file without newlines must not be read into memory whole.
const maxLine = 64 << 10

// lineLimit fails a read once a line exceeds max bytes.
type lineLimit struct {
	r   io.Reader
	max int
	n   int // bytes since the last newline
}

func (l *lineLimit) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for _, b := range p[:n] {
		if b == '\n' {
			l.n = 0
			continue
		}
		if l.n++; l.n > l.max {
			return 0, fmt.Errorf("a line longer than %d bytes: not a meter's CSV trace", l.max)
		}
	}
	return n, err
}
