package model

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
)

// compileTest compiles src over the names n, d (slots 0, 1).
func compileTest(t testing.TB, src string) (evalFn, error) {
	t.Helper()
	x, err := parseExpression(src)
	if err != nil {
		return nil, err
	}
	return x.compile(func(name string) int {
		switch name {
		case "n":
			return 0
		case "d":
			return 1
		}
		return -1
	})
}

func TestExprValues(t *testing.T) {
	// n = 6, d = 2.5; every value worked out by hand.
	for _, tc := range []struct {
		src  string
		want float64
	}{
		{"480", 480},
		{"2.5e3", 2500},
		{"1_000", 1000},
		{"(480 + 544) * n", 6144}, // 1024 · 6
		{"(480 + 544) * d * n + 576 + 352", 16288},      // 1024 · 15 + 928
		{"16 + 32 + 32 + 320 + 288", 688},               // SecSyWiSe ECDSA-160 broadcast
		{"3 * n + 1", 19},                               // TinySeRSync's MAC count
		{"416 * d * n + 112 * n + 112", 6352 + 672},     // 416·15 = 6240, +112 → 6352; 112·6 = 672
		{"-n + 10", 4},                                  // unary minus
		{"+n", 6},                                       // unary plus
		{"2 ^ 10", 1024},                                // power
		{"2 ** 3 ** 2", 512},                            // right-associative: 2^(3^2)
		{"-2 ^ 2", -4},                                  // expr: unary minus binds looser than ^
		{"n / 4", 1.5},                                  // division is real
		{"7 / 2", 3.5},                                  // also between integers
		{"ceil(n / 4)", 2},                              //
		{"floor(n / 4)", 1},                             //
		{"min(n, d)", 2.5},                              //
		{"max(n, d, 7)", 7},                             // three arguments
		{"min(1, max(0, ceil(33 - 23)))", 1},            // CBOR length-header indicator
		{"ceil(4 * 15 / 3) + 1 + ceil(4 * 33 / 3)", 65}, // 20 + 1 + 44
		{"1 + ceil(max(0, 9928 - 840) / 832)", 12},      // 6LoWPAN frames: 1 + ceil(10.92)
		{"floor((116 - 4 - 9) / 8) * 8 + 9", 105},       // 96 + 9
		{"n - d * 2", 1},
		{"(n - d) * 2", 7},
	} {
		fn, err := compileTest(t, tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		fr := &frame{vals: []float64{6, 2.5}}
		if got := fn(fr); got != tc.want || fr.fault != nil {
			t.Errorf("%s = %v (fault %v), want %v", tc.src, got, fr.fault, tc.want)
		}
	}
}

// TestExprRejects shows the evaluator refuses everything but arithmetic:
// attempts to call functions, read the environment, build data or branch.
func TestExprRejects(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`os.Exit(1)`, "not"}, // member call
		{`exec("rm -rf /")`, "function exec is not available"},
		{`env("HOME")`, "function env is not available"},
		{`len("abc")`, "function len is not available"}, // a disabled expr builtin
		{`now()`, "function now is not available"},
		{`sprintf("%d", 1)`, "function sprintf is not available"},
		{`map([1, 2], # * 2)`, "function map is not available"},
		{`filter([1], true)`, "function filter is not available"},
		{`abs(n)`, "function abs is not available"},
		{`n.field`, "member access"},
		{`n["x"]`, "member access"},
		{`$env`, "unknown name $env"}, // expr's environment variable is just an unknown name
		{`"a" + "b"`, "strings are not allowed"},
		{`[1, 2]`, "not allowed"},
		{`{a: 1}`, "not allowed"},
		{`true`, "not a number"},
		{`nil`, "not a number"},
		{`n > 2 ? 1 : 2`, "not allowed"},
		{`n > 2`, `operator ">" is not allowed`},
		{`n == 2`, `operator "==" is not allowed`},
		{`n and d`, `not allowed`},
		{`!n`, `operator "!" is not allowed`},
		{`n % 2`, "operator % is not allowed"},
		{`n in [1, 2]`, "not allowed"},
		{`n ?? 1`, "not allowed"},
		{`1..3`, "not allowed"},
		{`let x = 1; x`, "let and ; are not allowed"},
		{`1; 2`, "let and ; are not allowed"},
		{`if n { 1 } else { 2 }`, "unexpected token"}, // if/else syntax is disabled: a syntax error
		{`min(n)`, "min needs two or more arguments"},
		{`ceil(n, d)`, "ceil takes exactly 1 argument"},
		{`n +`, "unexpected"},
		{``, "empty expression"},
		{strings.Repeat("1+", 300) + "1", "nodes"}, // bounded tree size
	} {
		fn, err := compileTest(t, tc.src)
		if err == nil {
			t.Errorf("%q compiled (%v); want an error", tc.src, fn != nil)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %q, want it to contain %q", tc.src, err, tc.want)
		}
	}
}

