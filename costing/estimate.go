package costing

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scheme"
	"github.com/cryptocost/cryptocost/stats"
)

// The estimated rung: one named rule per device and operation, the first
// of these that applies (a registry: adding a rule is adding a value).
// Each returns the time, its interval and the derivation with its inputs.
var estimators = []estimator{calibratedRatio{}, clockRatio{}, keySizeLaw{}, equivalentOp{}, hostLowerBound{}}

type estimator interface {
	name() string
	estimate(p *Pricer, op Op) (Cost, error)
}

// estimatedRung tries the rules in order and says, when none applies, why
// each did not.
type estimatedRung struct{}

func (estimatedRung) rung() Rung { return Estimated }

func (estimatedRung) resolve(p *Pricer, op Op) (Cost, error) {
	var why []string
	for _, e := range estimators {
		c, err := e.estimate(p, op)
		if err == nil {
			c.Method = "by " + e.name() + ": " + c.Method
			// An estimate is estimated, however good its inputs: an
			// equivalent operation's imported figure is not this one's.
			c.Label = result.Estimated
			return c, nil
		}
		why = append(why, e.name()+": "+err.Error())
	}
	return Cost{}, fmt.Errorf("%s", strings.Join(why, "; "))
}

// calibratedRatio scales this machine's time by the median ratio of the
// device's time to this machine's over the operations measured on both
// (the calibration and the run being priced): the device's speed relative
// to this machine, measured. The interval spans the ratios' range.
type calibratedRatio struct{}

func (calibratedRatio) name() string { return "calibrated ratio" }

func (calibratedRatio) estimate(p *Pricer, op Op) (Cost, error) {
	c, run := p.Calibration, p.Reference
	if c == nil || run == nil {
		return Cost{}, fmt.Errorf("needs a calibration of %s and a run to scale", p.Device.Name)
	}
	if len(op.HostSeconds) == 0 {
		return Cost{}, fmt.Errorf("the run did not time %s", op.Name())
	}
	type pair struct {
		name  string
		ratio float64
	}
	var pairs []pair
	for _, r := range run.Results {
		t := r.Metric("time")
		e := c.Lookup(r.Subject.Name)
		if e == nil || t == nil || t.Summary.Median <= 0 || e.MedianNs <= 0 {
			continue
		}
		pairs = append(pairs, pair{r.Subject.Name, e.MedianNs * 1e-9 / t.Summary.Median})
	}
	if len(pairs) == 0 {
		return Cost{}, fmt.Errorf("no operation of this run is in the calibration of %s", p.Device.Name)
	}
	sort.Slice(pairs, func(i, j int) bool { return pairs[i].ratio < pairs[j].ratio })
	ratios := make([]float64, len(pairs))
	for i, pr := range pairs {
		ratios[i] = pr.ratio
	}
	scale := stats.Summarize(ratios).Median
	here := stats.Summarize(op.HostSeconds).Median
	p.used(c.input())
	t := Span(here*scale, here*pairs[0].ratio, here*pairs[len(pairs)-1].ratio)
	var shown []string
	for i, pr := range pairs {
		if i == 3 {
			shown = append(shown, "…")
			break
		}
		shown = append(shown, fmt.Sprintf("%s %.3g", pr.name, pr.ratio))
	}
	return Cost{Seconds: &t, Source: "calibration of " + p.Device.Name + " (run " + c.RunID + ")",
		Method: fmt.Sprintf("%.4g s here × %.4g = the median of %s's time / this machine's over %d operations measured on both (%s)",
			here, scale, p.Device.Name, len(pairs), strings.Join(shown, ", ")),
		BoundsHow: fmt.Sprintf("the lowest and highest of those ratios (%.3g–%.3g)", pairs[0].ratio, pairs[len(pairs)-1].ratio)}, nil
}

// clockRatio scales this machine's time by the clock ratio, between
// machines of the same architecture only (a different instruction set,
// word size or crypto extension changes the work per cycle by orders of
// magnitude). The interval is ×½ to ×2: equal work per cycle is what
// caches, memory and microarchitecture break.
type clockRatio struct{}

