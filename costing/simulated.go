package costing

import (
	"embed"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/cryptocost/cryptocost/result"
)

// The simulated rung: times a microcontroller target's simulator counted
// for cryptocost's C kernels (package mcu), kept as data so every command
// prices a device from the same simulation. simavr is cycle-accurate and
// deterministic, so the table is a cache of a computation, not a sample:
// TestSimulatedTablesReproduce re-simulates a kernel and requires the
// same cycles. simulated/README.md says how to regenerate a table.
//
//go:embed simulated/*.json
var simulatedFS embed.FS

// SimTable is one target's simulated kernel operations.
type SimTable struct {
	Target    string  `json:"target"`
	ClockHz   float64 `json:"clock_hz"`
	Simulator string  `json:"simulator"`
	Compiler  string  `json:"compiler"`
	Run       string  `json:"run"`
	Generated string  `json:"generated_by"`
	Ops       []SimOp `json:"ops"`
}

// SimOp is one kernel operation as the simulator counted it.
type SimOp struct {
	Kernel     string `json:"kernel"`
	Algorithm  string `json:"algorithm"`
	Operation  string `json:"operation"`
	InputBytes int    `json:"input_bytes,omitempty"`
	Opt        string `json:"opt"`
	// Cycles per run, one per input the harness timed (several for the
	// operations that handle secrets).
	Cycles   []float64 `json:"cycles"`
	Label    string    `json:"label"`
	Verified string    `json:"verified"`
	Image    string    `json:"image"`
}

var simTables = sync.OnceValues(func() (map[string]*SimTable, error) {
	files, err := simulatedFS.ReadDir("simulated")
	if err != nil {
		return nil, err
	}
	out := map[string]*SimTable{}
	for _, f := range files {
		if path.Ext(f.Name()) != ".json" {
			continue
		}
		data, err := simulatedFS.ReadFile("simulated/" + f.Name())
		if err != nil {
			return nil, err
		}
		var t SimTable
		if err := json.Unmarshal(data, &t); err != nil {
			return nil, fmt.Errorf("costing/simulated/%s: %w", f.Name(), err)
		}
		out[t.Target] = &t
	}
	return out, nil
})

// SimulatedTable returns a target's table (nil when none is shipped).
func SimulatedTable(target string) *SimTable {
	t, err := simTables()
	if err != nil {
		panic(err) // embedded data; any test finds it
	}
	return t[target]
}

// simMapping says which kernel operation is a registry scheme's operation:
// the registry names what a user asks for ("AES-128" "encrypt-ecb" of
// 1 KiB), the kernel what the simulator ran ("AES-128" "encrypt" of one
// 16-byte block). Algorithms match on the kernel's algorithm.
type simMapping struct {
	scheme, op  string // registry
	algorithm   string // kernel's algorithm
	kernelOp    string
	hashWith    string // a hash-then-sign scheme adds this hash of the message ("SHA-256")
	privateOnly bool   // an RSA private-key operation priced as the scheme's sign (the padding is not simulated)
}

