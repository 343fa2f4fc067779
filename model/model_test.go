package model

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/asn1"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"
	"github.com/veraison/go-cose"
)

const toyCosts = `
name: toy-costs
device: test board
radio:
  name: test radio
  bit_rate: "1 kbit/s [test]"
  tx_energy_per_bit: "2 µJ/bit [test]"
  rx_energy_per_bit: "1 µJ/bit [test]"
operations:
  X/sign: {time: "10 ms [test]", energy: "3 mJ [test]"}
  X/verify: {time: "20 ms [test]", energy: "5 mJ [test]"}
`

const toyModel = `
name: toy
title: a model small enough to compute by hand
per: round
parameters:
  n: {default: 4, range: 1..10, integer: true}
  payload: {default: "10 B [test]", unit: bit}
define:
  half: total / 2
  total: payload * n
packet:
  overhead: 16
messages:
  - name: req
    dir: send
    bits: half
    count: n
  - name: resp
    dir: receive
    bits: 200
    count: 2
    max_payload: 64
    fragment: true
  - name: beacon
    dir: receive
    bits: 40
    ack: 8
operations:
  - name: sign
    cost: X/sign
    count: n / 2
  - name: mac
    cost: free
    count: 3 * n
variants:
  - name: signing
  - name: verifying
    costs: {sign: X/verify}
`

