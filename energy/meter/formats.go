package meter

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/cryptocost/cryptocost/internal/registry"
)

// TraceFormat is one instrument's export layout: how to recognise it from
// the file's first lines and how to read it. Each format is a value in the
// registry below, looked up by name (--meter) or detected; the layouts
// and their sources are in docs/energy.md.
type TraceFormat struct {
	Name        string
	Aliases     []string
	Description string
	// Source says where the layout was taken from (the tool's export
	// code, its documentation), or that it is unverified.
	Source string
	// sniff reports whether the file's first lines (without line ends)
	// are this format's; nil: never detected, only named.
	sniff func(head []string) bool
	read  func(name string, r io.Reader, opt TraceOptions) (*Trace, error)
}

// traceFormats is the registry of export layouts (internal/registry),
// in detection order.
var traceFormats = registry.New[*TraceFormat]("trace format")

func registerTraceFormat(f *TraceFormat) { traceFormats.MustAdd(f.Name, f, f.Aliases...) }

// TraceFormats lists the export layouts, detected in this order.
func TraceFormats() []*TraceFormat { return traceFormats.Values() }

// LookupTraceFormat finds a layout by name or alias (case and punctuation
// ignored).
func LookupTraceFormat(name string) (*TraceFormat, error) { return traceFormats.Get(name) }

// TraceFormatNames are the trace export layouts' names, in their order.
func TraceFormatNames() []string { return traceFormats.Names() }

// sniffBytes is how much of a file detection reads.
const sniffBytes = 16 << 10

