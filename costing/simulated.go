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
	"github.com/cryptocost/cryptocost/scheme"
)

// The simulated rung: times a microcontroller target's simulator counted
// for cryptocost's C kernels (package mcu), kept as data so every command
// prices a device from the same simulation. simavr is cycle-accurate and
// QEMU's instruction count exact, both deterministic, so a table is a
// cache of a computation, not a sample: TestSimulatedTableReproduces
// (package mcu) re-simulates kernels and requires the same cycles, and
// internal/tools/simdata's doc says how to regenerate a table.
//
//go:embed simulated/*.json
var simulatedFS embed.FS

// SimTable is one target's simulated kernel operations.
type SimTable struct {
	Target    string  `json:"target"`
	ClockHz   float64 `json:"clock_hz"`
	Simulator string  `json:"simulator"`
	Compiler  string  `json:"compiler"`
	// Counts is what the simulator counted: "cycles" (simavr counts the
	// AVR's own cycles, exactly: a time from them is simulated) or
	// "instructions" (QEMU counts instructions exactly; the cycles are
	// estimated from them by CycleRule, so a time from them is estimated,
	// with the rule's low and high ends as its interval).
	Counts    string  `json:"counts"`
	CycleRule string  `json:"cycle_rule,omitempty"`
	Run       string  `json:"run"`
	Generated string  `json:"generated_by"`
	Ops       []SimOp `json:"ops"`

	content []byte // the embedded file, for the runs priced from it (input)
}

// SimOp is one kernel operation as the simulator counted it.
type SimOp struct {
	Kernel     string `json:"kernel"`
	Algorithm  string `json:"algorithm"`
	Operation  string `json:"operation"`
	InputBytes int    `json:"input_bytes,omitempty"`
	Opt        string `json:"opt"`
	// Cycles per run, one per input the harness timed (several for the
	// operations that handle secrets); on a table whose cycles are
	// estimated, CyclesMin and CyclesMax are the cycle rule's low and high
	// ends for the same runs.
	Cycles    []float64 `json:"cycles"`
	CyclesMin []float64 `json:"cycles_min,omitempty"`
	CyclesMax []float64 `json:"cycles_max,omitempty"`
	Label     string    `json:"label"`
	Verified  string    `json:"verified"`
	Image     string    `json:"image"`
}

