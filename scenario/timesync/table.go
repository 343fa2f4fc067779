package timesync

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/cryptocost/cryptocost/model"
	"github.com/cryptocost/cryptocost/result"
)

// WriteTable prints a run as S003 reported its implementation: per
// receiver and interval, the verification's cost here and on the device,
// the bytes, the clock's deviation after synchronisation and what the
// defences dropped — and beside each variant the built-in secsywise
// model's figures on its default cost table. Numbers that are not
// measurements carry a footnote with their label and method.
func WriteTable(w io.Writer, run *result.Run) error {
	var rs []result.Result
	for _, r := range run.Results {
		if r.Subject.Kind == SubjectKind && r.Subject.Params["scenario"] == "timesync" {
			rs = append(rs, r)
		}
	}
	env := run.Environment
	fmt.Fprintf(w, "timesync (S003) · run %s · %s · %s/%s · device %s\n", run.ID, dash(env.CPUModel), env.OS, env.Arch, dash(env.Device))
	if len(rs) > 0 {
		p := rs[0].Subject.Params
		fmt.Fprintf(w, "link: %s · %s receivers × %s intervals of %s\n", p["link"], p["receivers"], p["syncs"], p["interval"])
	}
	notes := &footnotes{index: map[string]int{}}
	fmt.Fprintln(w, "\nPer receiver and interval (medians)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "SIGNATURE\tATTACK\tVERIFY HERE\tVERIFICATIONS\tMAX/INTERVAL\tMESSAGE B\tPAYLOAD B\tWIRE B\t802.15.4 FRAMES\tDEVIATION\tACCEPTED\tREPLAYS\tFORGERIES\tSKIPPED\t")
	for _, r := range rs {
		p := r.Subject.Params
		name := p["variant"]
		if p["insecure"] != "" {
			name += notes.mark("INSECURE: benchmarking-only ECDSA on " + p["curve"] + " (" + p["insecure"] + ")")
		}
		if r.Error != "" {
			fmt.Fprintf(tw, "%s\t%s\tFAILED%s\t\t\t\t\t\t\t\t\t\t\t\t\n", name, p["attack"], notes.mark(r.Error))
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", name, p["attack"],
			val(r, MetricVerifyTime, "%.3g ms", 1e3, notes), val(r, MetricVerifications, "%.2g", 1, notes),
			val(r, MetricMaxPerInterval, "%.0f", 1, notes), val(r, MetricMessageBytes, "%.0f", 1, notes),
			val(r, MetricPayload, "%.4g", 1, notes), val(r, MetricWire, "%.4g", 1, notes), val(r, MetricFrames, "%.0f", 1, notes),
			val(r, MetricDeviation, "%.3g ms", 1e3, notes), val(r, MetricAccepted, "%.0f", 1, notes),
			val(r, MetricReplayed, "%.0f", 1, notes), val(r, MetricForged, "%.0f", 1, notes), val(r, MetricSkipped, "%.0f", 1, notes))
	}
	tw.Flush()

	how := "cost table telosb: no --device"
	if env.Device != "" {
		how = "priced on " + env.Device + " by the costing stage, as the run"
	}
	fmt.Fprintf(w, "\nOn %s, beside the secsywise model (default point, %s)\n", dash(env.Device), how)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "SIGNATURE\tATTACK\tVERIFY\tENERGY OPS\tENERGY RX\tENERGY\tMODEL: PAYLOAD B\tMODEL: TIME\tMODEL: ENERGY\t")
	modelled := secsywise()
	for _, r := range rs {
		if r.Error != "" {
			continue
		}
		p := r.Subject.Params
		row := []string{p["variant"], p["attack"],
			val(r, OpMetric("op-device-time", r.Subject.Scheme), "%.4g ms", 1e3, notes), val(r, MetricEnergyVerify, "%.4g mJ", 1e3, notes),
			val(r, MetricEnergyRadio, "%.4g mJ", 1e3, notes), val(r, MetricEnergy, "%.4g mJ", 1e3, notes)}
		if m, ok := modelled[p["variant"]]; ok {
			t, e := fmt.Sprintf("%.4g ms", m.timeMS), fmt.Sprintf("%.4g mJ", m.energyMJ)
			if r.Metric("model/energy") != nil { // priced on the run's device
				t, e = val(r, "model/time", "%.4g ms", 1e3, notes), val(r, "model/energy", "%.4g mJ", 1e3, notes)
			}
			row = append(row, fmt.Sprintf("%.4g", m.payload), t, e)
		} else {
			row = append(row, "—", "—", "—")
		}
		for _, warn := range r.Warnings {
			if !strings.HasPrefix(warn, "INSECURE") {
				row[len(row)-1] += notes.mark(warn)
			}
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	tw.Flush()
	fmt.Fprintln(w, "(cryptocost model compare secsywise --measured RUN.json sets every bound output beside the model; see docs/scenario-timesync.md)")
	for i, text := range notes.order {
		fmt.Fprintf(w, "[%d] %s\n", i+1, text)
	}
	if run.Status != result.Complete {
		fmt.Fprintf(w, "run %s: %s\n", run.Status, strings.Join(run.Errors, "; "))
	}
	return nil
}

type modelPoint struct{ payload, timeMS, energyMJ float64 }

// secsywise evaluates the built-in model at its default point, one entry
// per variant (nil map on any error: the table then shows dashes).
func secsywise() map[string]modelPoint {
	out := map[string]modelPoint{}
	m, err := model.Open("secsywise")
	if err != nil {
		return out
	}
	tab, err := model.OpenCosts(m.DefaultCosts)
	if err != nil {
		return out
	}
	plan, err := model.NewPlan(m, tab.Costs(), model.Options{})
	if err != nil {
		return out
	}
	plan.Run(context.Background(), func(pt *model.Point, o *model.Outputs) error {
		if pt.Variant != nil {
			out[pt.Variant.Name] = modelPoint{payload: o.PayloadReceived / 8, timeMS: o.TimeTotal() * 1e3, energyMJ: o.EnergyTotal() * 1e3}
		}
		return nil
	})
	return out
}

type footnotes struct {
	index map[string]int
	order []string
}

func (f *footnotes) mark(text string) string {
	n, ok := f.index[text]
	if !ok {
		f.order = append(f.order, text)
		n = len(f.order)
		f.index[text] = n
	}
	return fmt.Sprintf("[%d]", n)
}

func dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func val(r result.Result, name, format string, scale float64, f *footnotes) string {
	m := r.Metric(name)
	if m == nil {
		return "—"
	}
	s := fmt.Sprintf(format, m.Summary.Median*scale)
	if m.Label != result.Measured {
		s += f.mark(string(m.Label) + ": " + m.Method)
	}
	return s
}

// WriteTable prints the run in the scenario's own tables (the command's
// table format can use it instead of one row per metric).
func (*Scenario) WriteTable(w io.Writer, run *result.Run) error { return WriteTable(w, run) }