func (clockRatio) name() string { return "clock ratio" }

func (clockRatio) estimate(p *Pricer, op Op) (Cost, error) {
	d, env := p.Device, op.Env
	switch {
	case len(op.HostSeconds) == 0:
		return Cost{}, fmt.Errorf("the run did not time %s", op.Name())
	case d.CPU.Arch != env.Arch:
		return Cost{}, fmt.Errorf("%s is %s and the run was made on %s: a clock ratio across architectures is no estimate", d.Name, d.CPU.Arch, orUnknown(env.Arch))
	case env.CPUMHz <= 0:
		return Cost{}, fmt.Errorf("the run machine's clock rate is unknown")
	case !d.CPU.Clock.Known():
		return Cost{}, fmt.Errorf("%s's clock is %s", d.Name, d.CPU.Clock)
	}
	devMHz := d.CPU.Clock.MustIn("MHz")
	scale := env.CPUMHz / devMHz
	here := stats.Summarize(op.HostSeconds).Median
	t := Span(here*scale, here*scale/2, here*scale*2)
	return Cost{Seconds: &t, Source: "this run's machine and " + d.Name + "'s clock",
		Method: fmt.Sprintf("%.4g s here × %.0f MHz (%s) / %.0f MHz (%s) = × %.4g; same architecture %s, equal work per cycle assumed",
			here, env.CPUMHz, orUnknown(env.CPUMHzFrom), devMHz, d.CPU.Clock, scale, env.Arch),
		BoundsHow: "×½ to ×2: caches, memory and microarchitecture break equal work per cycle"}, nil
}

// textbookExponents is how the cost of public-key operations grows with
// the key size n, for schoolbook multiprecision arithmetic (O(n²) per
// multiplication): an elliptic-curve scalar multiplication does O(n)
// point operations of O(1) field multiplications, so O(n³) (Hankerson,
// Menezes and Vanstone, Guide to Elliptic Curve Cryptography, 2004, §3.3);
// an RSA private-key operation does O(n) modular squarings, O(n³); a
// public-key operation with a fixed small exponent a constant number,
// O(n²) (Menezes, van Oorschot and Vanstone, Handbook of Applied
// Cryptography, 1996, §14.6 and Note 14.91); key generation by prime
// search O(n⁴) (HAC §4.2, §4.4).
var textbookExponents = map[string]float64{
	"ECDSA/*": 3, "ECDH/*": 3, "EdDSA/*": 3, "DSA/*": 3,
	"RSA/sign": 3, "RSA/decrypt": 3, "RSA/verify": 2, "RSA/encrypt": 2, "RSA/keygen": 4,
}

// keySizeLaw scales the device's own literature time for the same family
// and operation at another key size by (bits/bits_ref)^k: k fitted to two
// sizes of the same implementation on the device when it has them (the
// nearest other size), else the textbook exponent. The interval spans the
// fitted and the textbook answers — the disagreement between the two
// rules is the uncertainty; with the textbook alone, k − ½ (sub-schoolbook
// multiplication: Karatsuba's 2.58 against 3) to k.
type keySizeLaw struct{}

func (keySizeLaw) name() string { return "key-size power law" }

