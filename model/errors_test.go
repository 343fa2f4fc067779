package model

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestLoadErrors: bad model files are refused with file:line and what
// would work.
func TestLoadErrors(t *testing.T) {
	const head = "name: bad\nparameters:\n  n: {default: 2, range: 1..10}\n" // lines 1-3
	msg := func(bits string) string {
		return "messages:\n  - name: m\n    dir: send\n    bits: " + bits + "\n" // bits on line 4 of this part
	}
	for _, tc := range []struct {
		name, src, want string
	}{
		{"unknown name in an expression", head + msg("n * m"),
			`bad.yaml:7: messages.0.bits: unknown name m in "n * m"; did you mean n? (known: n; declare new ones under parameters: or define:)`},
		{"code execution attempt", head + msg(`exec("rm -rf /")`),
			`bad.yaml:7: messages.0.bits: in "exec(\"rm -rf /\")" at column 1: function exec is not available`},
		{"member access", head + msg("n.Exit"), "bad.yaml:7: messages.0.bits: in \"n.Exit\" at column"},
		{"definitions in a loop", head + "define:\n  a: b + 1\n  b: c * 2\n  c: a - n\n" + msg("a"),
			"bad.yaml:5: define.a: definitions refer to each other in a loop: a → b → c → a; define one of them without the others"},
		{"a definition referring to itself", head + "define:\n  a: a + 1\n" + msg("a"),
			"bad.yaml:5: define.a: definitions refer to each other in a loop: a → a"},
		{"constant division by zero", head + "define:\n  a: n / (4 - 4)\n" + msg("a"),
			`bad.yaml:5: define.a: division by zero in "n / (4 - 4)" at column 3: "4 - 4" is 0`},
		{"range without an end", "name: bad\nparameters:\n  n: {default: 2, range: \"1..\"}\n" + msg("n"),
			`bad.yaml:3: parameters.n.range: range "1.." has no end: write both ends, such as 2..14`},
		{"range without a start", "name: bad\nparameters:\n  n: {default: 2, range: \"..9\"}\n" + msg("n"),
			`range "..9" has no start`},
		{"range backwards", "name: bad\nparameters:\n  n: {default: 2, range: \"9..1\"}\n" + msg("n"),
			`range "9..1" runs backwards: write 1..9`},
		{"default outside the range", "name: bad\nparameters:\n  n: {default: 20, range: 1..10}\n" + msg("n"),
			"bad.yaml:3: parameters.n.default: parameter n = 20 is outside its range 1..10"},
		{"default missing", "name: bad\nparameters:\n  n: {range: 1..10}\n" + msg("n"),
			"bad.yaml:3: parameters.n: parameter n has no default: add default:"},
		{"unknown field", head + msg("n") + "    colour: red\n", "bad.yaml:8: field colour not found"},
		{"unknown field in a parameter", "name: bad\nparameters:\n  n: {default: 2, rnage: 1..3}\n" + msg("n"),
			"bad.yaml:3: field rnage not found in type model.paramSpec"},
		{"bad direction", head + "messages:\n  - name: m\n    dir: up\n    bits: 8\n", `bad.yaml:6: messages.0.dir: dir "up": want send or receive`},
		{"no bits", head + "messages:\n  - name: m\n    dir: send\n", "bad.yaml:5: messages.0: message m needs bits: SIZE"},
		{"duplicate message", head + msg("8") + "  - name: m\n    dir: send\n    bits: 8\n", "bad.yaml:8: messages.1.name: message m is declared twice"},
		{"reserved name", "name: bad\nparameters:\n  max: {default: 2}\n" + msg("8"), `bad.yaml:3: parameters.max: "max" is reserved`},
		{"parameter and definition", head + "define:\n  n: 3\n" + msg("n"), "bad.yaml:5: define.n: n is both a parameter and a definition"},
		{"fragment without max payload", head + msg("8") + "    fragment: true\n", "bad.yaml:8: messages.0.fragment: fragment: true needs max_payload"},
		{"variant sets an unknown parameter", head + msg("8") + "variants:\n  - name: v\n    set: {q: 1}\n",
			"bad.yaml:10: variants.0.set.q: variant v sets q, which is not a parameter (parameters: n)"},
		{"variant prices an unknown operation", head + msg("8") + "variants:\n  - name: v\n    costs: {sign: X/sign}\n",
			"bad.yaml:10: variants.0.costs.sign: variant v prices operation sign, which the model does not have"},
		{"no name", "parameters:\n  n: {default: 2}\n" + msg("8"), "bad.yaml:1: name: a model needs a name"},
		{"nothing to cost", "name: bad\n", "the model has no messages and no operations"},
		{"not YAML", "name: [unclosed\n", "bad.yaml:1:"},
		{"expression as a list", head + "messages:\n  - name: m\n    dir: send\n    bits: [1, 2]\n", "bad.yaml:7: want an expression"},
		{"unknown measured output", head + msg("8") + "measured:\n  - output: joules\n    subject: x\n    metric: energy\n",
			`bad.yaml:9: measured.0.output: unknown output "joules": want one of energy, time`},
	} {
		_, err := Parse("bad.yaml", []byte(tc.src))
		if err == nil {
			t.Errorf("%s: parsed; want an error", tc.name)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, err, tc.want)
		}
	}
}

