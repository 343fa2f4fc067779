package mcu

import (
	"embed"
	"fmt"
	"io"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cryptocost/cryptocost/result"
	"go.yaml.in/yaml/v3"
)

// referenceFiles are published measurements to compare kernels with, one
// file per study (reference/s004.yaml: S004's table, imported).
//
//go:embed reference/*.yaml
var referenceFiles embed.FS

// Span is one number or a range [low, high] (S004 gives some figures as a
// range over several curves).
type Span []float64

// UnmarshalYAML reads a number or a list of one or two.
func (s *Span) UnmarshalYAML(n *yaml.Node) error {
	var v float64
	if n.Kind == yaml.ScalarNode {
		if err := n.Decode(&v); err != nil {
			return err
		}
		*s = Span{v}
		return nil
	}
	var vs []float64
	if err := n.Decode(&vs); err != nil {
		return err
	}
	if len(vs) < 1 || len(vs) > 2 {
		return fmt.Errorf("line %d: want a number or [low, high], got %d numbers", n.Line, len(vs))
	}
	*s = vs
	return nil
}

// String is "66" or "2,741 … 6,217".
func (s Span) String() string {
	var parts []string
	for _, v := range s {
		parts = append(parts, thousands(v))
	}
	return strings.Join(parts, " … ")
}

// ReferenceRow is one row of a study's table.
type ReferenceRow struct {
	Algorithm string `yaml:"algorithm" json:"algorithm"`
	// Size is the key size or curve: "1024-bit", "secp160r1".
	Size      string `yaml:"size" json:"size"`
	Library   string `yaml:"library" json:"library"`
	Style     string `yaml:"style" json:"style"`
	Operation string `yaml:"operation" json:"operation"`
	// TimeMs is the time per operation in ms at the study's clock.
	TimeMs Span `yaml:"time_ms" json:"time_ms"`
	// RAMBytes and ROMkB are the study's RAM (for the row, or a range for
	// the library) and the library's ROM; empty or 0 where not given.
	RAMBytes Span    `yaml:"ram_bytes" json:"ram_bytes,omitempty"`
	ROMkB    float64 `yaml:"rom_kb" json:"rom_kb,omitempty"`
	// RSAStudy is the study's comparable RSA length; RSASP80057 the RSA
	// size of the same strength in NIST SP 800-57 Part 1 Rev. 5 Table 2
	// (0: below 80 bits).
	RSAStudy   Span `yaml:"rsa_s004" json:"rsa_study"`
	RSASP80057 Span `yaml:"rsa_sp800_57" json:"rsa_sp800_57"`
	// Kernels are the closest kernels here, one per time (two for a
	// range); Nearest says their curve is not the row's (the same field
	// size); None says why no kernel compares.
	Kernels []string `yaml:"kernels" json:"kernels,omitempty"`
	Nearest bool     `yaml:"nearest" json:"nearest,omitempty"`
	None    string   `yaml:"none" json:"none,omitempty"`
}

// Reference is a study's published table, imported.
type Reference struct {
	Name      string            `yaml:"name" json:"name"`
	Title     string            `yaml:"title" json:"title"`
	Source    string            `yaml:"source" json:"source"`
	Platform  string            `yaml:"platform" json:"platform"`
	Libraries map[string]string `yaml:"libraries" json:"libraries"`
	Rows      []ReferenceRow    `yaml:"rows" json:"rows"`
}

// ReferenceNames are the studies a comparison can be made with.
func ReferenceNames() []string {
	files, _ := referenceFiles.ReadDir("reference")
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(f.Name(), path.Ext(f.Name())))
	}
	return names
}

// ReferenceByName reads a study's table and checks it: every row has a
// time, kernels that exist (as many as times) or a reason for none.
func ReferenceByName(name string) (*Reference, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	data, err := referenceFiles.ReadFile("reference/" + name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("no reference %q: want one of %s", name, strings.Join(ReferenceNames(), ", "))
	}
	var ref Reference
	if err := yaml.Unmarshal(data, &ref); err != nil {
		return nil, fmt.Errorf("reference %s: %w", name, err)
	}
	if ref.Source == "" {
		return nil, fmt.Errorf("reference %s: no source", name)
	}
	for i, r := range ref.Rows {
		where := fmt.Sprintf("reference %s row %d (%s %s %s)", name, i+1, r.Algorithm, r.Size, r.Library)
		switch {
		case len(r.TimeMs) == 0:
			return nil, fmt.Errorf("%s: no time", where)
		case len(r.Kernels) == 0 && r.None == "":
			return nil, fmt.Errorf("%s: neither kernels nor a reason for none", where)
		case len(r.Kernels) > 0 && len(r.Kernels) != len(r.TimeMs):
			return nil, fmt.Errorf("%s: %d kernels for %d times", where, len(r.Kernels), len(r.TimeMs))
		}
		for _, k := range r.Kernels {
			if _, ok := KernelByName(k); !ok {
				return nil, fmt.Errorf("%s: no kernel %q", where, k)
			}
		}
	}
	return &ref, nil
}

