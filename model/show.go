package model

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/cryptocost/cryptocost/result"
)

// ReadMeasured reads the runs to compare a model with: a run JSON file, or
// a built-in reference run by name (s003: S003's measurements of its
// SecSyWiSe implementation on the TelosB).
func ReadMeasured(arg string) ([]*result.Run, error) {
	if !looksLikeFile(arg) {
		data, err := builtinFS.ReadFile("reference/" + strings.ToLower(arg) + ".json")
		if err != nil {
			return nil, fmt.Errorf("no run file or built-in reference run %q: give a run JSON (cryptocost ... -o run.json) or s003", arg)
		}
		runs, err := result.ReadJSON(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("built-in reference run %s: %w", arg, err)
		}
		return runs, nil
	}
	return ReadRuns(arg)
}

// WriteModel describes a model: what it covers, its parameters with
// defaults, ranges and sources, its messages, operations, variants,
// assumptions and measurement bindings.
func WriteModel(w io.Writer, m *Model) error {
	fmt.Fprintf(w, "%s — %s\n", m.Name, m.Title)
	if m.Description != "" {
		fmt.Fprintf(w, "\n%s\n", m.Description)
	}
	fmt.Fprintln(w)
	if m.Per != "" {
		fmt.Fprintf(w, "per:     %s\n", m.Per)
	}
	if m.Source != "" {
		fmt.Fprintf(w, "source:  %s\n", m.Source)
	}
	fmt.Fprintf(w, "file:    %s\n", m.File)
	if m.DefaultCosts != "" {
		fmt.Fprintf(w, "costs:   %s (cryptocost model show %s)\n", m.DefaultCosts, m.DefaultCosts)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "\nparameters")
	fmt.Fprintln(tw, "  NAME\tDEFAULT\tUNIT\tRANGE\tVALUES\tDESCRIPTION / SOURCE")
	for _, p := range m.Params {
		var vals []string
		for _, v := range p.Values {
			vals = append(vals, formatNumber(v))
		}
		desc := p.Description
		if p.DefaultSource != "" {
			desc = strings.TrimPrefix(desc+" ["+p.DefaultSource+"]", " ")
		}
		if p.From != nil {
			desc += " (--inputs: " + p.From.String() + ")"
		}
		kind := ""
		if p.Integer {
			kind = " (whole)"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s%s\t%s\t%s\n", p.Name, formatNumber(p.Default), p.Unit, p.RangeString(), kind, strings.Join(vals, ","), desc)
	}
	tw.Flush()
	if len(m.Definitions) > 0 {
		fmt.Fprintln(w, "\ndefinitions")
		for _, d := range m.Definitions {
			fmt.Fprintf(tw, "  %s\t= %s\n", d.Name, d.Formula.Text)
		}
		tw.Flush()
	}
	if len(m.Messages) > 0 {
		fmt.Fprintln(w, "\nmessages (per node)")
		fmt.Fprintln(tw, "  NAME\tDIR\tBITS\tCOUNT\tPACKETS\tOVERHEAD/PACKET\tDESCRIPTION")
		for _, msg := range m.Messages {
			packets := "1"
			switch {
			case msg.Packets != nil:
				packets = msg.Packets.Text
			case msg.MaxPayload != nil && msg.Fragment:
				packets = "ceil(bits / (" + msg.MaxPayload.Text + "))"
			case msg.MaxPayload != nil:
				packets = "1 (at most " + msg.MaxPayload.Text + " bits)"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\n", msg.Name, msg.Direction(), msg.Bits.Text, msg.Count.Text, packets, formulaText(msg.Overhead), msg.Description)
		}
		tw.Flush()
	}
	if len(m.Operations) > 0 {
		fmt.Fprintln(w, "\noperations (per node)")
		fmt.Fprintln(tw, "  NAME\tCOST OF\tCOUNT\tDESCRIPTION")
		for _, op := range m.Operations {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", op.Name, op.Cost, op.Count.Text, op.Description)
		}
		tw.Flush()
	}
	if len(m.Variants) > 0 {
		fmt.Fprintln(w, "\nvariants")
		for _, v := range m.Variants {
			var parts []string
			for _, s := range v.Set {
				parts = append(parts, s.Param+"="+formatNumber(s.Value))
			}
			var ops []string
			for op, c := range v.Costs {
				ops = append(ops, op+" priced as "+c)
			}
			sort.Strings(ops)
			parts = append(parts, ops...)
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", v.Name, strings.Join(parts, "; "), v.Description)
		}
		tw.Flush()
	}
	if len(m.Assumptions) > 0 {
		fmt.Fprintln(w, "\nassumptions")
		for _, a := range m.Assumptions {
			fmt.Fprintf(w, "  - %s\n", a)
		}
	}
	if len(m.Measured) > 0 {
		fmt.Fprintln(w, "\ncompared with measurements (model compare --measured RUN.json)")
		for _, b := range m.Measured {
			fmt.Fprintf(w, "  %s ← %s\n", b.Output, b.Selector)
		}
	}
	return nil
}

func formulaText(f *Formula) string {
	if f == nil {
		return "0"
	}
	return f.Text
}

// WriteCostTable describes a cost table with every number's source.
func WriteCostTable(w io.Writer, t *CostTable) error {
	fmt.Fprintf(w, "%s — %s\n", t.Name, t.Title)
	fmt.Fprintf(w, "device:  %s\nfile:    %s\n", t.Device, t.File)
	if t.CPUPowerW > 0 {
		fmt.Fprintf(w, "cpu:     %s mW while computing (%s): prices operations given with a time only\n", valueString(t.CPUPowerW*1e3), t.cpuPowerSrc)
	}
	if r := t.Radio; r != nil {
		fmt.Fprintf(w, "radio:   %s: %s bit/s, TX %s/bit, RX %s/bit\n         %s\n", r.Radio, formatNumber(r.RateBitsPerSecond),
			joulesString(r.TxJoulesPerBit), joulesString(r.RxJoulesPerBit), r.Source)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "\noperations")
	fmt.Fprintln(tw, "  NAME\tTIME\tENERGY\tLABEL\tSOURCE")
	for _, name := range t.order {
		oc := t.Ops[name]
		energy := joulesString(oc.EnergyJoules)
		if math.IsNaN(oc.EnergyJoules) {
			energy = "unknown"
		}
		src := oc.Source
		if oc.Method != "" {
			src += "; " + oc.Method
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", name, secondsString(oc.TimeSeconds), energy, oc.Label, src)
	}
	return tw.Flush()
}