// TestEvalErrors: errors that depend on the point — a division by zero,
// a negative size — name the file, line, field and the point.
func TestEvalErrors(t *testing.T) {
	costs := mustCosts(t, toyCosts)
	for _, tc := range []struct {
		name, src string
		set       map[string]float64
		want      string
	}{
		{"division by zero at a point", "name: bad\nparameters:\n  n: {default: 4}\nmessages:\n  - name: m\n    dir: send\n    bits: 480 / (n - 2)\n",
			map[string]float64{"n": 2},
			`bad.yaml:7: messages.0.bits: division by zero in "480 / (n - 2)" at column 5: "n - 2" is 0 (at n=2)`},
		{"negative size", "name: bad\nparameters:\n  n: {default: 4}\nmessages:\n  - name: m\n    dir: send\n    bits: 8 * (n - 5)\n",
			nil, "bad.yaml:7: messages.0.bits: message m is -8 bits long: sizes must not be negative (at n=4)"},
		{"negative count", "name: bad\nparameters:\n  n: {default: 4}\nmessages:\n  - name: m\n    dir: send\n    bits: 8\n    count: 3 - n\n",
			nil, "bad.yaml:8: messages.0.count: message m is sent -1 times: a count must not be negative (at n=4)"},
		{"negative operation count", "name: bad\nparameters:\n  n: {default: 4}\noperations:\n  - name: s\n    cost: X/sign\n    count: 1 - n\n",
			nil, "bad.yaml:7: operations.0.count: operation s is done -3 times"},
		{"too large for a packet", "name: bad\nparameters:\n  n: {default: 4}\nmessages:\n  - name: m\n    dir: send\n    bits: 100 * n\n    max_payload: 300\n",
			nil, "message m is 400 bits, more than the maximum payload of 300 bits: set fragment: true"},
		{"overflow", "name: bad\nparameters:\n  n: {default: 4}\nmessages:\n  - name: m\n    dir: send\n    bits: 10 ^ (n * 100)\n",
			nil, `bad.yaml:7: messages.0.bits: "10 ^ (n * 100)" is +Inf, not a finite number`},
		// What the sweeps' fast evaluation folds into one verdict a point
		// (evalFast): each still fails with its own error.
		{"negative overhead", "name: bad\nparameters:\n  n: {default: 4}\npacket:\n  overhead: 2 - n\nmessages:\n  - name: m\n    dir: send\n    bits: 8\n",
			nil, "packet.overhead: message m: per-packet overhead -2 bits is negative (at n=4)"},
		{"negative packets", "name: bad\nparameters:\n  n: {default: 4}\nmessages:\n  - name: m\n    dir: send\n    bits: 8\n    packets: 3 - n\n",
			nil, "messages.0.packets: message m: -1 packets is negative (at n=4)"},
		{"negative acknowledgement", "name: bad\nparameters:\n  n: {default: 4}\npacket:\n  ack: 1 - n\nmessages:\n  - name: m\n    dir: send\n    bits: 8\n",
			nil, "packet.ack: message m: acknowledgement size -3 bits is negative (at n=4)"},
		{"a definition overflows", "name: bad\nparameters:\n  n: {default: 4}\ndefine:\n  big: 10 ^ (n * 100)\nmessages:\n  - name: m\n    dir: send\n    bits: big * 0\n",
			nil, `define.big: "10 ^ (n * 100)" is +Inf, not a finite number (an overflow, or a power of a negative number?) (at n=4)`},
		{"a name that is not finite, read in place", "name: bad\nparameters:\n  n: {default: 4}\ndefine:\n  big: 10 ^ (n * 100)\nmessages:\n  - name: m\n    dir: send\n    bits: 8\n    count: big\n",
			nil, `define.big: "10 ^ (n * 100)" is +Inf`},
	} {
		m := mustModel(t, "bad.yaml", tc.src)
		p, err := NewPlan(m, costs, Options{Set: tc.set})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		err = p.Run(context.Background(), func(*Point, *Outputs) error { return nil })
		var ee *EvalError
		if !errors.As(err, &ee) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant %s", tc.name, err, tc.want)
		}
	}
}

