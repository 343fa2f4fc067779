package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/tlslab"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["checktls"] = checkTLS
	scriptCmds["tlsmetric"] = tlsMetric
}

// tlsmetric RUN.json SUBJECT METRIC VALUE: the result whose subject name
// contains SUBJECT has METRIC with median VALUE (with !, a different
// value).
func tlsMetric(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 4 {
		ts.Fatalf("usage: tlsmetric RUN.json SUBJECT METRIC VALUE")
	}
	runs, err := result.ReadJSON(strings.NewReader(ts.ReadFile(args[0])))
	if err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	want, err := strconv.ParseFloat(args[3], 64)
	if err != nil {
		ts.Fatalf("VALUE %q: %v", args[3], err)
	}
	for _, r := range runs[0].Results {
		if !strings.Contains(r.Subject.Name, args[1]) {
			continue
		}
		m := r.Metric(args[2])
		if m == nil {
			ts.Fatalf("%s: no metric %s", r.Subject.Name, args[2])
		}
		if (m.Summary.Median == want) == neg {
			ts.Fatalf("%s: %s = %v (want %s%v)", r.Subject.Name, args[2], m.Summary.Median, map[bool]string{true: "not "}[neg], want)
		}
		ts.Logf("%s: %s = %v", r.Subject.Name, args[2], m.Summary.Median)
		return
	}
	ts.Fatalf("%s: no result whose subject contains %q", args[0], args[1])
}

// checktls RUN.json PCAPDIR: every result of the TLS run has a pcapng
// file in PCAPDIR whose packets, read back with gopacket, carry exactly
// the result's bytes-up/bytes-down (the tap's count) and the modelled
// wire bytes and packets; and its trace adds up to the same.
func checkTLS(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: checktls RUN.json PCAPDIR")
	}
	runs, err := result.ReadJSON(strings.NewReader(ts.ReadFile(args[0])))
	if err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	dir := ts.MkAbs(args[1])
	problems := 0
	for _, r := range runs[0].Results {
		if r.Subject.Kind != tlslab.SubjectKindTLS || r.Error != "" {
			ts.Fatalf("%s: kind %q, error %q", r.Subject.Name, r.Subject.Kind, r.Error)
		}
		name := strings.NewReplacer("/", "_", ".", "").Replace(r.Subject.Name)
		f, err := os.Open(filepath.Join(dir, name+"_1.pcapng"))
		if err != nil {
			ts.Fatalf("%v", err)
		}
		c, err := link.ReadPcapng(f)
		f.Close()
		if err != nil {
			ts.Fatalf("%s: %v", name, err)
		}
		first := func(metric string) float64 {
			m := r.Metric(metric)
			if m == nil {
				ts.Fatalf("%s: no metric %s", r.Subject.Name, metric)
			}
			if len(m.Samples) > 0 {
				return m.Samples[0]
			}
			return m.Summary.Median
		}
		for _, chk := range []struct {
			metric string
			pcap   int64
		}{
			{tlslab.MetricBytesUp, int64(len(c.Up))}, {tlslab.MetricBytesDown, int64(len(c.Down))},
			{tlslab.MetricWireBytesUp, c.UpWireBytes}, {tlslab.MetricWireBytesDown, c.DownWireBytes},
			{tlslab.MetricPacketsUp, int64(c.UpPackets)}, {tlslab.MetricPacketsDown, int64(c.DownPackets)},
		} {
			if got := first(chk.metric); int64(got) != chk.pcap {
				ts.Logf("%s: %s = %v, the pcapng holds %d", r.Subject.Name, chk.metric, got, chk.pcap)
				problems++
			}
		}
		up, down, pu, pd := r.Trace.Totals()
		if int64(up) != c.UpWireBytes || int64(down) != c.DownWireBytes || pu != c.UpPackets || pd != c.DownPackets {
			ts.Logf("%s: trace %d/%d B, %d/%d packets; pcapng %d/%d B, %d/%d packets", r.Subject.Name, up, down, pu, pd,
				c.UpWireBytes, c.DownWireBytes, c.UpPackets, c.DownPackets)
			problems++
		}
	}
	if (problems == 0) == neg {
		ts.Fatalf("checktls: %d disagreements", problems)
	}
}
