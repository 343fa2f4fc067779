package mcu

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cryptocost/cryptocost/result"
)

// WriteTable writes mcu runs as tables shaped like S004's (draft-aks-
// crypto-sensors-02 §6): execution time in milliseconds at the target's
// clock, RAM and ROM in bytes, and the comparable RSA key length, one row
// per kernel, operation, input size and optimisation level, and one table
// per target. On an AVR the cycles are simulated exactly; on a QEMU target
// the instructions are, and cycles and time are estimates, marked ≈.
func WriteTable(w io.Writer, runs ...*result.Run) error {
	for i, run := range runs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := writeTable(w, run); err != nil {
			return err
		}
	}
	return nil
}

func writeTable(w io.Writer, run *result.Run) error {
	fmt.Fprintf(w, "cryptocost %s · run %s\n", run.Tool.Version, run.ID)
	var order []string
	byTarget := map[string][]result.Result{}
	for _, r := range run.Results {
		if r.Subject.Kind != "mcu" {
			continue
		}
		t := r.Subject.Params["target"]
		if _, ok := byTarget[t]; !ok {
			order = append(order, t)
		}
		byTarget[t] = append(byTarget[t], r)
	}
	notes := &footnotes{index: map[string]int{}}
	for i, name := range order {
		if i > 0 {
			fmt.Fprintln(w)
		}
		for _, n := range run.Environment.Notes {
			if strings.HasPrefix(n, "measured on a simulated "+name+" ") {
				fmt.Fprintln(w, n)
			}
		}
		if err := writeTargetTable(w, name, byTarget[name], notes); err != nil {
			return err
		}
	}
	for _, text := range notes.order {
		fmt.Fprintf(w, "[%d] %s\n", notes.index[text], text)
	}
	if run.Status != result.Complete {
		fmt.Fprintf(w, "run %s: %s\n", run.Status, strings.Join(run.Errors, "; "))
	}
	return nil
}

// footnotes number the notes of a table, once per text.
type footnotes struct {
	index map[string]int
	order []string
}

func (f *footnotes) mark(text string) string {
	n, ok := f.index[text]
	if !ok {
		n = len(f.index) + 1
		f.index[text] = n
		f.order = append(f.order, text)
	}
	return fmt.Sprintf(" [%d]", n)
}

