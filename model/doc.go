// Package model is cryptocost's analytic protocol cost models: what one
// node sends, receives and computes per unit of work (a synchronisation
// interval, a handshake, a reading), priced with a device's per-bit radio
// costs and per-operation costs, as functions of parameters.
//
// A model is a YAML file (docs/model.md is the reference): parameters
// with defaults, ranges and sources; definitions; message events (size in
// bits and count as expressions, direction, per-packet overhead, maximum
// payload and fragmentation, acknowledgements); operations priced from a
// cost table; variants; assumptions; and bindings of its outputs to
// measurements. Parse compiles one (errors carry file:line); Open finds a
// built-in one (secsywise, tinysersync, tls12-handshake, dtls12-802154,
// sensor-reading) or reads a file.
//
// Expressions are arithmetic only — numbers, names, + - * / ^, min, max,
// ceil, floor — parsed with github.com/expr-lang/expr, checked against
// that whitelist and lowered to closures compiled once (expr.go).
//
// Costs come from OpCostSource and BitCostSource values: a CostTable
// (a YAML file, or the built-in telosb), a bench run (RunCosts), or any
// other source implementing the two small interfaces (a device profile, a
// radio profile). NewPlan checks a model against its costs and the user's
// --set/--vary/--variant choices before any work; Plan.Run evaluates every
// point without allocating; Compare states where protocols cross in words;
// Plan.CompareMeasured sets outputs beside measurements. EvalRequest,
// SweepRequest and CompareRequest are model eval, sweep and compare: a
// command binds its flags to their fields and calls Check, then Run.
// Results use the shared result model (package result), every metric
// labelled modelled.
package model