func mustModel(t testing.TB, name, src string) *Model {
	t.Helper()
	m, err := Parse(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustCosts(t testing.TB, src string) *Costs {
	t.Helper()
	c, err := ParseCostTable("costs.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return c.Costs()
}

// evalAll evaluates every point of a plan, keyed by subject name.
func evalAll(t testing.TB, m *Model, c *Costs, o Options) map[string]Outputs {
	t.Helper()
	p, err := NewPlan(m, c, o)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Outputs{}
	err = p.Run(context.Background(), func(pt *Point, o *Outputs) error {
		cp := *o
		cp.Messages = append([]MessageOutput(nil), o.Messages...)
		cp.Ops = append([]OpOutput(nil), o.Ops...)
		out[p.SubjectName(pt)] = cp
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func approx(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %.12g, want %.12g", what, got, want)
	}
}

// TestToyModel checks every output of a small model computed by hand.
func TestToyModel(t *testing.T) {
	m := mustModel(t, "toy.yaml", toyModel)
	// Definitions are ordered by use, not by file order.
	if m.Definitions[0].Name != "total" || m.Definitions[1].Name != "half" {
		t.Errorf("definition order %s, %s", m.Definitions[0].Name, m.Definitions[1].Name)
	}
	// payload 10 B = 80 bit (unit conversion); total = 80·4 = 320; half = 160.
	// sent:     req 4 × (160 + 16) = 704; ACK of the beacon's 1 packet: 8 → 712 bit, 5 packets
	// received: resp 200 bits in 64-bit packets: ceil(200/64) = 4 packets,
	//           2 × (200 + 4·16) = 528; beacon 40 + 16 = 56 → 584 bit, 9 packets
	// energy:   712 × 2 µJ = 1.424 mJ TX; 584 × 1 µJ = 0.584 mJ RX;
	//           sign n/2 = 2 × 3 mJ = 6 mJ (verifying: 2 × 5 = 10 mJ)
	// time:     (712 + 584) / 1000 bit/s = 1.296 s; ops 2 × 10 ms (20 ms)
	out := evalAll(t, m, mustCosts(t, toyCosts), Options{})
	s, v := out["toy/signing"], out["toy/verifying"]
	approx(t, "bits sent", s.BitsSent, 712)
	approx(t, "bits received", s.BitsReceived, 584)
	approx(t, "packets sent", s.PacketsSent, 5)
	approx(t, "packets received", s.PacketsReceived, 9)
	approx(t, "payload sent", s.PayloadSent, 640)
	approx(t, "payload received", s.PayloadReceived, 440)
	approx(t, "energy (signing)", s.EnergyTotal(), 1.424e-3+0.584e-3+6e-3)
	approx(t, "time (signing)", s.TimeTotal(), 1.296+0.020)
	approx(t, "energy (verifying)", v.EnergyTotal(), 1.424e-3+0.584e-3+10e-3)
	approx(t, "time (verifying)", v.TimeTotal(), 1.296+0.040)
	approx(t, "resp packets", s.Messages[1].Packets, 4)
	approx(t, "mac count", s.Ops[1].Count, 12)
	approx(t, "mac energy (free)", s.Ops[1].EnergyJoules, 0)
	// --set n=10: half = 80·10/2 = 400; req 10 × (400 + 16) = 4160, + 8 → 4168 sent.
	out = evalAll(t, m, mustCosts(t, toyCosts), Options{Set: map[string]float64{"n": 10}, Variants: []string{"signing"}})
	approx(t, "bits sent at n=10", out["toy/signing/n=10"].BitsSent, 4168)
}

// TestFragmentHeaders: first and following fragments carrying less than
// the maximum payload and adding their own headers.
func TestFragmentHeaders(t *testing.T) {
	src := `
name: frag
parameters: {size: {default: 1000}}
messages:
  - name: big
    dir: send
    bits: size
    overhead: 16
    max_payload: 300
    fragment: true
    fragment_first: 250
    fragment_next: 280
    fragment_header_first: 20
    fragment_header_next: 30
`
	m := mustModel(t, "frag.yaml", src)
	out := evalAll(t, m, mustCosts(t, toyCosts), Options{})["frag"]
	// packets = 1 + ceil((1000 − 250) / 280) = 1 + ceil(2.68) = 4;
	// headers 20 + 3 × 30 = 110; overhead 4 × 16 = 64 → 1174 bits.
	approx(t, "packets", out.Messages[0].Packets, 4)
	approx(t, "bits", out.BitsSent, 1174)
	// A message that fits is one packet without fragment headers.
	out = evalAll(t, m, mustCosts(t, toyCosts), Options{Set: map[string]float64{"size": 300}})["frag/size=300"]
	approx(t, "small packets", out.Messages[0].Packets, 1)
	approx(t, "small bits", out.BitsSent, 316)
}

// TestVariantsMergeWhenOverridden: --set of the parameter that tells
// tinysersync's variants apart leaves one evaluation.
func TestVariantsMergeWhenOverridden(t *testing.T) {
	m, err := Open("tinysersync")
	if err != nil {
		t.Fatal(err)
	}
	tab, _ := OpenCosts("telosb")
	p, err := NewPlan(m, tab.Costs(), Options{Set: map[string]float64{"n": 6, "d": 20}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Cases) != 1 || p.Cases[0] != nil {
		t.Fatalf("cases %v, want one without a variant", p.Cases)
	}
	// secsywise's variants differ in their verification cost as well: all
	// four remain when the signature size is set.
	m, _ = Open("secsywise")
	p, err = NewPlan(m, tab.Costs(), Options{Set: map[string]float64{"sig_bits": 512}})
	if err != nil || len(p.Cases) != 4 {
		t.Fatalf("secsywise with sig_bits set: %d cases, %v", len(p.Cases), err)
	}
}

func builtin(t *testing.T, name string, o Options) map[string]Outputs {
	t.Helper()
	m, err := Open(name)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := OpenCosts(m.DefaultCosts)
	if err != nil {
		t.Fatal(err)
	}
	return evalAll(t, m, tab.Costs(), o)
}

// TestSecSyWiSe checks the built-in model against hand computation from
// seed003-models.md. Per node and interval a node receives one broadcast
// of ID 16 + timestamp 32 + counter 32 + signature + 288 bits overhead =
// 368 + signature bits, and verifies once. Energy = bits × 0.000226 mJ +
// verification energy; time = bits / 250 000 s + verification time.
//
//	ECDSA-160: 688 bit:  688 × 0.000226 = 0.155488 mJ + 12.41 = 12.565488 mJ;
//	           2.752 ms + 1020 ms = 1022.752 ms
//	ECDSA-224: 816 bit:  0.184416 + 33.55 = 33.734416 mJ; 3.264 + 2760 = 2763.264 ms
//	RSA-1024: 1392 bit:  0.314592 + 2.7 = 3.014592 mJ;    5.568 + 220 = 225.568 ms
//	RSA-2048: 2416 bit:  0.546016 + 12.2 = 12.746016 mJ;  9.664 + 1000 = 1009.664 ms
//
// The cost does not depend on n: the same at n = 2 and n = 14.
func TestSecSyWiSe(t *testing.T) {
	want := map[string][3]float64{ // bits received, energy mJ, time ms
		"ECDSA-160": {688, 12.565488, 1022.752},
		"ECDSA-224": {816, 33.734416, 2763.264},
		"RSA-1024":  {1392, 3.014592, 225.568},
		"RSA-2048":  {2416, 12.746016, 1009.664},
	}
	out := builtin(t, "secsywise", Options{Vary: []Vary{{Param: "n", Values: []float64{2, 14}}}})
	if len(out) != 8 {
		t.Fatalf("%d points, want 4 variants × 2", len(out))
	}
	for v, w := range want {
		for _, n := range []string{"2", "14"} {
			o := out["secsywise/"+v+"/n="+n]
			approx(t, v+" bits received", o.BitsReceived, w[0])
			approx(t, v+" bits sent", o.BitsSent, 0)
			approx(t, v+" energy", o.EnergyTotal()*1e3, w[1])
			approx(t, v+" time", o.TimeTotal()*1e3, w[2])
		}
	}
}

// TestTinySeRSync checks the built-in model against hand computation from
// seed003-models.md. Per node and interval:
//
//	sent     = (480 + 544)·d·n + 576 + 352 = 1024·d·n + 928 bits
//	received = (480 + 544)·d·n + (576 + 352)·n = 1024·d·n + 928·n bits
//	energy   = sent × 0.000153 + received × 0.000226 mJ
//	time     = (sent + received) / 250 000 s
//
//	n=2,  d=2.5: sent 5120+928 = 6048, received 5120+1856 = 6976;
//	             0.925344 + 1.576576 = 2.50192 mJ; 13024 bits → 52.096 ms
//	n=6,  d=2.5: sent 15360+928 = 16288, received 15360+5568 = 20928;
//	             2.492064 + 4.729728 = 7.221792 mJ; 37216 → 148.864 ms
//	n=10, d=20:  sent 204800+928 = 205728, received 204800+9280 = 214080;
//	             31.476384 + 48.38208 = 79.858464 mJ; 419808 → 1679.232 ms
//	n=14, d=20:  sent 286720+928 = 287648, received 286720+12992 = 299712;
//	             44.010144 + 67.734912 = 111.745056 mJ; 587360 → 2349.44 ms
func TestTinySeRSync(t *testing.T) {
	out := builtin(t, "tinysersync", Options{Vary: []Vary{{Param: "n", Values: []float64{2, 6, 10, 14}}}})
	for _, tc := range []struct {
		name                        string
		sent, received, energy, tms float64
	}{
		{"tinysersync/d=2.5/n=2", 6048, 6976, 2.50192, 52.096},
		{"tinysersync/d=2.5/n=6", 16288, 20928, 7.221792, 148.864},
		{"tinysersync/d=20/n=10", 205728, 214080, 79.858464, 1679.232},
		{"tinysersync/d=20/n=14", 287648, 299712, 111.745056, 2349.44},
	} {
		o, ok := out[tc.name]
		if !ok {
			t.Fatalf("no point %s", tc.name)
		}
		approx(t, tc.name+" sent", o.BitsSent, tc.sent)
		approx(t, tc.name+" received", o.BitsReceived, tc.received)
		approx(t, tc.name+" energy", o.EnergyTotal()*1e3, tc.energy)
		approx(t, tc.name+" time", o.TimeTotal()*1e3, tc.tms)
		approx(t, tc.name+" MACs", o.Ops[0].Count, 3*o.Messages[6].Count+1) // 3n + 1, n = g1's receive count
	}
	// The same through --set, as `model eval tinysersync --set n=6,d=20`:
	// sent 1024·120 + 928 = 123808, received 122880 + 5568 = 128448.
	o := builtin(t, "tinysersync", Options{Set: map[string]float64{"n": 6, "d": 20}})["tinysersync/n=6,d=20"]
	approx(t, "--set sent", o.BitsSent, 123808)
	approx(t, "--set received", o.BitsReceived, 128448)
}

// TestTLS12 checks the TLS model with S000's byte counts by hand.
//
//	full: client sends ClientHello 249 − 139 − 59 = 51 B and CKE+CCS+Fin
//	  198 B: 249 B = 1992 bits + 2 segments × 320 bits = 2632 bits; receives
//	  2309 B (2 segments of ≤ 1460 B) and 59 B: 18944 + 3 × 320 = 19904 bits.
//	  Energy 2632 × 0.153 µJ + 19904 × 0.226 µJ + 2 × 2.7 mJ (RSA-1024
//	  encrypt, verify) = 0.402696 + 4.498304 + 5.4 = 10.301 mJ;
//	  time (2632 + 19904) / 250 kbit/s = 90.144 ms + 440 ms = 530.144 ms.
//	resumed: sends 83 + 59 = 142 B in 2 segments: 1136 + 640 = 1776 bits;
//	  receives 168 B in 1: 1344 + 320 = 1664; 271.728 + 376.064 µJ.
func TestTLS12(t *testing.T) {
	out := builtin(t, "tls12-handshake", Options{})
	full, res := out["tls12-handshake/full"], out["tls12-handshake/resumed"]
	approx(t, "full sent", full.BitsSent, 2632)
	approx(t, "full received", full.BitsReceived, 19904)
	approx(t, "full energy", full.EnergyTotal()*1e3, 10.301)
	approx(t, "full time", full.TimeTotal()*1e3, 530.144)
	approx(t, "full payload up", full.PayloadSent/8, 249)
	approx(t, "full payload down", full.PayloadReceived/8, 2368)
	approx(t, "resumed sent", res.BitsSent, 1776)
	approx(t, "resumed received", res.BitsReceived, 1664)
	approx(t, "resumed energy", res.EnergyTotal()*1e3, 0.647792)
	approx(t, "resumed payload up", res.PayloadSent/8, 142)
}

// defs evaluates a built-in model's defaults and returns its definitions.
func defs(t *testing.T, name, variant string) map[string]float64 {
	t.Helper()
	m, _ := Open(name)
	tab, _ := OpenCosts(m.DefaultCosts)
	p, err := NewPlan(m, tab.Costs(), Options{Variants: []string{variant}})
	if err != nil {
		t.Fatal(err)
	}
	var out Outputs
	if err := p.Eval.Eval(0, p.base[0], &out); err != nil {
		t.Fatal(err)
	}
	vals := map[string]float64{}
	for _, d := range m.Definitions {
		vals[d.Name] = p.Eval.fr.vals[d.slot]
	}
	return vals
}

// TestDTLS checks the DTLS-over-802.15.4 model's sizes and frame counts by
// hand. The TLS ClientHello body is 51 − 9 = 42 B; the resumed one 74 B —
// 32 B more, the session ID, which checks S000's totals split right.
//
//	datagrams: ClientHello 25 + 42 + 1 = 68 B, with the cookie 100 B;
//	  HelloVerifyRequest 25 + 3 + 32 = 60 B; server flight bodies
//	  2368 − 59 − 3 × 9 = 2282 B in ceil((2282 + 75) / 1207) = 2 datagrams,
//	  2282 + 25 × 4 = 2382 B: 1232 + 1150; CKE+CCS+Fin 25 + 130 + 14 + 77 =
//	  246 B; CCS+Fin 91 B.
//	frames: + 9 B compressed IPv6/UDP header; up to 116 B in one frame,
//	  else 105 B in the first and 104 B in each next: 1241 B → 1 + ceil(1136
//	  / 104) = 12; 1159 B → 12; 255 B → 3; others 1.
//	bits sent: 77 + 17 = 94 B; 109 + 17 = 126 B; 255 + 4 + 2·5 + 3·17 =
//	  320 B; MAC ACKs of 1 + 24 + 1 frames received: 26 × 11 B → 6608 bits.
func TestDTLS(t *testing.T) {
	d := defs(t, "dtls12-802154", "full")
	for name, want := range map[string]float64{"ch_body": 42, "ch_resumed_body": 74, "ch_first": 68, "ch_final": 100,
		"hvr": 60, "s1_body": 2282, "s1_datagrams": 2, "s1_total": 2382, "s1_last": 1150, "f5": 246, "f6": 91,
		"first_data": 105, "next_data": 104} {
		approx(t, name, d[name], want)
	}
	approx(t, "resumed ClientHello − full ClientHello (session ID)", d["ch_resumed_body"]-d["ch_body"], 32)
	out := builtin(t, "dtls12-802154", Options{})["dtls12-802154/full"]
	approx(t, "server flight frames", out.Messages[3].Packets, 12)
	approx(t, "server flight last frames", out.Messages[4].Packets, 12)
	approx(t, "CKE flight frames", out.Messages[5].Packets, 3)
	approx(t, "bits sent", out.BitsSent, 6608)
	approx(t, "packets sent", out.PacketsSent, 5+26)
}

// TestSensorReadingSizes checks the sizes the sensor-reading model takes
// from the standards against independent counts: real COSE_Sign1 and JWS
// objects made by go-cose and go-jose, a DER P-256 public key, the SenML
// text.
func TestSensorReadingSizes(t *testing.T) {
	reading := []byte(`[{"n":"temp","u":"Cel","v":23.5}]`)
	d := defs(t, "sensor-reading", "COSE_Sign1")
	m, _ := Open("sensor-reading")
	approx(t, "reading_bytes", m.Param("reading_bytes").Default, float64(len(reading)))

	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := cose.NewSigner(cose.AlgorithmES256, key)
	if err != nil {
		t.Fatal(err)
	}
	msg := cose.Sign1Message{Headers: cose.Headers{Protected: cose.ProtectedHeader{cose.HeaderLabelAlgorithm: cose.AlgorithmES256}},
		Payload: reading}
	if err := msg.Sign(rand.Reader, nil, signer); err != nil {
		t.Fatal(err)
	}
	obj, err := msg.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	approx(t, "COSE_Sign1 bytes (go-cose)", d["cose_object"], float64(len(obj))) // 108

	js, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, nil)
	if err != nil {
		t.Fatal(err)
	}
	jws, err := js.Sign(reading)
	if err != nil {
		t.Fatal(err)
	}
	compact, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	approx(t, "JWS bytes (go-jose)", d["jws_object"], float64(len(compact))) // 152

	spki, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	approx(t, "SubjectPublicKeyInfo", m.Param("spki").Default, float64(len(spki))) // 91
	// The largest DER ECDSA-Sig-Value for P-256: both integers 33 bytes.
	top := new(big.Int).Lsh(big.NewInt(1), 255)
	der, _ := asn1.Marshal(struct{ R, S *big.Int }{top, top})
	approx(t, "DER signature", m.Param("der_sig").Default, float64(len(der))) // 72
	//lint:ignore SA1019 only its length
	approx(t, "uncompressed point", m.Param("ec_point").Default, float64(len(elliptic.Marshal(elliptic.P256(), key.X, key.Y))))

	// Flights by hand: ClientHello 25 + 42 + 36 = 103; ServerHello 25 + 70 +
	// 18 = 113; raw-key Certificate 25 + 6 + 91 = 122; ServerKeyExchange
	// 25 + 1 + 2 + 1 + 65 + 2 + 2 + 72 = 170; CertificateRequest 33;
	// ServerHelloDone 25 → 463; client flight 122 + 91 + 101 + 14 + 53 = 381.
	for name, want := range map[string]float64{"ch_first": 103, "server_hello": 113, "certificate": 122,
		"server_key_exchange": 170, "f4": 463, "f5": 381, "f6": 67, "cose_object": 108, "jws_object": 152} {
		approx(t, name, d[name], want)
	}
}

// TestSensorReading: per reading with COSE_Sign1 by hand. The CoAP POST is
// 14 + 108 + 9 = 131 B: more than one frame's 116, so 2 frames with 4 + 5
// B fragment headers and 2 × 17 B of MAC/PHY: 174 B = 1392 bits, plus the
// MAC ACK of the CoAP ACK's frame, 88 bits → 1480 bits sent. Received: the
// CoAP ACK 6 + 9 + 17 = 32 B and 2 MAC ACKs → 256 + 176 = 432 bits. The
// signature: 17.86 s (estimated) × 2.65 V × 1.8 mA = 85.1922 mJ; radio
// 1480 × 0.153 + 432 × 0.226 = 324.072 µJ → 85.516272 mJ.
func TestSensorReading(t *testing.T) {
	out := builtin(t, "sensor-reading", Options{})
	o := out["sensor-reading/COSE_Sign1"]
	approx(t, "COSE bits sent", o.BitsSent, 1480)
	approx(t, "COSE bits received", o.BitsReceived, 432)
	approx(t, "COSE energy", o.EnergyTotal()*1e3, 85.516272)
	// Over DTLS with one reading per session the handshake dominates; its
	// share falls as 1/readings.
	one := out["sensor-reading/DTLS"]
	many := builtin(t, "sensor-reading", Options{Set: map[string]float64{"readings": 1000}, Variants: []string{"DTLS"}})["sensor-reading/DTLS/readings=1000"]
	if !(many.EnergyTotal() < one.EnergyTotal()/100) {
		t.Errorf("DTLS energy per reading: %v at 1 reading per session, %v at 1000", one.EnergyTotal(), many.EnergyTotal())
	}
}

func TestBuiltinsLoadAndList(t *testing.T) {
	ms, err := Builtins()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range ms {
		names = append(names, m.Name)
		if m.Source == "" || len(m.Assumptions) == 0 {
			t.Errorf("%s: a built-in model needs a source and its assumptions", m.Name)
		}
		for _, p := range m.Params {
			// A fact (a size in bits or bytes) needs a source.
			if (p.Unit == "bit" || p.Unit == "B") && p.DefaultSource == "" {
				t.Errorf("%s: parameter %s has no source", m.Name, p.Name)
			}
		}
	}
	if got := strings.Join(names, ","); got != "dtls12-802154,remote-sign,secsywise,sensor-reading,tinysersync,tls12-handshake" {
		t.Errorf("built-in models %s", got)
	}
	ts, err := BuiltinCostTables()
	if err != nil || len(ts) == 0 {
		t.Fatalf("cost tables: %v", err)
	}
	for _, tab := range ts {
		for name, oc := range tab.Ops {
			if oc.Source == "" {
				t.Errorf("cost table %s: %s has no source", tab.Name, name)
			}
		}
	}
}
