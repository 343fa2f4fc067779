package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image/png"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/report/figure"
	"github.com/cryptocost/cryptocost/result"
	"gonum.org/v1/plot"
)

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func newRun(id, kind string, results ...result.Result) *result.Run {
	return &result.Run{Schema: result.Schema, ID: id, Kind: kind, Tool: result.Tool{Name: "cryptocost", Version: "v0.0.0-test"},
		Started: t0, Finished: t0.Add(time.Minute), Status: result.Complete,
		Environment: result.Environment{Hostname: "lab1", OS: "linux", Arch: "amd64", GoVersion: "go1.26.8", CPUModel: "Test CPU", CPUs: 2},
		Results:     results}
}

// spread returns 10 samples around v.
func spread(v float64) []float64 {
	var s []float64
	for _, d := range []float64{0, 0.01, -0.01, 0.02, -0.02, 0.005, -0.005, 0.03, -0.03, 0.001} {
		s = append(s, v*(1+d))
	}
	return s
}

func prim(scheme, provider, family, op string, size int, params map[string]string, metrics ...result.Metric) result.Result {
	name := scheme + "@" + provider + "/" + op
	if size > 0 {
		name += fmt.Sprintf("/%d", size)
	}
	return result.Result{Subject: result.Subject{Kind: "primitive", Name: name, Scheme: scheme, Provider: provider,
		Family: family, Operation: op, InputBytes: size, Params: params}, Metrics: metrics,
		Provenance: result.Provenance{Label: result.Measured, Method: result.Method{Name: "adaptive", Timer: "monotonic clock"},
			Verified: "known-answer test passed: test vectors"}}
}

func timeM(ns float64) result.Metric {
	return result.NewSampled("time", "ns/op", result.Lower, result.Measured, spread(ns))
}

func mbs(v float64) result.Metric {
	return result.NewSampled("throughput", "MB/s", result.Higher, result.Measured, spread(v))
}

func scalar(name, unit string, label result.Label, v float64) result.Metric {
	return result.NewScalar(name, unit, result.Lower, label, v)
}

// benchRun is shaped like `cryptocost bench`: hashes at three sizes, an
// AEAD at one size, signatures at several levels, key generation.
func benchRun() *result.Run {
	sec := func(bits, kt string) map[string]string {
		return map[string]string{"security_bits": bits, "key_type": kt}
	}
	return newRun("R-bench", "bench",
		prim("SHA-256", "go", "hash", "hash", 64, nil, timeM(100), mbs(640)),
		prim("SHA-256", "go", "hash", "hash", 1024, nil, timeM(1000), mbs(1024)),
		prim("SHA-256", "go", "hash", "hash", 8192, nil, timeM(7000), mbs(1170)),
		prim("SHA3-256", "go", "hash", "hash", 64, nil, timeM(300), mbs(213)),
		prim("SHA3-256", "go", "hash", "hash", 1024, nil, timeM(3000), mbs(341)),
		prim("AES-128-GCM", "go", "aead", "seal", 1024, nil, timeM(500), mbs(2048)),
		prim("ChaCha20-Poly1305", "x/crypto", "aead", "seal", 1024, nil, timeM(800), mbs(1280)),
		prim("ECDSA-P256-SHA256", "go", "sign", "sign", 32, sec("128", "ECDSA P-256"), timeM(30000)),
		prim("ECDSA-P256-SHA384", "go", "sign", "sign", 32, sec("128", "ECDSA P-256"), timeM(31000)),
		prim("ECDSA-P384-SHA384", "go", "sign", "sign", 32, sec("192", "ECDSA P-384"), timeM(300000)),
		prim("RSA-3072-PSS-SHA256", "go", "sign", "sign", 32, sec("128", "RSA-3072"), timeM(4e6)),
		prim("RSA-7680-PSS-SHA384", "go", "sign", "sign", 32, sec("192", "RSA-7680"), timeM(50e6)),
		prim("Ed25519", "go", "sign", "sign", 32, sec("128", "Ed25519"), timeM(25000)),
		prim("ML-DSA-65", "circl", "sign", "sign", 32, sec("192", "ML-DSA-65"), timeM(200000)),
		prim("ECDSA-P256-SHA256", "go", "sign", "verify", 32, sec("128", "ECDSA P-256"), timeM(90000)),
		prim("RSA-2048-PKCS1v15-SHA256", "go", "sign", "keygen", 0, sec("112", "RSA-2048"),
			result.NewSampled("time", "ns/op", result.Lower, result.Measured, []float64{40e6, 55e6, 120e6, 30e6, 80e6, 300e6, 45e6, 60e6})),
		prim("Ed25519", "go", "sign", "keygen", 0, sec("128", "Ed25519"), timeM(20000)),
	)
}

