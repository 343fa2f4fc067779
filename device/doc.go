// Package device holds the device profiles cryptocost prices work on: a
// device's CPU, supply voltage, the current or power it draws in each
// state (active, idle, sleep, ...), its battery, its radios, the
// microcontroller target that simulates its CPU, and per-operation costs
// measured on it by the literature. Every number carries its source
// (catalog.Quantity, with a range where the source gives one: "2.6–2.7 V
// [S003]"); numbers nobody knows say "unknown" rather than being invented.
// Built-in profiles are YAML files in devices/ (embedded); users add their
// own with LoadFile (--device-file).
//
// A profile is data. What a figure on a device is — a time resolved
// through the precedence of measured, simulated, calibrated, imported and
// estimated, and the joules and battery life built on it — is package
// costing's; runners (bench, tlslab, probe, mcu, the scenarios) import
// neither package, so one observation can be priced for any device.
package device