var simMappings = []simMapping{
	{scheme: "AES-128", op: "key-schedule", algorithm: "AES-128", kernelOp: "key-schedule"},
	{scheme: "AES-128", op: "encrypt-ecb", algorithm: "AES-128", kernelOp: "encrypt"},
	{scheme: "AES-128", op: "decrypt-ecb", algorithm: "AES-128", kernelOp: "decrypt"},
	{scheme: "AES-128", op: "encrypt-cbc", algorithm: "AES-128", kernelOp: "cbc-encrypt"},
	{scheme: "AES-128", op: "decrypt-cbc", algorithm: "AES-128", kernelOp: "cbc-decrypt"},
	{scheme: "AES-128", op: "encrypt-ctr", algorithm: "AES-128", kernelOp: "ctr"},
	{scheme: "AES-128", op: "decrypt-ctr", algorithm: "AES-128", kernelOp: "ctr"},
	{scheme: "SHA-256", op: "hash", algorithm: "SHA-256", kernelOp: "hash"},
	{scheme: "HMAC-SHA-256", op: "mac", algorithm: "HMAC-SHA-256", kernelOp: "mac"},
	{scheme: "ChaCha20", op: "encrypt", algorithm: "ChaCha20", kernelOp: "encrypt"},
	{scheme: "ChaCha20", op: "decrypt", algorithm: "ChaCha20", kernelOp: "encrypt"},
	{scheme: "Ascon-AEAD128", op: "seal", algorithm: "Ascon-AEAD128", kernelOp: "encrypt"},
	{scheme: "Ascon-AEAD128", op: "open", algorithm: "Ascon-AEAD128", kernelOp: "decrypt"},
	{scheme: "X25519", op: "keygen", algorithm: "X25519", kernelOp: "keygen"},
	{scheme: "X25519", op: "derive", algorithm: "X25519", kernelOp: "shared-secret"},
	{scheme: "Ed25519", op: "keygen", algorithm: "Ed25519", kernelOp: "keygen"},
	{scheme: "Ed25519", op: "sign", algorithm: "Ed25519", kernelOp: "sign"},
	{scheme: "Ed25519", op: "verify", algorithm: "Ed25519", kernelOp: "verify"},
	{scheme: "ECDSA-P256-SHA256", op: "keygen", algorithm: "ECDSA-P256", kernelOp: "keygen"},
	{scheme: "ECDSA-P256-SHA256", op: "sign", algorithm: "ECDSA-P256", kernelOp: "sign", hashWith: "SHA-256"},
	{scheme: "ECDSA-P256-SHA256", op: "verify", algorithm: "ECDSA-P256", kernelOp: "verify", hashWith: "SHA-256"},
	{scheme: "RSA-1024-PKCS1v15-SHA256", op: "sign", algorithm: "RSA-1024", kernelOp: "private", hashWith: "SHA-256", privateOnly: true},
	{scheme: "RSA-2048-PKCS1v15-SHA256", op: "sign", algorithm: "RSA-2048", kernelOp: "private", hashWith: "SHA-256", privateOnly: true},
	{scheme: "ML-KEM-512", op: "keygen", algorithm: "ML-KEM-512", kernelOp: "keygen"},
	{scheme: "ML-KEM-512", op: "encaps", algorithm: "ML-KEM-512", kernelOp: "encaps"},
	{scheme: "ML-KEM-512", op: "decaps", algorithm: "ML-KEM-512", kernelOp: "decaps"},
	{scheme: "ML-KEM-768", op: "keygen", algorithm: "ML-KEM-768", kernelOp: "keygen"},
	{scheme: "ML-KEM-768", op: "encaps", algorithm: "ML-KEM-768", kernelOp: "encaps"},
	{scheme: "ML-KEM-768", op: "decaps", algorithm: "ML-KEM-768", kernelOp: "decaps"},
	{scheme: "ML-DSA-44", op: "keygen", algorithm: "ML-DSA-44", kernelOp: "keygen"},
	{scheme: "ML-DSA-44", op: "sign", algorithm: "ML-DSA-44", kernelOp: "sign"},
	{scheme: "ML-DSA-44", op: "verify", algorithm: "ML-DSA-44", kernelOp: "verify"},
}

// simulatedRung: the device's CPU is a target whose simulation has the
// operation. One choice within the rung, named: the fastest kernel built
// -Os (the Arduino IDE's and most embedded builds' level) among the
// implementations of the algorithm; other sizes than the simulated ones
// are a straight line through the two nearest simulated sizes (labelled
// estimated), or a proportion of one size (block ciphers, per block).
type simulatedRung struct{}

func (simulatedRung) rung() Rung { return Simulated }