// label is what a time from the table is: simulated when the simulator
// counted the part's cycles, estimated when a rule estimated them.
func (t *SimTable) label() result.Label {
	if t.Counts == "cycles" {
		return result.Simulated
	}
	return result.Estimated
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
		if t.Counts != "cycles" && t.Counts != "instructions" {
			return nil, fmt.Errorf("costing/simulated/%s: counts %q, want cycles or instructions (regenerate it: go doc ./internal/tools/simdata)", f.Name(), t.Counts)
		}
		t.content = data
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
// 16-byte block). Algorithms match on the kernel's algorithm, as package
// mcu names it (mcu.Kernel.Algorithm: "ECDSA-P256-SHA256").
type simMapping struct {
	scheme, op string // registry
	algorithm  string // kernel's algorithm
	kernelOp   string
	// hashWith: the kernel does not hash the message, the scheme does
	// (an RSA private-key operation priced as a hash-then-sign scheme's
	// sign): the hash of the whole message is added ("SHA-256").
	hashWith string
	// hashes: the kernel hashes its simulated message itself (ECDSA
	// hashes with SHA-256, Ed25519 with SHA-512): a longer message adds
	// the hash of its extra bytes, when the table has that hash.
	hashes      string
	privateOnly bool // an RSA private-key operation priced as the scheme's sign (the padding is not simulated)
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
	{scheme: "Ed25519", op: "sign", algorithm: "Ed25519", kernelOp: "sign", hashes: "SHA-512"},
	{scheme: "Ed25519", op: "verify", algorithm: "Ed25519", kernelOp: "verify", hashes: "SHA-512"},
	{scheme: "ECDSA-P256-SHA256", op: "keygen", algorithm: "ECDSA-P256-SHA256", kernelOp: "keygen"},
	{scheme: "ECDSA-P256-SHA256", op: "sign", algorithm: "ECDSA-P256-SHA256", kernelOp: "sign", hashes: "SHA-256"},
	{scheme: "ECDSA-P256-SHA256", op: "verify", algorithm: "ECDSA-P256-SHA256", kernelOp: "verify", hashes: "SHA-256"},
	{scheme: "RSA-1024-PKCS1v15-SHA256", op: "sign", algorithm: "RSA-1024", kernelOp: "private", hashWith: "SHA-256", privateOnly: true},
	{scheme: "RSA-2048-PKCS1v15-SHA256", op: "sign", algorithm: "RSA-2048", kernelOp: "private", hashWith: "SHA-256", privateOnly: true},
	{scheme: "ML-KEM-512", op: "keygen", algorithm: "ML-KEM-512", kernelOp: "keygen"},
	{scheme: "ML-KEM-512", op: "encaps", algorithm: "ML-KEM-512", kernelOp: "encaps"},
	{scheme: "ML-KEM-512", op: "decaps", algorithm: "ML-KEM-512", kernelOp: "decaps"},
	{scheme: "ML-KEM-768", op: "keygen", algorithm: "ML-KEM-768", kernelOp: "keygen"},
	{scheme: "ML-KEM-768", op: "encaps", algorithm: "ML-KEM-768", kernelOp: "encaps"},
	{scheme: "ML-KEM-768", op: "decaps", algorithm: "ML-KEM-768", kernelOp: "decaps"},
	{scheme: "ML-DSA-44", op: "keygen", algorithm: "ML-DSA-44", kernelOp: "keygen"},
	{scheme: "ML-DSA-44", op: "sign", algorithm: "ML-DSA-44", kernelOp: "sign", hashes: "SHAKE256"},
	{scheme: "ML-DSA-44", op: "verify", algorithm: "ML-DSA-44", kernelOp: "verify", hashes: "SHAKE256"},
}

// scalesPerByte says whether an operation's time grows with its input:
// hashes, MACs and ciphers process every byte; a signature, a key
// agreement or an encapsulation costs its public-key arithmetic whatever
// the message (only the hash of the message grows, which simMapping.hashes
// prices apart). The registry's family decides.
func scalesPerByte(schemeName string) bool {
	s, err := scheme.Lookup(schemeName)
	if err != nil {
		return false
	}
	switch s.Info().Family {
	case scheme.FamilyHash, scheme.FamilyMAC, scheme.FamilyBlock, scheme.FamilyStream, scheme.FamilyAEAD:
		return true
	}
	return false
}

// simulatedRung: the device's CPU is a target whose simulation has the
// operation. One choice within the rung, named: the fastest kernel built
// -Os (the Arduino IDE's and most embedded builds' level) among the
// implementations of the algorithm. At a size the simulator did not run,
// a hash, MAC or cipher is the straight line through the two nearest
// simulated sizes, or a proportion of the one size (block ciphers, per
// block); a signature, key agreement or encapsulation is its simulated
// time as is, plus — when the kernel hashes the message and the table has
// that hash — the hash of the extra bytes. Either is labelled estimated.
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
	var st simTime
	var err error
	if scalesPerByte(op.Scheme) {
		st, err = t.time(m.algorithm, m.kernelOp, op.InputBytes)
	} else {
		st, err = t.fixed(m.algorithm, m.kernelOp, op.InputBytes, m.hashes)
	}
	if err != nil {
		return Cost{}, err
	}
	if m.hashWith != "" && !strings.EqualFold(m.hashWith, op.Scheme) {
		h, err := t.time(m.hashWith, "hash", op.InputBytes)
		if err != nil {
			return Cost{}, fmt.Errorf("%s needs %s of the %d-B message: %v", op.Scheme, m.hashWith, op.InputBytes, err)
		}
		st.seconds = st.seconds.Add(h.seconds)
		st.label = weakest(st.label, h.label)
		st.how += " + " + m.hashWith + " of the message: " + h.how
	}
	method := st.how
	if m.privateOnly {
		method += "; the private-key operation only (the PKCS #1 v1.5 padding is not simulated)"
	}
	if sim.Proxy {
		method += "; " + sim.Target + " stands in for " + p.Device.Name + ": " + sim.Note
	}
	p.used(t.input())
	ti := st.seconds
	bounds := ""
	if !ti.Exact() {
		bounds = "the cycle rule's low and high ends (" + t.CycleRule + ")"
	}
	return Cost{Seconds: &ti, Label: st.label, Source: st.source, Method: method, BoundsHow: bounds}, nil
}