// tlsRun is shaped like the TLS lab's output: handshake bytes per message
// as metrics, one handshake known only by its labelled packet trace, and
// energy split into components (one without a radio figure).
func tlsRun() *result.Run {
	hs := func(name string, up, down map[string]float64, energy map[string]float64) result.Result {
		r := result.Result{Subject: result.Subject{Kind: "tls", Name: name}, Provenance: result.Provenance{Label: result.Measured, Method: result.Method{Name: "tls-lab"}}}
		for _, k := range sortedKeys(up) {
			r.Metrics = append(r.Metrics, scalar("bytes.up."+k, "B", result.Measured, up[k]))
		}
		for _, k := range sortedKeys(down) {
			r.Metrics = append(r.Metrics, scalar("bytes.down."+k, "B", result.Measured, down[k]))
		}
		for _, k := range sortedKeys(energy) {
			unit, v := "mJ", energy[k]
			if k == "radio" {
				unit, v = "J", v/1000 // mixed units: converted to mJ
			}
			r.Metrics = append(r.Metrics, result.Metric{Name: "energy." + k, Unit: unit, Label: result.Modelled,
				Method: "CPU time × N95 profile power", Summary: scalar("", "", "", v).Summary})
		}
		return r
	}
	traced := result.Result{Subject: result.Subject{Kind: "tls", Name: "tls12/RSA-AES128-SHA/resumed"},
		Metrics:    []result.Metric{scalar("handshake-time", "ns", result.Measured, 2e6)},
		Provenance: result.Provenance{Label: result.Measured},
		Trace: &result.Trace{HeaderModel: "TCP/IPv4 40 B per segment", Packets: []result.Packet{
			{TimeNs: 0, Dir: result.Up, Bytes: 40, Label: "TCP SYN"},
			{TimeNs: 0, Dir: result.Up, Bytes: 182, Payload: 142, Label: "ClientHello"},
			{TimeNs: 1, Dir: result.Down, Bytes: 168, Payload: 128, Label: "ServerHello"},
			{TimeNs: 2, Dir: result.Down, Bytes: 80, Payload: 40, Label: "Finished"},
			{TimeNs: 3, Dir: result.Up, Bytes: 1040, Payload: 1000, Label: "app data"},
		}}}
	return newRun("R-tls", "tls",
		hs("tls12/RSA-AES128-SHA/full", map[string]float64{"ClientHello": 142, "ClientKeyExchange": 267, "ChangeCipherSpec": 6, "Finished": 53},
			map[string]float64{"ServerHello": 85, "Certificate": 2200, "ServerHelloDone": 9, "Finished": 53, "ApplicationData": 5e6},
			map[string]float64{"asymmetric": 60, "symmetric": 5, "hashing": 2, "radio": 30}),
		hs("tls12/DHE-RSA-AES128-SHA/full", map[string]float64{"ClientHello": 142, "ClientKeyExchange": 267},
			map[string]float64{"ServerHello": 85, "Certificate": 2200, "ServerKeyExchange": 402},
			map[string]float64{"asymmetric": 700, "symmetric": 5, "hashing": 2}),
		traced,
	)
}

func transferRun() *result.Run {
	var rs []result.Result
	for _, size := range []int{1024, 10240, 102400} {
		for _, mode := range []string{"tls", "tcp"} {
			r := result.Result{Subject: result.Subject{Kind: "tls-transfer", Name: fmt.Sprintf("transfer/%s/%d", mode, size),
				Params: map[string]string{"transfer_bytes": fmt.Sprint(size)}},
				Metrics:    []result.Metric{result.NewSampled("throughput", "MB/s", result.Higher, result.Measured, spread(float64(size)/1e4))},
				Provenance: result.Provenance{Label: result.Measured}}
			if mode == "tls" {
				r.Metrics = append(r.Metrics, scalar("overhead", "%", result.Measured, 265.7*1024/float64(size)))
			}
			rs = append(rs, r)
		}
	}
	return newRun("R-transfer", "tls", rs...)
}