func TestExprErrorColumn(t *testing.T) {
	_, err := compileTest(t, "n + len(d)")
	var ee *ExprError
	if !errors.As(err, &ee) || ee.Column != 5 {
		t.Fatalf("error %v, want an ExprError at column 5", err)
	}
	_, err = compileTest(t, "n * m")
	if !errors.As(err, &ee) || ee.Column != 5 || !strings.Contains(err.Error(), "unknown name m") {
		t.Fatalf("unknown name: %v", err)
	}
}

func TestExprDivisionByZero(t *testing.T) {
	// A constant division by zero is refused when compiled.
	if _, err := compileTest(t, "n / (2 - 2)"); err == nil || !strings.Contains(err.Error(), `"2 - 2" is 0`) {
		t.Errorf("constant: %v", err)
	}
	// A division by a value that is zero at some point faults there,
	// naming the divisor; elsewhere it evaluates.
	fn, err := compileTest(t, "480 / (n - 2)")
	if err != nil {
		t.Fatal(err)
	}
	fr := &frame{vals: []float64{6, 0}}
	if got := fn(fr); got != 120 || fr.fault != nil {
		t.Errorf("at n=6: %v, %v", got, fr.fault)
	}
	fr = &frame{vals: []float64{2, 0}}
	fn(fr)
	if fr.fault == nil || !strings.Contains(fr.fault.Error(), `division by zero in "480 / (n - 2)" at column 5: "n - 2" is 0`) {
		t.Errorf("at n=2: fault %v", fr.fault)
	}
}