func (keySizeLaw) estimate(p *Pricer, op Op) (Cost, error) {
	family, bits := KeySize(op.Scheme)
	if family == "" {
		return Cost{}, fmt.Errorf("%s has no key size to scale", op.Scheme)
	}
	var ops []device.Operation
	for _, o := range p.Device.OperationsFor(family, op.Operation) {
		if o.Bits > 0 && o.Time.Known() {
			ops = append(ops, o)
		}
	}
	if len(ops) == 0 {
		return Cost{}, fmt.Errorf("%s has no literature time for %s %s at any key size", p.Device.Name, family, op.Operation)
	}
	// The reference: the largest size not above the target (ops are
	// sorted largest first, file order within a size), else the smallest.
	ref := ops[len(ops)-1]
	for _, o := range ops {
		if o.Bits <= bits {
			ref = o
			break
		}
	}
	textbook, ok := textbookExponents[family+"/"+op.Operation]
	if !ok {
		textbook, ok = textbookExponents[family+"/*"]
	}
	k, how := fitExponent(ref, ops)
	if k == 0 {
		if !ok {
			return Cost{}, fmt.Errorf("%s has one size of %s %s and no textbook exponent is known", p.Device.Name, family, op.Operation)
		}
		k, how = textbook, fmt.Sprintf("k = %g, the textbook growth of %s %s with key size (costing.textbookExponents)", textbook, family, op.Operation)
	}
	tref := ref.Time.MustIn("s")
	r := float64(bits) / float64(ref.Bits)
	at := func(k float64) float64 { return tref * math.Pow(r, k) }
	t := Span(at(k), at(k), at(k))
	bounds := ""
	switch {
	case ok && textbook != k:
		t = Span(at(k), at(k), at(textbook))
		bounds = fmt.Sprintf("the fitted k = %.3g and the textbook k = %g", k, textbook)
	case ok:
		t = Span(at(k), at(k-0.5), at(k))
		bounds = fmt.Sprintf("k − ½ to k (%.3g to %.3g): sub-schoolbook multiplication", k-0.5, k)
	}
	method := fmt.Sprintf("%s-%d %s on %s = %s × (%d/%d)^%.3g = %.4g s, from %s; %s",
		family, bits, op.Operation, p.Device.Name, ref.Time, bits, ref.Bits, k, at(k), ref.Name, how)
	if ref.Bits == bits {
		method += "; same family, size and operation, another implementation than " + op.Scheme
	}
	return Cost{Seconds: &t, Source: ref.Name, Method: method, BoundsHow: bounds}, nil
}

// fitExponent fits k in t ∝ bits^k to ref and the nearest other size of
// the same implementation; 0 when there is none or the fit is implausible.
func fitExponent(ref device.Operation, ops []device.Operation) (float64, string) {
	var best *device.Operation
	for i := range ops {
		o := &ops[i]
		if o.Bits == ref.Bits || o.Implementation != ref.Implementation {
			continue
		}
		if best == nil || math.Abs(float64(o.Bits-ref.Bits)) < math.Abs(float64(best.Bits-ref.Bits)) {
			best = o
		}
	}
	if best == nil {
		return 0, ""
	}
	t1, t2 := ref.Time.MustIn("s"), best.Time.MustIn("s")
	k := math.Log(t1/t2) / math.Log(float64(ref.Bits)/float64(best.Bits))
	if !(k > 0.5 && k < 5) { // outside any public-key algorithm's growth
		return 0, ""
	}
	return k, fmt.Sprintf("k = ln(%s / %s) / ln(%d/%d) = %.3g, fitted to %s and %s", ref.Time, best.Time, ref.Bits, best.Bits, k, ref.Name, best.Name)
}

// equivalentOp prices an operation the device has no figure for as one
// that does the same work: an ECDH key pair is one fixed-base scalar
// multiplication, the bulk of an ECDSA signature; a shared secret one
// variable-base multiplication, which a verification (a double
// multiplication) bounds from above (Hankerson, Menezes and Vanstone,
// §4.4). The equivalent is resolved on the device like any operation.
type equivalentOp struct{}

func (equivalentOp) name() string { return "equivalent operation" }

type equivalent struct {
	scheme, op, why string
	// sameInput prices the equivalent on the operation's own input size
	// (a hash of n bytes as another hash of n bytes); otherwise on a
	// 32-byte message.
	sameInput bool
	// blocks, when set, counts how many times an operation on n bytes does
	// the equivalent, which is priced on one block of blockBytes (CCM as
	// AES-128 block encryptions: a device whose radio has an AES engine).
	blocks     func(n int) (Interval, string)
	blockBytes int
}

