package tlslab

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/result"
)

// throughputResult is a transfer cell's result carrying only throughput
// samples (MB/s).
func throughputResult(plain bool, size int, samples ...float64) result.Result {
	c := Cell{Version: TLS13, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertECDSAP256, Chain: 1,
		Resumption: ResumeNone, Transfer: size, Direction: Down, Server: "go", Client: "go", Plain: plain}
	r := result.Result{Subject: result.Subject{Kind: SubjectKindTLS, Name: c.Name(), Params: c.Params()}}
	r.Metrics = append(r.Metrics, result.NewSampled(MetricThroughput, "MB/s", result.Higher, result.Measured, samples))
	return r
}

// TestThroughputRanking (fast tier) shows the throughput table's CI and its
// warning: TLS above plain TCP with overlapping intervals, a configuration
// slower at a larger size with overlapping intervals, and cells without an
// interval are all called too wide to rank; disjoint intervals in the
// expected order are not.
func TestThroughputRanking(t *testing.T) {
	const k, k10 = 1 << 10, 10 << 10
	seven := func(center, spread float64) []float64 {
		return []float64{center - 3*spread, center - 2*spread, center - spread, center, center + spread, center + 2*spread, center + 3*spread}
	}
	tests := []struct {
		name  string
		rs    []result.Result
		wants []string // substrings of the notes, in order; none: no note
	}{
		{"ordered and disjoint", []result.Result{
			throughputResult(true, k, seven(0.2, 0.01)...), throughputResult(false, k, seven(0.1, 0.01)...),
			throughputResult(true, k10, seven(1.5, 0.01)...), throughputResult(false, k10, seven(0.3, 0.01)...),
		}, nil},
		{"TLS above TCP, overlapping", []result.Result{
			throughputResult(true, k10, seven(1.0, 0.2)...), throughputResult(false, k10, seven(1.1, 0.2)...),
		}, []string{"10 KiB: TLS 1.3 x25519", "above TCP", "too wide to rank"}},
		{"slower at a larger size, overlapping", []result.Result{
			throughputResult(false, k, seven(1.0, 0.2)...), throughputResult(false, k10, seven(0.9, 0.2)...),
		}, []string{"10 KiB", "below 1 KiB", "too wide to rank"}},
		{"one connection each: no CI", []result.Result{
			throughputResult(true, k10, 1.487), throughputResult(false, k10, 0.250),
		}, []string{"2 cells have no confidence interval (N=1 < 6"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			transfers(&b, tt.rs)
			out := b.String()
			var notes []string
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(l, "  ! ") {
					notes = append(notes, l)
				}
			}
			if len(tt.wants) == 0 {
				if len(notes) > 0 {
					t.Fatalf("unexpected notes:\n%s", out)
				}
			} else {
				all := strings.Join(notes, "\n")
				for _, w := range tt.wants {
					if !strings.Contains(all, w) {
						t.Errorf("notes lack %q:\n%s", w, out)
					}
				}
			}
			if !strings.Contains(out, "[") {
				t.Errorf("no CI printed:\n%s", out)
			}
		})
	}
}

// TestThroughputTableRealRun (full tier: a real Go TLS server and client
// through the lab) runs a 10 KiB transfer with one connection, TLS and
// plain, and checks that the table says the cells cannot be ranked instead
// of printing bare medians.
func TestThroughputTableRealRun(t *testing.T) {
	if testing.Short() {
		t.Skip("full tier: real TLS connections")
	}
	cells := []Cell{
		{Version: TLS13, KeyExchange: KexX25519, Bulk: BulkAES128GCM, Cert: CertECDSAP256, Chain: 1, Resumption: ResumeNone, Transfer: 10 << 10, Direction: Down, Server: "go", Client: "go"},
		{Plain: true, Transfer: 10 << 10, Direction: Down},
	}
	run := &result.Run{Schema: result.Schema, Kind: "tls", Status: result.Complete}
	for _, c := range cells {
		cr := lab.Run(context.Background(), c)
		if cr.Err != nil {
			t.Fatal(cr.Err)
		}
		run.Results = append(run.Results, lab.Result(cr))
	}
	var b bytes.Buffer
	if err := WriteTables(&b, run, TableOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"median [95 % CI]", "[no CI, N=1]", "have no confidence interval (N=1 < 6"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}
