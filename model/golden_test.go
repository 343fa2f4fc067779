package model

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite the sweep golden files in testdata/golden/")

// signCosts prices remote-sign's variants for the golden sweep (made-up
// numbers, not measurements).
const signCosts = `
name: golden-sign-costs
device: test board
operations:
  RSA-2048-PKCS1v15-SHA256/sign: {time: "1.386691 ms [test]", energy: "0.03 mJ [test]"}
  RSA-2048-PSS-SHA256/sign: {time: "1.41 ms [test]"}
  RSA-3072-PKCS1v15-SHA256/sign: {time: "4.1 ms [test]", energy: "0.1 mJ [test]"}
  RSA-3072-PSS-SHA256/sign: {time: "4.2 ms [test]"}
  DSA-2048-256-SHA256/sign: {time: "0.7 ms [test]"}
  DSA-3072-256-SHA256/sign: {time: "1.3 ms [test]"}
  ECDSA-P256-SHA256/sign: {time: "43.347 µs [test]", energy: "1.7 µJ [test]"}
  ECDSA-P384-SHA384/sign: {time: "0.31 ms [test]"}
  ECDSA-P521-SHA512/sign: {time: "0.9 ms [test]"}
  Ed25519/sign: {time: "29.158 µs [test]", energy: "1.1 µJ [test]"}
`

// goldenPlans are small sweeps of every built-in model: each parameter
// with study values varied over them, each 0..1 switch over 0 and 1, every
// variant. Together they reach fragments, acknowledgements, definitions,
// integer and fractional outputs and unknown energies.
func goldenPlans(t *testing.T) map[string]*Plan {
	t.Helper()
	ms, err := Builtins()
	if err != nil {
		t.Fatal(err)
	}
	plans := map[string]*Plan{}
	for _, m := range ms {
		tab, err := OpenCosts(m.DefaultCosts)
		if err != nil {
			t.Fatal(err)
		}
		costs := tab.Costs()
		if m.Name == "remote-sign" {
			// Its signing costs come from a bench run: made-up ones here,
			// some without an energy.
			costs.Ops = append(costs.Ops, mustCosts(t, signCosts).Ops...)
		}
		var vary []Vary
		points := 1
		for _, par := range m.Params {
			var vals []float64
			switch {
			case par.Name == "n" && m.Name == "tinysersync":
				vals, _ = parseValues("1..12")
			case par.Name == "d" && m.Name == "tinysersync":
				vals, _ = parseValues("0.5..5:0.5")
			case len(par.Values) > 0:
				vals = par.Values
			case par.HasRange && par.Min == 0 && par.Max == 1:
				vals = []float64{0, 1}
			default:
				continue
			}
			if points*len(vals) > 2000 {
				continue
			}
			points *= len(vals)
			vary = append(vary, Vary{Param: par.Name, Values: vals})
		}
		p, err := NewPlan(m, costs, Options{Vary: vary})
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		plans[m.Name] = p
	}
	return plans
}