func (simulatedRung) resolve(p *Pricer, op Op) (Cost, error) {
	sim := p.Device.Simulation
	if sim == nil {
		return Cost{}, fmt.Errorf("%s's profile names no simulated target", p.Device.Name)
	}
	t := SimulatedTable(sim.Target)
	if t == nil {
		return Cost{}, fmt.Errorf("no simulation of %s is shipped (costing/simulated)", sim.Target)
	}
	var m *simMapping
	for i := range simMappings {
		if strings.EqualFold(simMappings[i].scheme, op.Scheme) && strings.EqualFold(simMappings[i].op, op.Operation) {
			m = &simMappings[i]
			break
		}
	}
	if m == nil {
		return Cost{}, fmt.Errorf("no kernel implements %s %s", op.Scheme, op.Operation)
	}
	secs, label, how, src, err := t.time(m.algorithm, m.kernelOp, op.InputBytes)
	if err != nil {
		return Cost{}, err
	}
	method := how
	if m.hashWith != "" && !strings.EqualFold(m.hashWith, op.Scheme) {
		hs, hl, hhow, _, err := t.time(m.hashWith, "hash", op.InputBytes)
		if err != nil {
			return Cost{}, fmt.Errorf("%s needs %s of the %d-B message: %v", op.Scheme, m.hashWith, op.InputBytes, err)
		}
		secs += hs
		if hl == result.Estimated {
			label = result.Estimated
		}
		method += " + " + m.hashWith + " of the message: " + hhow
	}
	if m.privateOnly {
		method += "; the private-key operation only (the PKCS #1 v1.5 padding is not simulated)"
	}
	if sim.Proxy {
		method += "; " + sim.Target + " stands in for " + p.Device.Name + ": " + sim.Note
	}
	ti := Exact(secs)
	return Cost{Seconds: &ti, Label: label, Source: src, Method: method}, nil
}

// time is the simulated time of a kernel operation on n input bytes: the
// fastest -Os kernel's, at that size when simulated there, else a line
// through the two nearest sizes, else proportional to the one size.
func (t *SimTable) time(algorithm, kernelOp string, n int) (seconds float64, label result.Label, how, source string, err error) {
	byKernel := map[string][]SimOp{}
	for _, o := range t.Ops {
		if strings.EqualFold(o.Algorithm, algorithm) && o.Operation == kernelOp && o.Opt == "Os" && len(o.Cycles) > 0 {
			byKernel[o.Kernel] = append(byKernel[o.Kernel], o)
		}
	}
	if len(byKernel) == 0 {
		return 0, "", "", "", fmt.Errorf("the %s simulation has no -Os kernel for %s %s", t.Target, algorithm, kernelOp)
	}
	// The fastest kernel, by its time at its smallest simulated size.
	var best string
	bestT := math.Inf(1)
	for k, ops := range byKernel {
		sort.Slice(ops, func(i, j int) bool { return ops[i].InputBytes < ops[j].InputBytes })
		if c := median(ops[0].Cycles); c < bestT {
			best, bestT = k, c
		}
	}
	ops := byKernel[best]
	src := fmt.Sprintf("%s, kernel %s -Os (%s; %s, %s, run %s)", t.Target, best, ops[0].Label, t.Simulator, t.Compiler, t.Run)
	cyc := func(o SimOp) float64 { return median(o.Cycles) }
	sec := func(c float64) float64 { return c / t.ClockHz }
	clock := fmt.Sprintf("%.0f MHz", t.ClockHz/1e6)
	for _, o := range ops {
		if o.InputBytes == n {
			return sec(cyc(o)), result.Simulated, fmt.Sprintf("%.0f cycles ÷ %s, simulated", cyc(o), clock), src, nil
		}
	}
	if n <= 0 || ops[0].InputBytes <= 0 {
		return sec(cyc(ops[0])), result.Simulated, fmt.Sprintf("%.0f cycles ÷ %s, simulated", cyc(ops[0]), clock), src, nil
	}
	if len(ops) >= 2 {
		// The two nearest sizes: a line t = a + b·n through them (per-call
		// setup plus a per-byte cost).
		sort.Slice(ops, func(i, j int) bool {
			return math.Abs(float64(ops[i].InputBytes-n)) < math.Abs(float64(ops[j].InputBytes-n))
		})
		a, b := ops[0], ops[1]
		slope := (cyc(b) - cyc(a)) / float64(b.InputBytes-a.InputBytes)
		c := cyc(a) + slope*float64(n-a.InputBytes)
		return sec(c), result.Estimated, fmt.Sprintf("%.0f cycles ÷ %s: the line through the simulated %d B (%.0f cycles) and %d B (%.0f cycles) at %d B",
			c, clock, a.InputBytes, cyc(a), b.InputBytes, cyc(b), n), src, nil
	}
	o := ops[0]
	c := cyc(o) * float64(n) / float64(o.InputBytes)
	return sec(c), result.Estimated, fmt.Sprintf("%.0f cycles ÷ %s: the simulated %d B (%.0f cycles) × %d/%d", c, clock, o.InputBytes, cyc(o), n, o.InputBytes), src, nil
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
