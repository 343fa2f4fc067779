package bench_test

import (
	"context"
	"fmt"

	"github.com/cryptocost/cryptocost/bench"
)

// Measure one scheme's operation at one input size: the plan picks the
// points, Run checks the scheme's known-answer vectors before timing and
// returns results in the shared model (times vary, so the example prints
// what was measured, not how fast).
func ExampleRun() {
	plan, err := bench.NewPlan(bench.Options{Algos: []string{"SHA-256"}, Providers: []string{"go"}, Sizes: []int{64}, Quick: true})
	if err != nil {
		panic(err)
	}
	run := bench.Run(context.Background(), plan, bench.RunConfig{Quick: true, NoCycles: true}, nil)
	for _, r := range run.Results {
		t := r.Metric("time")
		fmt.Println(r.Subject.Name, t.Unit, t.Label, r.Provenance.Verified != "")
	}
	fmt.Println(run.Status)
	// Output:
	// SHA-256@go/hash/64 s measured true
	// complete
}
