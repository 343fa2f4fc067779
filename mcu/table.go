package mcu

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cryptocost/cryptocost/result"
)

// WriteTable writes mcu runs as a table shaped like S004's (draft-aks-
// crypto-sensors-02 §6): execution time in milliseconds at the target's
// clock, RAM and ROM in bytes, and the comparable RSA key length, one row
// per kernel, operation, input size and optimisation level.
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
	for _, n := range run.Environment.Notes {
		if strings.HasPrefix(n, "measured on a simulated") {
			fmt.Fprintln(w, n)
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
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
	energy := false // an ENERGY column when a device profile priced the run
	for _, r := range run.Results {
		energy = energy || r.Metric("energy") != nil
	}
	head := "KERNEL\tOPERATION\tINPUT\tOPT\tTIME ms\tCYCLES\tCYCLES/B\tSTACK B\tRAM B\tROM B\tSECURITY\tRSA EQUIV."
	if energy {
		head += "\tENERGY µJ"
	}
	fmt.Fprintln(tw, head)
	last := ""
	for _, r := range run.Results {
		if r.Subject.Kind != "mcu" {
			continue
		}
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
			fmt.Fprintf(tw, "%s%s\t\t%s\t%s%s\n", label, orDash(r.Subject.Operation), p["opt"], what, mark(r.Error))
			continue
		}
		input := "-"
		if r.Subject.InputBytes > 0 {
			input = fmt.Sprintf("%d B", r.Subject.InputBytes)
		}
		ms := r.Metric("time").Summary.Median * 1e3
		cycles := strconv.FormatFloat(r.Metric("cycles").Summary.Median, 'f', 0, 64)
		for _, warn := range r.Warnings {
			cycles += mark(warningKind(warn))
		}
		cpb := ""
		if m := r.Metric("cycles-per-byte"); m != nil {
			cpb = strconv.FormatFloat(m.Summary.Median, 'f', 1, 64)
		}
		security := p["security_bits"]
		if security == "0" {
			security = "<80"
		}
		rsa := p["comparable_rsa_bits"]
		if rsa == "0" {
			rsa = "-"
		}
		row := fmt.Sprintf("%s%s\t%s\t%s\t%s\t%s\t%s\t%.0f\t%.0f\t%.0f\t%s\t%s", label, r.Subject.Operation, input, p["opt"],
			msString(ms), cycles, cpb, r.Metric("stack").Summary.Median, r.Metric("ram").Summary.Median, r.Metric("rom").Summary.Median,
			security, rsa)
		if m := r.Metric("energy"); energy && m != nil {
			row += "\t" + strconv.FormatFloat(m.Summary.Median*1e6, 'g', 4, 64) + mark(string(m.Label)+": "+m.Method) // µJ
		}
		fmt.Fprintln(tw, row)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "TIME = CYCLES ÷ clock, from a cycle-accurate simulation (simavr), not from hardware. RAM = STACK (high-water")
	fmt.Fprintln(w, "mark, by painting) + the kernel's .data/.bss + the caller's key, context and buffers. ROM = the kernel's code")
	fmt.Fprintln(w, "and constants with the runtime routines only it uses (linker map). RSA EQUIV.: NIST SP 800-57 Part 1 Table 2.")
	for _, text := range order {
		fmt.Fprintf(w, "[%d] %s\n", notes[text], text)
	}
	if run.Status != result.Complete {
		fmt.Fprintf(w, "run %s: %s\n", run.Status, strings.Join(run.Errors, "; "))
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
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