// TestExprAgreesWithExprVM checks the lowered closures give the values
// expr's own compiler and VM give, on expressions and random points.
func TestExprAgreesWithExprVM(t *testing.T) {
	srcs := []string{
		"(480 + 544) * d * n + 576 + 352",
		"n / d - 3 * (n + 1) / (d + 1)",
		"2 ^ (n / 3) - d ** 2",
		"-n + -d * -2",
		"ceil(n / d) + floor(d / n)",
		"min(n, d) * max(n, d, 3) - min(1, max(0, ceil(n - 23)))",
		"1 + ceil(max(0, 8 * n - 840) / 832)",
		"floor((116 - 4 - 9) / 8) * 8 + 9",
		"n - d - 1 - 2 * n / d / 2",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, src := range srcs {
		fn, err := compileTest(t, src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		for range 200 {
			n, d := math.Round(rng.Float64()*1000)/10+1, math.Round(rng.Float64()*1000)/10+1
			want := exprVM(t, src, n, d)
			got := fn(&frame{vals: []float64{n, d}})
			if !nearlyEqual(got, want) {
				t.Fatalf("%s at n=%v d=%v: closures %v, expr VM %v", src, n, d, got, want)
			}
		}
	}
}

// exprVM evaluates src with expr's compiler and VM, builtins limited as
// in model files.
func exprVM(t testing.TB, src string, n, d float64) float64 {
	t.Helper()
	env := map[string]any{"n": n, "d": d}
	p, err := expr.Compile(src, expr.Env(env), expr.DisableAllBuiltins(),
		expr.EnableBuiltin("min"), expr.EnableBuiltin("max"), expr.EnableBuiltin("ceil"), expr.EnableBuiltin("floor"))
	if err != nil {
		t.Fatalf("expr.Compile(%s): %v", src, err)
	}
	v, err := expr.Run(p, env)
	if err != nil {
		t.Fatalf("expr.Run(%s): %v", src, err)
	}
	switch v := v.(type) {
	case int:
		return float64(v)
	case float64:
		return v
	}
	t.Fatalf("expr.Run(%s) = %T", src, v)
	return 0
}

func nearlyEqual(a, b float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

// FuzzExpression: no input makes the parser, checker or closures panic,
// and whatever is accepted evaluates like expr's VM.
func FuzzExpression(f *testing.F) {
	for _, s := range []string{"(480 + 544) * d * n + 576", "ceil(n / d)", "min(n, 2, d)", "n ^ 2 - -d",
		"os.Exit(1)", `len("x")`, "n % 2", "1..3", "n.x", "[1][0]", "let x = 1; x", "n / (d - d)", "2 ** 3 ** 2"} {
		f.Add(s, 6.0, 2.5)
	}
	f.Fuzz(func(t *testing.T, src string, n, d float64) {
		fn, err := compileTest(t, src)
		if err != nil {
			return
		}
		if !finite(n) || !finite(d) {
			return
		}
		fr := &frame{vals: []float64{n, d}}
		got := fn(fr)
		if fr.fault != nil || !finite(got) || math.Abs(got) > 1e15 {
			return // expr's VM gives Inf for x/0 and wraps integer overflow
		}
		env := map[string]any{"n": n, "d": d}
		p, err := expr.Compile(src, expr.Env(env), expr.DisableAllBuiltins(),
			expr.EnableBuiltin("min"), expr.EnableBuiltin("max"), expr.EnableBuiltin("ceil"), expr.EnableBuiltin("floor"))
		if err != nil {
			t.Fatalf("accepted %q but expr.Compile refuses it: %v", src, err)
		}
		v, err := expr.Run(p, env)
		if err != nil {
			return
		}
		var want float64
		switch v := v.(type) {
		case int:
			want = float64(v)
		case float64:
			want = v
		default:
			t.Fatalf("%q: expr gives %T", src, v)
		}
		if math.Abs(want) < 1e15 && !nearlyEqual(got, want) && math.Abs(got-want) > 1e-9 {
			t.Fatalf("%q at n=%v d=%v: closures %v, expr VM %v", src, n, d, got, want)
		}
	})
}

const benchSrc = "((480 + 544) * n * d + 576 + 352 * n) * 0.000153 + max(d, 2) / 250000"

// BenchmarkExprClosure is the lowered form the model evaluator uses.
func BenchmarkExprClosure(b *testing.B) {
	fn, err := compileTest(b, benchSrc)
	if err != nil {
		b.Fatal(err)
	}
	fr := &frame{vals: []float64{6, 20}}
	var sink float64
	for i := 0; b.Loop(); i++ {
		fr.vals[0] = float64(i & 1023)
		sink += fn(fr)
	}
	_ = sink
}

// BenchmarkExprVM is the same expression in expr's VM, for comparison.
func BenchmarkExprVM(b *testing.B) {
	env := map[string]any{"n": 6.0, "d": 20.0}
	p, err := expr.Compile(benchSrc, expr.Env(env), expr.AsFloat64())
	if err != nil {
		b.Fatal(err)
	}
	var machine vm.VM
	for i := 0; b.Loop(); i++ {
		env["n"] = float64(i & 1023)
		if _, err := machine.Run(p, env); err != nil {
			b.Fatal(err)
		}
	}
}