// mcuRun is shaped like `cryptocost mcu bench`: a block cipher and a
// public-key kernel at two optimisation levels, four decades apart.
func mcuRun() *result.Run {
	var rs []result.Result
	for _, opt := range []string{"-Os", "-O2"} {
		for _, k := range []struct {
			scheme, op string
			size       int
			cycles     float64
			ram, rom   float64
		}{
			{"AES-128", "encrypt", 16, 2800, 180, 1600},
			{"AES-128", "key-schedule", 0, 1100, 180, 1600},
			{"X25519", "scalarmult", 0, 14e6, 620, 4200},
		} {
			name := fmt.Sprintf("%s@atmega328p%s/%s", k.scheme, opt, k.op)
			if k.size > 0 {
				name += fmt.Sprintf("/%d", k.size)
			}
			scale := map[string]float64{"-Os": 1, "-O2": 0.8}[opt]
			rs = append(rs, result.Result{Subject: result.Subject{Kind: "mcu", Name: name, Scheme: k.scheme, Operation: k.op, InputBytes: k.size,
				Params: map[string]string{"target": "atmega328p", "opt": opt, "label": k.scheme}},
				Metrics: []result.Metric{
					scalar("cycles", "cycles", result.Simulated, k.cycles*scale),
					scalar("time", "s", result.Simulated, k.cycles*scale/16e6),
					scalar("ram", "B", result.Measured, k.ram),
					scalar("rom", "B", result.Measured, k.rom/scale),
				},
				Provenance: result.Provenance{Label: result.Simulated, Source: "simavr 1.6; avr-gcc 5.4.0"}})
		}
	}
	return newRun("R-mcu", "mcu", rs...)
}

func modelRun() *result.Run {
	var rs []result.Result
	for _, n := range []int{2, 6, 10} {
		for _, proto := range []string{"secsywise", "tinysersync"} {
			e := map[string]float64{"secsywise": 25, "tinysersync": 8}[proto] * float64(n)
			if proto == "secsywise" {
				e = 25 + float64(n)
			}
			rs = append(rs, result.Result{Subject: result.Subject{Kind: "model", Name: fmt.Sprintf("%s/n=%d", proto, n),
				Params: map[string]string{"sweep": "n", "n": fmt.Sprint(n)}},
				Metrics:    []result.Metric{scalar("energy", "mJ", result.Modelled, e)},
				Provenance: result.Provenance{Label: result.Modelled, Source: "seed003 model"}})
		}
	}
	rs = append(rs,
		result.Result{Subject: result.Subject{Kind: "battery", Name: "ecdsa-p256/10min/telosb", Scheme: "ECDSA-P256-SHA256",
			Params: map[string]string{"device": "telosb"}},
			Metrics:    []result.Metric{scalar("battery-life", "days", result.Modelled, 420)},
			Provenance: result.Provenance{Label: result.Modelled, Source: "TelosB profile"}},
		result.Result{Subject: result.Subject{Kind: "battery", Name: "ecdsa-p256/10min/n95", Scheme: "ECDSA-P256-SHA256",
			Params: map[string]string{"device": "n95"}},
			Metrics:    []result.Metric{scalar("battery-life", "h", result.Modelled, 48)},
			Provenance: result.Provenance{Label: result.Modelled, Source: "N95 profile"}},
	)
	return newRun("R-model", "model", rs...)
}

func build(t *testing.T, b Builder, runs ...*result.Run) []*Chart {
	t.Helper()
	cs, err := b.Build(NewInput(runs...))
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func ids(cs []*Chart) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return strings.Join(out, ",")
}

// row finds the table row whose first cells are prefix.
func row(t *testing.T, c *Chart, prefix ...string) []string {
	t.Helper()
	for _, r := range c.Table.Rows {
		if len(r) >= len(prefix) && slices.Equal(r[:len(prefix)], prefix) {
			return r
		}
	}
	t.Fatalf("%s: no table row %v in %v", c.ID, prefix, c.Table.Rows)
	return nil
}

func TestThroughput(t *testing.T) {
	cs := build(t, throughputBuilder, benchRun())
	if got := ids(cs); got != "throughput-hash,throughput-aead" {
		t.Fatalf("charts %s", got)
	}
	if len(cs[0].Legend) != 2 || cs[0].Legend[0].Name != "SHA-256@go hash" {
		t.Errorf("hash legend %+v (one line per algorithm)", cs[0].Legend)
	}
	if r := row(t, cs[0], "SHA3-256@go hash", "1 KiB"); r[2] != "341.2" || r[4] != "measured" {
		t.Errorf("SHA3 1k row %v", r)
	}
	// One size: bars, fastest first in the table.
	if cs[1].Legend != nil || cs[1].Table.Rows[0][0] != "AES-128-GCM@go seal" {
		t.Errorf("aead bars: legend %v, first row %v", cs[1].Legend, cs[1].Table.Rows[0])
	}
	if !strings.Contains(strings.Join(cs[0].Sources, " "), "measured — adaptive method, monotonic clock") {
		t.Errorf("sources %v", cs[0].Sources)
	}
}

