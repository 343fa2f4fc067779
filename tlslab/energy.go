package tlslab

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/result"
	"golang.org/x/crypto/chacha20poly1305"
)

// Component is a part of a connection's energy, as S000 split it.
type Component string

const (
	Asymmetric   Component = "asymmetric"    // key exchange, signatures (the handshake's public-key work)
	SymmetricMAC Component = "symmetric+mac" // record protection: cipher and MAC/AEAD
	Hashing      Component = "hashing"       // transcript hashing
	IO           Component = "io"            // the rest of the CPU time: sockets, copies, the stack
	Radio        Component = "radio"         // the radio, priced from the packet trace
)

// Work is CPU time the device (the client) spent on one component.
type Work struct {
	Component Component
	CPU       time.Duration
	Label     result.Label
	Method    string
}

// Energy is a priced component.
type Energy struct {
	Component Component
	Joules    float64
	Label     result.Label // modelled or estimated
	Method    string
	Source    string // the device or radio profile
}

// CPUPricer turns the device's CPU work into energy: energy/ implements it
// with a device power profile (CPU time × active power, net of idle).
type CPUPricer interface {
	PriceCPU(device string, work []Work) ([]Energy, error)
}

// RadioPricer turns a connection's packet trace into radio energy: radio/
// implements it with a radio state machine for the link (3G tails, WiFi
// PSM, BLE connection events, 802.15.4 frames).
type RadioPricer interface {
	PriceTrace(device, link string, tr *result.Trace) (Energy, error)
}

// Pricing is what the CLI wires in for --device; a nil pricer leaves its
// components "not modelled" (a warning on the result, never a zero).
type Pricing struct {
	Device string
	CPU    CPUPricer
	Radio  RadioPricer
}

// NotModelledCPU and NotModelledRadio are the warnings of unpriced parts.
const (
	NotModelledCPU   = "energy: CPU components not modelled: no device power model is wired into the TLS lab (energy/, docs/tls.md)"
	NotModelledRadio = "energy: radio not modelled: no radio model is wired into the TLS lab (radio/, docs/tls.md)"
)

// CPUWork splits the client's CPU time of a connection into S000's
// components. The handshake's and the rest's CPU time are measured (for an
// OpenSSL client the split point is read when the tap sees the handshake
// end, so it is estimated); within them, hashing and record protection are
// estimated as bytes × this machine's ns/B for the primitive, and the
// remainders are asymmetric work and I/O.
func CPUWork(c Cell, conn *Conn) []Work {
	a := conn.Analysis
	if a == nil {
		return []Work{{Component: IO, CPU: conn.Client.CPU, Label: result.Measured, Method: "plain TCP: all CPU time is I/O"}}
	}
	rates := primitiveRates()
	hsLabel := result.Measured
	if conn.Client.HandshakeCPUEstimated {
		hsLabel = result.Estimated
	}
	hs := conn.Client.HandshakeCPU
	rest := max(conn.Client.CPU-hs, 0)
	transcript := a.Up.Handshake + a.Down.Handshake
	hash := time.Duration(float64(transcript) * rates.sha256)
	app := a.Up.ApplicationData + a.Down.ApplicationData
	bulkRate := rates.bulk[c.Bulk]
	sym := time.Duration(float64(app) * bulkRate)
	est := func(what string, n int, rate float64) string {
		return fmt.Sprintf("%s: %d B × %.3g ns/B measured here (%s)", what, n, rate, rates.method)
	}
	return []Work{
		{Asymmetric, max(hs-hash, 0), result.Estimated, "handshake CPU time minus the hashing estimate"},
		{Hashing, min(hash, hs), result.Estimated, est("transcript bytes × SHA-256", transcript, rates.sha256)},
		{SymmetricMAC, min(sym, rest), result.Estimated, est("application record bytes × "+string(c.Bulk), app, bulkRate)},
		{IO, max(rest-sym, 0), hsLabel, "CPU time after the handshake minus the record-protection estimate"},
	}
}

// rates are per-byte CPU costs of the primitives on this machine.
type rates struct {
	sha256 float64
	bulk   map[Bulk]float64
	method string
}

var (
	ratesOnce sync.Once
	ratesVal  rates
)

