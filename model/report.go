package model

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cryptocost/cryptocost/result"
)

// maxTablePoints bounds the points of a sweep printed as a table: a table
// aligns its columns over every row, so it holds them all; CSV streams.
const maxTablePoints = 20_000

// tableOutputs are the outputs tables show (JSON and CSV have them all).
var tableOutputs = []string{"energy", "time", "bits-sent", "bits-received", "packets-sent", "packets-received"}

// WriteEval writes a readable report of a plan's points: a summary row
// per point, and for a single point (or detail) the parameters, messages,
// operations and totals with their sources, then the assumptions.
func (p *Plan) WriteEval(ctx context.Context, w io.Writer, detail bool) error {
	m := p.Model
	fmt.Fprintf(w, "%s — %s\n", m.Name, m.Title)
	if m.Per != "" {
		fmt.Fprintf(w, "per %s · %s · all values modelled\n", m.Per, p.costs.Describe())
	}
	if p.Points() > maxTablePoints {
		return fmt.Errorf("%d points are too many for a table (at most %d): use --format wide-csv", p.Points(), maxTablePoints)
	}
	type row struct {
		name string
		out  Outputs
		pt   Point
	}
	var rows []row
	err := p.Run(ctx, func(pt *Point, out *Outputs) error {
		r := row{name: p.SubjectName(pt), pt: Point{Case: pt.Case, Variant: pt.Variant, Values: append([]float64(nil), pt.Values...)}}
		r.out = *out
		r.out.Messages = append([]MessageOutput(nil), out.Messages...)
		r.out.Ops = append([]OpOutput(nil), out.Ops...)
		rows = append(rows, r)
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := []string{"SUBJECT"}
	for _, name := range tableOutputs {
		o := outputByName(name)
		header = append(header, fmt.Sprintf("%s (%s)", strings.ToUpper(o.Name), o.Display()))
	}
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range rows {
		cells := []string{r.name}
		for _, name := range tableOutputs {
			o := outputByName(name)
			cells = append(cells, valueString(o.Shown(o.Value(&r.out))))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(rows) == 1 || detail {
		for _, r := range rows {
			if len(rows) > 1 {
				fmt.Fprintf(w, "\n== %s\n", r.name)
			}
			p.writeDetail(w, &r.pt, &r.out)
		}
	} else {
		fmt.Fprintln(w, "\n(--detail shows the parameters, messages and operations of each point)")
	}
	var warnings []string
	seen := map[string]bool{}
	for _, r := range rows {
		for _, wn := range p.warnings(r.pt.Case, &r.out) {
			if !seen[wn] {
				seen[wn] = true
				warnings = append(warnings, wn)
			}
		}
	}
	p.writeFooter(w, warnings)
	return nil
}

func (p *Plan) writeDetail(w io.Writer, pt *Point, out *Outputs) {
	m := p.Model
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "\nparameters")
	fmt.Fprintln(tw, "  NAME\tVALUE\tUNIT\tFROM")
	for i, par := range m.Params {
		src := p.Sources[par.Name]
		if pt.Variant != nil {
			for _, s := range pt.Variant.Set {
				if s.Param == par.Name {
					src = "variant " + pt.Variant.Name
				}
			}
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", par.Name, formatNumber(pt.Values[i]), par.Unit, src)
	}
	tw.Flush()
	if len(m.Messages) > 0 {
		r := p.Eval.radio
		fmt.Fprintf(w, "\nmessages (radio %s: %s bit/s, TX %s/bit, RX %s/bit)\n", r.Radio, formatNumber(r.RateBitsPerSecond),
			joulesString(r.TxJoulesPerBit), joulesString(r.RxJoulesPerBit))
		fmt.Fprintln(tw, "  NAME\tDIR\tBITS\tCOUNT\tPACKETS\tOVERHEAD/PACKET\tFRAGMENT HEADERS\tTOTAL BITS\tACK BITS\tENERGY (mJ)")
		for i, msg := range m.Messages {
			mo := out.Messages[i]
			e := mo.WireBits*r.RxJoulesPerBit + mo.AckBits*r.TxJoulesPerBit
			if msg.Send {
				e = mo.WireBits*r.TxJoulesPerBit + mo.AckBits*r.RxJoulesPerBit
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", msg.Name, msg.Direction(), valueString(mo.Bits), valueString(mo.Count),
				valueString(mo.Packets), valueString(mo.Overhead), valueString(mo.FragmentHeaders), valueString(mo.WireBits), valueString(mo.AckBits), valueString(e*1e3))
		}
		tw.Flush()
	}
	if len(m.Operations) > 0 {
		fmt.Fprintln(w, "\noperations")
		fmt.Fprintln(tw, "  NAME\tCOST OF\tCOUNT\tTIME (ms)\tENERGY (mJ)\tLABEL\tSOURCE")
		for i, op := range m.Operations {
			oo := out.Ops[i]
			oc, src := p.Eval.OpCost(pt.Case, i)
			key := op.Cost
			if pt.Variant != nil && pt.Variant.Costs[op.Name] != "" {
				key = pt.Variant.Costs[op.Name]
			}
			source := src
			if oc.Source != "" {
				source += ": " + oc.Source
			}
			if oc.Method != "" {
				source += "; " + oc.Method
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\n", op.Name, key, valueString(oo.Count), valueString(oo.TimeSeconds*1e3),
				valueString(oo.EnergyJoules*1e3), oc.Label, source)
		}
		tw.Flush()
	}
	fmt.Fprintln(w, "\ntotals")
	for _, o := range outputs {
		fmt.Fprintf(tw, "  %s\t%s %s\t%s\n", o.Name, valueString(o.Shown(o.Value(out))), o.Display(), o.Description)
	}
	tw.Flush()
}

func (p *Plan) writeFooter(w io.Writer, warnings []string) {
	m := p.Model
	if len(m.Assumptions) > 0 {
		fmt.Fprintln(w, "\nassumptions")
		for _, a := range m.Assumptions {
			fmt.Fprintf(w, "  - %s\n", a)
		}
	}
	if m.Source != "" {
		fmt.Fprintf(w, "\nmodel source: %s (%s)\n", m.Source, m.File)
	}
	for _, wn := range warnings {
		fmt.Fprintf(w, "note: %s\n", wn)
	}
}

// valueString prints a model value with up to 7 significant digits.
func valueString(v float64) string {
	if math.IsNaN(v) {
		return "unknown"
	}
	return strconv.FormatFloat(roundTo(v, 7), 'g', -1, 64)
}

func roundTo(v float64, sig int) float64 {
	if v == 0 || !finite(v) {
		return v
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', sig, 64), 64)
	return r
}

// WriteSweepTable writes one row per point: the subject, the swept
// parameters, and the main outputs.
func (p *Plan) WriteSweepTable(ctx context.Context, w io.Writer) error {
	if n := p.Points(); n > maxTablePoints {
		return fmt.Errorf("%d points are too many for a table (at most %d): use --format wide-csv (streams any number of points) or -o FILE.csv", n, maxTablePoints)
	}
	m := p.Model
	fmt.Fprintf(w, "%s — %s\n", m.Name, m.Title)
	if m.Per != "" {
		fmt.Fprintf(w, "per %s · %s · all values modelled\n\n", m.Per, p.costs.Describe())
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := []string{"MODEL"}
	for _, v := range p.Vary {
		header = append(header, v.Param)
	}
	for _, name := range tableOutputs {
		o := outputByName(name)
		header = append(header, fmt.Sprintf("%s (%s)", strings.ToUpper(o.Name), o.Display()))
	}
	fmt.Fprintln(tw, strings.Join(header, "\t")+"\t")
	var warnings []string
	seen := map[string]bool{}
	err := p.Run(ctx, func(pt *Point, out *Outputs) error {
		label := m.Name
		if pt.Variant != nil {
			label += "/" + pt.Variant.Name
		}
		cells := []string{label}
		for i, v := range p.Vary {
			cells = append(cells, formatNumber(v.Values[pt.Index[i]]))
		}
		for _, name := range tableOutputs {
			o := outputByName(name)
			cells = append(cells, valueString(o.Shown(o.Value(out))))
		}
		for _, wn := range p.warnings(pt.Case, out) {
			if !seen[wn] {
				seen[wn] = true
				warnings = append(warnings, wn)
			}
		}
		_, err := fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
		return err
	})
	if err != nil {
		return err
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	p.writeFooter(w, warnings)
	return nil
}

// WriteSweepCSV streams one CSV row per point: model, variant, every
// parameter, every output (12 significant digits; empty when unknown). It
// holds nothing in memory, so it suits sweeps of millions of points, and
// formats numbers straight into a buffer: a row costs about a
// microsecond. It returns the number of points written.
func (p *Plan) WriteSweepCSV(ctx context.Context, w io.Writer, header bool) (int, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	m := p.Model
	if header {
		cw := csv.NewWriter(bw)
		h := []string{"model", "variant"}
		for _, par := range m.Params {
			h = append(h, par.Name)
		}
		for _, o := range outputs {
			h = append(h, o.Name+" ("+o.Unit+")")
		}
		if err := cw.Write(h); err != nil {
			return 0, err
		}
		cw.Flush()
	}
	// The model and variant columns, quoted as CSV needs, once per case.
	prefix := make([][]byte, len(p.Cases))
	for i, v := range p.Cases {
		name := ""
		if v != nil {
			name = v.Name
		}
		var b strings.Builder
		cw := csv.NewWriter(&b)
		cw.Write([]string{m.Name, name})
		cw.Flush()
		prefix[i] = []byte(strings.TrimSuffix(b.String(), "\n"))
	}
	var row []byte
	n := 0
	err := p.Run(ctx, func(pt *Point, out *Outputs) error {
		row = append(row[:0], prefix[pt.Case]...)
		for _, v := range pt.Values {
			row = append(row, ',')
			row = strconv.AppendFloat(row, v, 'g', -1, 64)
		}
		for _, o := range outputs {
			row = append(row, ',')
			if v := o.Value(out); !math.IsNaN(v) {
				row = strconv.AppendFloat(row, v, 'g', 12, 64)
			}
		}
		row = append(row, '\n')
		n++
		_, err := bw.Write(row)
		return err
	})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return n, err
}

// WriteComparison writes, per metric, a table of the lines against the x
// parameter, then the crossover statements.
func (cmp *Comparison) WriteComparison(w io.Writer) error {
	for _, m := range cmp.Metrics {
		title := m.Name + " (" + m.Display() + ", modelled)"
		if cmp.Per != "" {
			title += " per " + cmp.Per
		}
		fmt.Fprintln(w, title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		cells := []string{cmp.X.Param}
		for _, l := range cmp.Lines {
			cells = append(cells, l.Name)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
		for i, x := range cmp.X.Values {
			cells = []string{formatNumber(x)}
			for _, l := range cmp.Lines {
				cells = append(cells, valueString(m.Shown(l.Y[m.Name][i])))
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if len(cmp.Statements) > 0 {
		fmt.Fprintln(w, "crossovers")
		for _, s := range cmp.Statements {
			fmt.Fprintf(w, "  %s\n", s.Text)
		}
	}
	return nil
}

// WriteMeasured writes model outputs beside measurements with the error.
func WriteMeasured(w io.Writer, rows []MeasuredRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SUBJECT\tOUTPUT\tMODELLED\tMEASURED\tUNIT\tERROR\tMEASUREMENT")
	for _, r := range rows {
		errText := "n/a"
		if !math.IsNaN(r.ErrorPct) {
			errText = fmt.Sprintf("%+.1f%%", r.ErrorPct)
		}
		from := fmt.Sprintf("%s, %s", r.MeasuredLabel, r.MeasuredFrom)
		if r.Note != "" {
			from += " (" + r.Note + ")"
		}
		o := outputByName(r.Output)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Subject, r.Output, valueString(o.Shown(r.Modelled)), valueString(o.Shown(r.Measured)), o.Display(), errText, from)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "error = (modelled − measured) / measured")
	return nil
}

// MeasuredRun adds the measured comparison to run: each row becomes two
// metrics of its model point's result, "measured/OUTPUT" with the
// measurement's own label and "error/OUTPUT" in %.
func MeasuredRun(run *result.Run, rows []MeasuredRow) {
	for _, r := range rows {
		for i := range run.Results {
			res := &run.Results[i]
			if res.Subject.Name != r.Subject {
				continue
			}
			mm := result.NewScalar("measured/"+r.Output, r.Unit, result.Lower, r.MeasuredLabel, r.Measured)
			mm.Method = r.MeasuredFrom
			res.Metrics = append(res.Metrics, mm)
			if !math.IsNaN(r.ErrorPct) {
				em := result.NewScalar("error/"+r.Output, "%", result.Lower, result.Modelled, r.ErrorPct)
				em.Method = "(modelled − measured) / measured × 100"
				res.Metrics = append(res.Metrics, em)
			}
		}
	}
}