func TestSignatureCost(t *testing.T) {
	cs := build(t, signatureBuilder, benchRun())
	if got := ids(cs); got != "signature-sign,signature-verify,signature-keygen" {
		t.Fatalf("charts %s", got)
	}
	sign := cs[0]
	// The fastest ECDSA at 128 bits is the SHA-256 variant (30 µs < 31 µs).
	if r := row(t, sign, "ECDSA", "128"); r[2] != "ECDSA-P256-SHA256@go" || r[3] != "30 µs" {
		t.Errorf("ECDSA 128 row %v", r)
	}
	if r := row(t, sign, "RSA", "192"); r[2] != "RSA-7680-PSS-SHA384@go" || r[3] != "50 ms" {
		t.Errorf("RSA 192 row %v", r)
	}
	var types []string
	for _, l := range sign.Legend {
		types = append(types, l.Name)
	}
	if strings.Join(types, ",") != "ECDSA,EdDSA,ML-DSA,RSA" {
		t.Errorf("signature types %v", types)
	}
}

func TestSignatureType(t *testing.T) {
	for kt, want := range map[string]string{"ECDSA P-256": "ECDSA", "RSA-2048": "RSA", "ML-DSA-65": "ML-DSA",
		"SLH-DSA-SHA2-128s": "SLH-DSA-SHA2", "Ed25519": "EdDSA", "Ed448": "EdDSA", "DSA-2048": "DSA"} {
		if got := signatureType(result.Subject{Params: map[string]string{"key_type": kt}}); got != want {
			t.Errorf("signatureType(%q) = %q, want %q", kt, got, want)
		}
	}
}

func TestKeygenDistribution(t *testing.T) {
	cs := build(t, keygenBuilder, benchRun())
	if len(cs) != 1 {
		t.Fatalf("charts %s", ids(cs))
	}
	// Fastest at the top of the chart and first in the table; the
	// quartiles are the Hyndman–Fan type 8 ones the tables use:
	// sorted samples 30 40 45 55 60 80 120 300 ms, median (55+60)/2.
	r := cs[0].Table.Rows[1]
	if r[0] != "RSA-2048-PKCS1v15-SHA256@go" || r[1] != "8" || r[4] != "57.5 ms" || r[6] != "300 ms" {
		t.Errorf("RSA keygen row %v", r)
	}
	if len(cs[0].Table.Rows) != 2 {
		t.Errorf("rows %v", cs[0].Table.Rows)
	}
}

func TestHandshakeBytes(t *testing.T) {
	cs := build(t, handshakeBuilder, tlsRun())
	if len(cs) != 1 {
		t.Fatalf("charts %s", ids(cs))
	}
	c := cs[0]
	h := c.Table.Header
	col := func(name string) int { return slices.Index(h, name) }
	if !(col("ClientHello") < col("ServerHello") && col("ServerHello") < col("Certificate") && col("Certificate") < col("ServerKeyExchange")) {
		t.Errorf("messages not in wire order: %v", h)
	}
	// Totals are the sums of the inputs, by hand: 142+267+6+53 = 468 sent,
	// 85+2200+9+53 = 2347 received.
	total, bulk := col("total"), col("other traffic (not drawn)")
	if r := row(t, c, "tls12/RSA-AES128-SHA/full ↑ sent"); r[total] != "468" {
		t.Errorf("sent total %v", r)
	}
	if r := row(t, c, "tls12/RSA-AES128-SHA/full ↓ received"); r[total] != "2347" || r[bulk] != "5e+06" {
		t.Errorf("received total %v (5 MB of application data beside it, not in it)", r)
	}
	// From the trace: TLS payload bytes, application data left out (and
	// counted beside), TCP's own segments left out.
	if r := row(t, c, "tls12/RSA-AES128-SHA/resumed ↑ sent"); r[total] != "142" || r[bulk] != "1000" {
		t.Errorf("traced sent total %v", r)
	}
	if r := row(t, c, "tls12/RSA-AES128-SHA/resumed ↓ received"); r[total] != "168" {
		t.Errorf("traced received total %v", r)
	}
	if slices.Contains(h, "ApplicationData") || slices.Contains(h, "TCP SYN") {
		t.Errorf("bulk or TCP bytes drawn as handshake messages: %v", h)
	}
	// 5 MB of application data beside 2 kB handshakes: were it drawn, the
	// axis would span three decades; without it, it is linear.
	if err := c.Check(); err != nil {
		t.Error(err)
	}
	if r := row(t, c, "tls12/DHE-RSA-AES128-SHA/full ↓ received"); r[col("ServerKeyExchange")] != "402" || r[col("ServerHelloDone")] != "—" {
		t.Errorf("DHE row %v", r)
	}
}

