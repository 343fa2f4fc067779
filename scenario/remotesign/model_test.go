package remotesign

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/cryptocost/cryptocost/model"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scenario"
	"github.com/cryptocost/cryptocost/scheme"
)

// The analytic model (model/models/remote-sign.yaml) describes this
// package's protocol: its fixed frame sizes are the protocol's, each
// variant's scheme name length is the name's, each signature size is the
// scheme's largest, and every variant is a scheme the scenario runs.
func TestModelMatchesProtocol(t *testing.T) {
	m, err := model.Open("remote-sign")
	if err != nil {
		t.Fatal(err)
	}
	param := func(name string) float64 {
		for _, p := range m.Params {
			if p.Name == name {
				return p.Default
			}
		}
		t.Fatalf("the model has no parameter %s", name)
		return 0
	}
	if param("request_fixed") != SignRequestFixedBytes || param("response_fixed") != SignResponseFixedBytes {
		t.Errorf("model frames %v/%v B, protocol %d/%d", param("request_fixed"), param("response_fixed"), SignRequestFixedBytes, SignResponseFixedBytes)
	}
	if len(m.Variants) != len(DefaultSchemes) {
		t.Errorf("%d variants for %d default schemes", len(m.Variants), len(DefaultSchemes))
	}
	for _, v := range m.Variants {
		s, err := scheme.Lookup(v.Name)
		if err != nil {
			t.Errorf("variant %s is no scheme: %v", v.Name, err)
			continue
		}
		set := map[string]float64{}
		for _, st := range v.Set {
			set[st.Param] = st.Value
		}
		if set["name_bytes"] != float64(len(v.Name)) {
			t.Errorf("%s: name_bytes %v, the name has %d", v.Name, set["name_bytes"], len(v.Name))
		}
		if want := s.Info().Sizes.Signature; set["sig_bytes"] != float64(want) {
			t.Errorf("%s: sig_bytes %v, the scheme's signature is at most %d B", v.Name, set["sig_bytes"], want)
		}
		if v.Costs["sign"] != v.Name+"/sign" {
			t.Errorf("%s: sign priced as %s", v.Name, v.Costs["sign"])
		}
	}
}

// model compare remote-sign --measured binds a scenario run: the
// modelled stream bytes of a plain request are the measured ones exactly.
func TestModelComparesWithRun(t *testing.T) {
	s := newScenario(t, "--schemes", "Ed25519", "--docs", "1k", "--repeats", "2", "--mode", "plain,tls", "--calibrations", t.TempDir())
	run, err := s.Run(context.Background(), scenario.Env{})
	if err != nil || run.Status != result.Complete {
		t.Fatalf("%v %v", err, run.Errors)
	}
	m, err := model.Open("remote-sign")
	if err != nil {
		t.Fatal(err)
	}
	// Price the signature with what the run measured (a bench run would
	// do the same), through a file as --op-times reads it.
	bench := &result.Run{Schema: result.Schema, ID: "bench", Kind: "bench", Results: []result.Result{{
		Subject: result.Subject{Kind: "primitive", Name: "Ed25519@go/sign/1k", Scheme: "Ed25519", Operation: "sign"},
		Metrics: []result.Metric{result.NewScalar("time", "ns/op", result.Lower, result.Measured, 40000)}}}}
	costs, err := model.NewRunCosts(filepath.Join(t.TempDir(), "bench.json"), []*result.Run{bench})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := model.OpenCosts("telosb")
	if err != nil {
		t.Fatal(err)
	}
	c := tab.Costs()
	c.Ops = append(c.Ops, costs)
	plan, err := model.NewPlan(m, c, model.Options{Variants: []string{"Ed25519"}, Set: map[string]float64{"tls": 1}})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := plan.CompareMeasured(context.Background(), []*result.Run{run})
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, r := range rows {
		found[r.Output] = true
		if (r.Output == "payload-bytes-received" || r.Output == "payload-bytes-sent") && r.ErrorPct != 0 {
			t.Errorf("%s: modelled %v, measured %v", r.Output, r.Modelled, r.Measured)
		}
	}
	for _, o := range []string{"payload-bytes-received", "payload-bytes-sent", "bytes-received", "packets-received", "time-ops"} {
		if !found[o] {
			t.Errorf("no %s row: %+v", o, rows)
		}
	}
}
