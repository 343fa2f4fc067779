package model

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
)

// The expression language of model files: numbers, names of parameters and
// definitions, + - * / ^ (or **), unary minus, parentheses, and the
// functions min, max, ceil and floor. Nothing else: no strings, booleans,
// comparisons, conditionals, member access, indexing, other functions or
// builtins, so a model file cannot run code.
//
// Expressions are parsed by github.com/expr-lang/expr's parser (its grammar,
// precedence and error positions), every node of the tree is checked
// against that whitelist, and the tree is then lowered to a tree of Go
// closures over float64 slots. expr's own VM evaluates over `any` values
// and looks names up in a map: BenchmarkExprVM against
// BenchmarkExprClosure (expr_test.go) measured it 8–16 times slower on
// the reference machine (docs/model.md, section 11), and a sweep evaluates
// a dozen expressions per point for millions of points. The lowering also
// lets a division by zero name the divisor that was zero, where expr's VM
// yields +Inf. TestExprAgreesWithExprVM and FuzzExpression check both give
// the same values.

// exprFuncs are the functions expressions may call, with their arity
// (-2: two or more arguments).
var exprFuncs = map[string]int{"min": -2, "max": -2, "ceil": 1, "floor": 1}

// exprOps are the binary operators expressions may use.
var exprOps = map[string]bool{"+": true, "-": true, "*": true, "/": true, "^": true, "**": true}

// maxExprNodes and maxExprLen bound what a (possibly hostile) model file can
// make the parser and evaluator do.
const (
	maxExprNodes = 400
	maxExprLen   = 4000
)

// allowedHelp is appended to errors about what an expression may not do.
const allowedHelp = "expressions may use numbers, parameter and definition names, + - * / ^, parentheses, and min, max, ceil, floor"

// nameRE is what a parameter or definition name must look like.
var nameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// reservedNames cannot be parameter or definition names: they are the
// expression functions and expr's keywords and literals.
var reservedNames = map[string]bool{
	"min": true, "max": true, "ceil": true, "floor": true,
	"true": true, "false": true, "nil": true, "not": true, "and": true, "or": true,
	"in": true, "matches": true, "contains": true, "startsWith": true, "endsWith": true,
	"let": true, "if": true, "else": true,
}

// checkName reports whether s can name a parameter or definition.
func checkName(s string) error {
	if !nameRE.MatchString(s) {
		return fmt.Errorf("bad name %q: want a letter or _ followed by letters, digits or _ (such as n or sig_bits)", s)
	}
	if reservedNames[s] {
		return fmt.Errorf("%q is reserved (a function or keyword of the expression language): choose another name", s)
	}
	return nil
}

// ExprError is an expression that cannot be compiled: a syntax error, a
// construct outside the language, or an unknown name.
type ExprError struct {
	Expr   string
	Column int // 1-based, in runes; 0 when unknown
	Msg    string
}

func (e *ExprError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("in %q at column %d: %s", e.Expr, e.Column, e.Msg)
	}
	return fmt.Sprintf("in %q: %s", e.Expr, e.Msg)
}

// expression is a parsed, checked expression, not yet bound to slots.
type expression struct {
	src  string
	tree ast.Node
	// names are the identifiers it refers to, in order of first use.
	names []string
}

// parserConfig disables every builtin but the four functions and expr's
// if/else syntax, and bounds the tree size.
func parserConfig() *conf.Config {
	c := conf.CreateNew()
	for name := range c.Builtins {
		if _, ok := exprFuncs[name]; !ok {
			c.Disabled[name] = true
		}
	}
	c.DisableIfOperator = true
	c.MaxNodes = maxExprNodes
	return c
}

// parseExpression parses and checks src. Numbers in YAML arrive here as
// their text.
func parseExpression(src string) (*expression, error) {
	if strings.TrimSpace(src) == "" {
		return nil, &ExprError{Expr: src, Msg: "empty expression: write a number or a formula such as 8 * payload_bytes"}
	}
	if len(src) > maxExprLen {
		return nil, &ExprError{Expr: src[:40] + "...", Msg: fmt.Sprintf("expression longer than %d characters", maxExprLen)}
	}
	tree, err := parser.ParseWithConfig(src, parserConfig())
	if err != nil {
		var fe *file.Error
		if errors.As(err, &fe) {
			return nil, &ExprError{Expr: src, Column: fe.From + 1, Msg: fe.Message}
		}
		return nil, &ExprError{Expr: src, Msg: err.Error()}
	}
	e := &expression{src: src, tree: tree.Node}
	if err := e.check(tree.Node); err != nil {
		return nil, err
	}
	return e, nil
}