func TestEnergyComponents(t *testing.T) {
	cs := build(t, energyBuilder, tlsRun())
	if len(cs) != 1 {
		t.Fatalf("charts %s", ids(cs))
	}
	c := cs[0]
	if got := strings.Join(c.Table.Header, ","); got != "subject,asymmetric,symmetric,hashing,radio,total" {
		t.Errorf("components %s", got)
	}
	// radio was given in J (0.03 J = 30 mJ): 60+5+2+30 = 97 mJ.
	if r := row(t, c, "tls12/RSA-AES128-SHA/full"); r[4] != "30" || r[5] != "97" {
		t.Errorf("RSA energy row %v", r)
	}
	if !strings.Contains(c.Caption, "radio not given for tls12/DHE-RSA-AES128-SHA/full (absent, not zero)") {
		t.Errorf("caption does not say the radio part is absent: %s", c.Caption)
	}
	if !strings.Contains(strings.Join(c.Sources, ";"), "modelled — CPU time × N95 profile power") {
		t.Errorf("sources %v", c.Sources)
	}
	bad := tlsRun()
	bad.Results[0].Metrics = append(bad.Results[0].Metrics, scalar("energy.io", "mA", result.Measured, 1))
	if _, err := energyBuilder.Build(NewInput(bad)); err == nil || !strings.Contains(err.Error(), `unit "mA"`) {
		t.Errorf("a current as energy: %v", err)
	}
}

func TestTransfer(t *testing.T) {
	cs := build(t, transferBuilder, transferRun())
	if got := ids(cs); got != "transfer-overhead,transfer-throughput" {
		t.Fatalf("charts %s", got)
	}
	if len(cs[0].Legend) != 1 || cs[0].Legend[0].Name != "transfer/tls" {
		t.Errorf("overhead series %+v", cs[0].Legend)
	}
	if len(cs[1].Legend) != 2 {
		t.Errorf("throughput series %+v, want tls and tcp", cs[1].Legend)
	}
	if r := row(t, cs[0], "transfer/tls", "1 KiB"); r[2] != "265.7 %" {
		t.Errorf("1 KiB overhead %v", r)
	}
}

func TestModelSweepAndBattery(t *testing.T) {
	cs := build(t, sweepBuilder, modelRun())
	if got := ids(cs); got != "sweep-n-energy" {
		t.Fatalf("charts %s", got)
	}
	if len(cs[0].Legend) != 2 || cs[0].Legend[0].Name != "secsywise" {
		t.Errorf("sweep series %+v", cs[0].Legend)
	}
	if r := row(t, cs[0], "tinysersync", "10"); r[2] != "80" || r[3] != "modelled" {
		t.Errorf("tinysersync n=10 row %v", r)
	}
	cs = build(t, batteryBuilder, modelRun())
	if len(cs) != 1 {
		t.Fatalf("battery charts %s", ids(cs))
	}
	// 48 h = 2 days.
	// The workload is the subject's name without its device, so the row
	// reads the same on both devices.
	if r := row(t, cs[0], "ecdsa-p256/10min", "n95"); r[2] != "2" {
		t.Errorf("n95 battery row %v", r)
	}
	if r := row(t, cs[0], "ecdsa-p256/10min", "telosb"); r[2] != "420" || r[3] != "1.15" {
		t.Errorf("telosb battery row %v", r)
	}
}