// ReadTrace reads a meter's export: the layout opt.Format names, or the
// one its first lines show (TraceFormats, in order), or a CSV whose header
// names its time and current or power columns with units. A file that is
// none of these is refused with what it looked like and what would work.
func ReadTrace(name string, r io.Reader, opt TraceOptions) (*Trace, error) {
	if opt.Format != "" {
		f, err := LookupTraceFormat(opt.Format)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		t, err := f.read(name, r, opt)
		if t != nil {
			t.Format = f.Name
		}
		return t, err
	}
	br := bufio.NewReaderSize(r, sniffBytes)
	peek, _ := br.Peek(sniffBytes)
	head := firstLines(peek, 40)
	for _, f := range traceFormats.Values() {
		if f.sniff != nil && f.sniff(head) {
			t, err := f.read(name, br, opt)
			if err != nil {
				return nil, fmt.Errorf("%w (read as %s, detected from its first lines; --meter names another layout)", err, f.Name)
			}
			t.Format = f.Name
			return t, nil
		}
	}
	t, err := readCSV(name, br, opt, nil)
	if err != nil {
		if len(head) > 0 && strings.Contains(err.Error(), ":1: ") {
			return nil, fmt.Errorf("%w; the first line %q is no export layout cryptocost knows (%s): name one with --meter, or write a header naming time and current or power columns with units",
				err, clip(head[0], 80), strings.Join(TraceFormatNames(), ", "))
		}
		return nil, err
	}
	t.Format = "csv"
	return t, nil
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// firstLines splits the start of a file into at most n lines, without
// their ends and a byte-order mark.
func firstLines(b []byte, n int) []string {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	var out []string
	for len(b) > 0 && len(out) < n {
		line, rest, found := bytes.Cut(b, []byte("\n"))
		if !found && len(out) > 0 {
			break // a partial last line
		}
		out = append(out, strings.TrimRight(string(line), "\r"))
		b = rest
	}
	return out
}

// firstNonEmpty is the first line with text.
func firstNonEmpty(head []string) string {
	for _, l := range head {
		if strings.TrimSpace(l) != "" {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// csvFormat reads a CSV with a dialect.
func csvFormat(d *dialect) func(string, io.Reader, TraceOptions) (*Trace, error) {
	return func(name string, r io.Reader, opt TraceOptions) (*Trace, error) { return readCSV(name, r, opt, d) }
}

var (
	// Nordic's Power Profiler app (nRF Connect for Desktop) exports
	// "Timestamp(ms),Current(uA)" and, with digital channels, a "D0-D7"
	// bit string (older) or D0…D7 columns (newer); 100 kHz sampling. It
	// writes no voltage: the PPK2 sources or measures at a set supply.
	ppk2Header = regexp.MustCompile(`^(?i)timestamp\s*\(ms\)\s*,\s*current\s*\(ua\)`)
	// Joulescope UI's CSV export writes "#time (s),current (A),voltage
	// (V)" when asked for a header; its statistics recorder
	// "#time,current,voltage,power,charge,energy" in SI units.
	joulescopeHeader = regexp.MustCompile(`^#\s*time(\s*\(s\))?\s*,\s*current\b`)
	// PyMonsoon's sampleEngine: "Time(ms),Main(mA),…," with a trailing
	// comma on every line.
	pymonsoonHeader = regexp.MustCompile(`^Time\(ms\),Main\(mA\).*,$`)
	// Otii's CSV export: a "Timestamp (s)" column and channels named
	// "Main current (A)", "Main voltage (V)", "Main power (W)".
	otiiHeader = regexp.MustCompile(`^(?i)"?timestamp\s*\(s\)"?\s*,.*"?main (current|power|voltage)`)
	// Monsoon PowerTool's CSV export: "Time(s),Main(mA),Main Voltage(V)".
	monsoonHeader = regexp.MustCompile(`^(?i)time\s*\((s|ms)\)\s*,\s*main\s*\((ma|a)\)`)
)

func init() {
	for _, f := range []*TraceFormat{
		{
			Name: "ppk2", Aliases: []string{"nordic-ppk2", "power-profiler"},
			Description: "Nordic Power Profiler Kit II, nRF Connect Power Profiler CSV export: Timestamp(ms),Current(uA)[,D0-D7 | ,D0…D7]; no voltage (give --volts)",
			Source:      "pc-nrfconnect-ppk's export (header Timestamp(ms),Current(uA), bits as toString(2).padStart(8,'0')), 100 kHz sampling",
			sniff:       func(h []string) bool { return ppk2Header.MatchString(firstNonEmpty(h)) },
			read: csvFormat(&dialect{noVoltage: "the Power Profiler app writes no voltage: give --volts, the PPK2's set supply " +
				"(source meter) or the DUT's supply (ampere meter)"}),
		},
		{
			Name: "joulescope", Aliases: []string{"js110", "js220"},
			Description: "Joulescope UI CSV export (#time (s),current (A),voltage (V); without its header: three columns in those units) and statistics recording (#time,current,voltage,power,charge,energy, SI units; energy checked against the integral)",
			Source:      "joulescope_ui export (np.savetxt '%.7f,%.4e,%.4f', optional '#' header) and statistics recorder header, Jetperch's source",
			sniff:       func(h []string) bool { return joulescopeHeader.MatchString(firstNonEmpty(h)) },
			read:        readJoulescope,
		},
		{
			Name: "pymonsoon", Aliases: []string{"monsoon-python"},
			Description: "Monsoon Power Monitor via PyMonsoon's sampleEngine CSV: Time(ms),Main(mA),…, trailing commas; the time column is host seconds per USB packet, so samples are timed by index at 5 kHz (--sample-rate)",
			Source:      "msoon/PyMonsoon Monsoon/sampleEngine.py (channel names, time.time() − start per packet, trailing commas); Monsoon Power Monitor's 5 kHz sample rate",
			sniff:       func(h []string) bool { return pymonsoonHeader.MatchString(firstNonEmpty(h)) },
			read:        readPyMonsoon,
		},
		{
			Name: "otii", Aliases: []string{"qoitech", "otii-arc"},
			Description: "Qoitech Otii CSV export: Timestamp (s) and Main current (A) / Main voltage (V) / Main power (W) columns",
			Source:      "unverified: Otii's channel names as Qoitech documents them; no public export file was found to check against",
			sniff:       func(h []string) bool { return otiiHeader.MatchString(firstNonEmpty(h)) },
			read:        csvFormat(nil),
		},
		{
			Name: "monsoon", Aliases: []string{"powertool"},
			Description: "Monsoon PowerTool CSV export: Time(s),Main(mA),Main Voltage(V)",
			Source:      "unverified: PowerTool's column names as in PyMonsoon's; no public PowerTool export was found to check against",
			sniff:       func(h []string) bool { return monsoonHeader.MatchString(firstNonEmpty(h)) },
			read:        csvFormat(nil),
		},
		{
			Name: "ina219-serial", Aliases: []string{"adafruit-ina219"},
			Description: "INA219 serial log as Adafruit_INA219's getcurrent example prints it (Bus Voltage: … V / Shunt Voltage: … mV / Load Voltage: … V / Current: … mA / Power: … mW blocks), optionally with the Arduino serial monitor's 'HH:MM:SS.mmm -> ' timestamps; --sample-interval without them",
			Source:      "Adafruit_INA219 examples/getcurrent (labels and units); Arduino IDE serial monitor timestamp prefix",
			sniff:       sniffINA219,
			read:        readINA219,
		},
		{
			Name: "ina226-serial", Aliases: []string{"ina226", "ina-tabs"},
			Description: "INA226/INA236 serial log as RobTillaart's library demos print it: a BUS\\tSHUNT\\tCURRENT\\tPOWER header (V, mV, mA, mW) repeated every block, tab-separated rows, no time: --sample-interval (the sketch's delay) or serial monitor timestamps",
			Source:      "RobTillaart/INA226 and INA236 examples (getBusVoltage V, getShuntVoltage_mV, getCurrent_mA, getPower_mW, delay(1000))",
			sniff:       sniffINA226,
			read:        readINA226,
		},
		{
			Name:        "csv",
			Description: "any CSV whose header names a time column and current (+ voltage) or power columns with units in brackets or after an underscore",
			Source:      "cryptocost's own layout (docs/energy.md)",
			read:        csvFormat(nil),
		},
	} {
		registerTraceFormat(f)
	}
}

// readJoulescope reads both Joulescope exports, with or without the
// waveform export's header.
func readJoulescope(name string, r io.Reader, opt TraceOptions) (*Trace, error) {
	br := bufio.NewReaderSize(r, sniffBytes)
	peek, _ := br.Peek(sniffBytes)
	first := firstNonEmpty(firstLines(peek, 4))
	d := &dialect{headerInComment: true, units: map[string]string{"time": "s", "current": "A", "voltage": "V", "power": "W", "energy": "J"}}
	if !strings.HasPrefix(first, "#") {
		// "Add header" unchecked: time (s), current (A), voltage (V), as
		// the exporter's savetxt writes them.
		d = &dialect{header: []string{"time (s)", "current (A)", "voltage (V)"}}
	}
	return readCSV(name, br, opt, d)
}

// monsoonSampleRate is the Monsoon Power Monitor's sample rate (LVPM and
// HVPM: 5000 samples/s, Monsoon's PowerTool and PyMonsoon documentation).
const monsoonSampleRate = 5000

func readPyMonsoon(name string, r io.Reader, opt TraceOptions) (*Trace, error) {
	rate := float64(monsoonSampleRate)
	if opt.SampleRate > 0 {
		rate = opt.SampleRate
	}
	return readCSV(name, r, opt, &dialect{period: 1 / rate, hostTimeScale: 1})
}

// serialStamp is the Arduino IDE serial monitor's timestamp prefix.
var serialStamp = regexp.MustCompile(`^(\d{2}):(\d{2}):(\d{2})\.(\d{3}) -> ?(.*)$`)

// stampSeconds reads a serial monitor prefix: the seconds since midnight
// and the rest of the line.
func stampSeconds(line string) (float64, string, bool) {
	m := serialStamp.FindStringSubmatch(line)
	if m == nil {
		return 0, line, false
	}
	var h, mi, s, ms int
	fmt.Sscanf(m[1]+" "+m[2]+" "+m[3]+" "+m[4], "%d %d %d %d", &h, &mi, &s, &ms)
	return float64(h*3600+mi*60+s) + float64(ms)/1000, m[5], true
}

// serialClock turns serial-monitor stamps (seconds since midnight, which
// wrap) or a fixed interval into sample times.
type serialClock struct {
	interval float64
	base     float64 // added after each midnight
	last     float64
	n        int
}

func (c *serialClock) at(stamp float64, stamped bool) (float64, error) {
	c.n++
	if !stamped {
		if c.interval <= 0 {
			return 0, fmt.Errorf("the log has no time: give --sample-interval, the sketch's time between readings (its delay(), e.g. 1s)")
		}
		return float64(c.n-1) * c.interval, nil
	}
	if c.n > 1 && stamp+c.base < c.last-12*3600 {
		c.base += 24 * 3600 // past midnight
	}
	c.last = stamp + c.base
	return c.last, nil
}

// inaLine is one labelled INA219 reading: "Current:       206.20 mA".
var inaLine = regexp.MustCompile(`^(Bus Voltage|Shunt Voltage|Load Voltage|Current|Power):\s*(-?[0-9.]+)\s*(mV|V|mA|A|mW|W)\s*$`)

func sniffINA219(head []string) bool {
	for _, l := range head {
		_, rest, _ := stampSeconds(strings.TrimSpace(l))
		if inaLine.MatchString(strings.TrimSpace(rest)) {
			return true
		}
	}
	return false
}

// readINA219 reads blocks of labelled lines ended by a blank line (or the
// next block's first label). The power is the block's Power line, else
// its load (or bus) voltage × current; the time is the block's first
// stamp, or its index × --interval.
func readINA219(name string, r io.Reader, opt TraceOptions) (*Trace, error) {
	sc := bufio.NewScanner(&lineLimit{r: r, max: maxLine})
	sc.Buffer(make([]byte, 4096), maxLine+1)
	t := &Trace{File: name, Columns: "INA219 blocks: Power (mW), else Load or Bus Voltage × Current (mA)"}
	clock := &serialClock{interval: opt.Interval}
	type block struct {
		vals    map[string]float64
		stamp   float64
		stamped bool
		line    int
	}
	var cur *block
	skipped := 0
	flush := func() error {
		if cur == nil {
			return nil
		}
		b := cur
		cur = nil
		amps, okA := b.vals["Current"]
		volts, okV := b.vals["Load Voltage"]
		if !okV {
			volts, okV = b.vals["Bus Voltage"]
		}
		watts, okP := b.vals["Power"]
		if !okP && !(okA && okV) {
			return fmt.Errorf("%s:%d: a reading without Power, or Current and a voltage: not an INA219 block", name, b.line)
		}
		if !okP {
			watts = volts * amps
		}
		s := Sample{Watts: watts, Amps: amps, Volts: volts}
		if !okA {
			s.Amps = math.NaN()
		}
		if !okV {
			s.Volts = math.NaN()
		}
		var err error
		if s.T, err = clock.at(b.stamp, b.stamped); err != nil {
			return fmt.Errorf("%s:%d: %w", name, b.line, err)
		}
		return t.add(s, b.line, opt)
	}
	line := 0
	for sc.Scan() {
		line++
		raw := strings.TrimSpace(sc.Text())
		stamp, rest, stamped := stampSeconds(raw)
		rest = strings.TrimSpace(rest)
		if rest == "" {
			if err := flush(); err != nil {
				return nil, err
			}
			continue
		}
		m := inaLine.FindStringSubmatch(rest)
		if m == nil {
			skipped++
			continue
		}
		if cur != nil {
			if _, dup := cur.vals[m[1]]; dup {
				// No blank line between readings: a label again starts the next.
				if err := flush(); err != nil {
					return nil, err
				}
			}
		}
		if cur == nil {
			cur = &block{vals: map[string]float64{}, stamp: stamp, stamped: stamped, line: line}
		}
		v, err := parseUnit(m[2], m[3])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		cur.vals[m[1]] = v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if skipped > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("%d lines that are no INA219 reading skipped (banners, other output)", skipped))
	}
	if err := t.finish(opt); err != nil {
		return nil, err
	}
	return t, nil
}

// parseUnit reads a value with its SI unit (V, mV, A, mA, W, mW) in base
// units.
func parseUnit(v, unit string) (float64, error) {
	var x float64
	if _, err := fmt.Sscanf(v, "%g", &x); err != nil {
		return 0, fmt.Errorf("%q is not a number", v)
	}
	scale := map[string]float64{"V": 1, "mV": 1e-3, "A": 1, "mA": 1e-3, "W": 1, "mW": 1e-3}[unit]
	return x * scale, nil
}

// ina226Header is the demos' header line; ina226Units the optional line
// of units below it.
var (
	ina226Header = regexp.MustCompile(`^BUS\tSHUNT\tCURRENT\tPOWER\b`)
	ina226Units  = regexp.MustCompile(`^\s*V\t\s*mV\t\s*mA\t\s*mW\s*$`)
)

func sniffINA226(head []string) bool {
	for _, l := range head {
		_, rest, _ := stampSeconds(strings.TrimSpace(l))
		if ina226Header.MatchString(strings.TrimSpace(rest)) {
			return true
		}
	}
	return false
}

// readINA226 reads tab-separated rows of bus voltage (V), shunt voltage
// (mV), current (mA) and power (mW) under each header; other lines (the
// sketch's banner, its library version) are skipped with a count.
func readINA226(name string, r io.Reader, opt TraceOptions) (*Trace, error) {
	sc := bufio.NewScanner(&lineLimit{r: r, max: maxLine})
	sc.Buffer(make([]byte, 4096), maxLine+1)
	t := &Trace{File: name, Columns: "INA226 rows: POWER (mW, the chip's power register); BUS (V) and CURRENT (mA) kept"}
	clock := &serialClock{interval: opt.Interval}
	inTable := false
	skipped, headers := 0, 0
	line := 0
	for sc.Scan() {
		line++
		stamp, rest, stamped := stampSeconds(strings.TrimSpace(sc.Text()))
		rest = strings.TrimSpace(rest)
		switch {
		case rest == "":
			continue
		case ina226Header.MatchString(rest):
			inTable = true
			headers++
			continue
		case inTable && ina226Units.MatchString(rest):
			continue
		}
		f := strings.Split(rest, "\t")
		if !inTable || len(f) < 4 {
			skipped++
			inTable = inTable && len(f) >= 4
			continue
		}
		var v [4]float64
		ok := true
		for i := range v {
			if _, err := fmt.Sscanf(strings.TrimSpace(f[i]), "%g", &v[i]); err != nil {
				ok = false
			}
		}
		if !ok {
			return nil, fmt.Errorf("%s:%d: %q: want four numbers, BUS (V), SHUNT (mV), CURRENT (mA), POWER (mW), separated by tabs", name, line, rest)
		}
		s := Sample{Volts: v[0], Amps: v[2] * 1e-3, Watts: v[3] * 1e-3}
		var err error
		if s.T, err = clock.at(stamp, stamped); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if err := t.add(s, line, opt); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if headers == 0 {
		return nil, fmt.Errorf("%s: no BUS\\tSHUNT\\tCURRENT\\tPOWER header: not an INA226 demo log", name)
	}
	if skipped > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("%d lines that are no reading skipped (banners, other output)", skipped))
	}
	if err := t.finish(opt); err != nil {
		return nil, err
	}
	return t, nil
}

// add appends a sample, checking time order and the sample cap.
func (t *Trace) add(s Sample, line int, opt TraceOptions) error {
	max := opt.MaxSamples
	if max <= 0 {
		max = 20_000_000
	}
	if n := len(t.Samples); n > 0 && !(s.T > t.Samples[n-1].T) {
		return fmt.Errorf("%s:%d: time %.9g s is not after the previous sample's %.9g s (line %d): two readings in the same millisecond, or a clock that restarted",
			t.File, line, s.T, t.Samples[n-1].T, t.lines[n-1])
	}
	if len(t.Samples) >= max {
		return fmt.Errorf("%s:%d: more than %d samples: cut the trace to the measured interval", t.File, line, max)
	}
	t.Samples = append(t.Samples, s)
	t.lines = append(t.lines, line)
	return nil
}

// DigitalPhases turns a digital channel's high intervals into phases,
// the way S003 timed signatures with an LED pin beside the shunt: a phase
// starts at the first sample the channel is 1 and ends at the first
// sample it is 0 again. A phase cut by the trace's start or end is kept
// with a warning.
func (t *Trace) DigitalPhases(channel string) ([]Phase, []string, error) {
	bit := -1
	for i, n := range t.Digital {
		if strings.EqualFold(n, channel) {
			bit = i
		}
	}
	if bit < 0 {
		if len(t.Digital) == 0 {
			return nil, nil, fmt.Errorf("%s has no digital channels (a PPK2 export with D0-D7, a Joulescope export with in0/in1 have them)", t.File)
		}
		return nil, nil, fmt.Errorf("no digital channel %q in %s: it has %s", channel, t.File, strings.Join(t.Digital, ", "))
	}
	var phases []Phase
	var warns []string
	high := func(i int) bool { return t.DigitalStates[i]&(1<<bit) != 0 }
	open := -1
	for i := range t.Samples {
		switch {
		case high(i) && open < 0:
			open = i
			if i == 0 {
				warns = append(warns, fmt.Sprintf("%s is high at the trace's start: its first phase is cut", channel))
			}
		case !high(i) && open >= 0:
			phases = append(phases, Phase{Name: channel, Start: t.Samples[open].T, End: t.Samples[i].T, Line: t.lines[open]})
			open = -1
		}
	}
	if open >= 0 {
		last := len(t.Samples) - 1
		if last > open {
			phases = append(phases, Phase{Name: channel, Start: t.Samples[open].T, End: t.Samples[last].T, Line: t.lines[open]})
		}
		warns = append(warns, fmt.Sprintf("%s is high at the trace's end: its last phase is cut", channel))
	}
	sort.SliceStable(phases, func(a, b int) bool { return phases[a].Start < phases[b].Start })
	if len(phases) == 0 {
		return nil, warns, fmt.Errorf("digital channel %s never goes high in %s", channel, t.File)
	}
	return phases, warns, nil
}