// check walks the tree and refuses every node outside the language.
func (e *expression) check(n ast.Node) error {
	bad := func(format string, args ...any) error {
		return &ExprError{Expr: e.src, Column: n.Location().From + 1,
			Msg: fmt.Sprintf(format, args...) + ": " + allowedHelp}
	}
	switch n := n.(type) {
	case *ast.IntegerNode, *ast.FloatNode:
		return nil
	case *ast.IdentifierNode:
		if !slices.Contains(e.names, n.Value) {
			e.names = append(e.names, n.Value)
		}
		return nil
	case *ast.UnaryNode:
		if n.Operator != "-" && n.Operator != "+" {
			return bad("operator %q is not allowed", n.Operator)
		}
		return e.check(n.Node)
	case *ast.BinaryNode:
		if !exprOps[n.Operator] {
			if n.Operator == "%" {
				return bad("operator %% is not allowed (use x - y * floor(x / y))")
			}
			return bad("operator %q is not allowed", n.Operator)
		}
		if err := e.check(n.Left); err != nil {
			return err
		}
		return e.check(n.Right)
	case *ast.BuiltinNode:
		arity, ok := exprFuncs[n.Name]
		if !ok {
			return bad("function %s is not available", n.Name)
		}
		if arity == -2 && len(n.Arguments) < 2 {
			return bad("%s needs two or more arguments", n.Name)
		}
		if arity > 0 && len(n.Arguments) != arity {
			return bad("%s takes exactly %d argument", n.Name, arity)
		}
		for _, a := range n.Arguments {
			if err := e.check(a); err != nil {
				return err
			}
		}
		return nil
	case *ast.CallNode:
		if id, ok := n.Callee.(*ast.IdentifierNode); ok {
			return bad("function %s is not available", id.Value)
		}
		return bad("calls are not allowed")
	case *ast.MemberNode, *ast.ChainNode:
		return bad("member access (.) and indexing ([]) are not allowed")
	case *ast.StringNode, *ast.BytesNode:
		return bad("strings are not allowed")
	case *ast.BoolNode, *ast.NilNode:
		return bad("%s is not a number", n.String())
	case *ast.ConditionalNode:
		return bad("conditionals are not allowed (min and max often express the same)")
	case *ast.VariableDeclaratorNode, *ast.SequenceNode:
		return bad("let and ; are not allowed (use the definitions section)")
	default:
		return bad("%T is not allowed", n)
	}
}

// evalFn computes a node's value from a frame.
type evalFn func(*frame) float64

// frame is the state of one evaluation: the value of every slot and the
// first fault (a division by zero) met on the way.
type frame struct {
	vals  []float64
	fault *fault
}

// num is f's value in fr: a formula that is one name is read in place,
// any other goes through its closure.
func (fr *frame) num(f *Formula) float64 {
	if f.direct > 0 {
		return fr.vals[f.direct-1]
	}
	return f.fn(fr)
}

// fault is a division by zero: which expression and which divisor.
type fault struct {
	src     string
	column  int
	divisor string
}

func (f *fault) Error() string {
	return fmt.Sprintf("division by zero in %q at column %d: %s is 0", f.src, f.column, f.divisor)
}

// compile lowers e to closures, resolving each name to a slot. Constant
// subtrees are folded; a constant division by zero is an error here.
func (e *expression) compile(slot func(name string) int) (evalFn, error) {
	fn, _, err := e.lower(e.tree, slot)
	return fn, err
}