// TestBuildersNeedTheirData: no builder draws from data that is not its
// own.
func TestBuildersNeedTheirData(t *testing.T) {
	mine := map[string]*result.Run{
		"throughput": benchRun(), "signature-cost": benchRun(), "keygen-distribution": benchRun(),
		"handshake-bytes": tlsRun(), "energy-components": tlsRun(), "transfer": transferRun(),
		"model-sweep": modelRun(), "battery-life": modelRun(), "providers": providerRun(), "mcu": mcuRun(),
	}
	for _, b := range Builders() {
		if mine[b.Name] == nil {
			t.Errorf("builder %s has no fixture in this test", b.Name)
			continue
		}
		if cs := build(t, b, mine[b.Name]); len(cs) == 0 {
			t.Errorf("%s drew nothing from its fixture", b.Name)
		}
		for name, run := range mine {
			if run == mine[b.Name] || (name != b.Name && sameRun(run, mine[b.Name])) {
				continue
			}
			if cs := build(t, b, run); len(cs) > 0 {
				t.Errorf("%s drew %s from %s's data", b.Name, ids(cs), name)
			}
		}
	}
}

func sameRun(a, b *result.Run) bool { return a.ID == b.ID }

// TestRender draws every chart as SVG (well-formed XML) and PNG (a
// decodable image of the chart's size at 150 dpi).
func TestRender(t *testing.T) {
	in := NewInput(benchRun(), tlsRun(), transferRun(), modelRun(), providerRun(), mcuRun())
	charts, absent, err := BuildAll(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(absent) != 0 {
		t.Errorf("builders without a chart: %v", absent)
	}
	for _, c := range charts {
		var svg bytes.Buffer
		if err := c.Render(&svg, "svg"); err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		dec := xml.NewDecoder(&svg)
		for {
			_, err := dec.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: SVG is not well-formed XML: %v", c.ID, err)
			}
		}
		var pngBuf bytes.Buffer
		if err := c.Render(&pngBuf, "png"); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&pngBuf)
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		if w := img.Bounds().Dx(); w != int(figure.DefaultWidth.Dots(150)+0.5) && w != int(figure.DefaultWidth.Dots(150)) {
			t.Errorf("%s: PNG %d px wide, want 17 cm at 150 dpi", c.ID, w)
		}
	}
	if err := charts[0].Render(io.Discard, "gif"); err == nil {
		t.Error("gif accepted")
	}
}

