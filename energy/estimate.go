package energy

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/stats"
)

// DeviceTime is the time of one operation on a device, and where it came
// from.
type DeviceTime struct {
	// Samples are ns/op (nil for a single figure); MedianNs is their median
	// or the figure.
	Samples  []float64
	MedianNs float64
	// Label is measured (on the device, this run), imported (a calibration
	// or the literature) or estimated (scaled from a reference).
	Label result.Label
	// Method says where it came from; for estimates, the scale and its
	// derivation.
	Method string
	// Scale is the factor applied to the reference (estimates only).
	Scale float64
}

// TimeQuery asks for a subject's time on a device. Reference is the
// subject's result measured elsewhere (on this machine), used by the
// estimators that scale it; Run is the reference's run (its environment
// and the other subjects, for a calibrated ratio).
type TimeQuery struct {
	Device      *Device
	Subject     result.Subject
	Reference   *result.Result
	Run         *result.Run
	Calibration *Calibration
	NoEstimates bool
}

// TimeOnDevice resolves a subject's time on the device: a calibration
// entry, then a literature figure for exactly this scheme, then (unless
// refused) the first estimator that can derive a scale. The error lists
// why each way failed.
func TimeOnDevice(q TimeQuery) (DeviceTime, error) {
	d, s := q.Device, q.Subject
	if e := q.Calibration.Lookup(s.Name); e != nil {
		return DeviceTime{Samples: e.Samples, MedianNs: e.MedianNs, Label: result.Imported,
			Method: fmt.Sprintf("time/op measured by cryptocost on %s (calibration of run %s, %s)", d.Name, q.Calibration.RunID, q.Calibration.Source)}, nil
	}
	for _, o := range d.Operations {
		if o.Scheme != "" && strings.EqualFold(o.Scheme, s.Scheme) && strings.EqualFold(o.Operation, s.Operation) && o.Time.Known() {
			return DeviceTime{MedianNs: o.Time.MustIn("ns"), Label: result.Imported,
				Method: fmt.Sprintf("time/op %s, %s", describe(o.Time), o.Name)}, nil
		}
	}
	var why []string
	if q.Calibration == nil {
		why = append(why, "no calibration (cryptocost calibrate --device "+d.Name+")")
	} else {
		why = append(why, "the calibration has no "+s.Name)
	}
	why = append(why, "no literature time for this scheme in the profile")
	if q.NoEstimates {
		why = append(why, "estimates refused (--no-estimates)")
		return DeviceTime{}, fmt.Errorf("no time for %s on %s: %s", s.Name, d.Name, strings.Join(why, "; "))
	}
	for _, est := range Estimators() {
		t, err := est.Estimate(q)
		if err == nil {
			t.Label = result.Estimated
			t.Method = "by " + est.Name() + ": " + t.Method
			return t, nil
		}
		why = append(why, est.Name()+": "+err.Error())
	}
	return DeviceTime{}, fmt.Errorf("no time for %s on %s: %s", s.Name, d.Name, strings.Join(why, "; "))
}

// An Estimator derives a device time from a reference by a stated scale.
// Registry, not switch: adding a derivation is adding a value here.
type Estimator interface {
	Name() string
	// Estimate returns the time with Method = the scale and its
	// derivation, or why it cannot.
	Estimate(q TimeQuery) (DeviceTime, error)
}

// Estimators in order of preference: the most empirical first.
func Estimators() []Estimator {
	return []Estimator{calibratedRatio{}, keySize{}, clockRatio{}}
}

// calibratedRatio scales the reference by the median ratio of device time
// to reference time over the subjects measured on both (a calibration and
// this run): the device's speed relative to this machine, measured.
type calibratedRatio struct{}

func (calibratedRatio) Name() string { return "calibrated ratio" }

