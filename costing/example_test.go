package costing_test

import (
	"fmt"
	"time"

	"github.com/cryptocost/cryptocost/costing"
	"github.com/cryptocost/cryptocost/device"
)

// The device-time resolver on a TelosB: an RSA-2048 verification is in
// the profile (S003 measured it on the mote), so the answer is imported;
// an ECDSA P-256 signature is not, so it is estimated by the key-size
// power law fitted on TinyECC's two smaller curves.
func ExamplePricer_Resolve() {
	telosb, err := device.Lookup("telosb")
	if err != nil {
		panic(err)
	}
	p := &costing.Pricer{Device: telosb}
	for _, op := range []costing.Op{
		{Scheme: "RSA-2048-PKCS1v15-SHA256", Operation: "verify"},
		{Scheme: "ECDSA-P256-SHA256", Operation: "sign"},
	} {
		c, err := p.Resolve(op)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: %.4g s, %s (%s)\n", op.Name(), c.Seconds.V, c.Label, c.Rung)
	}
	// Output:
	// RSA-2048-PKCS1v15-SHA256 verify: 5.919 s, imported (imported from the literature)
	// ECDSA-P256-SHA256 sign: 13.17 s, estimated (estimated)
}

// Energy and battery life of one signature every ten minutes on the
// TelosB, with the interval its profile's ranges allow (2.6–2.7 V,
// 2000–2500 mAh).
func ExamplePricer_OpEnergy() {
	telosb, _ := device.Lookup("telosb")
	p := &costing.Pricer{Device: telosb}
	e, err := p.OpEnergy(costing.Op{Scheme: "ECDSA-P256-SHA256", Operation: "sign"})
	if err != nil {
		panic(err)
	}
	// E = V·I·t at one current: the event's charge is I·t.
	life, err := costing.Battery{Device: telosb, Period: 10 * time.Minute, EventJoules: e.Gross, EventSeconds: *e.Cost.Seconds,
		EventAmps: &e.Power.Amps}.Life()
	if err != nil {
		panic(err)
	}
	fmt.Printf("energy %.4g mJ (%.4g–%.4g mJ)\n", e.Gross.V*1e3, e.Gross.Lo*1e3, e.Gross.Hi*1e3)
	fmt.Printf("battery life %.0f days (%.0f–%.0f days)\n", life.Seconds.V/86400, life.Seconds.Lo/86400, life.Seconds.Hi/86400)
	// Output:
	// energy 62.81 mJ (61.62–77.13 mJ)
	// battery life 2107 days (1585–2341 days)
}
