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

// HostWork is CPU time the client spent on one component on this machine.
type HostWork struct {
	Component Component
	CPU       time.Duration
	Label     result.Label
	Method    string
}

// HostSplit splits the client's CPU time of a connection into S000's
// components. The handshake's and the rest's CPU time are measured (for an
// OpenSSL client the split point is read when the tap sees the handshake
// end, so it is estimated); within them, hashing and record protection are
// estimated as bytes × this machine's ns/B for the primitive, and the
// remainders are asymmetric work and I/O.
func HostSplit(c Cell, conn *Conn) []HostWork {
	a := conn.Analysis
	if a == nil {
		return []HostWork{{Component: IO, CPU: conn.Client.CPU, Label: result.Measured, Method: "plain TCP: all CPU time is I/O"}}
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
	return []HostWork{
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

// hostSplitMetrics are the client's measured CPU time per component over
// the cell's connections, on this machine.
func hostSplitMetrics(run *CellRun) []result.Metric {
	var out []result.Metric
	works := make(map[Component][]float64)
	labels := map[Component]HostWork{}
	for _, conn := range run.Conns {
		if conn.Client.CPU <= 0 {
			continue
		}
		for _, w := range HostSplit(run.Cell, conn) {
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
	return out
}
