// Package energy turns measured seconds into joules, milliamps and battery
// life on real devices, and says for every figure how it was obtained.
//
// A device profile (Device) holds a device's CPU, supply voltage, the
// current or power it draws in each state (active, idle, sleep, ...), its
// battery, the names of its radios and per-operation costs measured on it
// by the literature; every number carries its source, and numbers nobody
// knows say "unknown" rather than being invented. Built-in profiles are
// YAML files in devices/ (embedded); users add their own with LoadFile
// (--device-file).
//
// The model is the studies' formula, E = V·I·t (S003 measured exactly
// this with a shunt resistor and an oscilloscope): the energy of an
// operation is the supply voltage times the current while it runs times
// its time, reported gross and net of the idle (or sleep) baseline, per
// operation and per byte. Annotate adds these figures to the results of a
// run; Lifetime does the battery arithmetic of a duty cycle (one operation
// every T, sleeping in between).
//
// A time measured on one machine does not describe another. When the
// device has no time of its own for an operation (a calibration from
// cryptocost run on it, or a literature figure), a time scaled from a
// reference is used only when an Estimator can derive the scale —
// from operations measured on both machines, from the device's own
// figures at another key size, or from the clock ratio of the same
// architecture — and every figure built on it is labelled "estimated"
// with the scale and its derivation. Options.NoEstimates refuses them.
//
// Live meters (RAPL, battery gauges) and imported traces are in package
// energy/meter.
package energy