// lower returns the closure for n and, if n is constant, its value.
func (e *expression) lower(n ast.Node, slot func(string) int) (evalFn, *float64, error) {
	constant := func(v float64) (evalFn, *float64, error) {
		return func(*frame) float64 { return v }, &v, nil
	}
	switch n := n.(type) {
	case *ast.IntegerNode:
		return constant(float64(n.Value))
	case *ast.FloatNode:
		return constant(n.Value)
	case *ast.IdentifierNode:
		i := slot(n.Value)
		if i < 0 {
			return nil, nil, &ExprError{Expr: e.src, Column: n.Location().From + 1, Msg: "unknown name " + n.Value}
		}
		return func(f *frame) float64 { return f.vals[i] }, nil, nil
	case *ast.UnaryNode:
		x, c, err := e.lower(n.Node, slot)
		if err != nil || n.Operator == "+" {
			return x, c, err
		}
		if c != nil {
			return constant(-*c)
		}
		return func(f *frame) float64 { return -x(f) }, nil, nil
	case *ast.BinaryNode:
		l, lc, err := e.lower(n.Left, slot)
		if err != nil {
			return nil, nil, err
		}
		r, rc, err := e.lower(n.Right, slot)
		if err != nil {
			return nil, nil, err
		}
		if n.Operator == "/" {
			flt := &fault{src: e.src, column: n.Location().From + 1, divisor: strconv.Quote(n.Right.String())}
			if rc != nil && *rc == 0 {
				return nil, nil, flt
			}
			if lc != nil && rc != nil {
				return constant(*lc / *rc)
			}
			if rc != nil { // a constant divisor, not 0: nothing to check
				c := *rc
				if i := e.slotOf(n.Left, slot); i >= 0 {
					return func(f *frame) float64 { return f.vals[i] / c }, nil, nil
				}
				return func(f *frame) float64 { return l(f) / c }, nil, nil
			}
			return func(f *frame) float64 {
				d := r(f)
				if d == 0 {
					if f.fault == nil {
						f.fault = flt
					}
					return math.NaN()
				}
				return l(f) / d
			}, nil, nil
		}
		op := binaryOps[n.Operator]
		if lc != nil && rc != nil {
			return constant(op.fold(*lc, *rc))
		}
		if op.operands != nil {
			return op.operands(e.operand(n.Left, l, lc, slot), e.operand(n.Right, r, rc, slot)), nil, nil
		}
		return op.closure(l, r), nil, nil
	case *ast.BuiltinNode:
		args := make([]evalFn, len(n.Arguments))
		consts := make([]float64, 0, len(n.Arguments))
		for i, a := range n.Arguments {
			fn, c, err := e.lower(a, slot)
			if err != nil {
				return nil, nil, err
			}
			args[i] = fn
			if c != nil {
				consts = append(consts, *c)
			}
		}
		fold, build := builtinFuncs[n.Name].fold, builtinFuncs[n.Name].closure
		if len(consts) == len(args) {
			return constant(fold(consts))
		}
		return build(args), nil, nil
	}
	// check() admits no other node.
	return nil, nil, &ExprError{Expr: e.src, Msg: fmt.Sprintf("internal: unchecked node %T", n)}
}

type binaryOp struct {
	fold func(a, b float64) float64
	// operands builds the closure from the operands' kinds; closure from
	// the operands' closures, for the operators without operands.
	operands func(l, r operand) evalFn
	closure  func(l, r evalFn) evalFn
}

var binaryOps = map[string]binaryOp{
	"+": {fold: func(a, b float64) float64 { return a + b }, operands: addFn},
	"-": {fold: func(a, b float64) float64 { return a - b }, operands: subFn},
	"*": {fold: func(a, b float64) float64 { return a * b }, operands: mulFn},
	"^": {fold: math.Pow,
		closure: func(l, r evalFn) evalFn { return func(f *frame) float64 { return math.Pow(l(f), r(f)) } }},
	"**": {fold: math.Pow,
		closure: func(l, r evalFn) evalFn { return func(f *frame) float64 { return math.Pow(l(f), r(f)) } }},
}

// operand is one side of a binary operation, as the specialised closures
// of + − × see it: a slot read in place (slot ≥ 0), a constant, or a
// closure. A sweep's formulas are mostly products and sums of names and
// numbers (d * n, 3 * n + 1); reading them in place instead of through
// one closure call each halved an evaluation's calls. The arithmetic,
// and its order, is the same.
type operand struct {
	fn       evalFn
	slot     int
	constant bool
	value    float64
}

// operand describes the lowered node n (fn, and c when constant).
func (e *expression) operand(n ast.Node, fn evalFn, c *float64, slot func(string) int) operand {
	o := operand{fn: fn, slot: e.slotOf(n, slot)}
	if c != nil {
		o.constant, o.value = true, *c
	}
	return o
}

// bareName is the name e consists of, or "" if e is more than a name.
func (e *expression) bareName() string {
	if id, ok := e.tree.(*ast.IdentifierNode); ok {
		return id.Value
	}
	return ""
}