// simTime is a time read from a table: the seconds (an interval when the
// cycles are estimated), its label, how, and the kernel it came from.
type simTime struct {
	seconds Interval
	label   result.Label
	how     string
	source  string
}

// kernelOps are the -Os operations of the fastest kernel of an algorithm
// (by its time at its smallest simulated size), smallest size first.
func (t *SimTable) kernelOps(algorithm, kernelOp string) ([]SimOp, string, error) {
	byKernel := map[string][]SimOp{}
	for _, o := range t.Ops {
		if strings.EqualFold(o.Algorithm, algorithm) && o.Operation == kernelOp && o.Opt == "Os" && len(o.Cycles) > 0 {
			byKernel[o.Kernel] = append(byKernel[o.Kernel], o)
		}
	}
	if len(byKernel) == 0 {
		return nil, "", fmt.Errorf("the %s simulation has no -Os kernel for %s %s", t.Target, algorithm, kernelOp)
	}
	var best string
	bestT := math.Inf(1)
	for k, ops := range byKernel {
		sort.Slice(ops, func(i, j int) bool { return ops[i].InputBytes < ops[j].InputBytes })
		if c := median(ops[0].Cycles); c < bestT || c == bestT && k < best {
			best, bestT = k, c
		}
	}
	ops := byKernel[best]
	counted := "cycles counted"
	if t.Counts != "cycles" {
		counted = "instructions counted, cycles estimated by " + t.CycleRule
	}
	src := fmt.Sprintf("%s, kernel %s -Os (%s; %s, %s, %s, run %s)", t.Target, best, ops[0].Label, t.Simulator, t.Compiler, counted, t.Run)
	return ops, src, nil
}

// cycles is an operation's median cycles with the cycle rule's ends.
func (o SimOp) cycles() Interval {
	c := median(o.Cycles)
	if len(o.CyclesMin) == 0 || len(o.CyclesMax) == 0 {
		return Exact(c)
	}
	return Span(c, median(o.CyclesMin), median(o.CyclesMax))
}

func (t *SimTable) seconds(c Interval) Interval { return c.Scale(1 / t.ClockHz) }

func (t *SimTable) clock() string { return fmt.Sprintf("%.0f MHz", t.ClockHz/1e6) }

// counted says how cycles were obtained: "simulated" or "estimated".
func (t *SimTable) counted() string {
	if t.label() == result.Simulated {
		return "simulated"
	}
	return "estimated from the simulated instructions"
}

// exactly is the time of a simulated operation at its own size.
func (t *SimTable) exactly(o SimOp, src string) simTime {
	c := o.cycles()
	return simTime{t.seconds(c), t.label(), fmt.Sprintf("%.0f cycles ÷ %s, %s", c.V, t.clock(), t.counted()), src}
}

