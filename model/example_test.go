package model_test

import (
	"context"
	"fmt"

	"github.com/cryptocost/cryptocost/model"
)

// Evaluate a built-in model at two densities, priced with its default cost
// table.
func Example() {
	m, err := model.Open("tinysersync")
	if err != nil {
		panic(err)
	}
	table, err := model.OpenCosts(m.DefaultCosts)
	if err != nil {
		panic(err)
	}
	plan, err := model.NewPlan(m, table.Costs(), model.Options{
		Vary:     []model.Vary{{Param: "n", Values: []float64{2, 14}}},
		Variants: []string{"d=20"},
	})
	if err != nil {
		panic(err)
	}
	plan.Run(context.Background(), func(pt *model.Point, out *model.Outputs) error {
		fmt.Printf("%s: %.6f mJ, %.3f ms\n", plan.SubjectName(pt), out.EnergyTotal()*1e3, out.TimeTotal()*1e3)
		return nil
	})
	// Output:
	// tinysersync/d=20/n=2: 16.085280 mJ, 338.816 ms
	// tinysersync/d=20/n=14: 111.745056 mJ, 2349.440 ms
}

// A model of your own: parse it, price it with a cost table, evaluate it.
func ExampleParse() {
	m, err := model.Parse("beacon.yaml", []byte(`
name: beacon
parameters: {period: {default: 60, unit: s}}
messages:
  - {name: beacon, dir: send, bits: 8 * (20 + 64), count: 3600 / period, overhead: 8 * 17}
operations:
  - {name: sign, cost: Ed25519/sign, count: 3600 / period}
`))
	if err != nil {
		panic(err)
	}
	table, err := model.ParseCostTable("board.yaml", []byte(`
name: board
radio: {bit_rate: "250 kbit/s [datasheet]", tx_energy_per_bit: "0.2 µJ/bit [datasheet]", rx_energy_per_bit: "0.2 µJ/bit [datasheet]"}
operations:
  Ed25519/sign: {time: "100 ms [measured]", energy: "1 mJ [measured]"}
`))
	if err != nil {
		panic(err)
	}
	plan, err := model.NewPlan(m, table.Costs(), model.Options{})
	if err != nil {
		panic(err)
	}
	plan.Run(context.Background(), func(pt *model.Point, out *model.Outputs) error {
		// 60 beacons × (672 + 136) bits × 0.2 µJ + 60 × 1 mJ
		fmt.Printf("%.0f bits, %.3f mJ per hour\n", out.BitsSent, out.EnergyTotal()*1e3)
		return nil
	})
	// Output: 48480 bits, 69.696 mJ per hour
}
