// Package costing is cryptocost's one costing stage: it turns what a
// runner recorded — CPU work (which scheme's operation ran how often on
// which input, and how long it took on the machine that ran it) and packet
// traces — into a device's time, joules and battery life. Every command
// that shows a figure for a device asks this package, so `bench --device`,
// `energy battery`, `model eval --device`, `tls --device`, `probe`, the
// scenarios and the report show the same value, label and source for the
// same (device, scheme, operation, size).
//
// # The device-time resolver
//
// A device's time for an operation comes from the first rung that has it
// (Resolve):
//
//  1. measured on the device: the run was made on it (cryptocost running
//     on the board, --on-device), so its own times are the device's;
//  2. simulated on the device's microcontroller: the profile names an mcu
//     target (the Arduino Uno's ATmega328P in simavr, whose cycles are
//     exact; the nRF52840's Cortex-M4 in QEMU, whose cycles are estimated
//     from exact instruction counts, so its times are labelled estimated)
//     and the target's simulated results have the operation (simulated.go,
//     data from `cryptocost mcu bench`); a signature's or key agreement's
//     time is not scaled by the message size, a hash's or cipher's is;
//  3. calibrated: cryptocost ran on the device earlier and `calibrate`
//     stored its times;
//  4. imported: the device's profile has the literature's figure for
//     exactly this scheme and operation (S003's mote verifications, S000's
//     per-byte energies on the N95), with its source;
//  5. estimated by one named rule (estimate.go): the ratio of a
//     calibration's times to this machine's, the clock ratio between
//     machines of the same architecture, the key-size power law fitted to
//     the device's own literature figures (microcontrollers), or, where a
//     profile opts in, this machine's time as a lower bound.
//
// When no rung applies, the answer is an error that says "not priced",
// why each rung did not apply, and what would price it — never a zero or
// a silent dash.
//
// # Energy, radio, battery
//
// Energy is E = V·I·t, gross and net of the device's baseline (idle or
// sleep) state (net = V·(I − I_base)·t, each quantity's interval once), with the current the profile gives for the operation
// (S001's signing currents) or the CPU-active current, unless the
// literature measured the operation's energy on the device, which is then
// used as it is (imported). A link's traffic is priced on the radio the
// device has for the link's technology (RadioFor: one rule; a device
// without such a radio is refused, naming the radios it has). Battery life
// is one function of the energy per event, the event period and the
// profile's battery (BatteryLife).
//
// Every figure carries an Interval: a measured time's confidence interval,
// a profile's range ("2.6–2.7 V", "2000–2500 mAh"), the spread between two
// estimation rules; intervals are propagated by interval arithmetic, so a
// battery life of "2107 d (1711–2736 d)" says how sure it is, and each
// bound can be recomputed by hand from the profile's numbers
// (docs/energy.md has worked examples, one per rung).
package costing