// ccmBlocks is AES-CCM's count of AES-128 block encryptions for a message
// of n bytes (NIST SP 800-38C §6.1, RFC 3610 §2): the B0 block, the
// associated data with its 2-byte length in 16-byte blocks, the message's
// blocks for CBC-MAC and again for CTR, and the counter block that
// encrypts the tag. Opening does the same. The associated data is not in
// the recorded work: DTLS 1.2's 13 bytes (RFC 6347 §4.1.2.1) take one
// block, OSCORE's COSE Enc_structure (RFC 8613 §5.4) of 16–30 bytes two:
// the interval is one to two.
func ccmBlocks(n int) (Interval, string) {
	m := (n + 15) / 16
	b := float64(1 + 2*m + 1)
	return Span(b+1, b+1, b+2), fmt.Sprintf("B0 + 1–2 blocks of associated data + 2 × ⌈%d/16⌉ (CBC-MAC and CTR) + the tag's counter block = %g–%g AES-128 blocks (SP 800-38C §6.1)", n, b+1, b+2)
}

var equivalents = map[string]equivalent{
	"AES-128-CCM-8/seal": {scheme: "AES-128", op: "encrypt-ecb", why: "AES-128 block encryptions (CCM's CBC-MAC and CTR)", blocks: ccmBlocks, blockBytes: 16},
	"AES-128-CCM-8/open": {scheme: "AES-128", op: "encrypt-ecb", why: "AES-128 block encryptions (CCM's CTR and CBC-MAC)", blocks: ccmBlocks, blockBytes: 16},
	"AES-128-CCM/seal":   {scheme: "AES-128", op: "encrypt-ecb", why: "AES-128 block encryptions (CCM's CBC-MAC and CTR)", blocks: ccmBlocks, blockBytes: 16},
	"AES-128-CCM/open":   {scheme: "AES-128", op: "encrypt-ecb", why: "AES-128 block encryptions (CCM's CTR and CBC-MAC)", blocks: ccmBlocks, blockBytes: 16},
	"ECDH-P256/keygen":   {scheme: "ECDSA-P256-SHA256", op: "sign", why: "an ECDSA P-256 signature (one fixed-base scalar multiplication each)"},
	"ECDH-P256/derive":   {scheme: "ECDSA-P256-SHA256", op: "verify", why: "an ECDSA P-256 verification (an upper bound for one variable-base scalar multiplication)"},
	"ECDH-P384/keygen":   {scheme: "ECDSA-P384-SHA384", op: "sign", why: "an ECDSA P-384 signature (one fixed-base scalar multiplication each)"},
	"ECDH-P384/derive":   {scheme: "ECDSA-P384-SHA384", op: "verify", why: "an ECDSA P-384 verification (an upper bound for one variable-base scalar multiplication)"},
	// MD5 does 64 steps per 64-byte block against SHA-1's 80, with a
	// smaller state (RFC 1321, FIPS 180-4): SHA-1's figure bounds it from
	// above (TLS 1.0's MD5 transcript and PRF on a device whose study
	// measured SHA-1 alone).
	"MD5/hash":       {scheme: "SHA-1", op: "hash", why: "SHA-1 on the same input (an upper bound: MD5 does less work per block)", sameInput: true},
	"HMAC-MD5/mac":   {scheme: "HMAC-SHA-1", op: "mac", why: "HMAC-SHA-1 on the same input (an upper bound: MD5 does less work per block)", sameInput: true},
	"HMAC-SHA-1/mac": {scheme: "SHA-1", op: "hash", why: "SHA-1 on the same input (HMAC adds two compressions on the key blocks: a lower bound on short inputs)", sameInput: true},
}