func (calibratedRatio) Estimate(q TimeQuery) (DeviceTime, error) {
	if q.Calibration == nil || q.Run == nil || q.Reference == nil {
		return DeviceTime{}, fmt.Errorf("needs a calibration and a reference run")
	}
	ref := q.Reference.Metric("time")
	if ref == nil || ref.Summary.Median <= 0 {
		return DeviceTime{}, fmt.Errorf("the reference has no time")
	}
	type pair struct {
		name  string
		ratio float64
	}
	var pairs []pair
	for _, r := range q.Run.Results {
		e := q.Calibration.Lookup(r.Subject.Name)
		t := r.Metric("time")
		if e == nil || t == nil || t.Summary.Median <= 0 || e.MedianNs <= 0 {
			continue
		}
		pairs = append(pairs, pair{r.Subject.Name, e.MedianNs / (t.Summary.Median * 1e9)})
	}
	if len(pairs) == 0 {
		return DeviceTime{}, fmt.Errorf("no subject of this run is in the calibration of %s", q.Device.Name)
	}
	ratios := make([]float64, len(pairs))
	for i, p := range pairs {
		ratios[i] = p.ratio
	}
	scale := stats.Summarize(ratios).Median
	sort.Slice(pairs, func(i, j int) bool { return pairs[i].ratio < pairs[j].ratio })
	var shown []string
	for i, p := range pairs {
		if i == 3 {
			shown = append(shown, "…")
			break
		}
		shown = append(shown, fmt.Sprintf("%s %.3g", p.name, p.ratio))
	}
	method := fmt.Sprintf("scale %.4g = median of %s time / this machine's time over %d operations measured on both (%s; range %.3g–%.3g); a ratio from other operations holds only as far as both machines run all code alike",
		scale, q.Device.Name, len(pairs), strings.Join(shown, ", "), pairs[0].ratio, pairs[len(pairs)-1].ratio)
	return scaled(ref, scale, method), nil
}

// clockRatio scales by the clock ratio, only between machines of the same
// architecture (a different instruction set, word size or crypto extension
// changes the work per cycle by orders of magnitude).
type clockRatio struct{}

func (clockRatio) Name() string { return "clock ratio" }

func (clockRatio) Estimate(q TimeQuery) (DeviceTime, error) {
	if q.Run == nil || q.Reference == nil {
		return DeviceTime{}, fmt.Errorf("needs a reference run")
	}
	env := q.Run.Environment
	d := q.Device
	if d.CPU.Arch != env.Arch {
		return DeviceTime{}, fmt.Errorf("%s is %s and the reference ran on %s: a clock ratio across architectures is no estimate", d.Name, d.CPU.Arch, env.Arch)
	}
	if env.CPUMHz <= 0 {
		return DeviceTime{}, fmt.Errorf("the reference run's clock rate is unknown")
	}
	if !d.CPU.Clock.Known() {
		return DeviceTime{}, fmt.Errorf("%s", errUnknown(d.Name+"'s clock", d.CPU.Clock))
	}
	ref := q.Reference.Metric("time")
	if ref == nil {
		return DeviceTime{}, fmt.Errorf("the reference has no time")
	}
	devMHz := d.CPU.Clock.MustIn("MHz")
	scale := env.CPUMHz / devMHz
	method := fmt.Sprintf("scale %.4g = %.0f MHz (reference, %s) / %.0f MHz (%s, %s); same architecture %s; assumes equal work per cycle, which caches, memory and microarchitecture break (treat as ±2×)",
		scale, env.CPUMHz, orUnknown(env.CPUMHzFrom), devMHz, d.Name, describe(d.CPU.Clock), env.Arch)
	return scaled(ref, scale, method), nil
}

func scaled(ref *result.Metric, scale float64, method string) DeviceTime {
	t := DeviceTime{MedianNs: ref.Summary.Median * 1e9 * scale, Method: method, Scale: scale}
	for _, v := range ref.Samples {
		t.Samples = append(t.Samples, v*1e9*scale)
	}
	return t
}

// keySize scales the device's own literature time for the same family and
// operation at another key size by (bits / bits_ref)^k. The exponent k is
// fitted to two sizes of the same implementation on the device when it has
// them, else the textbook cost growth (defaultExponents).
type keySize struct{}

func (keySize) Name() string { return "key-size scaling" }

// defaultExponents is how the cost of public-key operations grows with the
// key size n, for schoolbook multiprecision arithmetic (O(n²) per
// multiplication): an elliptic-curve scalar multiplication does O(n) point
// operations of O(1) field multiplications, so O(n³) (Hankerson, Menezes
// and Vanstone, Guide to Elliptic Curve Cryptography, 2004, §3.3); an RSA private-key operation does O(n) modular squarings,
// O(n³); a public-key operation with a fixed small exponent a constant
// number, O(n²) (Menezes, van Oorschot and Vanstone, Handbook of Applied
// Cryptography, 1996, §14.6 and Note 14.91 on small exponents).
var defaultExponents = map[string]float64{
	"ECDSA/*":     3,
	"ECDH/*":      3,
	"EdDSA/*":     3,
	"RSA/sign":    3,
	"RSA/decrypt": 3,
	"RSA/verify":  2,
	"RSA/encrypt": 2,
	// Prime search: by the prime number theorem O(n) candidates, each an
	// O(n³) Miller–Rabin test (HAC §4.2, §4.4).
	"RSA/keygen": 4,
}