// Kernels are the distinct kernels the rows name, in row order.
func (ref *Reference) Kernels() []string {
	var out []string
	for _, r := range ref.Rows {
		for _, k := range r.Kernels {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// Measured is what a run measured for one kernel and operation: its
// fastest optimisation level among the runs.
type Measured struct {
	Kernel string `json:"kernel"`
	Opt    string `json:"opt,omitempty"`
	// TimeMs is the median cycles ÷ the study's clock (16 MHz for S004),
	// so that a kernel simulated at another clock compares too.
	TimeMs float64 `json:"time_ms,omitempty"`
	// Label is the cycles' label: simulated (simavr counts them) or
	// estimated (QEMU counts instructions; cycles follow from the core's
	// cycle table).
	Cycles  float64 `json:"cycles,omitempty"`
	RAM     float64 `json:"ram_bytes,omitempty"`
	ROM     float64 `json:"rom_bytes,omitempty"`
	Target  string  `json:"target,omitempty"`
	Label   string  `json:"label,omitempty"`
	Missing string  `json:"missing,omitempty"` // why there is no number
}

// ComparedRow is a study's row with the closest kernels' measurements and
// the ratio of times (here ÷ study; 0 where not measured), one per time.
type ComparedRow struct {
	Row      ReferenceRow `json:"study"`
	Measured []Measured   `json:"measured,omitempty"`
	Ratio    []float64    `json:"ratio,omitempty"`
}

// Comparison is a study's table beside measured runs.
type Comparison struct {
	Reference *Reference `json:"-"`
	Study     string     `json:"study"`
	Source    string     `json:"source"`
	Label     string     `json:"study_label"`
	ClockHz   float64    `json:"clock_hz"`
	Target    string     `json:"target"`
	// Here says how the target's figures were obtained: its simulator,
	// and whether cycles are counted or estimated.
	Here string        `json:"here"`
	Rows []ComparedRow `json:"rows"`
}

// studyClockHz is S004's clock: the Arduino Uno's 16 MHz.
const studyClockHz = 16e6

// Compare puts each row of ref beside the runs' results on target t (the
// kernels' fastest level when several were measured). Times are cycles at
// the study's clock whatever the part's: on a QEMU target the cycles are
// the estimate from its cycle table, and a target without one has none.
func Compare(ref *Reference, t Target, runs ...*result.Run) *Comparison {
	c := &Comparison{Reference: ref, Study: ref.Name, Source: ref.Source, Label: string(result.Imported),
		ClockHz: studyClockHz, Target: t.Name, Here: hereMethod(t)}
	for _, row := range ref.Rows {
		cr := ComparedRow{Row: row}
		for i, k := range row.Kernels {
			m := measuredFor(k, row.Operation, t, runs)
			cr.Measured = append(cr.Measured, m)
			ratio := 0.0 // not measured
			if m.Missing == "" {
				ratio = m.TimeMs / row.TimeMs[i]
			}
			cr.Ratio = append(cr.Ratio, ratio)
		}
		c.Rows = append(c.Rows, cr)
	}
	return c
}

// hereMethod says where the HERE columns come from on t, and how their
// time is had.
func hereMethod(t Target) string {
	at := fmt.Sprintf("; time = cycles ÷ %s MHz (S004's clock)", thousands(studyClockHz/1e6))
	switch {
	case t.CountsCycles():
		return fmt.Sprintf("simulated in %s (%s), cycles counted", t.Simulator.Name, t.Simulator.Machine) + at
	case t.Simulator.CycleRule != "":
		return fmt.Sprintf("instructions counted in %s (%s), cycles estimated from the core's cycle table", t.Simulator.Name, t.Simulator.Machine) + at
	}
	return fmt.Sprintf("instructions counted in %s (%s); no cycle table for the %s, so no time to compare", t.Simulator.Name, t.Simulator.Machine, t.Core)
}

func measuredFor(kernel, op string, t Target, runs []*result.Run) Measured {
	target := t.Name
	m := Measured{Kernel: kernel}
	var best *result.Result
	var failed string
	for _, run := range runs {
		for i := range run.Results {
			r := &run.Results[i]
			p := r.Subject.Params
			if r.Subject.Kind != "mcu" || p["kernel"] != kernel || p["target"] != target {
				continue
			}
			if r.Error != "" {
				if failed == "" {
					failed = p["opt"] + ": " + r.Error
				}
				continue
			}
			if r.Subject.Operation != op {
				continue
			}
			if r.Metric("cycles") == nil {
				if failed == "" {
					failed = "no cycle count on the " + target + " (QEMU counts its instructions; the core has no cycle table)"
				}
				continue
			}
			if best == nil || r.Metric("cycles").Summary.Median < best.Metric("cycles").Summary.Median {
				best = r
			}
		}
	}
	if best == nil {
		if failed != "" {
			m.Missing = failed
		} else {
			m.Missing = "not in these runs (cryptocost mcu bench --kernel " + kernel + ")"
		}
		return m
	}
	m.Opt = best.Subject.Params["opt"]
	m.Target = best.Subject.Params["target"]
	m.Cycles = best.Metric("cycles").Summary.Median
	m.TimeMs = m.Cycles / studyClockHz * 1e3
	m.RAM = best.Metric("ram").Summary.Median
	m.ROM = best.Metric("rom").Summary.Median
	m.Label = string(best.Metric("cycles").Label)
	return m
}

// thousands prints 1587559 as 1,587,559 and 3.6 as 3.6.
func thousands(v float64) string {
	if v != float64(int64(v)) || v < 1000 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	s := strconv.FormatInt(int64(v), 10)
	var b strings.Builder
	for i, ch := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(ch)
	}
	return b.String()
}

func rsaSpan(s Span) string {
	var parts []string
	for _, v := range s {
		if v == 0 {
			parts = append(parts, "<1024")
		} else {
			parts = append(parts, thousands(v))
		}
	}
	return strings.Join(parts, " … ")
}

// WriteComparison writes the comparison as a table, one row per study
// row, the study's figures (imported) beside the kernels' (simulated).
func WriteComparison(w io.Writer, c *Comparison) error {
	ref := c.Reference
	fmt.Fprintf(w, "%s\n", ref.Title)
	fmt.Fprintf(w, "S004 columns: imported from %s; %s.\n", ref.Source, ref.Platform)
	fmt.Fprintf(w, "HERE columns: the %s, %s.\n", c.Target, c.Here)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ALGORITHM\tSIZE\tLIBRARY\tSTYLE\tOP\tS004 ms\tS004 RAM B\tS004 ROM\tCLOSEST KERNEL\tOPT\tHERE ms\tHERE RAM B\tHERE ROM B\tHERE/S004\tRSA SP 800-57\tRSA S004")
	notes := map[string]int{}
	var order []string
	mark := func(text string) string {
		n, ok := notes[text]
		if !ok {
			n = len(notes) + 1
			notes[text] = n
			order = append(order, text)
		}
		return fmt.Sprintf(" [%d]", n)
	}
	for _, cr := range c.Rows {
		r := cr.Row
		rom := ""
		if r.ROMkB > 0 {
			rom = thousands(r.ROMkB) + " kB"
		}
		ram := ""
		if len(r.RAMBytes) > 0 {
			ram = r.RAMBytes.String()
		}
		left := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", r.Algorithm, r.Size, r.Library, r.Style, r.Operation, r.TimeMs, ram, rom)
		right := fmt.Sprintf("%s\t%s", rsaSpan(r.RSASP80057), rsaSpan(r.RSAStudy))
		if len(r.Kernels) == 0 {
			fmt.Fprintf(tw, "%s\t%s\t\t\t\t\t\t%s\n", left, r.None, right)
			continue
		}
		var kernels, opts, ms, rams, roms, ratios []string
		for _, m := range cr.Measured {
			name := m.Kernel
			if r.Nearest {
				name += mark("nearest curve measured here: the same field size, another curve (Koblitz or r2)")
			}
			kernels = append(kernels, name)
			if m.Missing != "" {
				opts, rams, roms = append(opts, "-"), append(rams, "-"), append(roms, "-")
				ms = append(ms, "-"+mark(m.Missing))
				continue
			}
			opts = append(opts, m.Opt)
			if m.TimeMs >= 1000 {
				ms = append(ms, thousands(math.Round(m.TimeMs)))
			} else {
				ms = append(ms, msString(m.TimeMs))
			}
			rams = append(rams, thousands(m.RAM))
			roms = append(roms, thousands(m.ROM))
		}
		for _, x := range cr.Ratio {
			if x == 0 {
				ratios = append(ratios, "-")
			} else {
				ratios = append(ratios, strconv.FormatFloat(x, 'f', 2, 64))
			}
		}
		join := func(s []string) string { return strings.Join(s, " … ") }
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", left, join(kernels), join(opts), join(ms), join(rams), join(roms), join(ratios), right)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "S004's RAM is the stack (measured in the Avrora simulator) or the library's range; its ROM is the whole library's code.")
	fmt.Fprintln(w, "HERE RAM = stack + the kernel's .data/.bss + the caller's key and buffers; HERE ROM = the kernel's code and constants")
	fmt.Fprintln(w, "(ECDSA with its SHA-256). HERE/S004 < 1: faster here. The closest kernel's fastest optimisation level is shown.")
	fmt.Fprintln(w, "RSA SP 800-57: the RSA modulus of the same security strength (NIST SP 800-57 Part 1 Rev. 5 Table 2; <1024: below")
	fmt.Fprintln(w, "80 bits); RSA S004: the draft's own comparable RSA key length.")
	for _, text := range order {
		fmt.Fprintf(w, "[%d] %s\n", notes[text], text)
	}
	return nil
}