func (equivalentOp) estimate(p *Pricer, op Op) (Cost, error) {
	eq, ok := equivalents[op.Scheme+"/"+op.Operation]
	if !ok {
		return Cost{}, fmt.Errorf("no equivalent operation is known for %s %s", op.Scheme, op.Operation)
	}
	in := 32
	switch {
	case eq.sameInput:
		in = op.InputBytes
	case eq.blocks != nil:
		in = eq.blockBytes
	}
	c, err := p.Resolve(Op{Scheme: eq.scheme, Operation: eq.op, InputBytes: in, Env: op.Env})
	if err != nil {
		return Cost{}, fmt.Errorf("priced as %s, which is %v", eq.why, err)
	}
	c.Method = "priced as " + eq.why + ": " + c.Rung.String() + ": " + c.Method
	if eq.blocks != nil {
		n, how := eq.blocks(op.InputBytes)
		if c.Seconds == nil {
			return Cost{}, fmt.Errorf("priced as %s: the block's figure has no time", eq.why)
		}
		block := c.Seconds.V
		t := c.Seconds.Mul(n)
		c.Seconds, c.Samples = &t, nil
		c.Method = fmt.Sprintf("%s of %s a block × (%s) for %s; the block %s", FormatSeconds(t.V), FormatSeconds(block), how, op.Name(), c.Method)
		c.BoundsHow = "the associated data's one or two blocks"
	}
	if !eq.sameInput {
		c.Joules = nil // the equivalent's measured energy is not this operation's
	}
	return c, nil
}

// hostLowerBound: where the profile opts in (a phone whose SoC its study
// does not name), this machine's time unscaled is a lower bound on the
// device's: the interval is [t, ∞).
type hostLowerBound struct{}

func (hostLowerBound) name() string { return "host time as a lower bound" }

func (hostLowerBound) estimate(p *Pricer, op Op) (Cost, error) {
	e := p.Device.Estimate
	if e == nil || e.Rule != "host-lower-bound" {
		return Cost{}, fmt.Errorf("the profile does not opt into it")
	}
	if len(op.HostSeconds) == 0 {
		return Cost{}, fmt.Errorf("the run did not time %s", op.Name())
	}
	here := stats.Summarize(op.HostSeconds).Median
	t := Interval{V: here, Lo: here, Hi: math.Inf(1)}
	return Cost{Seconds: &t, Source: "this run's machine (" + orUnknown(op.Env.CPUModel) + ")",
		Method:    fmt.Sprintf("at least %.4g s: this machine's time, unscaled (%s)", here, e.Why),
		BoundsHow: "a lower bound: the device is no faster than this machine"}, nil
}

var (
	leadingBits = regexp.MustCompile(`^(?:RSA|DSA|FFDH|DH)-(\d+)`)
	digits      = regexp.MustCompile(`(\d+)`)
)

// KeySize is the public-key family and key size of a registry scheme
// ("ECDSA", 256 for ECDSA-P256-SHA256), or "" when it has none.
func KeySize(name string) (family string, bits int) {
	if s, err := scheme.Lookup(name); err == nil {
		info := s.Info()
		name = info.Name
		if v := info.Param("modulus_bits"); v != "" {
			bits, _ = strconv.Atoi(v)
		} else if c := info.Param("curve"); c != "" {
			if m := digits.FindString(c); m != "" {
				bits, _ = strconv.Atoi(m)
			}
		}
	}
	switch {
	case strings.HasPrefix(name, "ECDSA-"):
		family = "ECDSA"
	case strings.HasPrefix(name, "ECDH-"):
		family = "ECDH"
	case strings.HasPrefix(name, "RSA-"):
		family = "RSA"
	case strings.HasPrefix(name, "DSA-"):
		family = "DSA"
	case name == "Ed25519":
		return "EdDSA", 255
	case name == "Ed448":
		return "EdDSA", 448
	default:
		return "", 0
	}
	if bits == 0 {
		if m := leadingBits.FindStringSubmatch(name); m != nil {
			bits, _ = strconv.Atoi(m[1])
		} else if m := digits.FindString(strings.TrimPrefix(strings.TrimPrefix(name, "ECDSA-P"), "ECDH-P")); m != "" {
			bits, _ = strconv.Atoi(m)
		}
	}
	if bits == 0 {
		return "", 0
	}
	return family, bits
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