func (keySize) Estimate(q TimeQuery) (DeviceTime, error) {
	family, bits := SchemeSize(q.Subject)
	if family == "" {
		return DeviceTime{}, fmt.Errorf("%s has no key size to scale", q.Subject.Scheme)
	}
	var ops []Operation
	for _, o := range q.Device.OperationsFor(family, q.Subject.Operation) {
		if o.Bits > 0 && o.Time.Known() {
			ops = append(ops, o)
		}
	}
	if len(ops) == 0 {
		return DeviceTime{}, fmt.Errorf("%s has no literature time for %s %s at any key size", q.Device.Name, family, q.Subject.Operation)
	}
	// The reference: the largest size not above the target (ops are sorted
	// largest first, file order within a size), else the smallest above.
	ref := ops[len(ops)-1]
	for _, o := range ops {
		if o.Bits <= bits {
			ref = o
			break
		}
	}
	k, how := fitExponent(ref, ops)
	if k == 0 {
		var ok bool
		k, ok = defaultExponents[family+"/"+q.Subject.Operation]
		if !ok {
			k, ok = defaultExponents[family+"/*"]
		}
		if !ok {
			return DeviceTime{}, fmt.Errorf("%s has one size of %s %s and no textbook exponent is known", q.Device.Name, family, q.Subject.Operation)
		}
		how = fmt.Sprintf("k = %g, the textbook growth of %s %s with key size (schoolbook arithmetic; see energy.defaultExponents)", k, family, q.Subject.Operation)
	}
	scale := math.Pow(float64(bits)/float64(ref.Bits), k)
	t := ref.Time.MustIn("ns") * scale
	method := fmt.Sprintf("%s-%d %s on %s = %s × (%d/%d)^%.3g = × %.4g, from %s; %s",
		family, bits, q.Subject.Operation, q.Device.Name, describe(ref.Time), bits, ref.Bits, k, scale, ref.Name, how)
	if ref.Bits == bits {
		method += "; same family, size and operation, but another implementation than " + q.Subject.Scheme + "@" + q.Subject.Provider
	}
	return DeviceTime{MedianNs: t, Method: method, Scale: scale}, nil
}

// fitExponent fits k in t ∝ bits^k to ref and the nearest other size of
// the same implementation; 0 when there is none.
func fitExponent(ref Operation, ops []Operation) (float64, string) {
	var best *Operation
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
	if !(k > 0.5 && k < 5) { // outside any public-key algorithm's growth: not a fit to trust
		return 0, ""
	}
	return k, fmt.Sprintf("k = ln(%s / %s) / ln(%d/%d) = %.3g, fitted to %s and %s", describe(ref.Time), describe(best.Time), ref.Bits, best.Bits, k, ref.Name, best.Name)
}

var (
	leadingBits = regexp.MustCompile(`^(?:RSA|DSA)-(\d+)`)
	curveBits   = regexp.MustCompile(`(\d+)`)
)

// SchemeSize is the public-key family and key size of a subject ("ECDSA",
// 256 for ECDSA-P256-SHA256), or "" when it has none.
func SchemeSize(s result.Subject) (family string, bits int) {
	name := s.Scheme
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
	if v := s.Params["modulus_bits"]; v != "" {
		bits, _ = strconv.Atoi(v)
	} else if m := leadingBits.FindStringSubmatch(name); m != nil {
		bits, _ = strconv.Atoi(m[1])
	} else if c := s.Params["curve"]; c != "" {
		if m := curveBits.FindString(c); m != "" {
			bits, _ = strconv.Atoi(m)
		}
	} else if m := curveBits.FindString(strings.TrimPrefix(strings.TrimPrefix(name, "ECDSA-P"), "ECDH-P")); m != "" {
		bits, _ = strconv.Atoi(m)
	}
	if bits == 0 {
		return "", 0
	}
	return family, bits
}

func orUnknown(s string) string {
	if s == "" {
		return "source unknown"
	}
	return s
}

// sortedKeys is for deterministic messages.
func sortedKeys[M ~map[string]V, V any](m M) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