// evalDump writes every field of every point's outputs at full
// precision (the shortest text that reads back as the same float64):
// any change to the arithmetic of an evaluation shows here, where the
// CSV's 12 digits could hide it.
func evalDump(t *testing.T, p *Plan) []byte {
	t.Helper()
	var b bytes.Buffer
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	err := p.Run(context.Background(), func(pt *Point, o *Outputs) error {
		fmt.Fprintf(&b, "%s:", p.SubjectName(pt))
		for _, v := range []float64{o.BitsSent, o.BitsReceived, o.PacketsSent, o.PacketsReceived, o.PayloadSent, o.PayloadReceived,
			o.TimeTx, o.TimeRx, o.TimeOps, o.EnergyTx, o.EnergyRx, o.EnergyOps} {
			b.WriteString(" " + g(v))
		}
		for _, m := range o.Messages {
			fmt.Fprintf(&b, " m[%s %s %s %s %s %s %s %s]", g(m.Bits), g(m.Count), g(m.Packets), g(m.Overhead), g(m.FragmentHeaders), g(m.WireBits), g(m.AckBits), g(m.PayloadBits))
		}
		for _, op := range o.Ops {
			fmt.Fprintf(&b, " op[%s %s %s]", g(op.Count), g(op.TimeSeconds), g(op.EnergyJoules))
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSweepGolden: the wide CSV, the results (the long formats' source)
// and the full-precision outputs of a small sweep of every built-in
// model are byte for byte those of the files in testdata/golden/, which
// were generated before the sweep path was rewritten for speed (go test
// ./model -run SweepGolden -update rewrites them). A larger TinySeRSync
// sweep, through the chunked writer, is checked by its SHA-256. Fast tier.
func TestSweepGolden(t *testing.T) {
	check := func(name string, got []byte) {
		t.Helper()
		path := filepath.Join("testdata", "golden", name)
		if *updateGolden {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test ./model -run SweepGolden -update writes it)", err)
		}
		if !bytes.Equal(got, want) {
			gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
			for i := range min(len(gl), len(wl)) {
				if gl[i] != wl[i] {
					t.Errorf("%s differs from the golden file at line %d:\n got %s\nwant %s", name, i+1, gl[i], wl[i])
					return
				}
			}
			t.Errorf("%s: %d lines, the golden file %d", name, len(gl), len(wl))
		}
	}
	for name, p := range goldenPlans(t) {
		var csv bytes.Buffer
		if _, err := p.WriteSweepCSV(context.Background(), &csv, true); err != nil {
			t.Fatal(err)
		}
		check(name+".csv", csv.Bytes())
		check(name+".eval", evalDump(t, p))
		run := NewRun()
		if err := p.AppendResults(context.Background(), run, true); err != nil {
			t.Fatal(err)
		}
		js, err := json.MarshalIndent(run.Results, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		// The results are large: their digest (-update also writes the
		// JSON itself next to it, untracked, to diff against).
		if *updateGolden {
			check(name+".results.json", append(js, '\n'))
		}
		sum := sha256.Sum256(append(js, '\n'))
		check(name+".results.json.sha256", []byte(hex.EncodeToString(sum[:])+"\n"))
	}

	// 20 000 points in 5 chunks of the parallel writer, every output
	// changing from row to row.
	m, _ := Open("tinysersync")
	tab, _ := OpenCosts("telosb")
	ns, _ := parseValues("1..1000")
	ds, _ := parseValues("0.5..10:0.5")
	p, err := NewPlan(m, tab.Costs(), Options{Vary: []Vary{{Param: "n", Values: ns}, {Param: "d", Values: ds}}})
	if err != nil {
		t.Fatal(err)
	}
	var csv bytes.Buffer
	if n, err := p.WriteSweepCSV(context.Background(), &csv, true); err != nil || n != 20000 {
		t.Fatalf("%d points, %v", n, err)
	}
	sum := sha256.Sum256(csv.Bytes())
	check("tinysersync-20000.csv.sha256", []byte(hex.EncodeToString(sum[:])+"\n"))
}

// TestFastEvalAgrees: at every point of the golden sweeps the sweeps'
// fast evaluation succeeds and gives the checked evaluation's outputs,
// bit for bit (the error cases are TestEvalErrors'). Fast tier.
func TestFastEvalAgrees(t *testing.T) {
	for name, p := range goldenPlans(t) {
		fast, checked := p.Eval.clone(), p.Eval.clone()
		var fo, co Outputs
		n := 0
		err := p.Run(context.Background(), func(pt *Point, _ *Outputs) error {
			n++
			if !fast.evalFast(pt.Case, pt.Values, &fo) {
				return fmt.Errorf("%s: evalFast fails", p.SubjectName(pt))
			}
			if err := checked.evalChecked(pt.Case, pt.Values, &co); err != nil {
				return err
			}
			if a, b := fmt.Sprintf("%#v", fo), fmt.Sprintf("%#v", co); a != b {
				return fmt.Errorf("%s: fast %s\nchecked %s", p.SubjectName(pt), a, b)
			}
			return nil
		})
		if err != nil || n == 0 {
			t.Errorf("%s: %d points, %v", name, n, err)
		}
	}
}