// primitiveRates measures, once per process, the thread CPU time per byte
// of SHA-256 and of each bulk construction over 1 MiB in 16 KiB records.
func primitiveRates() rates {
	ratesOnce.Do(func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		buf := make([]byte, 16<<10)
		out := make([]byte, 0, len(buf)+64)
		measure := func(f func()) float64 {
			f() // warm up
			t0, _ := threadCPU()
			for range 64 {
				f()
			}
			t1, _ := threadCPU()
			return float64(t1-t0) / float64(64*len(buf))
		}
		key := make([]byte, 32)
		nonce := make([]byte, 12)
		gcm := func(n int) func() {
			b, _ := aes.NewCipher(key[:n])
			g, _ := cipher.NewGCM(b)
			return func() { out = g.Seal(out[:0], nonce, buf, nil) }
		}
		cbc := func(n int) func() {
			b, _ := aes.NewCipher(key[:n])
			mac := hmac.New(sha1.New, key[:20])
			iv := make([]byte, 16)
			return func() {
				mac.Reset()
				mac.Write(buf)
				mac.Sum(nil)
				cipher.NewCBCEncrypter(b, iv).CryptBlocks(out[:len(buf)], buf)
			}
		}
		cc, _ := chacha20poly1305.New(key)
		ratesVal = rates{
			sha256: measure(func() { sha256.Sum256(buf) }),
			bulk: map[Bulk]float64{
				BulkAES128GCM: measure(gcm(16)), BulkAES256GCM: measure(gcm(32)),
				BulkAES128CBC: measure(cbc(16)), BulkAES256CBC: measure(cbc(32)),
				BulkChaCha20: measure(func() { out = cc.Seal(out[:0], nonce, buf, nil) }),
			},
			method: "Go crypto, 1 MiB in 16 KiB records, thread CPU clock",
		}
	})
	return ratesVal
}

// price adds the CPU split and, where pricers are wired, energy metrics;
// unpriced parts become warnings.
func (l *Lab) price(p *Pricing, run *CellRun, r *result.Result) []result.Metric {
	if p == nil {
		return nil
	}
	var out []result.Metric
	works := make(map[Component][]float64)
	labels := map[Component]Work{}
	for _, conn := range run.Conns {
		for _, w := range CPUWork(run.Cell, conn) {
			works[w.Component] = append(works[w.Component], float64(w.CPU))
			labels[w.Component] = w
		}
	}
	for _, comp := range []Component{Asymmetric, Hashing, SymmetricMAC, IO} {
		if vs, ok := works[comp]; ok {
			m := result.NewSampled(MetricCPUClient+"/"+string(comp), "ns", result.Lower, labels[comp].Label, vs)
			m.Method = labels[comp].Method
			out = append(out, m)
		}
	}
	if p.CPU == nil {
		r.Warnings = append(r.Warnings, NotModelledCPU)
	} else {
		energies := map[Component][]float64{}
		meta := map[Component]Energy{}
		for _, conn := range run.Conns {
			es, err := p.CPU.PriceCPU(p.Device, CPUWork(run.Cell, conn))
			if err != nil {
				r.Warnings = append(r.Warnings, "energy: CPU components not modelled: "+err.Error())
				break
			}
			for _, e := range es {
				energies[e.Component] = append(energies[e.Component], e.Joules)
				meta[e.Component] = e
			}
		}
		for _, comp := range []Component{Asymmetric, Hashing, SymmetricMAC, IO} {
			if vs, ok := energies[comp]; ok {
				m := result.NewSampled(MetricEnergy+"/"+string(comp), "J", result.Lower, meta[comp].Label, vs)
				m.Method = meta[comp].Method + " [" + meta[comp].Source + "]"
				out = append(out, m)
			}
		}
	}
	if p.Radio == nil {
		r.Warnings = append(r.Warnings, NotModelledRadio)
	} else if r.Trace != nil {
		var vs []float64
		var meta Energy
		for _, conn := range run.Conns {
			e, err := p.Radio.PriceTrace(p.Device, l.LinkName(), traceOf(l, conn))
			if err != nil {
				r.Warnings = append(r.Warnings, "energy: radio not modelled: "+err.Error())
				vs = nil
				break
			}
			vs, meta = append(vs, e.Joules), e
		}
		if len(vs) > 0 {
			m := result.NewSampled(MetricEnergy+"/"+string(Radio), "J", result.Lower, meta.Label, vs)
			m.Method = meta.Method + " [" + meta.Source + "]"
			out = append(out, m)
		}
	}
	return out
}