// time is the simulated time of a hash, MAC or cipher kernel on n input
// bytes: at that size when simulated there, else a line through the two
// nearest sizes, else proportional to the one size (estimated).
func (t *SimTable) time(algorithm, kernelOp string, n int) (simTime, error) {
	ops, src, err := t.kernelOps(algorithm, kernelOp)
	if err != nil {
		return simTime{}, err
	}
	for _, o := range ops {
		if o.InputBytes == n {
			return t.exactly(o, src), nil
		}
	}
	if n <= 0 || ops[0].InputBytes <= 0 {
		return t.exactly(ops[0], src), nil
	}
	if len(ops) >= 2 {
		slope, a, b := t.slope(ops, n)
		c := a.cycles().Add(slope.Scale(float64(n - a.InputBytes)))
		return simTime{t.seconds(c), result.Estimated, fmt.Sprintf("%.0f cycles ÷ %s: the line through the simulated %d B (%.0f cycles) and %d B (%.0f cycles) at %d B",
			c.V, t.clock(), a.InputBytes, a.cycles().V, b.InputBytes, b.cycles().V, n), src}, nil
	}
	o := ops[0]
	c := o.cycles().Scale(float64(n) / float64(o.InputBytes))
	return simTime{t.seconds(c), result.Estimated, fmt.Sprintf("%.0f cycles ÷ %s: the simulated %d B (%.0f cycles) × %d/%d", c.V, t.clock(), o.InputBytes, o.cycles().V, n, o.InputBytes), src}, nil
}

// slope is the cycles per byte of the line through the two simulated
// sizes nearest n (per-call setup plus a per-byte cost), and those two.
func (t *SimTable) slope(ops []SimOp, n int) (Interval, SimOp, SimOp) {
	near := append([]SimOp(nil), ops...)
	sort.SliceStable(near, func(i, j int) bool {
		return math.Abs(float64(near[i].InputBytes-n)) < math.Abs(float64(near[j].InputBytes-n))
	})
	a, b := near[0], near[1]
	d := float64(b.InputBytes - a.InputBytes)
	ca, cb := a.cycles(), b.cycles()
	// each end of the interval from the same end of the rule
	return Span((cb.V-ca.V)/d, (cb.Lo-ca.Lo)/d, (cb.Hi-ca.Hi)/d), a, b
}

// fixed is the simulated time of a signature, key agreement or
// encapsulation kernel, which does not grow with the message: the time at
// the simulated size as is. When the kernel hashes its message itself
// (hash names the hash) and the table has that hash at two sizes, a
// longer message adds the hash of its extra bytes at the hash's simulated
// cycles per byte. Any other size than the simulated one is estimated.
func (t *SimTable) fixed(algorithm, kernelOp string, n int, hash string) (simTime, error) {
	ops, src, err := t.kernelOps(algorithm, kernelOp)
	if err != nil {
		return simTime{}, err
	}
	for _, o := range ops {
		if o.InputBytes == n {
			return t.exactly(o, src), nil
		}
	}
	o := ops[0]
	st := t.exactly(o, src)
	if n <= 0 || o.InputBytes <= 0 {
		return st, nil
	}
	st.label = result.Estimated
	if n < o.InputBytes {
		st.how += fmt.Sprintf(", the simulated %d-B message's time as is for %d B (a %s does not grow with its message; the hash of the %d fewer bytes is not taken off)",
			o.InputBytes, n, kernelOp, o.InputBytes-n)
		return st, nil
	}
	extra := n - o.InputBytes
	hops, _, herr := t.kernelOps(hash, "hash")
	if hash == "" || herr != nil || len(hops) < 2 || hops[0].InputBytes <= 0 {
		why := "the kernel hashes no message"
		if hash != "" {
			why = fmt.Sprintf("no %s simulation at two sizes on %s: an underestimate", hash, t.Target)
		}
		st.how += fmt.Sprintf(", the simulated %d-B message's time as is for %d B (a %s does not grow with its message; the hash of the %d extra bytes is not counted: %s)",
			o.InputBytes, n, kernelOp, extra, why)
		return st, nil
	}
	slope, a, b := t.slope(hops, n)
	add := slope.Scale(float64(extra))
	c := o.cycles().Add(add)
	st.seconds = t.seconds(c)
	st.how = fmt.Sprintf("%.0f cycles ÷ %s: the simulated %d-B message's %.0f cycles (%s) + %s of the %d extra bytes at %.4g cycles/B (the line through its simulated %d B and %d B), estimated",
		c.V, t.clock(), o.InputBytes, o.cycles().V, t.counted(), hash, extra, slope.V, a.InputBytes, b.InputBytes)
	return st, nil
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