func writeTargetTable(w io.Writer, target string, rs []result.Result, notes *footnotes) error {
	cycles := true // an AVR: simulated cycles; else instructions and estimates
	energy := false
	for _, r := range rs {
		cycles = cycles && r.Subject.Params["counts"] != "instructions"
		energy = energy || r.Metric("energy") != nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "KERNEL\tOPERATION\tINPUT\tOPT\tTIME ms\tCYCLES\tCYCLES/B\tSTACK B\tRAM B\tROM B\tSECURITY\tRSA EQUIV.\tTIMING"
	if !cycles {
		head = "KERNEL\tOPERATION\tINPUT\tOPT\tINSTRUCTIONS\tINSNS/B\t≈CYCLES\t≈TIME ms\tSTACK B\tRAM B\tROM B\tSECURITY\tRSA EQUIV.\tTIMING"
	}
	if energy {
		head += "\tENERGY µJ"
	}
	fmt.Fprintln(tw, head)
	last := ""
	for _, r := range rs {
		p := r.Subject.Params
		label := p["label"]
		if label == last {
			label = ""
		} else {
			last = label
		}
		label = strings.TrimSpace(label) + "\t"
		if r.Error != "" {
			what := "FAILED"
			if p["fit"] == "no" {
				what = "does not fit"
			}
			fmt.Fprintf(tw, "%s%s\t\t%s\t%s%s\n", label, cmp.Or(r.Subject.Operation, "-"), p["opt"], what, notes.mark(r.Error))
			continue
		}
		input := "-"
		if r.Subject.InputBytes > 0 {
			input = fmt.Sprintf("%d B", r.Subject.InputBytes)
		}
		var warn string
		for _, wn := range r.Warnings {
			warn += notes.mark(warningKind(wn))
		}
		security := p["security_bits"]
		if security == "0" {
			security = "<80"
		}
		rsa := p["comparable_rsa_bits"]
		if rsa == "0" {
			rsa = "-"
		}
		var cols []string
		if cycles {
			cols = []string{msString(median(r, "time") * 1e3), count(r, "cycles") + warn, perByte(r, "cycles-per-byte")}
		} else {
			est, t := "-", "-"
			if m := r.Metric("cycles"); m != nil {
				how, _, _ := strings.Cut(m.Method, "; range")
				est = count(r, "cycles") + notes.mark(string(m.Label)+": "+how)
				t = msString(median(r, "time") * 1e3)
			}
			cols = []string{count(r, "instructions") + warn, perByte(r, "instructions-per-byte"), est, t}
		}
		row := label + strings.Join(append([]string{r.Subject.Operation, input, p["opt"]}, cols...), "\t")
		row += fmt.Sprintf("\t%.0f\t%.0f\t%.0f\t%s\t%s\t%s", median(r, "stack"), median(r, "ram"), median(r, "rom"), security, rsa, timingShort(p))
		if m := r.Metric("energy"); energy && m != nil {
			row += "\t" + strconv.FormatFloat(m.Summary.Median*1e6, 'g', 4, 64) + notes.mark(string(m.Label)+": "+m.Method) // µJ
		}
		fmt.Fprintln(tw, row)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if cycles {
		fmt.Fprintln(w, "TIME = CYCLES ÷ clock, from a cycle-accurate simulation (simavr), not from hardware.")
	} else {
		fmt.Fprintln(w, "INSTRUCTIONS are counted exactly in QEMU, on a board standing for the part. ≈CYCLES are estimated from them")
		fmt.Fprintln(w, "with the core's TRM cycle table and ≈TIME = ≈CYCLES ÷ the part's clock: estimates, not measurements.")
	}
	fmt.Fprintln(w, "RAM = STACK (high-water mark, by painting) + the kernel's .data/.bss + the caller's key, context and buffers.")
	fmt.Fprintln(w, "ROM = the kernel's code and constants with the runtime routines only it uses (linker map).")
	fmt.Fprintln(w, "RSA EQUIV.: NIST SP 800-57 Part 1 Table 2.")
	fmt.Fprintln(w, "TIMING: the spread of the count over the operation's inputs, eight different secrets for an operation on a secret.")
	return nil
}

func median(r result.Result, name string) float64 {
	if m := r.Metric(name); m != nil {
		return m.Summary.Median
	}
	return 0
}

func count(r result.Result, name string) string {
	if m := r.Metric(name); m != nil {
		return strconv.FormatFloat(m.Summary.Median, 'f', 0, 64)
	}
	return "-"
}

func perByte(r result.Result, name string) string {
	if m := r.Metric(name); m != nil {
		return strconv.FormatFloat(m.Summary.Median, 'f', 1, 64)
	}
	return ""
}

// timingShort is the TIMING column: the leak verdict in a few words.
func timingShort(p map[string]string) string {
	v, n := p["timing"], p["timing_inputs"]
	switch {
	case v == "":
		return "-"
	case strings.HasPrefix(v, "constant time"):
		return "constant, " + n + " secrets"
	case strings.HasPrefix(v, "leaks: the same instructions"):
		return "branches leak, " + n + " secrets"
	case strings.HasPrefix(v, "leaks:"):
		pct := ""
		if i, j := strings.Index(v, "("), strings.Index(v, ")"); i > 0 && j > i {
			pct = " " + v[i+1:j]
		}
		return "leaks" + pct + ", " + n + " secrets"
	case strings.HasPrefix(v, "varies with public data"), strings.HasSuffix(v, "(public data)"):
		return "public data"
	}
	return "not checked"
}

// msString prints milliseconds with the precision a reader needs.
func msString(ms float64) string {
	switch {
	case ms >= 100:
		return strconv.FormatFloat(ms, 'f', 0, 64)
	case ms >= 10:
		return strconv.FormatFloat(ms, 'f', 1, 64)
	case ms >= 1:
		return strconv.FormatFloat(ms, 'f', 2, 64)
	}
	return strconv.FormatFloat(ms, 'f', 3, 64)
}

// warningKind is a warning without its values, for one footnote per kind.
func warningKind(w string) string {
	if i := strings.LastIndex(w, ": "); i > 0 {
		return w[:i]
	}
	return w
}