// TestPlanErrors: bad --set, --vary, --variant and missing costs are
// refused before any evaluation.
func TestPlanErrors(t *testing.T) {
	m := mustModel(t, "toy.yaml", toyModel)
	costs := mustCosts(t, toyCosts)
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"unknown --set", Options{Set: map[string]float64{"nn": 2}}, "--set nn: model toy has no parameter nn; did you mean n? (parameters: n, payload"},
		{"--set out of range", Options{Set: map[string]float64{"n": 11}}, "parameter n = 11 is outside its range 1..10"},
		{"--set not whole", Options{Set: map[string]float64{"n": 2.5}}, "parameter n must be a whole number, not 2.5"},
		{"unknown --vary", Options{Vary: []Vary{{Param: "x", Values: []float64{1}}}}, "--vary x: model toy has no parameter x"},
		{"--vary out of range", Options{Vary: []Vary{{Param: "n", Values: []float64{0, 1}}}}, "--vary: parameter n = 0 is outside its range"},
		{"set and varied", Options{Set: map[string]float64{"n": 2}, Vary: []Vary{{Param: "n", Values: []float64{1}}}}, "parameter n is both set and varied"},
		{"unknown variant", Options{Variants: []string{"fast"}}, `model toy has no variant "fast": want one of signing, verifying`},
	} {
		_, err := NewPlan(m, costs, tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant %s", tc.name, err, tc.want)
		}
	}
	// An operation the costs do not price: said before any work, with the
	// nearest priced name and how to add one.
	src := strings.Replace(toyModel, "cost: X/sign", "cost: X/sing", 1)
	_, err := NewPlan(mustModel(t, "toy.yaml", src), costs, Options{Variants: []string{"signing"}})
	want := "toy.yaml:30: operations.0.cost: model toy: operation sign (variant signing) needs the cost of X/sing, which cost table toy-costs does not have; did you mean X/sign? (priced: X/sign, X/verify); give a cost table that has it with --costs FILE, or a bench run with --op-times RUN.json"
	if err == nil || err.Error() != want {
		t.Errorf("missing cost:\n got %v\nwant %s", err, want)
	}
	// A variant's binding is located at the variant.
	src = strings.Replace(toyModel, "costs: {sign: X/verify}", "costs: {sign: X/nothing}", 1)
	_, err = NewPlan(mustModel(t, "toy.yaml", src), costs, Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "toy.yaml:38: variants.1.costs.sign: model toy: operation sign (variant verifying) needs the cost of X/nothing") {
		t.Errorf("missing variant cost: %v", err)
	}
}

func TestCostTableErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"name: x\nradio:\n  bit_rate: \"250 kbit/s [s]\"\n  tx_energy_per_bit: \"0.1 mA [s]\"\n  rx_energy_per_bit: \"0.2 µJ/bit [s]\"\n",
			"costs.yaml:4: radio.tx_energy_per_bit: cannot convert mA (current) to J/bit"},
		{"name: x\nradio:\n  bit_rate: \"0 kbit/s [s]\"\n  tx_energy_per_bit: \"0.1 µJ/bit [s]\"\n  rx_energy_per_bit: \"0.2 µJ/bit [s]\"\n",
			"costs.yaml:3: radio.bit_rate: 0 kbit/s [s] must be positive"},
		{"name: x\noperations:\n  A/b: {time: \"-1 ms [s]\"}\n", "costs.yaml:3: operations.A/b: time: -1 ms [s] is negative"},
		{"name: x\noperations:\n  A/b: {label: imported}\n", "costs.yaml:3: operations.A/b: give time: and/or energy:"},
		{"name: x\noperations:\n  A/b: {time: \"1 ms [s]\", label: guessed}\n", `label "guessed": want imported, measured, modelled or estimated`},
		{"name: x\noperations:\n  A/b: {time: \"1 ms [s]\", label: estimated}\n", "an estimated cost needs method:"},
		{"name: x\noperations:\n  A/b: {time: \"1 ms [s]\", energi: \"1 mJ [s]\"}\n", "costs.yaml:3: field energi not found"},
		{"radio: {}\n", "costs.yaml:1: name: a cost table needs a name"},
	} {
		_, err := ParseCostTable("costs.yaml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v\nwant %s", err, tc.want)
		}
	}
}

// FuzzParse: no model file makes the loader panic.
func FuzzParse(f *testing.F) {
	f.Add([]byte(toyModel))
	ms, _ := Builtins()
	for _, m := range ms {
		data, _ := BuiltinSource(m.File)
		f.Add(data)
	}
	f.Add([]byte("name: x\ndefine:\n  a: b\n  b: a\nmessages: [{name: m, dir: send, bits: a}]\n"))
	costs := mustCosts(f, toyCosts)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		p, err := NewPlan(m, costs, Options{})
		if err != nil {
			return
		}
		n := 0
		_ = p.Run(context.Background(), func(*Point, *Outputs) error {
			n++
			if n > 100 {
				return errors.New("enough")
			}
			return nil
		})
	})
}