// slotOf is the slot of n if n is a name, else −1.
func (e *expression) slotOf(n ast.Node, slot func(string) int) int {
	if id, ok := n.(*ast.IdentifierNode); ok {
		return slot(id.Value)
	}
	return -1
}

// addFn is l + r for the operands' kinds.
func addFn(l, r operand) evalFn {
	switch i, j, a, b := l.slot, r.slot, l.fn, r.fn; {
	case i >= 0 && j >= 0:
		return func(f *frame) float64 { return f.vals[i] + f.vals[j] }
	case i >= 0 && r.constant:
		c := r.value
		return func(f *frame) float64 { return f.vals[i] + c }
	case l.constant && j >= 0:
		c := l.value
		return func(f *frame) float64 { return c + f.vals[j] }
	case i >= 0:
		return func(f *frame) float64 { return f.vals[i] + b(f) }
	case j >= 0:
		return func(f *frame) float64 { return a(f) + f.vals[j] }
	case l.constant:
		c := l.value
		return func(f *frame) float64 { return c + b(f) }
	case r.constant:
		c := r.value
		return func(f *frame) float64 { return a(f) + c }
	default:
		return func(f *frame) float64 { return a(f) + b(f) }
	}
}

// subFn is l - r for the operands' kinds.
func subFn(l, r operand) evalFn {
	switch i, j, a, b := l.slot, r.slot, l.fn, r.fn; {
	case i >= 0 && j >= 0:
		return func(f *frame) float64 { return f.vals[i] - f.vals[j] }
	case i >= 0 && r.constant:
		c := r.value
		return func(f *frame) float64 { return f.vals[i] - c }
	case l.constant && j >= 0:
		c := l.value
		return func(f *frame) float64 { return c - f.vals[j] }
	case i >= 0:
		return func(f *frame) float64 { return f.vals[i] - b(f) }
	case j >= 0:
		return func(f *frame) float64 { return a(f) - f.vals[j] }
	case l.constant:
		c := l.value
		return func(f *frame) float64 { return c - b(f) }
	case r.constant:
		c := r.value
		return func(f *frame) float64 { return a(f) - c }
	default:
		return func(f *frame) float64 { return a(f) - b(f) }
	}
}

// mulFn is l * r for the operands' kinds.
func mulFn(l, r operand) evalFn {
	switch i, j, a, b := l.slot, r.slot, l.fn, r.fn; {
	case i >= 0 && j >= 0:
		return func(f *frame) float64 { return f.vals[i] * f.vals[j] }
	case i >= 0 && r.constant:
		c := r.value
		return func(f *frame) float64 { return f.vals[i] * c }
	case l.constant && j >= 0:
		c := l.value
		return func(f *frame) float64 { return c * f.vals[j] }
	case i >= 0:
		return func(f *frame) float64 { return f.vals[i] * b(f) }
	case j >= 0:
		return func(f *frame) float64 { return a(f) * f.vals[j] }
	case l.constant:
		c := l.value
		return func(f *frame) float64 { return c * b(f) }
	case r.constant:
		c := r.value
		return func(f *frame) float64 { return a(f) * c }
	default:
		return func(f *frame) float64 { return a(f) * b(f) }
	}
}

type builtinFunc struct {
	fold    func([]float64) float64
	closure func([]evalFn) evalFn
}

var builtinFuncs = map[string]builtinFunc{
	"ceil": {func(v []float64) float64 { return math.Ceil(v[0]) },
		func(a []evalFn) evalFn { x := a[0]; return func(f *frame) float64 { return math.Ceil(x(f)) } }},
	"floor": {func(v []float64) float64 { return math.Floor(v[0]) },
		func(a []evalFn) evalFn { x := a[0]; return func(f *frame) float64 { return math.Floor(x(f)) } }},
	"min": {func(v []float64) float64 { return slices.Min(v) }, reduce(math.Min)},
	"max": {func(v []float64) float64 { return slices.Max(v) }, reduce(math.Max)},
}

// reduce builds min or max over the argument closures; two arguments, the
// common case, get their own closure.
func reduce(op func(a, b float64) float64) func([]evalFn) evalFn {
	return func(a []evalFn) evalFn {
		if len(a) == 2 {
			x, y := a[0], a[1]
			return func(f *frame) float64 { return op(x(f), y(f)) }
		}
		return func(f *frame) float64 {
			v := a[0](f)
			for _, g := range a[1:] {
				v = op(v, g(f))
			}
			return v
		}
	}
}