func TestHTML(t *testing.T) {
	runs := []*result.Run{benchRun(), tlsRun(), transferRun(), modelRun()}
	var buf bytes.Buffer
	if err := WriteHTML(&buf, runs, Options{Origins: map[string]string{"R-tls": "imported from lab.json"}, Tool: "v0-test"}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	charts, _, _ := BuildAll(NewInput(runs...))
	if n := strings.Count(page, "<svg "); n != len(charts) || n < 10 {
		t.Errorf("%d inline SVGs for %d charts", n, len(charts))
	}
	// Self-contained: no script, and no URL but the SVG namespaces.
	if strings.Contains(page, "<script") {
		t.Error("the report has a script")
	}
	for _, u := range regexp.MustCompile(`(?:https?:)?//[a-zA-Z0-9.-]+\.[a-z]{2,}[^"' )]*`).FindAllString(page, -1) {
		if !strings.HasPrefix(u, "http://www.w3.org/") {
			t.Errorf("the report refers to %s", u)
		}
	}
	if !strings.Contains(page, "@font-face{font-family:'Liberation Sans';src:url(data:font/ttf;base64,") {
		t.Error("font not embedded")
	}
	for _, want := range []string{
		"<title>cryptocost report</title>", "Figure 1. Throughput: hash.", "imported from lab.json",
		`class="notmeasured"`, "seed003 model", "Known-answer", "The numbers behind figure 1",
		`id="signature-sign"`, "Test CPU",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(page, "<?xml") {
		t.Error("XML prolog inside HTML")
	}
	// Only primitives: the other charts are listed with what they need.
	buf.Reset()
	if err := WriteHTML(&buf, []*result.Run{benchRun()}, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "Charts not drawn") || !strings.Contains(buf.String(), `bytes.up.&lt;Message&gt;`) {
		t.Error("absent charts are not explained")
	}
	if err := WriteHTML(&buf, nil, Options{}); err == nil {
		t.Error("a report of no runs")
	}
}

func TestLogTicks(t *testing.T) {
	labels := func(lo, hi float64) string {
		var out []string
		for _, tk := range (logTicks{}).Ticks(lo, hi) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{
		{0.03, 30, "0.05 0.1 0.2 0.5 1 2 5 10 20"},
		{1, 1e6, "1 10 100 1000 10000 100000 1e+06"},
		{3, 4, "3 4"}, // no 1-2-5 value inside: the ends
	} {
		if got := labels(c.lo, c.hi); got != c.want {
			t.Errorf("ticks(%v, %v) = %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}

// TestSignatureOneLevel: with every scheme at one strength, bars per
// scheme replace the lines against strength.
func TestSignatureOneLevel(t *testing.T) {
	sec := map[string]string{"security_bits": "128", "key_type": "Ed25519"}
	run := newRun("R-one", "bench",
		prim("Ed25519", "go", "sign", "sign", 32, sec, timeM(25000)),
		prim("ECDSA-P256-SHA256", "go", "sign", "sign", 32, map[string]string{"security_bits": "128", "key_type": "ECDSA P-256"}, timeM(30000)))
	cs := build(t, signatureBuilder, run)
	if len(cs) != 1 || cs[0].Legend != nil || cs[0].Title != "Signature schemes: sign time at 128 bits" {
		t.Fatalf("charts %s %+v", ids(cs), cs)
	}
	if r := cs[0].Table.Rows[0]; r[0] != "ECDSA-P256-SHA256@go" || r[2] != "30.02" || r[3] != "29.4 – 30.6" || cs[0].Table.Header[2] != "median (µs)" {
		t.Errorf("first row %v, header %v", r, cs[0].Table.Header)
	}
}

// TestEveryChartReadable holds every chart the fixtures draw to the
// readability rules (figure.Figure.Check).
func TestEveryChartReadable(t *testing.T) {
	charts, _, err := BuildAll(NewInput(benchRun(), tlsRun(), transferRun(), modelRun(), providerRun(), mcuRun()))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range charts {
		if err := c.Check(); err != nil {
			t.Error(err)
		}
	}
}

// TestThroughputPages: 30 hash algorithms make three charts of at most 12
// lines, fastest first, the first keeping the family's ID.
func TestThroughputPages(t *testing.T) {
	var rs []result.Result
	for i := range 30 {
		for _, size := range []int{64, 1024} {
			rs = append(rs, prim(fmt.Sprintf("H%02d", i), "go", "hash", "hash", size, nil, mbs(float64(10+i)*float64(size)/64)))
		}
	}
	cs := build(t, throughputBuilder, newRun("R-many", "bench", rs...))
	if got := ids(cs); got != "throughput-hash,throughput-hash-2,throughput-hash-3" {
		t.Fatalf("charts %s", got)
	}
	for _, c := range cs {
		if len(c.Legend) > figure.MaxLegend {
			t.Errorf("%s: %d legend entries", c.ID, len(c.Legend))
		}
		if err := c.Check(); err != nil {
			t.Error(err)
		}
	}
	if cs[0].Legend[0].Name != "H29@go hash" || cs[0].Title != "Throughput: hash (1 of 3)" {
		t.Errorf("first page %q starts with %q, want the fastest", cs[0].Title, cs[0].Legend[0].Name)
	}
}

// TestHandshakeOther: more message kinds than a legend can name are drawn
// as the 11 largest and "other"; the table keeps each.
func TestHandshakeOther(t *testing.T) {
	r := result.Result{Subject: result.Subject{Kind: "tls", Name: "many"}, Provenance: result.Provenance{Label: result.Measured}}
	for i := range 20 {
		r.Metrics = append(r.Metrics, scalar(fmt.Sprintf("bytes-down/Ext%02d", i), "B", result.Measured, float64(100+i)))
	}
	cs := build(t, handshakeBuilder, newRun("R-ext", "tls", r))
	c := cs[0]
	if len(c.Legend) != figure.MaxLegend || c.Legend[len(c.Legend)-1].Name != "other" {
		t.Fatalf("legend %d entries, last %q", len(c.Legend), c.Legend[len(c.Legend)-1].Name)
	}
	if len(c.Table.Header) != 1+20+2 {
		t.Errorf("table header %v: every message, the total and application data", c.Table.Header)
	}
	if !strings.Contains(c.Caption, "drawn together as other") {
		t.Error("caption does not say the smallest are grouped")
	}
}

// TestMCU: a time chart with a bar per optimisation level on a log axis
// (X25519 is four decades slower than AES), and RAM and ROM per kernel.
func TestMCU(t *testing.T) {
	cs := build(t, mcuBuilder, mcuRun())
	if got := ids(cs); got != "mcu-time-atmega328p,mcu-memory-atmega328p" {
		t.Fatalf("charts %s", got)
	}
	tc, mc := cs[0], cs[1]
	if _, isLog := tc.Plot.X.Scale.(plot.LogScale); !isLog {
		t.Error("mcu time on a linear axis")
	}
	// 14e6 cycles at -Os at 16 MHz = 875 ms.
	if r := row(t, tc, "X25519 scalarmult", "-Os"); r[2] != "875" || r[3] != "1.4e+07" {
		t.Errorf("X25519 row %v (header %v)", r, tc.Table.Header)
	}
	if len(tc.Legend) != 2 || tc.Legend[0].Name != "-Os" {
		t.Errorf("legend %+v: one entry per optimisation level", tc.Legend)
	}
	// ROM at -O2 is 1600/0.8 = 2000 B.
	if r := row(t, mc, "AES-128 (-O2)"); r[1] != "180" || r[2] != "2000" {
		t.Errorf("AES -O2 memory row %v", r)
	}
	for _, c := range cs {
		if err := c.Check(); err != nil {
			t.Error(err)
		}
	}
}

// TestBatteryLabelsUnique: subjects whose workloads would read alike on
// one device (four sensor variants signing with one scheme) keep their
// own names.
func TestBatteryLabelsUnique(t *testing.T) {
	var rs []result.Result
	for _, v := range []string{"cose", "jws", "dtls-psk", "edhoc"} {
		rs = append(rs, result.Result{Subject: result.Subject{Kind: "scenario", Name: "sensor/" + v, Scheme: "ECDSA-P256-SHA256",
			Params: map[string]string{"workload": "ECDSA-P256-SHA256"}},
			Metrics:    []result.Metric{scalar("battery-life", "s", result.Estimated, 86400*100)},
			Provenance: result.Provenance{Label: result.Estimated}})
	}
	run := newRun("R-sensor", "scenario", rs...)
	run.Environment.Device = "telosb"
	cs := build(t, batteryBuilder, run)
	if err := cs[0].Check(); err != nil {
		t.Fatal(err)
	}
	row(t, cs[0], "sensor/jws", "telosb")
}

// TestEnergyOneComponentOrPhases: a subject with one "component" (a
// sensor's energy/reading, a probe's energy/radio) is no split and is not
// drawn; a radio simulation's phases are the radio's split.
func TestEnergyOneComponentOrPhases(t *testing.T) {
	one := newRun("R-one", "scenario",
		result.Result{Subject: result.Subject{Kind: "scenario", Name: "sensor/cose"}, Provenance: result.Provenance{Label: result.Modelled},
			Metrics: []result.Metric{scalar("energy/reading", "J", result.Modelled, 0.01)}},
		result.Result{Subject: result.Subject{Kind: "probe", Name: "x:443/full"}, Provenance: result.Provenance{Label: result.Modelled},
			Metrics: []result.Metric{scalar("energy/radio", "J", result.Modelled, 0.2)}})
	if cs := build(t, energyBuilder, one); len(cs) != 0 {
		t.Errorf("drew %s from single components", ids(cs))
	}
	phases := func(name string, promo, xfer, tail float64) result.Result {
		return result.Result{Subject: result.Subject{Kind: "radio", Name: name}, Provenance: result.Provenance{Label: result.Modelled},
			Metrics: []result.Metric{scalar("energy-promotion", "J", result.Modelled, promo), scalar("energy-transfer", "J", result.Modelled, xfer),
				scalar("energy-tail", "J", result.Modelled, tail), scalar("energy-idle", "J", result.Modelled, 0)}}
	}
	cs := build(t, energyBuilder, newRun("R-radio", "radio", phases("lte/tls", 0.3146, 0.0559, 11.0524), phases("wifi/tls", 0, 0.0176, 0.05)))
	if len(cs) != 1 {
		t.Fatalf("charts %s", ids(cs))
	}
	c := cs[0]
	if got := strings.Join(c.Table.Header, ","); got != "subject,radio.promotion,radio.transfer,radio.tail,total" {
		t.Errorf("parts %s (idle is zero everywhere: no part)", got)
	}
	// LTE 11.42 J beside WiFi 0.0676 J: 2.2 decades, a log axis.
	if _, isLog := c.Plot.X.Scale.(plot.LogScale); !isLog {
		t.Error("totals 100× apart on a linear axis")
	}
	if err := c.Check(); err != nil {
		t.Error(err)
	}
}
